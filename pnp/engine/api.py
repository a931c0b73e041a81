"""The public engine API: everything a game's own rules module imports.

A designer's `rules.py` (named by `engine: rules.py` in game.yaml) imports from here and from
nowhere else in pnp, so the engine's internals can change without breaking anyone's game. What
is here is stable:

- the state: `State`, `PlayerState`, `CardInstance` and the stage and visibility constants;
- the harness's view: `GameMeta` (what `metadata` returns), `Context` (dice, decisions, events,
  coverage, steps, and the logged zone moves `move`, `take`, `draw_to`, `refill`, `reshuffle`,
  `deal` on zones named as `ZoneRef`s, and the logged piece moves `place`, `remove`,
  `move_piece` on a map), `Estimate` (expected counter changes offered to the greedy bot),
  `OptionTable` (a decision offered many times with the same options and estimates),
  `GameResult` and `Elimination` (what `finish` fills);
- helpers that read a `GameDef` so no number is written twice: `start_counters`,
  `counter_bounds`, `card_instances`, `initial_state`, `supplies`, `full_supplies`,
  `supply_links` (which supply each counter's tokens come from), `zone_visibility`,
  `card_data`, `start_space`, `advance`, `leaders`, `fill_result`, `per_definition` (tables
  compiled once per GameDef), `play_turns` with `Phase` (the turn and phase driver that owns
  step bookkeeping and the turn cap), and `Effects`, which applies effect text ('G+2', 'F-1D6',
  'G+1 | F+1') to a player's counters through the context;
- a board that is a graph (components.yaml `map:`): `map_rules(game)` answers adjacency,
  path and reach queries; `count`, `on_map`, `nodes_with`, `owner_at` read the pieces;
- a rondel (`Rondel`, `rondel_from`): the moves from a space and what each costs;
- for modules that need them: effects compiled once (`compile_effect`, `StatBook`, ...), dice
  sums as distributions (`distribution`, `compare`), and the scenario value checks
  (`ScenarioProblem`, `vars_problems`) a module's `check_scenario` returns, and `BoundedMemo`
  (results a module works out again, remembered within a size).

docs/engine.md explains the protocol and walks through the rules module `pnp new` writes.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pnp.data.effects import (
    PER_TURN,
    THIS_TURN,
    Effect,
    Names,
    format_effect,
    format_item,
    parse_effect,
)
from pnp.data.model import Card, Condition, GameDef, Track
from pnp.engine.components import counter_bounds as _bounds
from pnp.engine.components import counter_bounds as counter_and_shared_bounds
from pnp.engine.components import (
    deal_cards,
    full_supplies,
    initial_state,
    supplies,
    supply_links,
    zone_visibility,
)
from pnp.engine.core import (
    ALL,
    HIDDEN,
    MAIN,
    NOBODY,
    OVER,
    OWNER,
    PREGAME,
    BotHints,
    CardInstance,
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
from pnp.engine.graph import (
    MapError,
    MapRules,
    board_of,
    count,
    map_rules,
    nodes_with,
    on_map,
    owner_at,
    pieces_of,
)
from pnp.engine.module import ScenarioProblem, json_type, per_definition, vars_problems
from pnp.engine.result import ALL_OUT, COMPLETED, TIMEOUT, Elimination, GameResult
from pnp.engine.rondel import Rondel, RondelMove, rondel_from
from pnp.engine.turns import Phase, play_turns
from pnp.engine.zones import ZoneRef
from pnp.memo import BoundedMemo

__all__ = [
    # effects compiled once, for modules that apply them on a hot path (Ancient Civilizations)
    "ABILITY", "DELTA", "EffectRunner", "Ops", "StatBook", "compile_effect", "constant_deltas",
    "mean_delta", "single", "PER_TURN", "THIS_TURN", "format_effect", "Condition",
    # dice sums as distributions (a bot's odds without enumerating every roll)
    "ENUMERATED", "add_dice", "compare", "distribution", "enumerable",
    # scenario values a module checks before play (check_scenario)
    "ScenarioProblem", "json_type", "vars_problems",
    # (per-player bounds, shared bounds) of every counter: GameMeta's counter_ and shared_bounds
    "counter_and_shared_bounds",
    # the state, the context and the harness's view
    "ALL", "ALL_OUT", "COMPLETED", "HIDDEN", "MAIN", "NOBODY", "OVER", "OWNER", "PREGAME",
    "TIMEOUT", "BotHints", "CardInstance", "Context", "Effect", "Effects", "Elimination", "Estimate",
    "GameDef", "GameMeta", "GameResult", "OptionTable", "Phase", "PlayerState", "State", "ZoneRef",
    "advance", "card_data",
    "card_instances", "counter_bounds", "fill_result", "initial_state", "leaders",
    "per_definition", "play_turns", "start_counters", "start_space", "supplies", "zone_visibility",
    "full_supplies", "supply_links",
    # a board that is a graph: queries (MapRules, map_rules) and the pieces on it; piece moves
    # are the Context's `place`, `remove` and `move_piece`
    "MapError", "MapRules", "board_of", "count", "map_rules", "nodes_with", "on_map", "owner_at",
    "pieces_of",
    # a rondel: a loop track whose first steps are free and further steps cost
    "Rondel", "RondelMove", "rondel_from",
    # a memo of results a game works out again, bounded (emptied when full)
    "BoundedMemo",
]


# --------------------------------------------------------------------------- reading the data


def start_counters(game: GameDef) -> dict[str, int]:
    """A player's counters at their start values (stats.yaml `start`, components.yaml)."""
    return {c.id: c.start for c in game.counters.values()
            if c.per_player and c.id in counter_bounds(game)}


def counter_bounds(game: GameDef) -> dict[str, tuple[int | None, int | None]]:
    """Per-player counter id -> (min, cap) from the data: GameMeta.counter_bounds."""
    return _bounds(game)[0]


#: one instance per printed copy of a deck, in data order, uids counting up from `first_uid`
#: (give each deck its own range when a game has several)
card_instances = deal_cards


def card_data(game: GameDef, deck: str, card: str) -> Card:
    """A card's definition (name, count, fields) by its id in a deck."""
    for c in game.decks[deck].cards:
        if c.id == card:
            return c
    raise KeyError(f"deck '{deck}' has no card '{card}'")


def start_space(track: Track) -> int:
    """Index of a track's start space (its first space when none is marked)."""
    return next((s.index for s in track.spaces if s.start), 0)


def advance(track: Track, here: int, steps: int) -> int:
    """The space `steps` spaces on from `here`: a loop wraps round, a path stops at its end."""
    n = len(track.spaces)
    return (here + steps) % n if track.shape == "loop" else max(0, min(here + steps, n - 1))


def leaders(state: State, counter: str) -> list[int]:
    """Seats still in the game sharing the most of `counter` (ties kept, never broken)."""
    live = [(i, p.counters[counter]) for i, p in enumerate(state.players) if not p.out]
    top = max((v for _, v in live), default=None)
    return [i for i, v in live if v == top]


def fill_result(ctx: Context, score: str) -> None:
    """The usual `finish`: turns, how it ended, winners, scores (the `score` counter), the
    winning margin over the best other player still in, every seat's final counters, and the
    number of dice and decisions."""
    st, res = ctx.state, ctx.result
    res.turns, res.ended, res.winners = st.turn, st.ended or TIMEOUT, tuple(st.winners)
    res.scores = tuple(p.counters.get(score, 0) for p in st.players)
    rest = [s for i, s in enumerate(res.scores) if i not in st.winners and not st.players[i].out]
    if len(st.winners) == 1 and rest:
        res.margin = res.scores[st.winners[0]] - max(rest)
    res.final_stats = [dict(p.counters) for p in st.players]
    res.rolls, res.decisions = ctx.rolls, ctx.decisions


# --------------------------------------------------------------------------- effects


class Effects(EffectRunner):
    """Effects applied to players' counters through a Context.

    Every change is clamped to the counter's `min` and `cap` (clips are counted for the report),
    every die is `ctx.roll`, a chart roll (`roll CHART`) rolls the chart's dice and applies the
    row, and an effect with alternatives ('G+1 | F+1') is a decision of the player's, offered
    to the bots with each alternative's expected changes. Abilities (`reroll(1)`) are the rules
    module's own: subclass and define `use_ability(seat, name, args, source)`.

    A counter whose data names a `supply:` holds that supply's tokens: what it gains is taken
    from the supply and what it loses goes back, and a supply that may not run out gives no
    more than it holds (each time it runs dry is counted as the event '<supply> ran out').
    """

    def __init__(self, game: GameDef, ctx: Context):
        self.game = game
        self.ctx = ctx
        bounds = {c: (lo if lo is not None else -(1 << 62), cap)
                  for c, (lo, cap) in counter_bounds(game).items()}
        self.book = StatBook(bounds, ctx.result.cap_clips, ctx.result.floor_clips)
        self.stat_rows = [p.counters for p in ctx.state.players]
        self._abbr = {s.id: s.abbreviation or s.id for s in game.stats.values()}
        #: effect text -> its Effect, shared by every Effects of the game (an Effect is
        #: immutable): a search bot's replays each make an Effects, and parsing anew in every
        #: one cost a starter game with an mcts seat a fifth of its time
        self._parsed, expected = _effect_tables(game)
        #: id of an Effect -> (the Effect, its expected changes): the same for every Effects
        #: of the game (none for a subclass that values formulas its own way)
        self._expected = expected if type(self)._nominal is Effects._nominal else None
        #: counter -> (its supply, whether the supply may run out), for linked counters
        self._links = {c: (s, supplies(game)[s][1]) for c, s in supply_links(game).items()
                       if c in bounds and s in supplies(game)}
        self._depth = 0  # nested applies (a chart row) settle with the supply once, outermost

    def effect(self, value: Effect | str | None) -> Effect:
        """An Effect from data: a parsed effect as it is, effect text (a plain card field such
        as `effect: "G+2"`) parsed with the game's stat names; a bad text raises ValueError."""
        if value is None:
            return Effect(())
        if isinstance(value, Effect):
            return value
        hit = self._parsed.get(value)
        if hit is None:
            effect, problems = parse_effect(str(value), None, _names(self.game))
            if effect is None:
                raise ValueError(f"bad effect {value!r}: {problems[0].message}")
            if len(self._parsed) >= PARSED_EFFECTS:
                self._parsed.clear()
            hit = self._parsed[value] = effect
        return hit

    def choices(self, effect: Effect | str | None) -> list[str]:
        """Labels of an effect's alternatives ('G+1', 'F+1'): the options a player picks from."""
        return [" ".join(format_item(i, self._abbr) for i in seq)
                for seq in self.effect(effect).choices]

    def expect(self, effect: Effect | str | None) -> Estimate:
        """Expected counter changes (dice at their mean; alternatives averaged): what the greedy
        bot weighs an option by. A new Estimate every time (a module may add to it), worked
        out once per Effect of the game."""
        parsed = self.effect(effect)
        memo = self._expected if effect is not None else None
        if memo is not None:
            hit = memo.get(id(parsed))
            if hit is not None and hit[0] is parsed:
                return Estimate(hit[1])
        alts = compile_effect(parsed)
        out = Estimate()
        for ops in alts:
            for stat, d in mean_delta(ops, formula=self._nominal).items():
                out[stat] = out.get(stat, 0.0) + d / len(alts)
        if memo is not None:
            if len(memo) >= PARSED_EFFECTS:
                memo.clear()
            memo[id(parsed)] = (parsed, dict(out))
        return out

    def apply(self, seat: int, effect: Effect | str | None, why: str) -> None:
        """Apply an effect to `seat`; with alternatives the player chooses one (`why` names the
        decision in logs and scenarios)."""
        alts = compile_effect(self.effect(effect))
        if not alts:
            return
        ops = alts[0]
        if len(alts) > 1:
            labels = self.choices(effect)
            worth = {label: Estimate(mean_delta(a, formula=self._nominal))
                     for label, a in zip(labels, alts, strict=True)}
            ops = alts[labels.index(self.ctx.choose(seat, labels, why, worth.get))]
        if not self._links:
            EffectRunner.apply(self, seat, ops, why)
            return
        row = self.stat_rows[seat]
        before = {c: row[c] for c in self._links}
        self._depth += 1
        try:
            EffectRunner.apply(self, seat, ops, why)
        finally:
            self._depth -= 1
        if not self._depth:
            self._settle(seat, before)

    def add(self, seat: int, counter: str, amount: int) -> int:
        """Change one counter of `seat`, clamped to its bounds (and, for a counter that holds
        a supply's tokens, to what the supply can give); returns the change made."""
        row = self.stat_rows[seat]
        old = row[counter]
        made = self.book.add(row, counter, amount)
        if counter in self._links and not self._depth:
            self._settle(seat, {counter: old})
        return row[counter] - old if counter in self._links else made

    def _settle(self, seat: int, before: Mapping[str, int]) -> None:
        """Take what linked counters gained from their supplies, give back what they lost."""
        row, supply = self.stat_rows[seat], self.ctx.state.supply
        for counter, old in before.items():
            change = row[counter] - old
            if not change:
                continue
            name, may_run_out = self._links[counter]
            left = supply.get(name, 0)
            if change > left and not may_run_out:  # the supply ran dry: the rest is not had
                row[counter] -= change - max(left, 0)
                change = max(left, 0)
                self.ctx.event(f"{name} ran out", seat)
            supply[name] = left - change

    # EffectRunner hooks -------------------------------------------------------------------
    def roll_amount(self, seat: int, count: int, sides: int, stat: str, sign: int) -> int:
        return sum(self.ctx.roll(sides, f"amount {stat}", seat) for _ in range(count))

    def roll_chart(self, seat: int, chart: str) -> None:
        c = self.game.charts[chart]
        total = sum(self.ctx.roll(c.die.sides, f"chart {chart}", seat) for _ in range(c.die.count))
        row = next((r for r in c.rows if r.low <= total <= r.high), None)
        self.ctx.result.chart_counts[(chart, total)] += 1
        if row is not None:
            self.apply(seat, row.effect, f"chart {chart}")

    def use_ability(self, seat: int, name: str, args: tuple, source: str) -> None:
        raise NotImplementedError(f"the ability {name}({', '.join(map(str, args))}) of {source} "
                                  "needs the rules module's own code: subclass Effects and "
                                  "define use_ability")

    def formula_value(self, seat: int, formula: str) -> int:
        f = self.game.formulas[formula]
        return f.evaluate(self.stat_rows[seat][f.stat])

    def _nominal(self, formula: str) -> float:
        """A formula's value at its stat's start, for estimates."""
        f = self.game.formulas[formula]
        stat = self.game.stats.get(f.stat)
        return float(f.evaluate(stat.start if stat else 0))


#: effect texts (and expected changes) remembered per game: data texts are few; a bound in
#: case a module makes them
PARSED_EFFECTS = 4096


@per_definition
def _effect_tables(game: GameDef) -> tuple[dict[str, Effect], dict[int, tuple[Effect, dict]]]:
    """The game's parsed effect texts and expected changes by Effect, one pair of tables per
    GameDef (kept with the definition; an Effect is immutable)."""
    return {}, {}


@per_definition
def _names(game: GameDef) -> Names:
    """Spellings of the game's stats, charts, tracks and formulas (built once per GameDef)."""
    counters: Mapping[str, Any] = getattr(game, "counters", None) or game.stats
    return Names.create(
        stats={c.id: [c.name, c.abbreviation, *c.aliases] for c in counters.values()},
        charts={c.id: [c.name] for c in game.charts.values()},
        tracks={t.id: [t.name, *t.aliases] for t in game.tracks.values()},
        formulas={f: [] for f in game.formulas})
