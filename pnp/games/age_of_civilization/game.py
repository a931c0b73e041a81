"""One game of Age of Civilization, joined from its parts, and the round driver: setup once,
then rounds of two steps (`turns`, `round-end`) through the engine's `play_turns`, which owns
the step bookkeeping and the turn cap.
"""

from __future__ import annotations

from pnp.engine.api import PREGAME, Phase, play_turns

from .actions import Actions
from .civilizations import Civilizations
from .rounds import Rounds
from .scoring import Scoring
from .setup import Setup
from .solo import Solo
from .technology import Technology

TURNS, ROUND_END = "turns", "round-end"


class AoC(Setup, Civilizations, Technology, Actions, Rounds, Solo, Scoring):
    """One game being played (or set up): the rules applied to a state through a context."""

    def play(self, max_turns: int) -> None:
        st, ctx = self.state, self.ctx
        if st.stage == PREGAME:
            self.setup()
            st.turn = 1
            ctx.step("pregame")
        self.apply_scenario_bonus()
        if "totals" not in st.vars:
            st.vars["totals"] = self.totals()
        play_turns(ctx, [Phase(TURNS, self.turns), Phase(ROUND_END, self.round_end)],
                   max_turns, leaders=self.leaders)

    def round_end(self) -> None:
        """The round end; after the last round, the game's end."""
        st = self.state
        last = st.turn >= self.r.rounds
        self.end_round(last)
        if last:
            st.phase = 0  # the finished state reads the next round's first step, as a round's end does
            self.game_end()

    def totals(self) -> dict[str, int]:
        """Coins, workers and technology tokens in the game, for the conservation invariants."""
        st = self.state
        return {
            "coins": st.supply["coins"] + sum(p.counters["coins"] for p in st.players)
            + sum((c.tokens or {}).get("coins", 0) for _, _, cs in st.all_zones() for c in cs),
            "workers": st.supply["workers"] + sum(p.counters["workers"] for p in st.players),
            "techs": st.supply["technology-tokens"] + st.vars["opponent"]
            + sum(len(p.vars["techs"]) for p in st.players)}

    def apply_scenario_bonus(self) -> None:
        """Scenarios may ask for bonus coins on market cards: shared var 'bonus' maps a card id
        to its coins (taken from the supply)."""
        want = self.state.vars.pop("bonus", None)
        if not want:
            return
        for c in self.state.zones["civilization-market"]:
            if c.card in want:
                self.put_bonus(c, int(want[c.card]))
