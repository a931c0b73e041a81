"""Titans against a player: threatening titans drawn (or drafted) each round, the damage
dice a defeated or confronted titan rolls, and what each face and titan effect does."""

from __future__ import annotations

from typing import Any

from .pieces import is_damaged, set_flag, set_tok, tok
from .rules import NONE
from .table import Table


class Titans(Table):
    """Drawing threatening titans and suffering their damage."""

    def titan_pile(self, stars: int, piles: dict[str, list] | None = None) -> str | None:
        """The pile to draw from: the round's, else the next highest, else the next lower
        (of `piles` when given: the piles as a draft's offer leaves them)."""
        order = list(range(stars, 4)) + list(range(stars - 1, 0, -1))
        for s in order:
            if piles[f"titans-{s}"] if piles is not None else self.zone(f"titans-{s}"):
                return f"titans-{s}"
        return None

    @staticmethod
    def draw_index(cards: list) -> int:
        """A face-down card below the face-up top, unless the top is the last card."""
        return 1 if len(cards) > 1 and cards[0].face_up else 0

    def draw_one(self, pile: str, seat: int) -> Any:
        """A titan from the pile to threaten `seat`."""
        card = self.mover.take(pile, self.draw_index(self.zone(pile)), ("threat", seat),
                               "a threatening titan", seat)
        card.face_up = None
        return card

    def draw_titans(self, rnd: int) -> None:
        stars = self.rule("titans", "deck_by_round")[rnd - 1]
        needy = [s for s in self.order() if not self.zone("threat", s)]
        if not needy or stars < 1:
            return
        if self.rule("titans", "draft"):
            # the offer: one titan per needy seat, drawn as draw_one would; each stays in its
            # pile until a seat chooses it
            piles = {f"titans-{s}": list(self.zone(f"titans-{s}")) for s in (1, 2, 3)}
            offer = []
            for _ in needy:
                pile = self.titan_pile(stars, piles)
                if pile:
                    offer.append((pile, piles[pile].pop(self.draw_index(piles[pile]))))
            for seat in needy:
                if not offer:
                    break
                opts = [f"titan:{c.uid}" for _, c in offer]
                est = {o: self.r.estimate({"victory-points": -self.r.f(c.card, "defence") / 3})
                       for o, (_, c) in zip(opts, offer, strict=True)}
                pick = self.choose(seat, opts, "choose a threatening titan", est,
                                   self.by_card((o, c) for o, (_, c) in
                                                 zip(opts, offer, strict=True)))
                pile, card = offer.pop(opts.index(pick))
                self.mover.move(card, pile, ("threat", seat), "a drafted threatening titan",
                                seat)
                card.face_up = None
            return
        for seat in needy:
            pile = self.titan_pile(stars)
            if pile:
                self.draw_one(pile, seat)

    def damage_roll(self, seat: int, titan: str, at_end: bool) -> None:
        assert self.ctx is not None
        n = len(self.r.f(titan, "banners") or ())
        faces = [self.ctx.roll_face(self.r.faces, "damage die", seat) for _ in range(n)]
        rerolls = sum(1 for c in self.zone("empire", seat)
                      if not is_damaged(c) and self.r.f(c.card, "ability") == "reroll-damage")
        for _ in range(rerolls):
            bad = sorted({i for i, x in enumerate(faces) if x != "blank"})
            if not bad:
                break
            opts = [NONE] + [f"reroll:{i}" for i in bad]
            est = {o: self.r.estimate({"victory-points": 0.5}) for o in opts[1:]}
            pick = self.choose(seat, opts, "reroll a damage die", est)
            if pick == NONE:
                break
            i = int(pick[7:])
            faces[i] = self.ctx.roll_face(self.r.faces, "damage die reroll", seat)
            self.event("damage-reroll", seat)
        for face in faces:
            self.event(f"damage-{face}", seat)
            if face == "titan":
                self.damage_empire(seat)
            elif face == "coin":
                if self.rule("attack", "coin_face") == "lose-coin":
                    self.gain(seat, "coins", -1)
                else:
                    self.titan_effect(seat, titan, at_end)

    def damage_empire(self, seat: int) -> None:
        cards = [c for c in self.zone("empire", seat) if not is_damaged(c)]
        if not cards:
            return
        opts = [f"damage:{c.uid}" for c in cards]
        est = {f"damage:{c.uid}": self.r.estimate({"victory-points": -self.card_value(seat, c.card)[
            "victory-points"] / 3}) for c in cards}
        pick = self.choose(seat, opts, "damage an empire card", est,
                           self.by_card(zip(opts, cards, strict=True)))
        set_flag(cards[opts.index(pick)], "damaged")
        self.check_armies(seat)

    def check_armies(self, seat: int) -> None:
        """Armies beyond the limit are discarded whole, retired cards included."""
        while len(self.armies(seat)) > self.army_limit(seat):
            armies = self.armies(seat)
            opts = [f"disband:{i}" for i in sorted(armies)]
            pick = self.choose(seat, opts, "discard an army over the limit")
            for c in armies[int(pick[8:])]:
                self.discard_military(seat, c)
            self.event("army-disbanded", seat)

    def discard_military(self, seat: int, c: Any) -> None:
        self.st.supply["coins"] += tok(c, "name") + tok(c, "picture")
        c.tokens = None
        c.flags = None
        self.mover.move(c, ("armies", seat), "military-discard", "discard a military card", seat)

    def titan_effect(self, seat: int, titan: str, at_end: bool) -> None:
        f = self.r.f
        effect = f(titan, "damage")
        amount = f(titan, "damage_amount") or 1
        self.event(f"titan-effect-{effect}", seat)
        if effect == "lose-coin":
            self.gain(seat, "coins", -amount)
        elif effect == "lose-ambrosia":
            self.gain(seat, "ambrosia", -amount)
        elif effect == "starve-citizen":
            ready = [c for c in self.cits(seat) if c[1] == "ready"]
            if ready and not at_end:
                opts = [f"starve:{c[0]}" for c in ready]
                pick = self.choose(seat, opts, "a ready citizen starves")
                next(c for c in ready if c[0] == int(pick[7:]))[1] = "starving"
        elif effect == "coin-on-army":
            act = self.actives(seat)
            if act:
                opts = [f"coin:{c.uid}" for c in act]
                pick = self.choose(seat, opts, "put a coin on an army",
                                   names=self.by_card(zip(opts, act, strict=True)))
                c = act[opts.index(pick)]
                set_tok(c, "picture", tok(c, "picture") + 1)
                self.st.supply["coins"] -= 1
        elif effect == "discard-military":
            act = self.actives(seat)
            if act:
                opts = [f"discard:{c.uid}" for c in act]
                pick = self.choose(seat, opts, "discard a military card",
                                   names=self.by_card(zip(opts, act, strict=True)))
                self.discard_military(seat, act[opts.index(pick)])
        elif effect == "discard-stored":
            self.mover.draw_to(("stored", seat), len(self.zone("stored", seat)),
                               "empire-discard", "a titan discards the stored cards", seat)
        elif effect == "discard-district":
            ds = [c for c in self.zone("lands", seat) if self.r.deck_of[c.card] == "districts"]
            if ds:
                opts = [f"district:{c.uid}" for c in ds]
                pick = self.choose(seat, opts, "discard a district",
                                   names=self.by_card(zip(opts, ds, strict=True)))
                c = ds[opts.index(pick)]
                self.mover.move(c, ("lands", seat), "box", "a titan takes a district", seat)
                self.check_armies(seat)
