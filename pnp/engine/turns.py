"""The turn and phase driver: the step bookkeeping every rules module would otherwise repeat.

A game is played as turns of phases. Between phases the harness checks invariants and a
scenario checks its expectations (`ctx.step`), a scenario may start at any turn and phase,
and a game still going when the turn cap ends is a timeout. `play_turns` owns all of that:
a rules module lists its phases in order, each a function that plays it, and says who leads
when time runs out.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from pnp.engine.result import TIMEOUT
from pnp.engine.state import MAIN, OVER


@dataclass(frozen=True)
class Phase:
    """One phase of a turn: its id (the step label the harness sees) and what plays it."""

    id: str
    play: Callable[[], None]


def play_turns(ctx, phases: Sequence[Phase], max_turns: int,
               leaders: Callable[[], Sequence[int]]) -> None:
    """Play phases in order from the state's turn and phase until the game is over.

    After each phase, `state.phase` moves on (after the last, `state.turn` too) and
    `ctx.step(phase.id)` runs. A phase ends the game by setting `state.stage` to OVER (with
    `ended` and `winners`). A game still going at the end of turn `max_turns` is a timeout,
    won by `leaders()`; the turn stays `max_turns`, and a turn past it (a scenario may start
    there) is never played. At the end of each turn played to its end, who leads
    (`leaders()`) goes into the result's `leaders_by_turn` (lead changes, drama), and a game
    ended inside a turn adds its winners as that turn's leaders.
    """
    st = ctx.state
    count = len(phases)
    if st.stage == MAIN and st.turn > max_turns:
        st.stage, st.ended, st.turn, st.winners = OVER, TIMEOUT, max_turns, list(leaders())
        return
    while st.stage == MAIN:
        phase = phases[st.phase]
        phase.play()
        if st.stage != MAIN and st.winners:  # ended inside a turn: its winners close the record
            ctx.result.leaders_by_turn.append(tuple(st.winners))
        if st.stage == MAIN:
            st.phase = (st.phase + 1) % count
            if st.phase == 0:
                ctx.result.leaders_by_turn.append(tuple(leaders()))
                if st.turn >= max_turns:
                    st.stage, st.ended, st.winners = OVER, TIMEOUT, list(leaders())
                else:
                    st.turn += 1
        ctx.step(phase.id)
