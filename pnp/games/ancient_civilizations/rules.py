"""The compiled rules: everything the procedures read from a GameDef, built once per
definition (`rules_for`, through the api's per_definition: the one cache of them)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable

from pnp.engine.api import (
    ABILITY,
    DELTA,
    PER_TURN,
    THIS_TURN,
    BotHints,
    Estimate,
    GameDef,
    GameMeta,
    Ops,
    OptionTable,
    StatBook,
    constant_deltas,
    format_effect,
    mean_delta,
    per_definition,
    single,
)

from .common import (
    _NOTHING,
    ACCEPT,
    DECLINE,
    DONE,
    NONE,
    REROLL,
    TRADE_LOTS,
    Bounded,
    MissingRule,
    _cond,
    _fast,
    _merge,
    _need,
    _outcomes,
    _values_of,
)
from .hints import bot_values, reserves, single_use
from .tables import ChartTable, PhasePlan, TrackTable
from .war import loss_faces, roll_odds


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
        #: aggressor's roll bonus -> (P(aggressor wins), P(defender wins))
        self.war_odds = roll_odds(_outcomes(self.war_count, self.war_sides), self.war_bonus)
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
        self.reserve = reserves(self)
        self.single_use = single_use(self)
        self.bot_values = bot_values(self)
        self.war_odds_memo: dict[tuple[int, int], tuple[float, float]] = {}
        #: (conversion, paying stats' values) -> (options, their estimates)
        self.convert_tables: dict[tuple, OptionTable] = {}
        #: (judge, dice count, sides) -> the judged average of a reroll; the judges are made
        #: once (per track space, per stat and sign), so the averages are worked out once
        self.reroll_estimates: dict[tuple, Estimate] = {}
        self.amount_judges: dict[tuple[str, int], Callable[[int], dict[str, float]]] = {}
        #: (judge, dice, sides, roll, powers held) -> the power decision on that roll
        self.power_tables: dict[tuple, OptionTable | tuple[str, ...]] = {}
        self.war_loss_faces = loss_faces(self.war_loss, self.war_stat)
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

    def _stat_named(self, rule: str) -> str:
        """The stat a 'most VP' winner rule names (by id, name, abbreviation or alias)."""
        name = rule.removeprefix("most ").strip().lower()
        for s in self.game.stats.values():
            if name in {s.id.lower(), s.name.lower(), s.abbreviation.lower(),
                        *(a.lower() for a in s.aliases)}:
                return s.id
        raise MissingRule(f"{self.game.id}: end/winner '{rule}' names no stat")

    def meta(self) -> GameMeta:
        g = self.game
        return GameMeta(
            game=g.id, players_min=g.players_min, players_max=g.players_max,
            max_turns=self.max_turns, counter_bounds=dict(self.bounds), has_chance=True,
            phases=self.phase_ids, score_counter=self.score_stat,
            derived_counters=tuple(self.derived), bot_values=dict(self.bot_values))


#: the compiled rules of a definition: tables are built once per GameDef
rules_for = per_definition(Rules)
