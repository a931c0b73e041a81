"""The game's end: game-end abilities score, the most points win (ties broken by the data's
`tie_breaks`), and the counters a player sheet shows at the end (military, technologies,
wonders, civilizations beside points, coins and workers).
"""

from __future__ import annotations

from pnp.engine.api import COMPLETED, OVER, PlayerState

from .rules import Rules, abilities, military
from .solo import achieved
from .table import Table


class Scoring(Table):
    """The end of the last round."""

    def most_points(self) -> list[int]:
        """The seats with the most points, the data's tie-breaks after."""
        r, players = self.r, self.state.players
        keys = [tuple([p.counters["points"]] + [p.counters[k] for k in r.tie_breaks])
                for p in players]
        best = max(keys)
        return [i for i, k in enumerate(keys) if k == best]

    def leaders(self) -> list[int]:
        """Who leads on points so far (game-end abilities count only at the end): each
        round's leaders for the lead metrics, and the winners of a game stopped by the turn
        cap. Alone at the table (solo) nobody leads: there is no rival."""
        return self.most_points() if len(self.state.players) > 1 else []

    def game_end(self) -> None:
        r, st = self.r, self.state
        for p in st.players:
            for a in abilities(r, p):
                if a["when"] == "game-end":
                    p.counters["points"] += a.get("points", 0) * self.times(p, a)
        st.winners = self.most_points()
        st.stage = OVER
        st.ended = COMPLETED
        for i in st.winners:
            for c in st.players[i].zones["civilizations"]:
                self.event(f"won-with:{c.card}")
        if self.solo:
            p = st.players[0]
            for ach in achieved(r, p):
                self.event(f"achievement:{ach}")


def sheet_counters(r: Rules, p: PlayerState) -> dict[str, int]:
    """Counters plus what a player sheet would show: military, technologies, wonders, civs."""
    out = dict(p.counters)
    out["military"] = military(r, p)
    out["technologies"] = len(p.vars.get("techs", ()))
    out["wonders"] = len(p.zones.get("wonders", ()))
    out["civilizations"] = len(p.zones.get("civilizations", ()))
    return out
