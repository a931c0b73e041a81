"""NTBEA, the N-Tuple Bandit Evolutionary Algorithm (Lucas, Liu and Perez-Liebana 2018), small
and deterministic: the optimiser `pnp tune` searches a game's numeric parameters with.

It suits self-play tuning: every evaluation is a batch of games (costly and noisy), and the
parameters are a few discrete ranges. A model keeps the mean fitness seen for each value of
each parameter (1-tuples), each pair of values (2-tuples) and each whole point (the N-tuple);
a point's estimate is the average over its tuples, so a point never played borrows evidence
from the points that share values with it. Each step mutates the current point into a
neighbourhood, picks the neighbour with the best upper confidence bound (estimate plus
exploration, UCB1 per tuple), and evaluates it. After the budget, the evaluated point with
the best estimate (no exploration) is recommended: the average over its tuples smooths the
noise of any one evaluation. TAG tunes game and bot parameters the same way.

Knows nothing of games: a point is a tuple of value indexes, fitness a float (higher is
better). The same seed gives the same search: one `random.Random(seed)` draws every mutation,
and ties go to the first point generated. Pure Python, no dependency.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from itertools import combinations

Point = tuple[int, ...]

#: exploration weight, in units of the spread (standard deviation) of the fitness seen so far,
#: so the balance does not depend on what scale a target's fitness has
K_EXPLORE = 1.0
#: added to a tuple's count in the exploration term, so an unseen tuple is finite but large
EPSILON = 0.5
#: neighbours generated around the current point at each step
NEIGHBOURS = 50
#: mutation attempts per neighbour wanted, before a small space is taken as exhausted
ATTEMPTS = 20


class NTupleModel:
    """Mean fitness per value of each 1-tuple, 2-tuple (when there are 3 or more parameters)
    and the whole N-tuple; `estimate` and `explore` average over those tuples."""

    def __init__(self, sizes: Sequence[int]):
        d = len(sizes)
        self.tuples: list[tuple[int, ...]] = [(i,) for i in range(d)]
        if d > 2:
            self.tuples += list(combinations(range(d), 2))
        if d > 1:
            self.tuples.append(tuple(range(d)))
        self.stats: list[dict[tuple[int, ...], list[float]]] = [{} for _ in self.tuples]
        self.total = 0
        self.sum = 0.0
        self.sum_sq = 0.0

    def add(self, point: Point, value: float) -> None:
        self.total += 1
        self.sum += value
        self.sum_sq += value * value
        for dims, table in zip(self.tuples, self.stats, strict=True):
            row = table.setdefault(tuple(point[i] for i in dims), [0, 0.0])
            row[0] += 1
            row[1] += value

    def spread(self) -> float:
        """The standard deviation of every fitness seen (a small floor: never zero)."""
        if self.total < 2:
            return 1.0
        var = (self.sum_sq - self.sum * self.sum / self.total) / (self.total - 1)
        return max(math.sqrt(max(var, 0.0)), 1e-9)

    def estimate(self, point: Point) -> float:
        """The mean over the tuples that have data for this point; the overall mean when none
        does (a neutral guess)."""
        means = []
        for dims, table in zip(self.tuples, self.stats, strict=True):
            row = table.get(tuple(point[i] for i in dims))
            if row:
                means.append(row[1] / row[0])
        if means:
            return math.fsum(means) / len(means)
        return self.sum / self.total if self.total else 0.0

    def explore(self, point: Point) -> float:
        """The UCB1 exploration term averaged over the tuples."""
        log_total = math.log(self.total + 1)
        terms = []
        for dims, table in zip(self.tuples, self.stats, strict=True):
            row = table.get(tuple(point[i] for i in dims))
            terms.append(math.sqrt(log_total / ((row[0] if row else 0) + EPSILON)))
        return math.fsum(terms) / len(terms)

    def ucb(self, point: Point, k: float) -> float:
        return self.estimate(point) + k * self.spread() * self.explore(point)


@dataclass
class SearchResult:
    """Every point evaluated, in order, with its fitness; the model; the recommendation."""

    evaluated: list[tuple[Point, float]] = field(default_factory=list)
    model: NTupleModel | None = None
    best: Point = ()
    exhausted: bool = False  # every point of the space was evaluated before the budget

    def ranked(self, feasible: Callable[[Point], bool] = lambda p: True) -> list[Point]:
        """Evaluated points, best model estimate first (ties: the first evaluated)."""
        order = {p: i for i, (p, _) in enumerate(self.evaluated)}
        points = [p for p in order if feasible(p)]
        return sorted(points, key=lambda p: (-self.model.estimate(p), order[p]))


def space_size(sizes: Sequence[int]) -> int:
    return math.prod(sizes)


def neighbours(point: Point, sizes: Sequence[int], rng: random.Random,
               count: int = NEIGHBOURS) -> list[Point]:
    """Up to `count` distinct mutations of `point`: each parameter changes with probability
    1/d, at least one always does (to another of its values)."""
    d = len(sizes)
    movable = [i for i in range(d) if sizes[i] > 1]
    if not movable:
        return []
    seen: dict[Point, None] = {}
    for _ in range(count * ATTEMPTS):
        if len(seen) >= count:
            break
        new = list(point)
        changed = False
        for i in movable:
            if rng.random() < 1.0 / d:
                new[i] = _other(point[i], sizes[i], rng)
                changed = True
        if not changed:
            i = movable[rng.randrange(len(movable))]
            new[i] = _other(point[i], sizes[i], rng)
        seen.setdefault(tuple(new), None)
    return list(seen)


def _other(value: int, size: int, rng: random.Random) -> int:
    pick = rng.randrange(size - 1)
    return pick + 1 if pick >= value else pick


def search(evaluate: Callable[[Point], float], sizes: Sequence[int], budget: int, seed: int,
           start: Point, k: float = K_EXPLORE, neighbourhood: int = NEIGHBOURS,
           feasible: Callable[[Point], bool] = lambda p: True) -> SearchResult:
    """Evaluate at most `budget` points, `start` first, and recommend the evaluated point with
    the best estimate among those `feasible` (start when none is).

    Evaluations are deterministic here (paired seeds), so a point is never evaluated twice:
    the next point is the best-UCB neighbour not yet evaluated, or, when every neighbour was,
    the best-UCB point not yet evaluated in the whole space (small spaces), and the search
    ends early once every point has been played."""
    rng = random.Random(seed)
    model = NTupleModel(sizes)
    result = SearchResult(model=model, best=start)
    done: dict[Point, float] = {}
    point: Point | None = start
    total = space_size(sizes)
    while point is not None and len(done) < budget:
        value = evaluate(point)
        done[point] = value
        model.add(point, value)
        result.evaluated.append((point, value))
        if len(done) >= min(budget, total):
            break
        fresh = [p for p in neighbours(point, sizes, rng, neighbourhood) if p not in done]
        if not fresh and total <= neighbourhood * ATTEMPTS:
            fresh = [p for p in _every_point(sizes) if p not in done]
        point = max(fresh, key=lambda p: model.ucb(p, k), default=None)
    result.exhausted = len(done) >= total
    ranked = result.ranked(feasible)
    result.best = ranked[0] if ranked else start
    return result


def _every_point(sizes: Sequence[int]) -> list[Point]:
    points: list[Point] = [()]
    for size in sizes:
        points = [p + (v,) for p in points for v in range(size)]
    return points
