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
        z = self.state.zones
        removed = set(self.r.solo.get("removed") or ())
        keep = [c for c in z["civilization-deck"] if c.card not in removed]
        z["civilization-box"].extend(c for c in z["civilization-deck"] if c.card in removed)
        z["civilization-deck"][:] = keep

    def solo_time_track(self, cards: list) -> None:
        """The Plague card is set aside, the other action cards shuffled, and the Plague put
        at its fixed place."""
        r = self.r
        plague = next(c for c in cards if r.action_cards[c.card]["event"] == "plague")
        cards.remove(plague)
        self.shuffle(cards, "shuffle the action cards")
        cards.insert(int(r.solo["plague_position"]) - 1, plague)

    def solo_round_end(self) -> None:
        """The virtual opponent takes technology tokens; the market's cards gain bonus coins
        and the market is refilled."""
        r, st = self.r, self.state
        growth = int(r.solo["opponent_growth"])
        st.vars["opponent"] += growth
        st.supply["technology-tokens"] -= growth
        for c in st.zones["civilization-market"]:
            self.put_bonus(c, int(r.solo["bonus_at_round_end"]))
        z = st.zones
        for _ in range(int(r.solo["refill_at_round_end"])):
            if z["civilization-deck"]:
                z["civilization-market"].append(z["civilization-deck"].pop(0))


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
