"""Empire card actions: a citizen placed on a card's action, what each action does, and
borrowing another player's."""

from __future__ import annotations

from .pieces import is_damaged, set_tok, tok
from .rules import NONE, has_action
from .table import Table


class CardActions(Table):
    """Actions printed on empire cards."""

    def card_estimate(self, seat: int, cid: str) -> dict[str, float] | None:
        f = self.r.cards[cid]
        e = {"coins": float(f.get("act_coins", 0)), "knowledge": float(f.get("act_knowledge", 0))}
        ab = f.get("ability")
        if ab == "action-coin-per-food":
            e["coins"] += self.food(seat)
        if f.get("act_repair"):
            e["victory-points"] = 1.0 if any(is_damaged(c) for c in self.zone("empire", seat)) else 0.0
        if ab == "action-clear-military":
            coins = max((tok(c, "picture") + tok(c, "name") for c in self.actives(seat)), default=0)
            e["coins"] += coins
        if ab == "action-explore":
            e["victory-points"] = 0.6
        if ab == "borrow-action":
            if not self.borrowable(seat):
                return None
            e["coins"] += 1.0
        if ab == "action-titan-scout":
            e["victory-points"] = 0.5
        return e

    def rearrange_top(self, seat: int, pile: str, n: int) -> None:
        """Forest Hideout: take the top n cards of a pile and put them back in the order the
        player chooses, one place at a time from the top (`top:UID`); the last goes where
        it must."""
        left = self.zone(pile)[:n]
        for c in left:
            c.face_up = None
        order = []
        while left:
            opts = [f"top:{c.uid}" for c in left]
            est = {f"top:{c.uid}": self.r.estimate({"victory-points": -self.r.f(c.card, "defence")
                                             / (4 * (len(order) + 1))}) for c in left}
            pick = self.choose(seat, opts, f"Forest Hideout: the titan for place {len(order) + 1}",
                               est, self.by_card(zip(opts, left, strict=True)))
            order.append(left.pop(opts.index(pick)))
        for c in reversed(order):  # the first chosen ends on top
            self.mover.move(c, pile, pile, "Forest Hideout: rearrange the top titans", seat,
                            top=True)

    def borrowable(self, seat: int) -> list:
        return [c for o in range(self.n) if o != seat for c in self.zone("empire", o)
                if not is_damaged(c) and has_action(self.r, c.card)
                and self.r.f(c.card, "ability") not in ("borrow-action",)]

    def card_action(self, seat: int, arg: str) -> None:
        uid_s, skill_s = arg.split("/")
        card = next(c for c in self.zone("empire", seat) if c.uid == int(uid_s))
        cit = next(c for c in self.cits(seat) if c[0] == int(skill_s))
        cit[1] = f"card:{card.uid}"
        set_tok(card, "occupied", 1)
        self.cover("card-action", card.card)
        self.card_effect(seat, card.card)

    def card_effect(self, seat: int, cid: str) -> None:
        f = self.r.cards[cid]
        if f.get("act_coins"):
            self.gain(seat, "coins", f["act_coins"])
        if f.get("act_knowledge"):
            self.gain(seat, "knowledge", f["act_knowledge"])
        if f.get("act_repair"):
            self.repair_some(seat, f["act_repair"], self.r.f(cid, "name") or cid)
        ab = f.get("ability")
        if ab == "action-coin-per-food":
            self.gain(seat, "coins", self.food(seat))
        elif ab == "action-explore":
            self.do_explore(seat)
        elif ab == "action-first-player":
            self.claim_first(seat)
        elif ab == "action-clear-military":
            cards = [c for c in self.zone("armies", seat) if tok(c, "name") + tok(c, "picture")]
            if cards:
                opts = [f"clear:{c.uid}" for c in cards]
                est = {f"clear:{c.uid}": self.r.estimate(
                    {"coins": float(tok(c, "name") + tok(c, "picture"))}) for c in cards}
                pick = self.choose(seat, opts, "Holy Site: clear a military card", est,
                                   self.by_card(zip(opts, cards, strict=True)))
                c = cards[opts.index(pick)]
                self.st.supply["coins"] += tok(c, "name") + tok(c, "picture")
                set_tok(c, "name", 0)
                set_tok(c, "picture", 0)
        elif ab == "borrow-action":
            cards = self.borrowable(seat)
            if cards:
                opts = [f"borrow:{c.uid}" for c in cards]
                est = {f"borrow:{c.uid}": self.r.estimate(self.card_estimate(seat, c.card) or {})
                       for c in cards}
                pick = self.choose(seat, opts, "use another player's card action", est,
                                   self.by_card(zip(opts, cards, strict=True)))
                self.event("borrow-action", seat)
                self.card_effect(seat, cards[opts.index(pick)].card)
        elif ab == "action-titan-scout":
            piles = [f"titans-{s}" for s in (1, 2, 3) if self.zone(f"titans-{s}")]
            if not piles:
                return
            pile = self.choose(seat, piles, "Forest Hideout: look at a titan pile")
            self.rearrange_top(seat, pile, 4)
            self.flip_top(pile)
            self.event("titan-scout", seat)
            attacks = [(o, e) for o, e in self.attack_options(seat) if o.split(":")[1] == pile]
            if attacks:
                opts2 = [NONE] + [o for o, _ in attacks]
                pick2 = self.choose(seat, opts2, "Forest Hideout: attack the top titan",
                                    dict(attacks))
                if pick2 != NONE:
                    self.attack(seat, pick2.split(":", 1)[1])
