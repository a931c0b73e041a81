"""Compiled tables of one GameDef: each track (effects per space, landing keys, the greedy
bot's estimates and option tables), each chart (the row for every roll) and each phase
(what its procedure reads, resolved once). Built by `rules.Rules`, read on the hot path."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from pnp.engine.api import (
    Effect,
    Estimate,
    Ops,
    OptionTable,
    compile_effect,
    constant_deltas,
    format_effect,
    mean_delta,
    single,
)

from .common import (
    _NOTHING,
    _POWER,
    AFTER,
    BEFORE,
    EXTRA,
    MOVE,
    NO,
    REROLL,
    STAY,
    STOP,
    _expected,
    _fast,
    _merge,
    _outcomes,
)
from .hints import OWNED_WORTH, estimate

if TYPE_CHECKING:
    from .rules import Rules


class TrackTable:
    """One track, precomputed: effects per space, landing keys, greedy estimates."""

    __slots__ = ("id", "n", "start", "loop", "owned", "leader", "ids", "keys", "owned_keys",
                 "effects", "timing", "fast", "alt_labels", "why_move", "why_start",
                 "why_occupied", "why_alt", "why_marked", "why_extra", "expect", "move_expect",
                 "alt_expect", "start_reroll_expect", "start_outcomes", "occupied_outcomes",
                 "extra_outcomes", "expect_by_id", "blocks", "sides", "judges", "occupied_tables",
                 "alt_tables")

    def __init__(self, rules: Rules, track: Any):
        self.id = track.id
        self.n = len(track.spaces)
        self.start = track.start_index
        self.loop = track.shape == "loop"
        self.owned = track.id in rules.owned_tracks
        #: a built (marked) space blocks movers like a pawn (interpretation built-wonder)
        self.blocks = self.owned and rules.built_blocks
        self.leader = track.id == rules.leader_track
        self.ids = [s.id for s in track.spaces]
        self.keys = [(track.id, s.id) for s in track.spaces]
        self.owned_keys = [f"{track.id}/{s.id}" for s in track.spaces]
        self.effects = [compile_effect(s.effect) for s in track.spaces]
        self.timing = [s.effect.timing if s.effect is not None else None for s in track.spaces]
        self.fast = [_fast(a, t) for a, t in zip(self.effects, self.timing, strict=True)]
        self.fast[self.start] = None
        self.fast = [None if f is None else rules.bounded(f) for f in self.fast]
        self.alt_labels = [
            [format_effect(Effect((alt,)), rules.abbr) for alt in s.effect.choices]
            if s.effect is not None and s.effect.is_choice else []
            for s in track.spaces]
        self.why_move = f"move {track.id}"
        self.why_start = f"start space {track.id}"
        self.why_occupied = f"occupied space {track.id}"
        self.why_alt = f"choose effect {track.id}"
        self.why_marked = f"marked space {track.id}"
        self.why_extra = f"extra roll {track.id}"
        # the greedy bot's view: expected stat changes of landing on each space, of a move
        self.expect = [estimate(rules, alts, timing)
                       for alts, timing in zip(self.effects, self.timing, strict=True)]
        self.expect[self.start] = {}
        if self.owned:  # an owned space pays every turn: worth several turns of its bonus
            self.expect = [{k: v * OWNED_WORTH for k, v in d.items()} for d in self.expect]
        self.expect = [Estimate(d) for d in self.expect]
        faces = _outcomes(rules.die_count, rules.die_sides)
        if isinstance(faces, dict):  # only the steps mod n (a loop) or up to n matter
            steps: dict[int, float] = {}
            for r, p in faces.items():
                k = r % self.n if self.loop else min(r, self.n)
                steps[k] = steps.get(k, 0.0) + p
            faces = steps
        self.move_expect = [_expected(faces, lambda r, i=i: self.expect[self.advance(i, r)])
                            for i in range(self.n)]
        self.alt_expect = [[Estimate(estimate(rules, (a,), None)) for a in alts]
                           for alts in self.effects]
        #: per space with alternatives (Builder: R+5 | W+1): the choice and its estimates
        self.alt_tables = [OptionTable(labels, expects) if len(labels) > 1 else None
                           for labels, expects in zip(self.alt_labels, self.alt_expect,
                                                      strict=True)]
        self.start_reroll_expect = _merge(self.move_expect[self.start], rules.start_cost)
        self.start_outcomes = OptionTable((STAY, REROLL), (_NOTHING, self.start_reroll_expect))
        #: per space: the occupied-space options' estimates (no war), as a lookup
        self.occupied_outcomes = []
        for i in range(self.n):
            table = {REROLL: self.move_expect[i]}
            for side in (BEFORE, AFTER):
                j = self.neighbour(i, side)
                if j is not None:
                    table[side] = self.expect[j]
            self.occupied_outcomes.append(table.get)
        #: per space: the neighbouring spaces the occupied-space rule offers, as (side, space)
        self.sides = [tuple((side, j) for side in (BEFORE, AFTER)
                            if side in rules.occupied_options
                            and (j := self.neighbour(i, side)) is not None)
                      for i in range(self.n)]
        #: per space, per set of free neighbours (bit k: the k-th of `sides`): the options of
        #: the occupied-space decision without war, with their estimates
        self.occupied_tables = [
            [OptionTable(opts, [self.occupied_outcomes[i](o) for o in opts])
             for free in range(1 << len(self.sides[i]))
             for opts in [[side for k, (side, _) in enumerate(self.sides[i]) if free >> k & 1]
                          + ([REROLL] if rules.occupied_reroll or not free else [])]]
            for i in range(self.n)]
        #: per space: a power holder's judge of a move roll from there (made on first use)
        self.judges: list[Callable[[int], dict[str, float]]] | None = None
        #: per space: the Populist's extra roll against keeping the power
        self.extra_outcomes = [OptionTable((EXTRA, NO), (self.move_expect[i], _POWER))
                               for i in range(self.n)]
        self.expect_by_id = dict(zip(self.ids, self.expect, strict=True)).get

    def advance(self, here: int, steps: int) -> int:
        if self.loop:
            return (here + steps) % self.n
        return min(max(here + steps, 0), self.n - 1)  # interpretation pre-history-end: stop

    def neighbour(self, here: int, side: str) -> int | None:
        j = here - 1 if side == BEFORE else here + 1
        if self.loop:
            return j % self.n
        return j if 0 <= j < self.n else None


class ChartTable:
    """One chart: the row for every roll value, with its ops, count key and short-stat rule."""

    def __init__(self, chart: Any):
        self.id = chart.id
        self.count = chart.die.count
        self.sides = chart.die.sides
        self.rows: dict[int, tuple[tuple[str, int], Ops, str | None]] = {}
        for value in range(self.count, self.count * self.sides + 1):
            row = chart.row_for(value)
            self.rows[value] = ((chart.id, row.low), single(row.effect), row.if_short)
        self.why = f"chart {chart.id}"
        self.reroll_event = f"{chart.id}-reroll"
        self.row_expect = {v: Estimate(mean_delta(ops)) for v, (_, ops, _) in self.rows.items()}
        self.mean = _expected(_outcomes(self.count, self.sides), self.row_expect.__getitem__)


class PhasePlan:
    """One phase of the turn, with everything its procedure reads resolved to tables."""

    __slots__ = ("id", "track", "cost_ops", "cost", "paid", "on_roll", "optional", "repeat",
                 "build_once", "option", "chart", "rolls", "conversions", "checks", "per_turn",
                 "after_table", "end", "why_pay", "fast_landing", "moves_only", "moving",
                 "pay_expect", "pay_only", "rolls_order", "pay_outcomes", "pay_only_outcomes",
                 "pay_need", "pay_bounded")

    def __init__(self, rules: Rules, ph: Any):
        self.id = ph.id
        self.track = rules.tracks[ph.track] if ph.track else None
        self.cost_ops = single(ph.cost)
        self.cost = constant_deltas(self.cost_ops)
        self.paid = ph.cost is not None
        self.on_roll = single(ph.on_roll)
        self.optional = ph.optional
        self.repeat = ph.repeat
        self.build_once = ph.build_once
        self.option = ph.option
        self.chart = rules.charts[ph.chart] if ph.chart else None
        self.rolls = rules.formulas[ph.rolls] if ph.rolls else None
        self.conversions = ph.conversions
        self.checks = tuple(rules.checks) if rules.every_phase_checks else ph.checks
        self.per_turn = ph.per_turn_bonuses
        self.after_table = ph.after_table
        self.end = ph.end_checks
        #: the phase that sets turn order when it is rolled once a turn (turn-order-once)
        self.rolls_order = ph.turn_order == "roll-high"
        self.why_pay = f"{ph.id}: pay to move"
        tt = self.track
        #: landings in this phase may take the inlined path (nothing to build)
        self.fast_landing = not self.build_once
        #: each player only rolls and moves on the track (ACGame.moves plays the phase)
        self.moves_only = (tt is not None and not self.paid and not self.per_turn
                           and self.chart is None and not self.conversions)
        #: what every move of this phase reads, gathered once for ACGame.moves
        self.moving = None if tt is None else (
            tt.id, tt.n, tt.start, tt.loop, tt.blocks, tt.fast if self.fast_landing else None,
            tt.why_move, tt.keys, tt.leader)
        #: (stat, the least a player must hold to pay the cost)
        self.pay_need = tuple((s, (rules.bounds[s][0] or 0) - v) for s, v in self.cost.items())
        self.pay_bounded = rules.fixed(self.cost_ops + self.on_roll)
        if tt is not None and self.paid:
            base = _merge(self.cost, constant_deltas(self.on_roll))
            self.pay_expect = [_merge(base, tt.move_expect[i]) for i in range(tt.n)]
            self.pay_only = base
            self.pay_tables()

    def pay_tables(self) -> None:
        """The pay-or-stop decision's estimates per pawn position, as lookups."""
        self.pay_outcomes = [OptionTable((MOVE, STOP), (e, _NOTHING)) for e in self.pay_expect]
        self.pay_only_outcomes = OptionTable((MOVE, STOP), (self.pay_only, _NOTHING))
