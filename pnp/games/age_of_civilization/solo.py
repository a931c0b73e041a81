"""The solo Skirmish against a virtual opponent: the civilizations it leaves out, the Plague
card at its fixed place on the time track, the opponent's growth and the market's bonus and
refill at each round end, and the achievements a final position earns.
"""

from __future__ import annotations

from pnp.engine.api import PlayerState

from .rules import Rules, military
from .table import Table


class Solo(Table):
    """The Skirmish's own steps; the rest of the game is played as with more players."""

    def solo_leave_out(self) -> None:
        """The civilizations the Skirmish leaves out go back to the box."""
        removed = set(self.r.solo.get("removed") or ())
        for card in [c for c in self.ctx.zone("civilization-deck") if c.card in removed]:
            self.ctx.move(card, "civilization-deck", "civilization-box", "left out of the solo game")

    def solo_time_track(self) -> None:
        """The Plague card is set aside (on the empty time track), the other action cards
        shuffled, and as many as go before the Plague's place put on top of it; the rest of
        the action deck follows it."""
        r, ctx = self.r, self.ctx
        cards = ctx.zone("action-deck")
        plague = next(c for c in cards if r.action_cards[c.card]["event"] == "plague")
        ctx.move(plague, "action-deck", "time-track", "the plague card's place")
        self.shuffle("action-deck", "shuffle the action cards")
        before = max(0, min(int(r.solo["plague_position"]) - 1, len(cards)))
        for i in range(before - 1, -1, -1):
            ctx.take("action-deck", i, "time-track", "time track", top=True)

    def solo_round_end(self) -> None:
        """The virtual opponent takes technology tokens; the market's cards gain bonus coins
        and the market is refilled."""
        r, st = self.r, self.state
        growth = int(r.solo["opponent_growth"])
        st.vars["opponent"] += growth
        st.supply["technology-tokens"] -= growth
        for c in st.zones["civilization-market"]:
            self.put_bonus(c, int(r.solo["bonus_at_round_end"]))
        self.ctx.draw_to("civilization-deck", max(0, int(r.solo["refill_at_round_end"])),
                         "civilization-market", "refill the market")


def achieved(r: Rules, p: PlayerState) -> list[str]:
    """The solo achievements a final position earns."""
    techs = len(p.vars["techs"])
    out = []
    for a in r.achievements:
        if p.counters["points"] < a["points"]:
            continue
        if "min_technologies" in a and techs < a["min_technologies"]:
            continue
        if "max_technologies" in a and techs > a["max_technologies"]:
            continue
        if "min_wonders" in a and len(p.zones["wonders"]) < a["min_wonders"]:
            continue
        if "min_military" in a and military(r, p) < a["min_military"]:
            continue
        out.append(a["id"])
    return out
