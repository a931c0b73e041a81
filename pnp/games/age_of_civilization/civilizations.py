"""Civilizations: rising (a new main civilization, its population as workers) or annexing one
(under the main, one more worker) from the market, the bonus coins that gather on the cards
nobody picks, and the abilities that act on rising or pay onto the market.
"""

from __future__ import annotations

from pnp.engine.api import CardInstance, PlayerState

from .rules import POWER_CIV, POWER_TECH, POWER_WONDER
from .worth import Worth

#: greedy bot: what keeping a civilization slot for a later round is worth while fewer slots
#: than half the rounds still to come would be left (a player holds at most three
#: civilizations: rising in each of rounds 1 to 3 left nothing to renew the workers with later)
SLOT_RESERVE = 1.5 * POWER_CIV


class Civilizations(Worth):
    """The civilization step of a turn and the civilization market."""

    def market_cards(self, p: PlayerState) -> list[CardInstance]:
        cards = list(self.state.zones["civilization-market"])
        if self.draft:
            cards += p.zones["civilization-hand"]
        return cards

    def civ_estimate(self, p: PlayerState, cid: str, bonus: int, rise: bool) -> dict[str, float]:
        pop = int(self.r.civs[cid]["population"])
        # what the card does later (worth.py): its legacy ability, and risen its main ability
        # while on top in place of the one it covers
        d: dict[str, float] = {"coins": bonus,
                               "power": self.civ_worth(p, cid, rise) - self.slot_cost(p)}
        if rise:
            d["workers"] = min(pop, self.r.max_workers) - p.counters["workers"]
            for a in self.r.main.get(cid, ()):
                if a["when"] == "rise":
                    mult = a.get("multiply_bonus")
                    if mult:
                        d["coins"] = bonus * mult
                    if a.get("points"):
                        d["points"] = a["points"] * (self.future_cards() if a.get("per") else 1)
                    if a.get("technology"):
                        d["power"] += POWER_TECH * (bonus // a.get("each", 1) if a.get("per") else 1)
                    if a.get("coins"):
                        d["coins"] += a["coins"]
                    if a.get("wonder") and self.state.zones["wonder-market"]:
                        d["power"] += POWER_WONDER * a["wonder"]
        else:
            d["workers"] = 1 if p.counters["workers"] < self.r.max_workers else 0
        return d

    def slot_cost(self, p: PlayerState) -> float:
        """Greedy bot: SLOT_RESERVE when taking a civilization now would leave fewer free
        slots than half the rounds after this one, else 0."""
        left = self.r.max_civs - len(p.zones["civilizations"]) - 1
        return SLOT_RESERVE if left < (self.r.rounds - self.state.turn) / 2 else 0.0

    def bonus_of(self, p: PlayerState, card: CardInstance) -> int:
        extra = (card.tokens or {}).get("coins", 0)
        if self.draft:
            first = not p.zones["civilizations"]
            return extra + int(self.r.drafting["bonus_first" if first else "bonus_later"])
        return extra

    def civilization_step(self, seat: int, p: PlayerState) -> None:
        civs = p.zones["civilizations"]
        cards = self.market_cards(p)
        must_rise = not civs and self.r.turn.get("first_round") == "rise"  # round 1: rise
        if not cards or len(civs) >= self.r.max_civs:
            if not civs:
                return
            self.event("skip", seat)
            return
        options: list[str] = []
        if not must_rise:
            options.append("skip")
        options += [f"rise:{c.card}" for c in cards]
        if civs:
            options += [f"annex:{c.card}" for c in cards]
        by_id = {c.card: c for c in cards}

        def outcome(opt: str) -> dict[str, float]:
            if opt == "skip":
                return {}
            how, cid = opt.split(":")
            return self.civ_estimate(p, cid, self.bonus_of(p, by_id[cid]), how == "rise")

        pick = self.choose(seat, options, "rise, annex or skip", outcome)
        if pick == "skip":
            self.event("skip", seat)
            return
        how, cid = pick.split(":")
        self.take_civilization(seat, p, by_id[cid], how == "rise")

    def take_civilization(self, seat: int, p: PlayerState, card: CardInstance, rise: bool) -> None:
        r, st, ctx = self.r, self.state, self.ctx
        bonus = self.bonus_of(p, card)
        on_card = (card.tokens or {}).get("coins", 0)
        src = (("civilization-hand", seat) if card in p.zones["civilization-hand"]
               else "civilization-market")
        # a risen civilization becomes the main one, on top; an annexed one goes under
        ctx.move(card, src, ("civilizations", seat), "rise" if rise else "annex", seat, top=rise)
        card.tokens = None
        mult = 1
        if rise:
            mult = max([a.get("multiply_bonus", 1) for a in r.main.get(card.card, ())
                        if a["when"] == "rise"] or [1])
        total_bonus = bonus * mult
        # the coins on the card go to the player; the rest (drafting's fixed bonus, Carthage's
        # extra) comes from the supply
        p.counters["coins"] += on_card
        self.gain_coins(p, total_bonus - on_card)
        self.cover("civilization", card.card)
        if rise:
            self.gain_workers(p, -p.counters["workers"])
            self.gain_workers(p, int(r.civs[card.card]["population"]))
            self.event("rise", seat)
            for a in r.main.get(card.card, ()):
                if a["when"] == "rise":
                    self.on_rise(seat, p, a, total_bonus)
        else:
            self.gain_workers(p, int(r.turn["annex_workers"]))
            self.event("annex", seat)
        if not self.draft and not self.solo:
            for c in st.zones["civilization-market"]:
                self.put_bonus(c, int(r.turn["bonus_coin"]))
            ctx.draw_to("civilization-deck", 1, "civilization-market", "refill the market")

    def on_rise(self, seat: int, p: PlayerState, a: dict, bonus: int) -> None:
        k = self.times(p, a, bonus)
        if a.get("points"):
            p.counters["points"] += a["points"] * k
        if a.get("coins"):
            self.gain_coins(p, a["coins"] * k)
        if a.get("others_coins"):
            for j, q in enumerate(self.state.players):
                if j != seat:
                    self.gain_coins(q, a["others_coins"])
        for _ in range(a.get("technology", 0) * k):
            self.gain_technology(seat, p, "technology on rising")
        for _ in range(a.get("wonder", 0)):
            self.take_wonder(seat, p)

    def phoenicia(self, seat: int, p: PlayerState, a: dict) -> None:
        """Pay coins as bonus onto a market civilization, for points (Phoenicia)."""
        n = int(a["pay_bonus"])
        market = self.state.zones["civilization-market"]
        if p.counters["coins"] < n or not market:
            return
        options = ["no"] + [c.card for c in market]
        est = {"coins": -n, "points": a.get("points", 0)}
        pick = self.choose(seat, options, "pay bonus coins onto a market civilization",
                           lambda o: {} if o == "no" else est)
        if pick == "no":
            return
        card = next(c for c in market if c.card == pick)
        p.counters["coins"] -= n
        if card.tokens is None:
            card.tokens = {}
        card.tokens["coins"] = card.tokens.get("coins", 0) + n
        p.counters["points"] += a.get("points", 0)
