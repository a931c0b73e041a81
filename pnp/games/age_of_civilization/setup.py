"""Setup: decks shuffled, the wonder, civilization, special technology and event markets dealt,
the time track laid out, and with Drafting the civilization hands drafted. Every card is
dealt through the context's zone operations, so a logged game shows where each one went.
"""

from __future__ import annotations

from collections.abc import Callable

from pnp.engine.api import MAIN, PlayerState

from .table import Table


class Setup(Table):
    """Setup of the base game and the variants (the Skirmish's own steps are in solo.py)."""

    def setup(self) -> None:
        r, st, ctx = self.r, self.state, self.ctx
        st.vars["starter"] = int(str(r.setup.get("starter", "seat-0")).rpartition("-")[2])
        st.vars["opponent"] = 0
        if self.solo:
            self.solo_leave_out()
        for zone in ("wonder-deck", "civilization-deck", "special-technology-deck", "event-bag"):
            self.shuffle(zone, f"shuffle {zone}")
        wonders = (r.solo["wonder_market"] if self.solo else
                   r.setup["wonder_market"] + r.setup.get("wonder_market_per_player", 1) * self.n)
        ctx.draw_to("wonder-deck", wonders, "wonder-market", "wonder market")
        ctx.draw_to("wonder-deck", len(ctx.zone("wonder-deck")), "wonder-box",
                    "wonders left in the box")
        self.time_track()
        if self.draft:
            self.draft_setup()
        else:
            ctx.draw_to("civilization-deck", r.setup["civilization_market"],
                        "civilization-market", "civilization market")
        if self.innovation:
            ctx.draw_to("special-technology-deck", r.innovation.get("market", 1) + self.n,
                        "technology-market", "special technology market")
        if self.changing:
            ctx.draw_to("event-bag", r.changing.get("tokens", 3), "event-track",
                        "event tokens on the time track")
        st.stage = MAIN
        st.turn = 1
        st.phase = 0

    def time_track(self) -> None:
        """The action cards onto the time track: in their first-game order with that variant,
        else shuffled; the Skirmish puts the Plague card at its fixed place either way."""
        r, ctx = self.r, self.ctx
        if r.setup.get("time_track") == "first-game":
            order = sorted(ctx.zone("action-deck"),
                           key=lambda c: r.action_cards[c.card]["first_game"])
            if self.solo:  # the Skirmish's Plague keeps its own place in the suggested order
                plague = next(c for c in order if r.action_cards[c.card]["event"] == "plague")
                order.remove(plague)
                order.insert(max(0, int(r.solo["plague_position"]) - 1), plague)
            for card in order:
                ctx.move(card, "action-deck", "time-track", "first-game time track")
        elif self.solo:
            self.solo_time_track()
        else:
            self.shuffle("action-deck", "shuffle the action cards")
        ctx.draw_to("action-deck", len(ctx.zone("action-deck")), "time-track", "time track")

    def draft_setup(self) -> None:
        """Deal 7 to each player; pick one and pass the rest left, until 5 are kept; the
        leftovers of every hand make the market."""
        r, st, ctx = self.r, self.state, self.ctx
        hand = int(r.drafting["hand"])
        for seat in range(self.n):
            ctx.draw_to("civilization-deck", hand, ("draft-pack", seat), "deal a draft hand",
                        seat)
        for _ in range(int(r.drafting["keep"])):
            # Everyone picks at once, in secret: each pick goes face down into its hand as it
            # is made (no seat can see another's hand), so no pick waits in the open where a
            # search bot's re-dealt hidden cards could take it from under the rules.
            for seat, p in enumerate(st.players):
                ids = [c.card for c in p.zones["draft-pack"]]
                pick = self.choose(seat, ids, "draft a civilization", self.draft_outcome(p))
                card = next(c for c in p.zones["draft-pack"] if c.card == pick)
                ctx.move(card, ("draft-pack", seat), ("civilization-hand", seat),
                         "draft a civilization", seat)
            self.pass_packs()
        for seat in range(self.n):
            ctx.draw_to(("draft-pack", seat), len(ctx.zone(("draft-pack", seat))),
                        "civilization-market", "draft leftovers to the market", seat)

    def pass_packs(self) -> None:
        """Every pack passes to the left (the next seat) at once: the last seat's goes under
        the first seat's pack, then each pack moves on from the last seat down, and the first
        seat's own cards (on top of what it was passed) go last."""
        ctx, last = self.ctx, self.n - 1
        own = len(ctx.zone(("draft-pack", 0)))
        ctx.draw_to(("draft-pack", last), len(ctx.zone(("draft-pack", last))), ("draft-pack", 0),
                    "pass the draft pack", last)
        for seat in range(last - 1, 0, -1):
            ctx.draw_to(("draft-pack", seat), len(ctx.zone(("draft-pack", seat))),
                        ("draft-pack", seat + 1), "pass the draft pack", seat)
        ctx.draw_to(("draft-pack", 0), own, ("draft-pack", 1 % self.n), "pass the draft pack", 0)

    def draft_outcome(self, p: PlayerState) -> Callable[[str], dict[str, float]]:
        return lambda cid: self.civ_estimate(p, cid, int(self.r.drafting["bonus_later"]), True)
