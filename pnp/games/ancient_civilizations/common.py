"""The vocabulary every part of the rules shares: decision labels, the data's rule lookups,
and the arithmetic of estimates over dice (averages, merges, outcomes of small and large
dice) that the tables, the procedures and the bot hints all use."""

from __future__ import annotations

import operator
from collections.abc import Callable
from operator import itemgetter
from typing import Any

from pnp.engine.api import DELTA, Condition, Estimate, GameDef, Ops, distribution, enumerable

#: the engine id game.yaml names (`engine: ancient-civilizations`)
ENGINE = "ancient-civilizations"

# Decision option labels (what bots see, what logs and scenarios write).
KEEP, REROLL, STAY, WAR, BEFORE, AFTER = "keep", "reroll", "stay", "war", "before", "after"
MOVE, STOP, DONE, NONE = "move", "stop", "done", "none"
EXTRA, NO = "extra-roll", "no"
ACCEPT, DECLINE = "accept", "decline"

_OPS = {"<": operator.lt, ">": operator.gt, "<=": operator.le, ">=": operator.ge,
        "==": operator.eq, "!=": operator.ne}
#: the outcome of doing nothing
_NOTHING = Estimate()
#: the outcome of keeping a power unused
_POWER = Estimate({"power": 1.0})
#: the lots bots may offer in the trade option's exchange (a bot protocol, not a rule)
TRADE_LOTS = (1, 2, 3)
#: fixed stat changes with their bounds: (stat, amount, min, cap), for StatBook.add_bounded
Bounded = tuple[tuple[str, int, int, int], ...]
#: power decisions remembered per definition (a bound on memory)
POWER_TABLES = 8192


class MissingRule(LookupError):
    """The game data lacks a parameter these rules need."""


def _need(game: GameDef, *path: str) -> Any:
    value = game.rule(*path)
    if value is None:
        raise MissingRule(f"{game.id}: game.yaml has no {'/'.join(path)}, which the "
                          f"{ENGINE} engine needs")
    return value


def _cond(c: Condition) -> tuple[str, Callable[[int, int], bool], int]:
    return c.stat, _OPS[c.op], c.value


def _average(deltas: list[dict[str, float]]) -> Estimate:
    out: dict[str, float] = {}
    for d in deltas:
        for k, v in d.items():
            out[k] = out.get(k, 0.0) + v
    n = len(deltas) or 1
    return Estimate({k: v / n for k, v in out.items()})


def _merge(*parts: dict[str, float]) -> Estimate:
    out = Estimate()
    for part in parts:
        for k, v in part.items():
            out[k] = out.get(k, 0.0) + v
    return out


def _values_of(stats: tuple[str, ...]) -> Callable[[dict[str, int]], Any]:
    """A getter of these stats' values (a value for one stat, a tuple for more), as a key."""
    return itemgetter(*stats) if stats else _no_values


def _no_values(values: dict[str, int]) -> tuple:
    return ()


def _faces(count: int, sides: int) -> list[int]:
    """Every outcome of `count` dice as sums, one entry per equally likely combination (small
    dice only: see `_outcomes`)."""
    sums = [0]
    for _ in range(count):
        sums = [s + f for s in sums for f in range(1, sides + 1)]
    return sums


#: the outcomes of some dice: every combination's sum (small dice, as always), or P(sum)
Outcomes = list[int] | dict[int, float]


def _outcomes(count: int, sides: int) -> Outcomes:
    """Small dice (at most dice.ENUMERATED combinations) enumerated one combination at a time,
    so every estimate is what it always was; larger dice (12D6, 99D1000) as a distribution of
    sums, never sides**count entries."""
    return _faces(count, sides) if enumerable(count, sides) else distribution(count, sides)


def _expected(outcomes: Outcomes, value_of: Callable[[int], dict[str, float]]) -> Estimate:
    """The mean of value_of(sum) over the outcomes; a distribution's equal values (the same
    object) are weighed together first."""
    if isinstance(outcomes, list):
        return _average([value_of(r) for r in outcomes])
    merged: dict[int, list] = {}
    for r, p in outcomes.items():
        d = value_of(r)
        hit = merged.get(id(d))
        if hit is None:
            merged[id(d)] = [d, p]
        else:
            hit[1] += p
    out: dict[str, float] = {}
    for d, p in merged.values():
        for k, v in d.items():
            out[k] = out.get(k, 0.0) + v * p
    total = sum(outcomes.values()) or 1.0
    return Estimate({k: v / total for k, v in out.items()})


def _fast(alts: tuple[Ops, ...], timing: str | None) -> tuple[tuple[str, int], ...] | None:
    """(stat, amount) pairs when an effect is only fixed stat changes (the common space)."""
    if len(alts) != 1 or timing is not None:
        return None
    ops = alts[0]
    if all(op[0] == DELTA and not op[3] for op in ops):
        return tuple((op[1], op[2]) for op in ops)
    return None
