"""A rondel: a loop of action spaces a marker moves round, where the first steps are free and
each further step costs (Antike, and any designer's rondel game).

The loop is a `shape: loop` track of tracks.yaml (its spaces are the actions); how many steps
are free, what a further step costs and how far a marker may go are rule parameters. This
module only answers where a marker may go and at what price; paying is the game's.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class RondelMove:
    """One legal move: the space reached (index and id), the steps taken, the units owed."""

    space: int
    id: str
    steps: int
    cost: int


@dataclass(frozen=True)
class Rondel:
    spaces: tuple[str, ...]  # space ids round the loop, in the direction of play
    free_steps: int
    step_cost: int
    max_steps: int

    def cost(self, steps: int) -> int:
        """Units owed for a move of `steps`: nothing up to the free steps, then `step_cost`
        for each further step."""
        return max(0, steps - self.free_steps) * self.step_cost

    def moves(self, here: int | None, budget: int | None = None) -> list[RondelMove]:
        """Every move from space `here` (None: not on the rondel yet, any space for free),
        nearest first, that costs at most `budget` (None: any)."""
        n = len(self.spaces)
        if here is None:
            return [RondelMove(i, s, 0, 0) for i, s in enumerate(self.spaces)]
        out = []
        for steps in range(1, min(self.max_steps, n - 1) + 1):
            cost = self.cost(steps)
            if budget is not None and cost > budget:
                break
            i = (here + steps) % n
            out.append(RondelMove(i, self.spaces[i], steps, cost))
        return out


def rondel_from(game: Any, track: str, free_steps: int, step_cost: int,
                max_steps: int) -> Rondel:
    """The rondel on a loop track of the game (ValueError when the track is not a loop)."""
    t = game.tracks[track]
    if t.shape != "loop":
        raise ValueError(f"track '{track}' is a {t.shape}, not a loop: a rondel goes round")
    return Rondel(tuple(s.id for s in t.spaces), free_steps, step_cost, max_steps)
