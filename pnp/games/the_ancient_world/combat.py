"""Attacking titans: the targets, a player's attack value (swords, arrows, legacy symbols of
retired cards, ambrosia swords), the payments offered and the attack itself."""

from __future__ import annotations

from itertools import combinations
from typing import Any

from pnp.engine.api import Estimate

from .pieces import is_retired, set_tok, tok
from .table import Table

#: the titan piles, by stars
_PILES = ("titans-1", "titans-2", "titans-3")


class Combat(Table):
    """Attacks on the titan piles and on threatening titans."""

    def targets(self, seat: int) -> list[tuple[str, Any]]:
        zones = self.st.zones
        out = [(pile, zones[pile][0]) for pile in _PILES if zones.get(pile)]
        if self.rule("attack", "threats_attackable"):
            out += [(f"threat-{o}", self.zone("threat", o)[0]) for o in range(self.n)
                    if self.zone("threat", o)]
        return out

    def attack_value(self, seat: int, used: list, titan: str, amb_swords: int = 0,
                     base: tuple[int, int, dict[int, list]] | None = None) -> int:
        """Swords (and arrows against a titan that counts both) of an attack paying `used`.
        `base`: attack_base(seat), when one caller asks for many payments."""
        f = self.r.f
        both = f(titan, "target") == "swords-and-arrows"
        swords, arrows, armies = self.attack_base(seat) if base is None else base
        swords += amb_swords
        for c in used:
            swords += f(c.card, "swords")
            arrows += f(c.card, "arrows")
            for old in armies.get(tok(c, "army"), ()):
                if is_retired(old):
                    swords += f(old.card, "legacy_swords")
                    arrows += f(old.card, "legacy_arrows")
        return swords + (arrows if both else 0)

    def attack_base(self, seat: int) -> tuple[int, int, dict[int, list]]:
        """What every attack of `seat` counts before its payment: swords (with Draft),
        arrows, and the armies by number (for the legacy of retired cards)."""
        cards = self.r.cards
        swords = arrows = 0
        for c in self.zone("empire", seat):  # symbols(seat, ...) for both, in one pass
            if not (c.flags and "damaged" in c.flags):
                f = cards[c.card]
                swords += f.get("swords", 0)
                arrows += f.get("arrows", 0)
        for c in self.zone("lands", seat):
            f = cards[c.card]
            swords += f.get("swords", 0)
            arrows += f.get("arrows", 0)
        return swords + self.st.players[seat].vars["draft"], arrows, self.armies(seat)

    def attack_options(self, seat: int) -> list[tuple[str, Estimate]]:
        """Every target with every set of unused military cards the player can pay that
        reaches its defence, with the fewest ambrosia swords that make up the rest (more
        would change nothing: interpretation ambrosia-swords-needed)."""
        # unretired and unused (actives, tok inline)
        ready = [c for c in self.zone("armies", seat) if not (c.flags and "retired" in c.flags)
                 and not (c.tokens and c.tokens.get("name"))]
        if not ready:
            return []
        p = self.st.players[seat].counters
        sword_cost = self.rule("ambrosia", "sword") if self.r.amb else 0
        # attack_value of each payment, added up card by card once for every target: the
        # base, then each paid card's swords and arrows with its retired army's legacy
        swords0, arrows0, armies = self.attack_base(seat)
        f = self.r.f
        adds = {}
        for c in ready:
            sw, ar = f(c.card, "swords"), f(c.card, "arrows")
            for old in armies.get(tok(c, "army"), ()):
                if is_retired(old):
                    sw += f(old.card, "legacy_swords")
                    ar += f(old.card, "legacy_arrows")
            adds[c.uid] = (sw, ar, tok(c, "picture") + 1)
        payments = []
        coins = p["coins"]
        for k in range(1, len(ready) + 1):
            for used in combinations(ready, k):
                swords, arrows, cost = swords0, arrows0, 0
                for c in used:
                    sw, ar, price = adds[c.uid]
                    swords += sw
                    arrows += ar
                    cost += price
                if cost <= coins:
                    uids = tuple(c.uid for c in used)
                    payments.append((uids, "+".join(map(str, uids)), cost, swords,
                                     swords + arrows))
        out = []
        ambrosia = p["ambrosia"]
        estimate = self.r.estimate
        known = self.r.attacks
        known.make_room()
        facts = self.r.titan_facts
        for target, titan in self.targets(seat) if payments else ():
            fact = facts.get(titan.card)
            if fact is None:  # defence, both symbols count, banners, capacity: read once
                fact = facts[titan.card] = (
                    f(titan.card, "defence"), f(titan.card, "target") == "swords-and-arrows",
                    len(f(titan.card, "banners") or ()), f(titan.card, "capacity"))
            defence, both, banners, capacity = fact
            found = []
            for uids, paid, cost, swords, with_arrows in payments:
                short = defence - (with_arrows if both else swords)
                amb = max(0, short)
                if amb and (not sword_cost or amb * sword_cost > ambrosia):
                    continue
                found.append((cost + amb, uids, cost, amb, paid))
            found.sort()  # by total price, then by the cards' uids (never equal)
            vp = (2.5 * banners + capacity
                  + (2.0 if target == f"threat-{seat}" else 0.0) - 0.8 * banners)
            for _, _, cost, amb, paid in found:
                e = known.get((cost, amb * sword_cost, vp))
                if e is None:
                    e = known[(cost, amb * sword_cost, vp)] = estimate(
                        {"coins": -float(cost), "ambrosia": -float(amb * sword_cost),
                         "victory-points": vp})
                out.append((f"attack:{target}:{paid}:{amb}", e))
        return out

    def attack(self, seat: int, arg: str) -> None:
        """Pay the chosen military cards, take the titan, roll one damage die per banner."""
        target, uids, amb_s = arg.split(":")
        amb = int(amb_s)
        used = [c for c in self.zone("armies", seat) if str(c.uid) in uids.split("+")]
        for c in used:
            cost = tok(c, "picture") + 1
            self.st.players[seat].counters["coins"] -= cost
            set_tok(c, "name", cost)
        if amb:
            self.gain(seat, "ambrosia", -amb * self.rule("ambrosia", "sword"))
        if target.startswith("threat-"):
            owner = int(target[7:])
            titan = self.mover.take(("threat", owner), 0, ("lands", seat),
                                    "defeat a threatening titan", seat)
            self.event("threat-defeated" if owner == seat else "threat-stolen", seat)
        else:
            titan = self.mover.take(target, 0, ("lands", seat), "defeat a titan", seat)
            self.flip_top(target)
        titan.face_up = None
        self.cover("card", f"{self.r.deck_of[titan.card]}/{titan.card}")
        self.event("titan-defeated", seat)
        f = self.r.f
        armies = self.armies(seat)
        loot = spy = repair = 0
        for c in used:
            loot += f(c.card, "loot")
            spy += f(c.card, "spy")
            repair += f(c.card, "repair")
            for old in armies.get(tok(c, "army"), ()):
                if is_retired(old):
                    loot += f(old.card, "legacy_loot")
                    spy += f(old.card, "legacy_spy")
        if spy:
            self.gain(seat, "knowledge", spy)
        if repair:
            self.repair_some(seat, repair, "the attack's repair")
        self.damage_roll(seat, titan.card, at_end=False)
        if loot:
            self.gain(seat, "coins", loot)
