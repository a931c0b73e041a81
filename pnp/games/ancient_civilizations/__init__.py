"""Ancient Civilizations: the rulebook as straight-line procedures over the GameDef.

Every number (caps, costs, thresholds, chart rows, war parameters, the setup bonus, the turn cap)
comes from the data; every ambiguity follows game.yaml's `interpretations:` (the reading each
procedure follows is named in its docstring), and each variant's override changes what runs.
Dice go through `ctx.roll`, decisions through `ctx.choose`; nothing here draws randomness.
Tables that only depend on the data (per-track effects, greedy estimates, phase plans) are
built once per GameDef by `rules_for`.
"""

from __future__ import annotations

import operator
from collections import Counter
from collections.abc import Callable, Sequence
from operator import itemgetter
from typing import Any

from pnp.data.effects import PER_TURN, THIS_TURN, Effect, format_effect
from pnp.data.model import Condition, GameDef
from pnp.engine.core import (
    MAIN,
    OVER,
    PREGAME,
    BotHints,
    Context,
    Estimate,
    GameMeta,
    OptionTable,
    PlayerState,
    State,
)
from pnp.engine.dice import ENUMERATED, add_dice, compare, distribution, enumerable
from pnp.engine.effects_runtime import (
    ABILITY,
    DELTA,
    EffectRunner,
    Ops,
    StatBook,
    compile_effect,
    constant_deltas,
    mean_delta,
    single,
)
from pnp.engine.module import ScenarioProblem, per_definition, vars_problems
from pnp.engine.result import ALL_OUT, COMPLETED, TIMEOUT, Elimination

ENGINE = "ancient-civilizations"

# Decision option labels (what bots see, what logs and scenarios write).
KEEP, REROLL, STAY, WAR, BEFORE, AFTER = "keep", "reroll", "stay", "war", "before", "after"
MOVE, STOP, DONE, NONE = "move", "stop", "done", "none"
EXTRA, NO = "extra-roll", "no"
ACCEPT, DECLINE = "accept", "decline"

_OPS = {"<": operator.lt, ">": operator.gt, "<=": operator.le, ">=": operator.ge,
        "==": operator.eq, "!=": operator.ne}

#: greedy bot: what one point of a stat is worth (a heuristic, not a rule; see docs/engine.md)
BOT_VALUES = {"victory-points": 10.0, "territories": 6.0, "population": 3.0, "culture": 2.5,
              "infrastructure": 1.5, "wonders": 4.0, "military": 1.2, "ideas": 1.0,
              "stability": 1.0, "zeal": 0.8, "gold": 0.8, "resources": 0.8, "food": 0.6,
              "power": 3.0}
#: greedy bot: an owned space (a wonder) is valued as this many turns of its per-turn bonus
OWNED_WORTH = 5
#: greedy bot, spending a stat that has a reserve (Food: the famine line plus the worst single
#: loss a move can bring): a point spent from above the reserve counts at this share of its
#: value (it is surplus, soon clipped at the cap), a point from below it at this share
SURPLUS_SHARE, RESERVE_SHARE = 0.5, 2.0
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


# --------------------------------------------------------------------------- compiled rules


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
        self.expect = [rules.estimate(alts, timing)
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
        self.alt_expect = [[Estimate(rules.estimate((a,), None)) for a in alts]
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


class Rules:
    """Everything the procedures need from a GameDef, precomputed once per definition."""

    def __init__(self, game: GameDef):
        self.game = game
        self.stat_ids = [s.id for s in game.stats.values() if not s.derived]
        self.derived = {s.id: game.formulas[s.derived] for s in game.stats.values()
                        if s.derived and s.derived in game.formulas}
        self.bounds = {s.id: (s.min, s.cap) for s in game.stats.values() if not s.derived}
        #: (stat, amount) pairs -> (stat, amount, min, cap): the bounds looked up once
        self.bounded = StatBook(self.bounds, Counter(), Counter()).bounded
        self.abbr = {s.id: s.short for s in game.stats.values()}
        self.formulas = game.formulas
        die = _need(game, "movement", "die")
        self.die_count, self.die_sides = die.count, die.sides
        start_rule = game.rule("movement", "start_space", default={})
        self.start_benefit = bool(start_rule.get("benefit", False))
        self.start_cost_ops = single(start_rule.get("reroll_cost"))
        self.start_cost = constant_deltas(self.start_cost_ops)
        self.start_reroll = bool(self.start_cost_ops)
        self.start_cost_changes = self.fixed(self.start_cost_ops)
        #: a move ending on a start space beside an opponent still offers war or trade
        #: (variant start-space-options; interpretation start-space-opponents says no)
        self.start_options = bool(start_rule.get("opponent_options", False))
        occupied = game.rule("movement", "occupied_space", default={})
        self.occupied_options = tuple(occupied.get("options", ()))
        self.occupied_reroll = REROLL in self.occupied_options
        self.start_shared = bool(occupied.get("start_space_shared", True))
        self.markers_on = tuple(game.rule("movement", "markers_on", default=()))
        self.built_blocks = game.rule("movement", "built_wonder") == "occupied"
        pre = game.rule("pregame", default={})
        self.pregame_track = game.rule("setup", "pregame") or pre.get("track")
        self.marked_space = pre.get("marked_space", "move-to-any-unmarked")
        self.setup_bonus = single(game.rule("setup", "bonus"))
        group = game.rule("setup", "pawn_on_start_of_each")
        self.main_tracks = tuple(game.track_groups.get(group, ())) if group else tuple(
            t for t in game.tracks if t != self.pregame_track)
        self.leader_track = next((p.track for p in game.phases if p.id == "leader"), None)
        self.owned_tracks = tuple(dict.fromkeys(p.track for p in game.phases
                                                if p.build_once and p.track))
        self.charts = {cid: ChartTable(chart) for cid, chart in game.charts.items()}
        self.chart_means = {cid: t.mean for cid, t in self.charts.items()}
        #: chart -> roll -> the row's fixed changes (None: dice, abilities or a short rule)
        self.chart_changes = {cid: {v: self.fixed(ops) if if_short is None else None
                                    for v, (_, ops, if_short) in t.rows.items()}
                              for cid, t in self.charts.items()}
        self.tracks = {tid: TrackTable(self, t) for tid, t in game.tracks.items()}
        self.track_starts = {tid: t.start for tid, t in self.tracks.items()}
        # abilities that last (this turn / per turn) become powers, keyed "track/space"
        self.powers: dict[str, tuple[str, tuple]] = {}
        for tt in self.tracks.values():
            for i, alts in enumerate(tt.effects):
                if tt.timing[i] in (THIS_TURN, PER_TURN):
                    for op in (op for alt in alts for op in alt if op[0] == ABILITY):
                        self.powers[tt.owned_keys[i]] = (op[1], op[2])
        self.checks = {cid: (*_cond(c.when), single(c.effect)) for cid, c in game.checks.items()}
        self.every_phase_checks = game.rule("check_timing") == "every-phase"
        #: interpretation turn-order: rolled anew every phase; turn-order-once: once a turn
        self.order_once = game.rule("turn_order_timing") == "once-per-turn"
        self.conversions = {
            cid: (single(c.pay), constant_deltas(single(c.pay)), single(c.gain), c.mandatory,
                  c.repeat, f"conversion {cid}")
            for cid, c in game.conversions.items()}
        #: conversion -> (its payment, its gain) as fixed changes, or None
        self.conversion_changes = {
            cid: (pay, gain) if (pay := self.fixed(c[0])) is not None
            and (gain := self.fixed(c[2])) is not None else None
            for cid, c in self.conversions.items()}
        #: conversion -> its paying stats' values, as the key of its option tables
        self.convert_keys = {cid: _values_of(tuple(c[1])) for cid, c in self.conversions.items()}
        self.tables: dict[str, tuple[str, list[tuple[str, int, Ops]], Callable]] = {}
        self.table_rows: dict[str, dict[str, tuple[str, int, Ops]]] = {}
        #: (table, row label) -> what the row buys, as fixed changes, or None
        self.purchase_changes: dict[tuple[str, str], Bounded | None] = {}
        #: (table, what the payer can spend) -> the purchase options (they depend on nothing else)
        self.purchase_menus: dict[tuple[str, int], OptionTable] = {}
        #: (stats given, stat received, what can be given of each) -> (offers, deals)
        self.exchange_menus: dict[tuple, tuple[OptionTable, dict[str, tuple[str, int]]]] = {}
        for tid, table in game.tables.items():
            rows: list[tuple[str, int, Ops]] = []
            for row in table.rows:
                label = format_effect(row.buys, self.abbr)
                while any(r[0] == label for r in rows):
                    label += "'"
                rows.append((label, row.cost, single(row.buys)))
                self.purchase_changes[(tid, label)] = self.fixed(rows[-1][2])
            pay = table.pay or ""
            expect = {label: _merge({pay: -cost}, mean_delta(ops)) for label, cost, ops in rows}
            expect[DONE] = _NOTHING
            self.tables[tid] = (pay, rows, expect.get)
            self.table_rows[tid] = {row[0]: row for row in rows}  # labels are unique
        self.phases = [PhasePlan(self, ph) for ph in game.phases]
        self.phase_ids = tuple(p.id for p in self.phases)
        war = game.rule("options", "war", default={})
        self.war_to_start = bool(war.get("aggressor_to_start", False))
        self.war_loss = single(war.get("loss"))
        wroll = war.get("roll")
        self.war_count, self.war_sides = (wroll.count, wroll.sides) if wroll else (
            self.die_count, self.die_sides)
        self.war_bonus = int(war.get("higher_military_bonus", 0))
        #: interpretation war-bonus-timing: Military compared after both losses (or before)
        self.war_bonus_after_loss = war.get("bonus_compared", "after-loss") == "after-loss"
        self.war_steals = constant_deltas(single(war.get("winner_steals")))
        self.war_aggressor_steals = constant_deltas(single(war.get("aggressor_win_steals")))
        self.war_stat = next((op[1] for op in self.war_loss if op[0] == DELTA), "")
        faces = _outcomes(self.war_count, self.war_sides)
        self.war_odds = {}  # aggressor's roll bonus -> (P(aggressor wins), P(defender wins))
        for bonus in {-self.war_bonus, 0, self.war_bonus}:
            if isinstance(faces, dict):
                wins, losses, _ = compare({a + bonus: p for a, p in faces.items()}, faces)
                self.war_odds[bonus] = (wins, losses)
                continue
            diffs = [a - b + bonus for a in faces for b in faces]
            self.war_odds[bonus] = (sum(d > 0 for d in diffs) / len(diffs),
                                    sum(d < 0 for d in diffs) / len(diffs))
        trade = game.rule("options", "trade", default={})
        self.trade_gain = single(trade.get("both_gain"))
        self.trade_gain_changes = self.fixed(self.trade_gain)
        self.trade_stats = tuple(s for s in trade.get("exchange", ()) if s)
        self.trade_offers = [(f"{self.abbr[g]}-{kg} {self.abbr[r]}+{kr}", g, kg, r, kr)
                             for g in self.trade_stats for r in self.trade_stats if g != r
                             for kg in TRADE_LOTS for kr in TRADE_LOTS]
        #: the greedy view of each offer (for the mover) and of each answer (for the other)
        offer_expect = {NONE: _NOTHING}
        self.trade_answers: dict[str, OptionTable] = {}
        for label, g, kg, r, kr in self.trade_offers:
            offer_expect[label] = Estimate({g: -kg, r: kr})
            self.trade_answers[label] = OptionTable((ACCEPT, DECLINE),
                                                    (Estimate({g: kg, r: -kr}), _NOTHING))
        self.trade_offer_outcomes = offer_expect.get
        self.trade_deals = {label: (g, kg, r, kr) for label, g, kg, r, kr in self.trade_offers}
        #: the trade offers open to a mover, by both sides' holdings (capped at the top lot)
        self.trade_menus: dict[tuple[int, ...], OptionTable] = {}
        end = game.rule("end", default={})
        ends = end.get("game_ends_when")
        self.game_end = _cond(ends) if ends else None
        self.eliminated_when = tuple(_cond(c) for c in end.get("eliminated_when", ()) if c)
        self.eliminate_now = end.get("elimination_timing") == "immediate"
        self.max_turns = int(_need(game, "end", "max_turns"))
        self.score_stat = self._stat_named(str(_need(game, "end", "winner")))
        self.reserve = self._reserves()
        self.single_use = self._single_use()
        self.bot_values = dict(BOT_VALUES)
        for plan in self.phases:  # a single-use currency is worth what it buys, per point
            if plan.track is not None and plan.paid:
                for stat, k in plan.cost.items():
                    if stat in self.single_use and k < 0:
                        tt = plan.track
                        moves = [self.value(tt.move_expect[i]) for i in range(tt.n)]
                        self.bot_values[stat] = sum(moves) / len(moves) / -k
        for plan in self.phases:  # paying in it costs nothing it could have bought instead
            if plan.track is not None and plan.paid and any(
                    s in self.single_use for s in plan.cost):
                tt = plan.track
                sunk = {s: v for s, v in plan.cost.items() if s not in self.single_use}
                base = _merge(sunk, constant_deltas(plan.on_roll))
                plan.pay_expect = [_merge(base, tt.move_expect[i]) for i in range(tt.n)]
                plan.pay_tables()
        self._war_odds: dict[tuple[int, int], tuple[float, float]] = {}
        #: (conversion, paying stats' values) -> (options, their estimates)
        self.convert_tables: dict[tuple, OptionTable] = {}
        #: (judge, dice count, sides) -> the judged average of a reroll; the judges are made
        #: once (per track space, per stat and sign), so the averages are worked out once
        self.reroll_estimates: dict[tuple, Estimate] = {}
        self.amount_judges: dict[tuple[str, int], Callable[[int], dict[str, float]]] = {}
        #: (judge, dice, sides, roll, powers held) -> the power decision on that roll
        self.power_tables: dict[tuple, OptionTable | tuple[str, ...]] = {}
        self.war_loss_faces = self._loss_faces(self.war_loss, self.war_stat)
        self.why_order = "turn order"
        self.why_amount = {s: f"amount {s}" for s in self.bounds}
        self.why_power = "use a power on the roll"
        self.metadata: GameMeta | None = None
        self.bot_hints: BotHints | None = None

    def fixed(self, ops: Ops) -> Bounded | None:
        """Ops that are only fixed stat changes as (stat, amount, min, cap), for
        `ACGame.add_changes`; None when they roll dice, use a formula or grant anything."""
        pairs = _fast((ops,), None)
        return None if pairs is None else self.bounded(pairs)

    def value(self, d: dict[str, float]) -> float:
        """An estimate's worth at the bots' base values (for deriving other values)."""
        return sum(BOT_VALUES.get(k, 1.0) * v for k, v in d.items())

    def _reserves(self) -> dict[str, int]:
        """Stat -> the level a greedy player keeps before spending it: the line a check fires
        below (Food: famine) plus the worst single loss any space can bring."""
        worst: dict[str, int] = {}
        for tt in self.tracks.values():
            for alts in tt.effects:
                for op in (op for alt in alts for op in alt if op[0] == DELTA):
                    loss = -(op[2] + (op[3] * op[4] if op[3] < 0 else op[3]))
                    if loss > 0:
                        worst[op[1]] = max(worst.get(op[1], 0), loss)
        out: dict[str, int] = {}
        for stat, op, value, _ in self.checks.values():
            if op in (operator.lt, operator.le) and stat in worst:
                line = value if op is operator.lt else value + 1
                out[stat] = max(out.get(stat, 0), line + worst[stat])
        return out

    def _single_use(self) -> frozenset[str]:
        """Stats that only pay for one phase's moves (Wonder Points, Ideas): nothing else in
        the rules spends them, so they are worth what those moves bring."""
        paid: dict[str, int] = {}
        for plan in self.phases:
            for stat, k in plan.cost.items():
                if k < 0:
                    paid[stat] = paid.get(stat, 0) + 1
        other = set(self.start_cost) | set(self.trade_stats)
        other |= {pay for pay, _, _ in self.tables.values()}
        other |= {s for c in self.conversions.values() for s in c[1]}
        for tt in self.tracks.values():
            for alts in tt.effects:
                for op in (op for alt in alts for op in alt if op[0] == ABILITY):
                    other.update(a for a in op[2] if a in self.bounds)
        return frozenset(s for s, n in paid.items() if n == 1 and s not in other)

    def _loss_faces(self, ops: Ops, stat: str) -> Outcomes:
        """Every equally likely total change of `stat` that ops bring (the war loss); past
        dice.ENUMERATED combinations, the distribution of the total."""
        mine = [op for op in ops if op[0] == DELTA and op[1] == stat]
        combinations = 1
        for op in mine:
            combinations *= op[4] ** abs(op[3]) if op[3] else 1
        if combinations > ENUMERATED:
            dist = {0: 1.0}
            for op in mine:
                dist = {t + op[2]: p for t, p in dist.items()}
                if op[3]:
                    dist = add_dice(dist, abs(op[3]), op[4], -1 if op[3] < 0 else 1)
            return dist
        totals = [0]
        for op in mine:
            sign = -1 if op[3] < 0 else 1
            faces = _faces(abs(op[3]), op[4]) if op[3] else [0]
            totals = [t + op[2] + sign * f for t in totals for f in faces]
        return totals

    def war_odds_at(self, mine: int, theirs: int) -> tuple[float, float]:
        """(P(aggressor wins), P(defender wins)) from the two Military scores at declaration:
        the +2 goes by the scores after both losses (interpretation war-bonus-timing), so the
        chances are averaged over the loss dice; before-loss compares the scores as they are."""
        key = (mine, theirs)
        hit = self._war_odds.get(key)
        if hit is not None:
            return hit
        bonus = self.war_bonus
        if not self.war_bonus_after_loss:
            odds = self.war_odds[bonus if mine > theirs else -bonus if theirs > mine else 0]
        else:
            lo, hi = self.bounds[self.war_stat]
            def after(v: int) -> int:
                return max(lo, v) if hi is None else min(hi, max(lo, v))
            faces = self.war_loss_faces
            if isinstance(faces, dict):  # large loss dice: the two scores' distributions
                mine_after: dict[int, float] = {}
                theirs_after: dict[int, float] = {}
                for la, p in faces.items():
                    a, d = after(mine + la), after(theirs + la)
                    mine_after[a] = mine_after.get(a, 0.0) + p
                    theirs_after[d] = theirs_after.get(d, 0.0) + p
                ahead, behind, level = compare(mine_after, theirs_after)
                total = ahead + behind + level or 1.0
                odds = tuple((ahead * self.war_odds[bonus][k] + behind * self.war_odds[-bonus][k]
                              + level * self.war_odds[0][k]) / total for k in (0, 1))
                if len(self._war_odds) < 4096:
                    self._war_odds[key] = odds
                return odds
            pw = pl = 0.0
            for la in faces:
                a = after(mine + la)
                for ld in faces:
                    d = after(theirs + ld)
                    w, lose = self.war_odds[bonus if a > d else -bonus if d > a else 0]
                    pw += w
                    pl += lose
            n = len(faces) ** 2
            odds = (pw / n, pl / n)
        if len(self._war_odds) < 4096:
            self._war_odds[key] = odds
        return odds

    def _stat_named(self, rule: str) -> str:
        """The stat a 'most VP' winner rule names (by id, name, abbreviation or alias)."""
        name = rule.removeprefix("most ").strip().lower()
        for s in self.game.stats.values():
            if name in {s.id.lower(), s.name.lower(), s.abbreviation.lower(),
                        *(a.lower() for a in s.aliases)}:
                return s.id
        raise MissingRule(f"{self.game.id}: end/winner '{rule}' names no stat")

    def estimate(self, alts: tuple[Ops, ...], timing: str | None) -> dict[str, float]:
        """Greedy estimate of an effect: the best alternative's mean stat changes."""
        best: dict[str, float] = {}
        best_value = None
        for alt in alts:
            d = mean_delta(alt, self.chart_means, self._nominal_formula)
            for op in alt:
                if op[0] == ABILITY:
                    key = "power" if timing else op[1]
                    d[key] = d.get(key, 0.0) + 1.0
            value = sum(BOT_VALUES.get(k, 1.0) * v for k, v in d.items())
            if best_value is None or value > best_value:
                best, best_value = d, value
        return best

    def spend(self, stats: dict[str, int], stat: str, amount: int) -> float:
        """Greedy's view of paying `amount` of `stat` (a negative change): points above the
        stat's reserve are surplus and count less, points below it count more."""
        keep = self.reserve.get(stat)
        if keep is None:
            return float(-amount)
        above = min(amount, max(0, stats[stat] - keep))
        return -(SURPLUS_SHARE * above + RESERVE_SHARE * (amount - above))

    def _nominal_formula(self, fid: str) -> float:
        """A formula at the stat's value right after setup (estimates only)."""
        f = self.formulas.get(fid)
        if f is None:
            return 0.0
        base = self.game.stats[f.stat].start if f.stat in self.game.stats else 0
        base += constant_deltas(self.setup_bonus).get(f.stat, 0)
        return float(f.evaluate(base))

    def meta(self) -> GameMeta:
        g = self.game
        return GameMeta(
            game=g.id, players_min=g.players_min, players_max=g.players_max,
            max_turns=self.max_turns, counter_bounds=dict(self.bounds), has_chance=True,
            phases=self.phase_ids, score_counter=self.score_stat,
            derived_counters=tuple(self.derived), bot_values=dict(self.bot_values))

    def hints(self) -> BotHints:
        """The greedy bot's danger floors (every check or elimination of the form `stat < n`)
        and the setup bonus it judges pregame caps and floors by."""
        floors: dict[str, int] = {}
        for stat, op, value in [*(c[:3] for c in self.checks.values()), *self.eliminated_when]:
            if op in (operator.lt, operator.le):
                line = value if op is operator.lt else value + 1
                floors[stat] = max(floors.get(stat, line), line)
        return BotHints(floors=floors, pregame_offsets=constant_deltas(self.setup_bonus))


#: the compiled rules of a definition: tables are built once per GameDef
rules_for = per_definition(Rules)


# --------------------------------------------------------------------------- module API


def metadata(game: GameDef) -> GameMeta:
    """What the game declares (one object per definition, so bots can share their tables)."""
    r = rules_for(game)
    if r.metadata is None:
        r.metadata = r.meta()
    return r.metadata


def bot_hints(game: GameDef) -> BotHints:
    """The greedy bot's danger floors and pregame offsets (one object per definition, like
    the metadata, so bots share their digests)."""
    r = rules_for(game)
    if r.bot_hints is None:
        r.bot_hints = r.hints()
    return r.bot_hints


def new_state(game: GameDef, players: int) -> State:
    """Before the pregame: every stat at its start value, one pawn on the Pre-History start."""
    r = rules_for(game)
    stats = {s: game.stats[s].start for s in r.stat_ids}
    pos = {r.pregame_track: r.tracks[r.pregame_track].start} if r.pregame_track else {}
    markers: dict[str, list[int]] = {t: [] for t in r.markers_on}
    return State([PlayerState(dict(stats), dict(pos), vars={"powers": [], "owned": [], "leader": ""})
                  for _ in range(players)], markers)


def main_state(game: GameDef, players: int) -> State:
    """The state right after setup, the pregame skipped (scenarios start from here)."""
    state = new_state(game, players)
    ACGame(rules_for(game), None, state).setup()
    return state


def play(game: GameDef, ctx: Context, max_turns: int | None = None) -> None:
    """Play from ctx.state until the game ends or the turn cap is reached."""
    r = rules_for(game)
    ACGame(r, ctx, ctx.state).play(r.max_turns if max_turns is None else max_turns)


def finish(game: GameDef, ctx: Context) -> None:
    """Fill the GameResult from the final state."""
    r = rules_for(game)
    st = ctx.state
    res = ctx.result
    res.turns = st.turn
    res.ended = st.ended or TIMEOUT
    res.winners = tuple(st.winners)
    res.scores = tuple(p.counters.get(r.score_stat, 0) for p in st.players)
    if res.winners:
        top = res.scores[res.winners[0]]
        # an eliminated player has lost outright: the margin is over the players still in
        rest = [s for i, s in enumerate(res.scores)
                if i not in res.winners and not st.players[i].out]
        res.margin = 0 if len(res.winners) > 1 or not rest else top - max(rest)
    res.final_stats = [final_stats(r, p) for p in st.players]
    res.rolls = ctx.rolls
    res.decisions = ctx.decisions


def player_counters(game: GameDef, p: PlayerState) -> dict[str, int]:
    """A player's counters as the record page shows them (derived ones included)."""
    return final_stats(rules_for(game), p)


def coverage_keys(game: GameDef) -> dict[str, list[str]]:
    """Nothing beyond the track spaces and chart rows the report already covers (the chart
    cards are references to hold, not cards that are played)."""
    return {}


def invariants(game: GameDef, state: State, label: str) -> list[str]:
    """This game's own invariants: one pawn per non-start space of a track, pawns on their
    tracks, each wonder owned once and marked, and no power of the turn outliving the End
    Phase."""
    r = rules_for(game)
    out: list[str] = []
    starts = r.track_starts
    pawns = [(track, space) for p in state.players if not p.out
             for track, space in p.pos.items() if starts.get(track) != space]
    if len(set(pawns)) != len(pawns):  # found again one by one only when something is wrong
        seen: set[tuple[str, int]] = set()
        for pawn in pawns:
            if pawn in seen:
                out.append(f"two pawns share a non-start space on the {pawn[0]} track")
            seen.add(pawn)
    for track, space in pawns:
        tt = r.tracks.get(track)
        if tt is None:
            out.append(f"a pawn is on {track}, which is not a track")
        elif not 0 <= space < tt.n:
            out.append(f"a pawn is off the {track} track")
    owned_by: dict[str, int] = {}
    for seat, p in enumerate(state.players):
        for key in p.vars.get("owned", ()):
            if key in owned_by:
                out.append(f"{key} is owned twice")
            owned_by[key] = seat
    if owned_by != state.owners:
        out.append("the owners on the board do not match what the players own")
    for key in state.owners:
        track, _, _ = key.partition("/")
        if track not in state.markers:
            out.append(f"owned space {key} is on a track without markers")
    for track, marks in state.markers.items():
        if len(set(marks)) != len(marks):
            out.append(f"a space on the {track} track is marked twice")
    if r.phase_ids and label == r.phase_ids[-1] and \
            any(p.vars.get("powers") for p in state.players):
        out.append("powers of the turn outlived the End Phase")
    return out


#: a scenario's space resolver: (reference, tracks to look on) -> 'track/space'
Keyed = Callable[[Any, Any], str]


def _set_powers(game: GameDef, state: State, seat: int, refs: list, keyed: Keyed) -> None:
    powers = rules_for(game).powers
    for ref in refs:
        key = keyed(ref, game.tracks)
        if key not in powers:
            raise ValueError(f"'{ref}' grants no power that lasts the turn")
        state.players[seat].vars["powers"].append(key)


def _set_owned(game: GameDef, state: State, seat: int, refs: list, keyed: Keyed) -> None:
    for ref in refs:
        key = keyed(ref, rules_for(game).owned_tracks)
        track, _, sid = key.partition("/")
        state.players[seat].vars["owned"].append(key)
        state.owners[key] = seat
        index = game.tracks[track].space(sid).index
        marks = state.markers.setdefault(track, [])
        if index not in marks:
            marks.append(index)


def _set_leader(game: GameDef, state: State, seat: int, value: Any, keyed: Keyed) -> None:
    state.players[seat].vars["leader"] = str(value)


def _space_key(game: GameDef, ref: Any, tracks: Any) -> str | None:
    """'track/space' for a scenario's 'space' or 'track/space' (id or name), or None."""
    ref = str(ref).lower()
    if "/" in ref:
        name, _, ref = ref.partition("/")
        tracks = [t.id for t in game.tracks.values()
                  if name in (t.id, t.name.lower(), *(a.lower() for a in t.aliases))]
    for tid in tracks:
        for s in game.tracks[tid].spaces:
            if ref in (s.id, s.name.lower()):
                return f"{tid}/{s.id}"
    return None


def check_scenario(game: GameDef, state: State, spec: dict) -> list[ScenarioProblem]:
    """A scenario's values before play: no vars (powers, owned spaces and the leader have their
    own keys); `powers` name spaces granting a power for the turn, `owned` spaces on a track
    with markers, owned by one seat, `leader` a space of the Leader track."""
    r = rules_for(game)
    hint = "set powers, owned and leader with their own keys"
    out = vars_problems(spec.get("vars"), {}, ("vars",), hint)
    owners: dict[str, int] = {}
    for j, ps in enumerate(spec.get("players") or []):
        out += vars_problems(ps.get("vars"), {}, ("players", j, "vars"), hint)
        for k, ref in enumerate(ps.get("powers") or []):
            key = _space_key(game, ref, game.tracks)
            if key is None or key not in r.powers:
                out.append(ScenarioProblem(("players", j, "powers", k), f"'{ref}' grants no "
                                           "power that lasts the turn",
                                           "powers: " + ", ".join(sorted(r.powers))))
        for k, ref in enumerate(ps.get("owned") or []):
            key = _space_key(game, ref, r.owned_tracks)
            path = ("players", j, "owned", k)
            if key is None:
                out.append(ScenarioProblem(path, f"no space '{ref}' to own on the tracks "
                                           f"{', '.join(r.owned_tracks) or '(none)'}",
                                           "name a wonder (or another space with a marker)"))
            elif key in owners:
                out.append(ScenarioProblem(path, f"{key} is owned by one player only",
                                           "give it to one seat"))
            else:
                owners[key] = j
        if "leader" in ps:
            leaders = ([s.id for s in game.tracks[r.leader_track].spaces]
                       if r.leader_track in game.tracks else [])
            if str(ps["leader"]) not in ("", *leaders):
                out.append(ScenarioProblem(("players", j, "leader"), f"no leader "
                                           f"'{ps['leader']}'", "leaders: "
                                           + (", ".join(leaders) or "none in this game")))
    return out


def scenario_fields() -> dict[str, tuple[Callable, Callable]]:
    """Per-player scenario keys of this game: key -> (set, (expected, actual))."""
    return {
        "powers": (_set_powers, lambda g, st, seat, want, keyed: (
            sorted(keyed(r, g.tracks) for r in want), sorted(st.players[seat].vars["powers"]))),
        "owned": (_set_owned, lambda g, st, seat, want, keyed: (
            sorted(keyed(r, g.tracks) for r in want), sorted(st.players[seat].vars["owned"]))),
        "leader": (_set_leader, lambda g, st, seat, want, keyed: (
            want, st.players[seat].vars["leader"])),
    }


def final_stats(r: Rules, p: PlayerState) -> dict[str, int]:
    """A player's stats with the derived ones (Cities) filled in."""
    out = dict(p.counters)
    for sid, f in r.derived.items():
        out[sid] = f.evaluate(p.counters.get(f.stat, 0))
    return out


class _Forget(dict):
    """A counter that keeps nothing (setup outside a played game)."""

    def __missing__(self, key: Any) -> int:
        return 0

    def __setitem__(self, key: Any, value: Any) -> None:
        pass


# --------------------------------------------------------------------------- the rules


def _landing_judge(tt: TrackTable, here: int) -> Callable[[int], dict[str, float]]:
    """A move roll's worth to a power holder: what the space it reaches gives."""
    def judge(v: int) -> dict[str, float]:
        return tt.expect[tt.advance(here, v)]
    return judge


def _amount_judge(stat: str, sign: int) -> Callable[[int], dict[str, float]]:
    """A dice amount's worth to a power holder: the amount itself."""
    def judge(v: int) -> dict[str, float]:
        return {stat: sign * v}
    return judge


def _war_judge(v: int) -> dict[str, float]:
    """A war roll's worth to a power holder: the roll itself."""
    return {"war": float(v)}


class ACGame(EffectRunner):
    """One game being played: the rulebook's procedures over a State, through a Context."""

    def __init__(self, rules: Rules, ctx: Context | None, state: State):
        self.r = rules
        self.ctx = ctx
        self.state = state
        self.players = state.players
        self.stat_rows = [p.counters for p in state.players]
        self.book = (StatBook(rules.bounds, ctx.result.cap_clips, ctx.result.floor_clips) if ctx
                     else StatBook(rules.bounds, _Forget(), _Forget()))
        self.phase_id = "pregame" if state.stage == PREGAME else ""
        if ctx is not None:
            self.roll = ctx.roll
            self.roll_high = ctx.roll_high
            self.choose = ctx.choose
            self.event = ctx.event
            self.spaces = ctx.result.space_counts
            self.chart_counts = ctx.result.chart_counts
        #: fixed stat changes (stats, Bounded): `apply` of ops that are only that, cheaper
        self.add_changes = self.book.add_bounded
        if rules.eliminate_now:
            self.apply = self._apply_then_eliminate
            self.add_changes = self._changes_then_eliminate
        self.single_die = rules.die_count == 1
        self.set_live()

    def set_live(self) -> None:
        """Seats still in the game in seat order, and that order started from each of them."""
        self.live = live = [i for i, p in enumerate(self.players) if not p.out]
        #: seat -> the live seats clockwise from it (turn order once that seat rolls highest)
        self.rotations = {seat: live[k:] + live[:k] for k, seat in enumerate(live)}
        #: per seat, the other players still in, as (seat, pawn positions)
        self.others = [[(q, self.players[q].pos) for q in live if q != seat]
                       for seat in range(len(self.players))]
        #: ... and their pawn positions alone (the scans that need no seat)
        self.other_pos = [[pos for _, pos in others] for others in self.others]

    # ---------------------------------------------------------------- EffectRunner hooks
    def roll_amount(self, seat: int, count: int, sides: int, stat: str, sign: int) -> int:
        judge = None
        if count == 1 and not self.players[seat].vars["powers"]:
            return self.roll(sides, self.r.why_amount[stat], seat)
        if self.players[seat].vars["powers"]:
            judge = self.r.amount_judges.get((stat, sign))
            if judge is None:
                judge = self.r.amount_judges[(stat, sign)] = _amount_judge(stat, sign)
        return self.player_roll(seat, count, sides, self.r.why_amount[stat], judge)

    def formula_value(self, seat: int, formula: str) -> int:
        f = self.r.formulas[formula]
        return f.evaluate(self.players[seat].counters[f.stat])

    def roll_chart(self, seat: int, chart: str) -> None:
        """Roll on a chart. A row marked `if_short: lose-all-and-reroll` whose loss is more than
        the stat held empties it and rolls again, and again (interpretation defeat-short-gold);
        the defeat-no-reroll variant marks those rows `lose-all`: the stat empties, no reroll."""
        t = self.r.charts[chart]
        p = self.players[seat]
        while True:
            if t.count == 1 and not p.vars["powers"]:
                v = self.roll(t.sides, t.why, seat)
            else:
                v = self.player_roll(seat, t.count, t.sides, t.why,
                                     t.row_expect.get if p.vars["powers"] else None)
            key, ops, if_short = t.rows[v]
            counts = self.chart_counts
            counts[key] = counts.get(key, 0) + 1
            changes = self.r.chart_changes[chart][v]
            if changes is not None:  # fixed changes, no short rule: nothing more to decide
                self.add_changes(p.counters, changes)
                return
            short = self.apply(seat, ops, t.why)
            if short and if_short == "lose-all-and-reroll" and not p.out:
                self.event(t.reroll_event, seat)
                continue
            return

    def use_ability(self, seat: int, name: str, args: tuple, source: str) -> None:
        if name == "steal":
            self.steal(seat, args[0], int(args[1]))
        elif name == "exchange":
            self.exchange(seat, args[:-1], args[-1])
        # reroll / adjust / extra_roll only exist as powers (granted by grant())

    def _apply_then_eliminate(self, seat: int, ops: Ops, source: str = "") -> bool:
        short = EffectRunner.apply(self, seat, ops, source)
        if self.state.stage == MAIN:
            self.eliminations_now()
        return short

    def _changes_then_eliminate(self, stats: dict[str, int], changes: Bounded) -> None:
        self.book.add_bounded(stats, changes)
        if self.state.stage == MAIN:
            self.eliminations_now()

    # ---------------------------------------------------------------- the game
    def play(self, max_turns: int) -> None:
        """Pregame and setup, then turns of the 16 phases until the game ends or the cap."""
        st = self.state
        if st.stage == PREGAME:
            if self.r.pregame_track:
                self.pregame()
            self.setup()
            self.ctx.step("pregame")
        phases = self.r.phases
        last = len(phases) - 1
        step = self.ctx.step
        while st.stage == MAIN:
            if st.turn > max_turns:
                st.stage, st.ended, st.turn = OVER, TIMEOUT, max_turns
                st.winners = self.leaders()
                return
            plan = phases[st.phase]
            self.phase_id = plan.id
            self.play_phase(plan)
            if st.stage == MAIN:
                if st.phase < last:
                    st.phase += 1
                else:
                    st.phase = 0
                    st.turn += 1
            step(plan.id)

    def setup(self) -> None:
        """Setup bonus to everyone, the pregame pawn leaves, one pawn on each main track's start."""
        r = self.r
        for seat, p in enumerate(self.players):
            EffectRunner.apply(self, seat, r.setup_bonus, "setup")
            if r.pregame_track:
                p.pos.pop(r.pregame_track, None)
            for t in r.main_tracks:
                p.pos[t] = r.tracks[t].start
        st = self.state
        st.stage, st.turn, st.phase = MAIN, 1, 0

    def pregame(self) -> None:
        """Pre-History: roll high for the first player, then clockwise; landing on a space gives
        its boosts and marks it; a marked space sends the player to any unmarked one of their
        choice (interpretation marked-space); ends as soon as every space is marked."""
        tt = self.r.tracks[self.r.pregame_track]
        marks = self.state.markers.setdefault(tt.id, [])
        goal = tt.n - 1  # every space but the start
        order = self.turn_order()
        while len(marks) < goal:
            for seat in order:
                self.pregame_move(seat, tt)
                if len(marks) >= goal:
                    return

    def turn_order(self) -> list[int]:
        """Everyone rolls; the highest goes first (only a tie for highest re-rolls), then
        clockwise (seat order) from that player."""
        live = self.live
        if len(live) < 2:
            return live
        return self.rotations[self.roll_high(self.r.die_sides, self.r.why_order, live)]

    def phase_order(self, plan: PhasePlan) -> list[int]:
        """The order of this phase: rolled anew (interpretation turn-order), or, in the
        turn-order-once variant, rolled in the phase that names a turn order and kept for the
        rest of the turn (a game picked up mid-turn rolls once where it starts)."""
        if not self.r.order_once:
            return self.turn_order()
        kept = self.state.vars.get("turn_order")
        if plan.rolls_order or kept is None:
            kept = self.state.vars["turn_order"] = list(self.turn_order())
        return [seat for seat in kept if not self.players[seat].out]

    def play_phase(self, plan: PhasePlan) -> None:
        """One phase: each player acts in a freshly rolled turn order (per the Start Phase rule,
        a new high roll sets the order for every phase), then the phase-end steps."""
        if self.r.order_once:
            order = self.phase_order(plan)
        else:  # turn_order(), inlined: a fresh roll for the first player of every phase
            order = self.live
            if len(order) > 1:
                order = self.rotations[self.roll_high(self.r.die_sides, self.r.why_order, order)]
        players = self.players
        st = self.state
        tt = plan.track
        if plan.moves_only:
            self.moves(order, plan)
        else:
            per_turn, paid, chart, conversions = (plan.per_turn, plan.paid, plan.chart,
                                                  plan.conversions)
            for seat in order:
                p = players[seat]
                if p.out or st.stage != MAIN:
                    continue
                if per_turn:
                    self.per_turn_bonuses(seat, per_turn)
                if tt is not None:
                    if paid:
                        self.paid_moves(plan, seat)
                    else:
                        self.moves((seat,), plan, whole_phase=False)
                    if p.vars["powers"] and not p.out:
                        self.extra_roll(seat, plan)
                if chart is not None and not p.out:
                    f = plan.rolls
                    for _ in range(f.evaluate(p.counters[f.stat]) if f else 1):
                        self.roll_chart(seat, chart.id)
                for cid in conversions:
                    if not p.out:
                        self.convert(seat, cid)
        if plan.after_table:
            for seat in order:
                if not players[seat].out and st.stage == MAIN:
                    self.purchases(seat, plan.after_table)
        if plan.checks and st.stage == MAIN:
            self.phase_checks(plan, order)
        if plan.end and st.stage == MAIN:
            self.end_phase()

    def paid_moves(self, plan: PhasePlan, seat: int) -> None:
        """Build, Wonder, Knowledge: pay the phase cost to move once, as often as the player can
        pay and wants to; `on_roll` (Build: Infra+1) comes with every paid move."""
        tt = plan.track
        p = self.players[seat]
        stats = p.counters
        need = plan.pay_need
        while True:
            for stat, least in need:  # can the player pay?
                if stats[stat] < least:
                    return
            if plan.optional:
                here = p.pos[tt.id]
                outcomes = plan.pay_outcomes[here] if not tt.owned or self.unbuilt(tt) else \
                    plan.pay_only_outcomes  # nothing left to build: the move is only a cost
                if self.choose(seat, outcomes.options, plan.why_pay, outcomes) == STOP:
                    return
            if plan.pay_bounded is not None:  # cost, then the on_roll gain: fixed changes
                self.book.add_bounded(stats, plan.pay_bounded)
            else:
                self.apply(seat, plan.cost_ops, plan.why_pay)
                self.apply(seat, plan.on_roll, plan.why_pay)
            self.moves((seat,), plan, whole_phase=False)
            if p.out or not plan.repeat:
                return

    def unbuilt(self, tt: TrackTable) -> int:
        return tt.n - 1 - len(self.state.markers.get(tt.id, ()))

    # ---------------------------------------------------------------- rolling
    def player_roll(self, seat: int, count: int, sides: int, why: str,
                    judge: Callable[[int], dict[str, float] | None] | None = None) -> int:
        """A roll by a player: the dice, then any unused roll power they choose to use on it."""
        roll = self.roll
        total = roll(sides, why, seat)
        for _ in range(count - 1):
            total += roll(sides, why, seat)
        if self.players[seat].vars["powers"]:
            total = self.roll_powers(seat, count, sides, total, why, judge)
        return total

    def roll_powers(self, seat: int, count: int, sides: int, total: int, why: str,
                    judge: Callable[[int], dict[str, float] | None] | None) -> int:
        """Reformer and Stonehenge (+1 or -1 to one roll), Politician and Pyramids (reroll one
        roll): each power once, on any roll its holder makes, kept within the dice's range
        (interpretation leader-this-turn); a 2D6 roll counts as one roll."""
        p = self.players[seat]
        tables = self.r.power_tables
        while True:
            held = p.vars["powers"]
            key = (judge, count, sides, total, *held)
            table = tables.get(key)
            if table is None:
                table = self.power_choice(judge, count, sides, total, held)
                if len(tables) < POWER_TABLES:
                    tables[key] = table
            if table.__class__ is OptionTable:
                options, outcomes = table.options, table
            else:  # no judge: the options alone
                options, outcomes = table, None
            if len(options) == 1:
                return total
            choice = self.choose(seat, options, self.r.why_power, outcomes)
            if choice == KEEP:
                return total
            if choice == REROLL:
                self.spend_power(p, "reroll", 1)
                self.event("power-reroll", seat)
                total = self.roll(sides, why, seat)
                for _ in range(count - 1):
                    total += self.roll(sides, why, seat)
            else:
                self.spend_power(p, "adjust", abs(int(choice)))
                self.event("power-adjust", seat)
                total += int(choice)

    def power_choice(self, judge: Callable[[int], dict[str, float] | None] | None, count: int,
                     sides: int, total: int, held: list[str]) -> OptionTable | tuple[str, ...]:
        """The options of using a power on a roll of `total` (keep, +k/-k within the dice's
        range, reroll), with the judge's estimate of each when there is a judge."""
        powers = self.r.powers
        lo, hi = count, count * sides
        options = [KEEP]
        for key in held:
            name, args = powers[key]
            if name == "adjust":
                for k in range(1, int(args[0]) + 1):
                    for label, v in ((f"+{k}", total + k), (f"-{k}", total - k)):
                        if lo <= v <= hi and label not in options:
                            options.append(label)
            elif name == "reroll" and REROLL not in options:
                options.append(REROLL)
        if judge is None or len(options) == 1:
            return tuple(options)
        rerolls = self.r.reroll_estimates

        def outcome(o: str) -> dict[str, float]:
            if o == REROLL:
                key = (judge, count, sides)
                average = rerolls.get(key)
                if average is None:
                    average = rerolls[key] = _expected(_outcomes(count, sides),
                                                       lambda v: judge(v) or {})
                return average
            return judge(total + (0 if o == KEEP else int(o))) or {}
        return OptionTable(options, [outcome(o) for o in options])

    def spend_power(self, p: PlayerState, name: str, amount: int) -> None:
        for i, key in enumerate(p.vars["powers"]):
            n, args = self.r.powers[key]
            if n == name and (name != "adjust" or int(args[0]) >= amount):
                del p.vars["powers"][i]
                return

    def extra_roll(self, seat: int, plan: PhasePlan) -> None:
        """Populist: one extra roll on one of the named tracks this turn, if the player wants."""
        tt = plan.track
        p = self.players[seat]
        for i, key in enumerate(p.vars["powers"]):
            name, args = self.r.powers[key]
            if name == "extra_roll" and tt.id in args:
                outcomes = tt.extra_outcomes[p.pos[tt.id]]
                if self.choose(seat, outcomes.options, tt.why_extra, outcomes) == EXTRA:
                    del p.vars["powers"][i]
                    self.event("power-extra-roll", seat)
                    self.moves((seat,), plan, whole_phase=False)
                return

    # ---------------------------------------------------------------- moving
    def occupant(self, tt: TrackTable, space: int, seat: int) -> int:
        """The seat of another live pawn on `space`, or -1."""
        tid = tt.id
        for q, other in enumerate(self.players):
            if q != seat and not other.out and other.pos[tid] == space:
                return q
        return -1

    def moves(self, order: Sequence[int], plan: PhasePlan, whole_phase: bool = True) -> None:
        """Each seat of `order` rolls and moves, following the roll-and-move rules to the space
        the pawn ends on: a free space is landed on at once (the common case, inlined); a
        start space, an occupied space or a built wonder is resolved by resolve(). With
        `whole_phase` these are a phase's own moves: a player out (or a game over) is skipped
        and a Populist may roll again. What every move reads is looked up once."""
        players = self.players
        st = self.state
        tt = plan.track
        tid, n, start, loop, blocks, fasts, why, keys, leader = plan.moving
        roll = self.roll
        single = self.single_die
        sides = self.r.die_sides
        spaces = self.spaces  # a Tally: .get skips its __missing__ call
        clips, floors = self.book.clips, self.book.floors
        other_pos = self.other_pos
        for seat in order:
            p = players[seat]
            if whole_phase and (p.out or st.stage != MAIN):
                continue
            here = p.pos[tid]
            if single and not p.vars["powers"]:
                steps = roll(sides, why, seat)
            else:
                steps = self.move_roll(seat, tt, here)
            dest = (here + steps) % n if loop else tt.advance(here, steps)
            stop = dest == start  # a start space, a pawn or a built wonder: no plain landing
            if not stop:
                for pos in other_pos[seat]:  # renewed when a player is out
                    if pos[tid] == dest:
                        stop = True
                        break
                else:
                    stop = blocks and dest in st.markers[tid]
            if stop:
                dest = self.resolve(seat, tt, plan, dest)
            if dest >= 0:
                fast = None if fasts is None else fasts[dest]
                if fast is None:
                    self.land(seat, tt, dest, plan)
                else:  # the common landing, inlined: fixed changes within the stats' bounds
                    p.pos[tid] = dest
                    landed = keys[dest]
                    spaces[landed] = spaces.get(landed, 0) + 1
                    if leader:
                        p.vars["leader"] = tt.ids[dest]
                    stats = p.counters
                    for stat, k, lo, hi in fast:  # StatBook.add_bounded, inlined
                        v = stats[stat] + k
                        if v > hi:
                            clips[stat] = clips.get(stat, 0) + 1
                            v = hi
                        elif v < lo:
                            floors[stat] = floors.get(stat, 0) + 1
                            v = lo
                        stats[stat] = v
                    if self.r.eliminate_now:
                        self.eliminations_now()
            if whole_phase and p.vars["powers"] and not p.out:
                self.extra_roll(seat, plan)

    def pregame_move(self, seat: int, tt: TrackTable) -> None:
        """Pre-History: roll and move; a marked space sends the player to an unmarked one."""
        here = self.players[seat].pos[tt.id]
        dest = tt.advance(here, self.move_roll(seat, tt, here))
        if dest == tt.start:
            dest = self.resolve(seat, tt, None, dest, pregame=True)
            if dest < 0:
                return
        elif dest in self.state.markers[tt.id]:
            dest = self.marked_space(seat, tt)
        self.land(seat, tt, dest, None, pregame=True)

    def move_roll(self, seat: int, tt: TrackTable, here: int) -> int:
        """A move's roll by `seat` from `here`: the dice, then any roll power it holds (judged
        by where each result would land)."""
        r = self.r
        p = self.players[seat]
        judge = None
        if p.vars["powers"]:
            judges = tt.judges
            if judges is None:
                judges = tt.judges = [_landing_judge(tt, i) for i in range(tt.n)]
            judge = judges[here]
        if r.die_count == 1 and judge is None:
            return self.roll(r.die_sides, tt.why_move, seat)
        return self.player_roll(seat, r.die_count, r.die_sides, tt.why_move, judge)

    def resolve(self, seat: int, tt: TrackTable, plan: PhasePlan | None, dest: int,
                pregame: bool = False) -> int:
        """Where a move that reached `dest` ends: start spaces give nothing but may be left by
        paying the reroll cost; an occupied space (or a built wonder, interpretation
        built-wonder) is resolved by occupied(). -1 when the move ended there (a start space,
        or a war)."""
        r = self.r
        p = self.players[seat]
        tid = tt.id
        option = plan.option if plan is not None else None
        while True:
            if dest == tt.start:
                self.place(p, tt, dest)
                if r.start_benefit:
                    self.apply_space(seat, tt, dest)
                if option is not None and r.start_options and self.start_option(seat, tt, option):
                    return -1
                if self.start_reroll(seat, tt):
                    dest = tt.advance(dest, self.player_roll(seat, r.die_count, r.die_sides,
                                                             tt.why_move))
                    continue
                return -1
            if pregame:
                if dest in self.state.markers[tid]:
                    dest = self.marked_space(seat, tt)
                return dest
            occupant = -1
            for q, pos in self.others[seat]:
                if pos[tid] == dest:
                    occupant = q
                    break
            if occupant < 0 and not (tt.blocks and dest in self.state.markers[tid]):
                return dest
            if occupant >= 0 and option == "trade":
                self.trade(seat, occupant)
            choice = self.occupied(seat, tt, dest, occupant >= 0 and option == "war")
            if choice == WAR:
                if r.war_to_start:
                    p.pos[tid] = tt.start
                self.war(seat, occupant)
                return -1
            if choice == REROLL:
                self.event("occupied-reroll", seat)
                dest = tt.advance(dest, self.player_roll(seat, r.die_count, r.die_sides,
                                                         tt.why_move))
                continue
            self.event("occupied-" + choice, seat)
            return tt.neighbour(dest, choice)

    def start_option(self, seat: int, tt: TrackTable, option: str) -> bool:
        """Variant start-space-options: a move ending on a start space where an opponent's pawn
        stands offers the phase's option; True when a war ended the move."""
        occupant = self.occupant(tt, tt.start, seat)
        if occupant < 0:
            return False
        if option == "trade":
            self.trade(seat, occupant)
            return self.players[seat].out
        if option != "war":
            return False

        def outcomes(o: str) -> dict[str, float]:
            return self.war_estimate(seat, occupant) if o == WAR else _NOTHING
        if self.choose(seat, (STAY, WAR), tt.why_occupied, outcomes) != WAR:
            return False
        self.war(seat, occupant)
        return True

    def start_reroll(self, seat: int, tt: TrackTable) -> bool:
        """On a start space the player may pay the reroll cost (1 Gold) to roll and move again."""
        r = self.r
        if not r.start_reroll or not self.book.can_pay(self.players[seat].counters, r.start_cost):
            return False
        table = tt.start_outcomes
        if self.choose(seat, table.options, tt.why_start, table) != REROLL:
            return False
        self.event("start-reroll", seat)
        if r.start_cost_changes is None:
            self.apply(seat, r.start_cost_ops, tt.why_start)
        else:
            self.add_changes(self.stat_rows[seat], r.start_cost_changes)
        return True

    def occupied(self, seat: int, tt: TrackTable, dest: int, war: bool) -> str:
        """Occupied space: take the free space just before or after, or roll again (with no free
        neighbour, rolling again is all that is left); in the Military Phase, or declare war."""
        shared_start = self.r.start_shared
        tid = tt.id
        others = self.other_pos[seat]
        # a neighbour is free when it is the start space (interpretation occupied-neighbours),
        # or holds no other live pawn and no built wonder (interpretation built-wonder)
        free = 0  # bit k: the k-th neighbour in tt.sides[dest] is free
        bit = 1
        for _, nb in tt.sides[dest]:
            if nb == tt.start and shared_start:
                free |= bit
            else:
                for pos in others:
                    if pos[tid] == nb:
                        break
                else:
                    if not (tt.blocks and nb in self.state.markers[tid]):
                        free |= bit
            bit <<= 1
        table = tt.occupied_tables[dest][free]
        if not war:
            return self.choose(seat, table.options, tt.why_occupied, table)
        options = (WAR, *table.options)
        static = tt.occupied_outcomes[dest]

        def outcomes(o: str) -> dict[str, float]:
            if o == WAR:
                return self.war_estimate(seat, self.occupant(tt, dest, seat))
            return static(o)
        return self.choose(seat, options, tt.why_occupied, outcomes)

    def marked_space(self, seat: int, tt: TrackTable) -> int:
        """Pre-History: a marked space sends the player to any unmarked space of their choice
        (interpretation marked-space: the chosen space gives its boosts and is marked)."""
        marks = set(self.state.markers[tt.id])  # asked of every space: a set, not the list
        ids, start = tt.ids, tt.start
        options = [ids[i] for i in range(tt.n) if i != start and i not in marks]
        choice = self.choose(seat, options, tt.why_marked, tt.expect_by_id)
        self.event("marked-space", seat)
        return ids.index(choice)

    def land(self, seat: int, tt: TrackTable, dest: int, plan: PhasePlan | None,
             pregame: bool = False) -> None:
        """The pawn stops on `dest`: count it, then build, mark or take the space's effect."""
        p = self.players[seat]
        self.place(p, tt, dest)
        if dest == tt.start:
            if self.r.start_benefit:
                self.apply_space(seat, tt, dest)
            return
        if plan is not None and plan.build_once:
            self.build(seat, tt, dest)
            return
        if pregame:
            self.state.markers[tt.id].append(dest)
        fast = tt.fast[dest]
        if fast is not None:  # fixed changes: apply_space without its dispatch
            self.add_changes(p.counters, fast)
        else:
            self.apply_space(seat, tt, dest)

    def place(self, p: PlayerState, tt: TrackTable, dest: int) -> None:
        """The pawn stops on `dest`: its position, the landing count, the leader it shows
        (moves() does the same inline for a free landing, the hot path)."""
        p.pos[tt.id] = dest
        spaces = self.spaces  # a Tally: .get skips its __missing__ call
        landed = tt.keys[dest]
        spaces[landed] = spaces.get(landed, 0) + 1
        if tt.leader:
            p.vars["leader"] = tt.ids[dest]

    def build(self, seat: int, tt: TrackTable, dest: int) -> None:
        """Wonder Phase: an unbuilt wonder is built, marked and owned for good; landing on a
        built one happens only in the built-wonder-wasted variant: the move is wasted."""
        marks = self.state.markers.setdefault(tt.id, [])
        if dest in marks:
            self.event("wonder-wasted", seat)
            return
        marks.append(dest)
        key = tt.owned_keys[dest]
        self.state.owners[key] = seat
        self.players[seat].vars["owned"].append(key)
        self.event("wonder-built", seat)

    def apply_space(self, seat: int, tt: TrackTable, dest: int) -> None:
        """A space's effect; with alternatives (Builder: R+5 | W+1) the player picks one."""
        alts = tt.effects[dest]
        if not alts:
            return
        ops = alts[0]
        if len(alts) > 1:
            table = tt.alt_tables[dest]
            choice = self.choose(seat, table.options, tt.why_alt, table)
            ops = alts[table.options.index(choice)]
        if tt.timing[dest] is not None:
            self.grant(seat, tt.owned_keys[dest], ops)
            ops = tuple(op for op in ops if op[0] != ABILITY)
        self.apply(seat, ops, tt.why_move)

    def grant(self, seat: int, key: str, ops: Ops) -> None:
        """An ability that lasts (this turn / per turn) becomes a power held until the End Phase
        (interpretation leader-this-turn)."""
        p = self.players[seat]
        for op in ops:
            if op[0] == ABILITY:
                uses = int(op[2][0]) if op[1] == "reroll" and op[2] else 1
                p.vars["powers"].extend([key] * uses)

    def per_turn_bonuses(self, seat: int, track: str) -> None:
        """Start Phase: each owned wonder's per-turn bonus (stats now, powers for the turn)."""
        p = self.players[seat]
        tt = self.r.tracks[track]
        for key in p.vars["owned"]:
            tid, _, sid = key.partition("/")
            if tid != track:
                continue
            i = tt.ids.index(sid)
            alts = tt.effects[i]
            if alts and tt.timing[i] == PER_TURN:
                self.grant(seat, key, alts[0])
                self.apply(seat, tuple(op for op in alts[0] if op[0] != ABILITY), "per turn")

    # ---------------------------------------------------------------- phase steps
    def convert(self, seat: int, cid: str) -> None:
        """Surplus (optional, any number of times) and Culture into VP (a must, while 10 or more
        remain): interpretation conversion-repeat; conversions-once allows each once a phase."""
        pay_ops, cost, gain_ops, mandatory, repeat, why = self.r.conversions[cid]
        changes = self.r.conversion_changes[cid]
        p = self.players[seat]
        can_pay = self.book.can_pay
        if mandatory:
            while can_pay(p.counters, cost):
                self.pay_and_gain(seat, pay_ops, gain_ops, changes, why)
                self.event(cid, seat)
                if not repeat or p.out:
                    return
            return
        stats = p.counters
        key = (cid, self.r.convert_keys[cid](stats))
        table = self.r.convert_tables.get(key)
        if table is None:  # the choices and their estimates depend only on the paying stats
            most = self.times_payable(stats, cost)
            if not repeat:
                most = min(most, 1)
            once = _merge(cost, mean_delta(gain_ops))
            spend = self.r.spend
            table = self.r.convert_tables[key] = OptionTable(range(max(most, 0) + 1), [
                Estimate({s: spend(stats, s, -k * v) if v < 0 else k * v
                          for s, v in once.items()}) for k in range(max(most, 0) + 1)])
        options = table.options
        if len(options) < 2:
            return
        k = self.choose(seat, options, why, table)
        for _ in range(k):
            self.pay_and_gain(seat, pay_ops, gain_ops, changes, why)
            self.event(cid, seat)

    def pay_and_gain(self, seat: int, pay_ops: Ops, gain_ops: Ops,
                     changes: tuple[Bounded, Bounded] | None, why: str) -> None:
        """One conversion: the payment, then the gain (as fixed changes when they are)."""
        if changes is None:
            self.apply(seat, pay_ops, why)
            self.apply(seat, gain_ops, why)
        else:
            stats = self.stat_rows[seat]
            self.add_changes(stats, changes[0])
            self.add_changes(stats, changes[1])

    def times_payable(self, stats: dict[str, int], cost: dict[str, int]) -> int:
        lo = self.book.lo
        most = None
        for s, v in cost.items():
            if v < 0:
                n = (stats[s] - lo[s]) // -v
                most = n if most is None else min(most, n)
        return most or 0

    def purchases(self, seat: int, table_id: str) -> None:
        """End of the Trade Phase: buy from the Purchase List, one item at a time, until done."""
        pay, rows, outcomes = self.r.tables[table_id]
        p = self.players[seat]
        why = "purchase " + table_id
        lo = self.book.lo[pay]
        menus = self.r.purchase_menus
        by_label = self.r.table_rows[table_id]
        while True:
            have = p.counters[pay] - lo
            menu = menus.get((table_id, have))
            if menu is None:
                options = (DONE, *(label for label, cost, _ in rows if cost <= have))
                menu = menus[(table_id, have)] = OptionTable(options, [outcomes(o) for o in options])
            options = menu.options
            if len(options) == 1:
                return
            choice = self.choose(seat, options, why, menu)
            if choice == DONE:
                return
            _, cost, ops = by_label[choice]
            self.book.add(p.counters, pay, -cost)
            changes = self.r.purchase_changes[(table_id, choice)]
            if changes is None:
                self.apply(seat, ops, why)
            else:
                self.add_changes(p.counters, changes)
            self.event("purchase", seat)

    def phase_checks(self, plan: PhasePlan, order: list[int]) -> None:
        """'If a player ever has ...' checks: once per player at the end of the phase that states
        them (interpretation ever-checks), or every check every phase (checks-every-phase).
        One chart roll per check (interpretation conquest-once)."""
        checks = self.r.checks
        for seat in order:
            p = self.players[seat]
            for cid in plan.checks:
                if p.out:
                    break
                stat, op, value, ops = checks[cid]
                if op(p.counters[stat], value):
                    self.event(cid, seat)
                    self.apply(seat, ops, cid)

    def end_phase(self) -> None:
        """End Phase: a player at 0 Territory or Population is out and the others play on
        (interpretation elimination); powers of the turn are lost; the game ends when anyone
        still in has 20 Territories (game-end); with one player left, that player wins."""
        r = self.r
        for seat, p in enumerate(self.players):
            if not p.out:
                self.check_out(seat)
            p.vars["powers"].clear()
        live = [p for p in self.players if not p.out]
        if r.game_end is not None:
            stat, op, value = r.game_end
            if any(op(p.counters[stat], value) for p in live):
                self.game_over(COMPLETED)
                return
        if not live:
            self.game_over(ALL_OUT)
        elif len(live) == 1 and len(self.players) > 1:
            self.event("last-standing")
            self.game_over(COMPLETED)

    def check_out(self, seat: int) -> bool:
        p = self.players[seat]
        for stat, op, value in self.r.eliminated_when:
            if op(p.counters[stat], value):
                p.out = True
                p.vars["powers"].clear()
                self.set_live()
                self.ctx.result.eliminations.append(
                    Elimination(seat, self.state.turn, stat, self.phase_id))
                self.event("elimination", seat)
                return True
        return False

    def eliminations_now(self) -> None:
        """Variant elimination-immediate: out the moment Territory or Population reaches 0."""
        for seat, p in enumerate(self.players):
            if not p.out:
                self.check_out(seat)
        live = sum(1 for p in self.players if not p.out)
        if live < 2 and self.state.stage == MAIN:
            if live == 1:
                self.event("last-standing")
            self.game_over(COMPLETED if live else ALL_OUT)

    def game_over(self, how: str) -> None:
        st = self.state
        st.stage, st.ended = OVER, how
        st.winners = self.leaders()

    def leaders(self) -> list[int]:
        """Seats still in the game sharing the most VP (ties reported, never broken)."""
        stat = self.r.score_stat
        live = [(i, p.counters[stat]) for i, p in enumerate(self.players) if not p.out]
        if not live:
            return []
        top = max(v for _, v in live)
        return [i for i, v in live if v == top]

    # ---------------------------------------------------------------- options
    def war_estimate(self, seat: int, other: int) -> dict[str, float]:
        """Greedy's view of declaring war: win chance from the Military gap as the bonus rule
        compares it (after both losses), the expected loss."""
        r = self.r
        if other < 0:
            return {}
        mine = self.players[seat].counters[r.war_stat]
        theirs = self.players[other].counters[r.war_stat]
        pw, pl = r.war_odds_at(mine, theirs)
        out = mean_delta(r.war_loss)
        for stat, k in r.war_steals.items():
            out[stat] = out.get(stat, 0.0) + k * (pw - pl)
        for stat, k in r.war_aggressor_steals.items():
            out[stat] = out.get(stat, 0.0) + k * pw
        return out

    def war(self, aggressor: int, defender: int) -> None:
        """War: both lose 1D6 Military, both roll 2D6 and the higher Military adds 2 (compared
        after the loss, interpretation war-bonus-timing; before it in war-bonus-before-loss); the higher roll wins, a tie has no winner; the winner steals 2 VP, a winning
        aggressor also 1 Territory. A steal takes only what the loser has."""
        r = self.r
        self.event("war", aggressor)
        ma = self.players[aggressor].counters[r.war_stat]
        md = self.players[defender].counters[r.war_stat]
        for seat in (aggressor, defender):
            self.apply(seat, r.war_loss, "war loss")
        if self.players[aggressor].out or self.players[defender].out:
            return
        rolls = []
        for seat in (aggressor, defender):
            judge = _war_judge if self.players[seat].vars["powers"] else None
            rolls.append(self.player_roll(seat, r.war_count, r.war_sides, "war roll", judge))
        if r.war_bonus_after_loss:
            ma = self.players[aggressor].counters[r.war_stat]
            md = self.players[defender].counters[r.war_stat]
        if ma > md:
            rolls[0] += r.war_bonus
        elif md > ma:
            rolls[1] += r.war_bonus
        if rolls[0] == rolls[1]:
            self.event("war-tie", aggressor)
            return
        winner, loser = (aggressor, defender) if rolls[0] > rolls[1] else (defender, aggressor)
        self.take(winner, loser, r.war_steals)
        if winner == aggressor:
            self.take(winner, loser, r.war_aggressor_steals)
            self.event("war-won-aggressor", aggressor)
        else:
            self.event("war-won-defender", defender)
        if r.eliminate_now:
            self.eliminations_now()

    def take(self, winner: int, loser: int, amounts: dict[str, int]) -> None:
        """Move stat points from loser to winner: only what the loser has; caps still apply."""
        add = self.book.add
        for stat, k in amounts.items():
            taken = -add(self.players[loser].counters, stat, -k)
            add(self.players[winner].counters, stat, taken)

    def trade(self, seat: int, other: int) -> None:
        """Trade option: both gain 1 Idea, then the mover may offer an exchange of Gold, Food or
        Resources, which the other accepts or declines (the bots' way of 'freely trading');
        the mover then still resolves the occupied space."""
        r = self.r
        self.event("trade", seat)
        if r.trade_gain_changes is None:
            self.apply(seat, r.trade_gain, "trade")
            self.apply(other, r.trade_gain, "trade")
        else:
            self.add_changes(self.stat_rows[seat], r.trade_gain_changes)
            self.add_changes(self.stat_rows[other], r.trade_gain_changes)
        mine = self.players[seat].counters
        theirs = self.players[other].counters
        lo = self.book.lo
        top = TRADE_LOTS[-1]  # what can be offered only depends on holdings up to the top lot
        held = []
        for holder in (mine, theirs):
            for s in r.trade_stats:
                k = holder[s] - lo[s]
                held.append(k if k < top else top)
        key = tuple(held)
        menu = r.trade_menus.get(key)
        if menu is None:
            options = (NONE, *(label for label, give, kg, get, kr in r.trade_offers
                               if mine[give] - lo[give] >= kg and theirs[get] - lo[get] >= kr))
            menu = r.trade_menus[key] = OptionTable(
                options, [r.trade_offer_outcomes(o) for o in options])
        if len(menu.options) == 1:
            return
        choice = self.choose(seat, menu.options, "trade offer", menu)
        if choice == NONE:
            return
        give, kg, get, kr = r.trade_deals[choice]
        answer = r.trade_answers[choice]
        if self.choose(other, answer.options, "trade answer", answer) != ACCEPT:
            return
        self.event("trade-deal", seat)
        self.take(other, seat, {give: kg})
        self.take(seat, other, {get: kr})

    def steal(self, seat: int, stat: str, count: int) -> None:
        """'Steal 1 Pop from one opponent': the player picks any opponent still in the game."""
        options = [q for q, p in enumerate(self.players) if q != seat and not p.out]
        if not options:
            return
        target = self.choose(seat, options, "steal " + stat,
                             lambda q: {stat: float(min(count, self.players[q].counters[stat]))})
        self.event("steal", seat)
        self.take(seat, target, {stat: count})

    def exchange(self, seat: int, give: tuple, receive: str) -> None:
        """Sell Surplus: trade any amount of Food or Resources for Gold, 1 to 1."""
        p = self.players[seat]
        lo = self.book.lo
        key = (give, receive, *(p.counters[stat] - lo[stat] for stat in give))
        menu = self.r.exchange_menus.get(key)
        if menu is None:  # the offers depend only on what can be given
            abbr = self.r.abbr
            offers: list[str] = [NONE]
            deals: dict[str, tuple[str, int]] = {}
            for stat in give:
                for k in range(1, p.counters[stat] - lo[stat] + 1):
                    label = f"{abbr[stat]}-{k} {abbr[receive]}+{k}"
                    offers.append(label)
                    deals[label] = (stat, k)
            spend = self.r.spend  # greedy's view of each offer depends on the same holdings
            worth = [{} if o == NONE else {deals[o][0]: spend(p.counters, *deals[o]),
                                           receive: deals[o][1]} for o in offers]
            menu = self.r.exchange_menus[key] = (OptionTable(offers, worth), deals)
        table, deals = menu
        if len(table.options) == 1:
            return
        choice = self.choose(seat, table.options, "exchange", table)
        if choice == NONE:
            return
        stat, k = deals[choice]
        self.book.add(p.counters, stat, -k)
        self.book.add(p.counters, receive, k)
        self.event("exchange", seat)
