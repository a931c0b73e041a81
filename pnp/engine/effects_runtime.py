"""Applying effect ASTs (pnp.data.effects) to a player's stats.

Effects are compiled once per game definition into flat tuples, so the hot path never walks
dataclasses; every stat change goes through one StatBook, which clamps to the stat's bounds
(the data's `min` and `cap`) and counts each clip for the balance report.
"""

from __future__ import annotations

from collections.abc import Mapping, MutableMapping
from typing import Any

from pnp.data.effects import Ability, ChartRoll, Delta, Effect

# Op kinds (the first field of every compiled op).
DELTA, FORMULA, CHART, ABILITY = 0, 1, 2, 3

#: A compiled op: (DELTA, stat, const, signed dice count, sides) | (FORMULA, stat, formula, sign)
#: | (CHART, chart) | (ABILITY, name, args). An alternative is a tuple of ops.
Op = tuple
Ops = tuple[Op, ...]


def compile_effect(effect: Effect | None) -> tuple[Ops, ...]:
    """The effect's alternatives as tuples of ops; () for no effect."""
    if effect is None:
        return ()
    out = []
    for seq in effect.choices:
        ops: list[Op] = []
        for item in seq:
            if isinstance(item, Delta):
                a = item.amount
                if a.formula is not None:
                    ops.append((FORMULA, item.stat, a.formula, a.formula_sign))
                else:
                    ops.append((DELTA, item.stat, a.const, a.dice, a.sides))
            elif isinstance(item, ChartRoll):
                ops.append((CHART, item.chart))
            elif isinstance(item, Ability):
                ops.append((ABILITY, item.name, tuple(item.args)))
        out.append(tuple(ops))
    return tuple(out)


def single(effect: Effect | None) -> Ops:
    """The ops of an effect that offers no choice (its first and only alternative)."""
    alts = compile_effect(effect)
    return alts[0] if alts else ()


def constant_deltas(ops: Ops) -> dict[str, int]:
    """{stat: amount} of the fixed stat changes in ops (for costs such as 'R-2')."""
    out: dict[str, int] = {}
    for op in ops:
        if op[0] == DELTA and not op[3]:
            out[op[1]] = out.get(op[1], 0) + op[2]
    return out


#: stands for "no cap" in precomputed bounds (no stat gets anywhere near it)
NO_CAP = 1 << 62


class StatBook:
    """Every stat change: clamped to [min, cap] from the data; cap and floor clips counted apart."""

    __slots__ = ("lo", "hi", "clips", "floors")

    def __init__(self, bounds: Mapping[str, tuple[int, int | None]],
                 clips: MutableMapping[str, int], floors: MutableMapping[str, int]):
        """`clips` and `floors` count by stat; a stat never counted must read as 0 (a Tally or
        a Counter)."""
        self.lo = {s: b[0] for s, b in bounds.items()}
        self.hi = {s: b[1] for s, b in bounds.items()}
        self.clips = clips  # a gain cut at the cap
        self.floors = floors  # a loss cut at the floor

    def add_pairs(self, stats: dict[str, int], pairs: tuple[tuple[str, int], ...]) -> None:
        """Fixed stat changes, the hot path of a landing: clamped, clips counted."""
        hi, lo = self.hi, self.lo
        for stat, k in pairs:
            v = stats[stat] + k
            h = hi[stat]
            if h is not None and v > h:
                self.clips[stat] += 1
                v = h
            elif v < lo[stat]:
                self.floors[stat] += 1
                v = lo[stat]
            stats[stat] = v

    def bounded(self, pairs: tuple[tuple[str, int], ...]) -> tuple[tuple[str, int, int, int], ...]:
        """(stat, amount, min, cap) for `add_bounded`: the bounds looked up once, a missing cap
        as a number no stat reaches."""
        return tuple((stat, k, self.lo[stat], NO_CAP if self.hi[stat] is None else self.hi[stat])
                     for stat, k in pairs)

    def add_bounded(self, stats: dict[str, int],
                    changes: tuple[tuple[str, int, int, int], ...]) -> None:
        """`add_pairs` with the bounds already in hand (the hot path of a landing)."""
        for stat, k, lo, hi in changes:
            v = stats[stat] + k
            if v > hi:
                self.clips[stat] += 1
                v = hi
            elif v < lo:
                self.floors[stat] += 1
                v = lo
            stats[stat] = v

    def add(self, stats: dict[str, int], stat: str, amount: int) -> int:
        """Change one stat; returns the change actually made (after clamping)."""
        old = stats[stat]
        new = old + amount
        hi = self.hi[stat]
        if hi is not None and new > hi:
            self.clips[stat] += 1
            new = hi
        elif new < self.lo[stat]:
            self.floors[stat] += 1
            new = self.lo[stat]
        stats[stat] = new
        return new - old

    def can_pay(self, stats: dict[str, int], cost: Mapping[str, int]) -> bool:
        """True when every negative amount in `cost` can be paid in full."""
        lo = self.lo
        for stat, amount in cost.items():
            if amount < 0 and stats[stat] + amount < lo[stat]:
                return False
        return True


class EffectRunner:
    """Applies compiled ops; a rules module supplies dice, charts, abilities and formulas.

    `stat_rows[seat]` is that player's stats dict (the runner changes it in place).
    """

    book: StatBook
    stat_rows: list[dict[str, int]]

    def roll_amount(self, seat: int, count: int, sides: int, stat: str, sign: int) -> int:
        raise NotImplementedError

    def roll_chart(self, seat: int, chart: str) -> None:
        raise NotImplementedError

    def use_ability(self, seat: int, name: str, args: tuple, source: str) -> None:
        raise NotImplementedError

    def formula_value(self, seat: int, formula: str) -> int:
        raise NotImplementedError

    def apply(self, seat: int, ops: Ops, source: str = "") -> bool:
        """Apply ops in order; True when some loss was larger than the stat held ("short")."""
        short = False
        stats = self.stat_rows[seat]
        book = self.book
        lo, hi = book.lo, book.hi
        for op in ops:
            kind = op[0]
            if kind == DELTA:
                stat = op[1]
                amount = op[2]
                dice = op[3]
                if dice:
                    rolled = self.roll_amount(seat, dice if dice > 0 else -dice, op[4], stat,
                                              1 if dice > 0 else -1)
                    amount += rolled if dice > 0 else -rolled
                # StatBook.add, inlined: clamp to [min, cap], count the clip
                v = stats[stat] + amount
                if amount < 0 and v < lo[stat]:
                    short = True
                h = hi[stat]
                if h is not None and v > h:
                    book.clips[stat] += 1
                    v = h
                elif v < lo[stat]:
                    book.floors[stat] += 1
                    v = lo[stat]
                stats[stat] = v
            elif kind == FORMULA:
                book.add(stats, op[1], op[3] * self.formula_value(seat, op[2]))
            elif kind == CHART:
                self.roll_chart(seat, op[1])
            else:
                self.use_ability(seat, op[1], op[2], source)
        return short


def mean_delta(ops: Ops, chart_means: Mapping[str, Mapping[str, float]] | None = None,
               formula: Any = None) -> dict[str, float]:
    """The expected stat changes of ops (dice at their mean), for the greedy bot's estimates.

    `formula(fid) -> value` evaluates formula amounts; chart rolls add the chart's mean row.
    """
    out: dict[str, float] = {}
    for op in ops:
        kind = op[0]
        if kind == DELTA:
            dice = op[3]
            amount = op[2] + dice * (op[4] + 1) / 2
            out[op[1]] = out.get(op[1], 0.0) + amount
        elif kind == FORMULA and formula is not None:
            out[op[1]] = out.get(op[1], 0.0) + op[3] * formula(op[2])
        elif kind == CHART and chart_means and op[1] in chart_means:
            for stat, amount in chart_means[op[1]].items():
                out[stat] = out.get(stat, 0.0) + amount
    return out
