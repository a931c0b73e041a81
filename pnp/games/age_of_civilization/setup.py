"""Setup: decks shuffled, the wonder, civilization, special technology and event markets dealt,
the time track laid out, and with Drafting the civilization hands drafted.
"""

from __future__ import annotations

from collections.abc import Callable

from pnp.engine.api import MAIN, PlayerState

from .table import Table


class Setup(Table):
    """Setup of the base game and the variants (the Skirmish's own steps are in solo.py)."""

    def setup(self) -> None:
        r, st = self.r, self.state
        z = st.zones
        st.vars["starter"] = 0
        st.vars["opponent"] = 0
        st.supply["coins"] -= sum(p.counters["coins"] for p in st.players)  # the 3 coins each
        if self.solo:
            self.solo_leave_out()
        for zone in ("wonder-deck", "civilization-deck", "special-technology-deck", "event-bag"):
            self.shuffle(z[zone], f"shuffle {zone}")
        wonders = (r.solo["wonder_market"] if self.solo else
                   r.setup["wonder_market"] + r.setup.get("wonder_market_per_player", 1) * self.n)
        z["wonder-market"].extend(z["wonder-deck"][:wonders])
        z["wonder-box"].extend(z["wonder-deck"][wonders:])
        del z["wonder-deck"][:]
        self.time_track()
        if self.draft:
            self.draft_setup()
        else:
            take = r.setup["civilization_market"]
            z["civilization-market"].extend(z["civilization-deck"][:take])
            del z["civilization-deck"][:take]
        if self.innovation:
            k = r.innovation.get("market", 1) + self.n
            z["technology-market"].extend(z["special-technology-deck"][:k])
            del z["special-technology-deck"][:k]
        if self.changing:
            k = r.changing.get("tokens", 3)
            z["event-track"].extend(z["event-bag"][:k])
            del z["event-bag"][:k]
        st.stage = MAIN
        st.turn = 1
        st.phase = 0

    def time_track(self) -> None:
        """The action cards onto the time track: in their first-game order with that variant,
        else shuffled (the Skirmish puts the Plague card at its fixed place)."""
        r, z = self.r, self.state.zones
        cards = z["action-deck"]
        del z["action-deck"][:0]
        if r.setup.get("time_track") == "first-game":
            cards.sort(key=lambda c: r.action_cards[c.card]["first_game"])
        elif self.solo:
            self.solo_time_track(cards)
        else:
            self.shuffle(cards, "shuffle the action cards")
        z["time-track"].extend(cards)
        del cards[:]

    def draft_setup(self) -> None:
        """Deal 7 to each player; pick one and pass the rest left, until 5 are kept; the
        leftovers of every hand make the market."""
        r, st = self.r, self.state
        z = st.zones
        hand = int(r.drafting["hand"])
        for p in st.players:
            p.zones["draft-pack"].extend(z["civilization-deck"][:hand])
            del z["civilization-deck"][:hand]
        for _ in range(int(r.drafting["keep"])):
            picks = []
            for seat, p in enumerate(st.players):
                ids = [c.card for c in p.zones["draft-pack"]]
                picks.append(self.choose(seat, ids, "draft a civilization",
                                         self.draft_outcome(p)))
            for seat, p in enumerate(st.players):
                pack = p.zones["draft-pack"]
                card = next(c for c in pack if c.card == picks[seat])
                pack.remove(card)
                p.zones["civilization-hand"].append(card)
            packs = [p.zones["draft-pack"] for p in st.players]
            for seat, p in enumerate(st.players):  # pass to the left (the next seat)
                p.zones["draft-pack"] = packs[(seat - 1) % self.n]
        for p in st.players:
            z["civilization-market"].extend(p.zones["draft-pack"])
            p.zones["draft-pack"] = []

    def draft_outcome(self, p: PlayerState) -> Callable[[str], dict[str, float]]:
        return lambda cid: self.civ_estimate(p, cid, int(self.r.drafting["bonus_later"]), True)
