"""Titans against a player: threatening titans drawn (or drafted) each round, the damage
dice a defeated or confronted titan rolls, and what each face and titan effect does."""

from __future__ import annotations

from typing import Any

from pnp.engine.api import Estimate

from .pieces import is_damaged, set_flag, set_tok, tok
from .rules import NONE
from .table import Table


class Titans(Table):
    """Drawing threatening titans and suffering their damage."""

    def titan_pile(self, stars: int) -> str | None:
        """The pile to draw from: the round's, else the next highest, else the next lower."""
        order = list(range(stars, 4)) + list(range(stars - 1, 0, -1))
        for s in order:
            if self.zone(f"titans-{s}"):
                return f"titans-{s}"
        return None

    def draw_one(self, pile: str) -> Any:
        """A face-down card below the face-up top, unless the top is the last card."""
        cards = self.zone(pile)
        if len(cards) > 1 and cards[0].face_up:
            card = cards.pop(1)
        else:
            card = cards.pop(0)
        card.face_up = None
        return card

    def draw_titans(self, rnd: int) -> None:
        stars = self.rule("titans", "deck_by_round")[rnd - 1]
        needy = [s for s in self.order() if not self.zone("threat", s)]
        if not needy or stars < 1:
            return
        if self.rule("titans", "draft"):
            offer = []
            for _ in needy:
                pile = self.titan_pile(stars)
                if pile:
                    offer.append(self.draw_one(pile))
            for seat in needy:
                if not offer:
                    break
                opts = [f"titan:{c.uid}" for c in offer]
                est = {o: Estimate({"victory-points": -self.r.f(c.card, "defence") / 3})
                       for o, c in zip(opts, offer, strict=True)}
                pick = self.choose(seat, opts, "choose a threatening titan", est)
                card = offer[opts.index(pick)]
                offer.remove(card)
                self.zone("threat", seat).append(card)
            return
        for seat in needy:
            pile = self.titan_pile(stars)
            if pile:
                self.zone("threat", seat).append(self.draw_one(pile))

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
            est = {o: Estimate({"victory-points": 0.5}) for o in opts[1:]}
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
        est = {f"damage:{c.uid}": Estimate({"victory-points": -self.card_value(seat, c.card)[
            "victory-points"] / 3}) for c in cards}
        pick = self.choose(seat, opts, "damage an empire card", est)
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
        self.zone("armies", seat).remove(c)
        self.zone("military-discard").append(c)

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
                pick = self.choose(seat, opts, "put a coin on an army")
                c = act[opts.index(pick)]
                set_tok(c, "picture", tok(c, "picture") + 1)
                self.st.supply["coins"] -= 1
        elif effect == "discard-military":
            act = self.actives(seat)
            if act:
                opts = [f"discard:{c.uid}" for c in act]
                pick = self.choose(seat, opts, "discard a military card")
                self.discard_military(seat, act[opts.index(pick)])
        elif effect == "discard-stored":
            self.zone("empire-discard").extend(self.zone("stored", seat))
            self.zone("stored", seat).clear()
        elif effect == "discard-district":
            ds = [c for c in self.zone("lands", seat) if self.r.deck_of[c.card] == "districts"]
            if ds:
                opts = [f"district:{c.uid}" for c in ds]
                pick = self.choose(seat, opts, "discard a district")
                c = ds[opts.index(pick)]
                self.zone("lands", seat).remove(c)
                self.zone("box").append(c)
                self.check_armies(seat)
