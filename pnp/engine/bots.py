"""Bots: who answers `ctx.choose` in self-play. Each is seeded from the game seed and its seat.

- random: uniform over the legal options.
- greedy: scores each option by the expected stat changes the rules module says it yields
  (`outcomes(option) -> {stat: change}`), weighted by the game's declared value of each stat
  (GameMeta.bot_values), ignoring gains above a cap and penalising any drop towards a danger
  floor (the module's optional `bot_hints(game)`, BotHints.floors: Food before famine,
  Military before defeat, Territory and Population before elimination). Ties go to the earliest option, which rules modules make the
  cautious one (keep, stay, stop, done, none). Without outcomes it takes the first option.
- greedy-varied: greedy, with ties broken at random from its own seeded stream (every option
  it may pick is one greedy scores best; without outcomes every option ties). In a game
  without chance, greedy in every seat plays one game however many are asked for; this bot
  plays distinct games at greedy's judgement (after TAG's one-step-lookahead player, which
  adds seeded noise of 1e-6 to its values to break ties).
- first: always the first option (deterministic; handy in scenarios).
- mcts: information-set Monte Carlo tree search (pnp/engine/mcts.py), the strong generic bot;
  `mcts:N` gives it N iterations per decision.
- search, search-greedy: flat Monte Carlo over whole-game playouts by trace replay, with random
  (or greedy) playout bots; works for any rules module (pnp/engine/search.py). A budget in
  playouts per option may follow the name: `search:32`.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Sequence
from operator import itemgetter
from typing import Any

from pnp.engine.core import NO_HINTS, PREGAME, BotHints, Estimate, GameMeta, OptionTable, State
from pnp.engine.mcts import MAX_ITERATIONS, MctsBot
from pnp.engine.search import MAX_PLAYOUTS, SearchBot
from pnp.memo import BoundedMemo

Outcomes = Callable[[Any], dict[str, float]] | None

#: how far above a danger floor the greedy bot starts to worry, and how much per point
DANGER_MARGIN = 2
DANGER_WEIGHT = 6.0
_PLAIN = (1.0, None, None)
#: the range of a check with no floor or no cap. Checks compare whole counters with whole
#: bounds (CPython compares two small ints much faster than an int with a float); a counter
#: beyond these merely takes the exact, slower path
_NO_LOW, _NO_HIGH = -(1 << 30) + 1, (1 << 30) - 1
#: picks an option table remembers by the values of its checked counters (a bound on memory)
TABLE_MEMO = 4096


def _NO_KEY(stats: dict[str, int]) -> tuple:
    return ()


class RandomBot:
    """Uniform over the legal options, from its own stream (seeded by game seed and seat)."""

    def __init__(self, seed: int, seat: int, meta: GameMeta | None = None,
                 hints: BotHints = NO_HINTS):
        self._random = random.Random(f"random:{seed}:{seat}").random

    def choose(self, state: State, seat: int, options: Sequence[Any], why: str,
               outcomes: Outcomes) -> int:
        return int(self._random() * len(options))


class FirstBot:
    """Always the first legal option."""

    def __init__(self, seed: int = 0, seat: int = 0, meta: GameMeta | None = None,
                 hints: BotHints = NO_HINTS):
        pass

    def choose(self, state: State, seat: int, options: Sequence[Any], why: str,
               outcomes: Outcomes) -> int:
        return 0


class GreedyBot:
    """One-step greedy over expected stat changes (see the module docstring). Its digest of
    an Estimate or OptionTable is kept in the object's `bot_memo`, with its weights first, so
    a bot of another game (other weights) digests it anew."""

    def __init__(self, seed: int, seat: int, meta: GameMeta, hints: BotHints = NO_HINTS):
        #: stat -> (value of one point, cap or None, danger line or None); shared by every
        #: greedy bot of the same game, so digests of the rules' estimates are shared too
        self.info = _info(meta, hints)
        self.stats = meta.counter_bounds
        self.pregame_offsets = hints.pregame_offsets

    def score(self, stats: dict[str, int], delta: dict[str, float]) -> float:
        """Weighted stat changes, gains above a cap ignored, danger below a floor penalised."""
        prep = getattr(delta, "bot_memo", False)
        if prep is None:  # an Estimate seen for the first time: digest it once
            prep = delta.bot_memo = self.digest(delta)  # type: ignore[attr-defined]
        if prep:
            info, total, checks, _ = prep
            if info is self.info:
                for stat, lo, hi, k in checks:
                    cur = stats.get(stat, 0)
                    if cur < lo or cur > hi:
                        d, w, cap, line = prep[3][k]
                        total += self.risky(stats, stat, d, w, cap, line) - w * d
                return total
        total = 0.0
        info = self.info
        for stat, d in delta.items():
            w, cap, line = info.get(stat, _PLAIN)
            if cap is None and line is None:
                total += w * d
            else:
                total += self.risky(stats, stat, d, w, cap, line)
        return total

    def digest(self, delta: dict[str, float]) -> tuple:
        """(weights, the score as if no cap or floor applied, the checks that need the current
        values, their terms). A check (stat, lo, hi, index of its term) only matters when the stat is below lo (the
        change would end below the danger line, or starts there) or above hi (a gain would
        pass the cap); otherwise the plain score stands."""
        total = 0.0
        checks = []
        terms = []
        for stat, d in delta.items():
            w, cap, line = self.info.get(stat, _PLAIN)
            total += w * d
            if (cap is None and line is None) or stat not in self.stats:
                continue  # plain, or a bot-only quantity ("power"): nothing to clip
            # rounded outwards: for a whole counter the same test (cur < x iff cur < ceil(x)),
            # for any other value only more often sent down the exact path
            lo = math.ceil(line + max(-d, 0)) if line is not None else _NO_LOW
            hi = math.floor(cap - d) if cap is not None and d > 0 else _NO_HIGH
            if lo == _NO_LOW and hi == _NO_HIGH:
                continue  # a loss of a capped stat with no danger line: it can never clip
            checks.append((stat, lo, hi, len(terms)))
            terms.append((d, w, cap, line))
        return (self.info, total, tuple(checks), tuple(terms))

    def digest_table(self, table: OptionTable) -> tuple:
        """(weights, the pick by plain scores, (stat, lo, hi) checks, the checked counters'
        getter, picks by their values). The per-option checks are merged per stat, so that
        none failing means no option's score leaves its plain value and the pick stands (the
        same pick, ties included, as scoring option by option); when one fails, every score
        depends only on the checked counters, so the pick is remembered by their values
        (only then: remembering every pick would pay off only where the same states recur,
        as in a benchmark that replays its own seeds)."""
        best = None
        pick = 0
        bounds: dict[str, list[int]] = {}
        for i, delta in enumerate(table.estimates):
            prep = getattr(delta, "bot_memo", None)  # a plain dict has none: digested here
            if prep is None or prep[0] is not self.info:
                prep = self.digest(delta)
                if delta.__class__ is Estimate and delta.bot_memo is None:
                    delta.bot_memo = prep
            s = prep[1]
            if best is None or s > best + 1e-9:
                best = s
                pick = i
            for stat, lo, hi, _ in prep[2]:
                b = bounds.setdefault(stat, [_NO_LOW, _NO_HIGH])
                b[0] = max(b[0], lo)
                b[1] = min(b[1], hi)
        checked = tuple(bounds)
        return (self.info, pick, tuple((stat, lo, hi) for stat, (lo, hi) in bounds.items()),
                itemgetter(*checked) if checked else _NO_KEY, {})

    @staticmethod
    def risky(stats: dict[str, int], stat: str, d: float, w: float, cap: int | None,
              line: int | None) -> float:
        cur = stats.get(stat, 0)
        if cap is not None and d > 0 and cur + d > cap:
            d = cap - cur if cap > cur else 0
        value = w * d
        if line is not None:
            after = cur + d
            if after < line or cur < line:
                value -= DANGER_WEIGHT * ((line - after if after < line else 0.0)
                                          - (line - cur if cur < line else 0.0))
        return value

    def counters(self, state: State, seat: int) -> dict[str, int]:
        """The seat's counters as the bot judges them (setup bonuses added in the pregame)."""
        stats = state.players[seat].counters
        if state.stage == PREGAME and self.pregame_offsets:  # floors matter after setup
            stats = dict(stats)
            for stat, k in self.pregame_offsets.items():
                stats[stat] = stats.get(stat, 0) + k
        return stats

    def choose(self, state: State, seat: int, options: Sequence[Any], why: str,
               outcomes: Outcomes) -> int:
        stats = state.players[seat].counters  # counters() inlined: this is greedy's hot path
        if state.stage == PREGAME and self.pregame_offsets:
            stats = self.counters(state, seat)
        if outcomes.__class__ is OptionTable and options is outcomes.options:
            prep = outcomes.bot_memo
            if prep is None or prep[0] is not self.info:
                prep = outcomes.bot_memo = self.digest_table(outcomes)
            for stat, lo, hi in prep[2]:  # while no option meets a cap or floor ...
                cur = stats[stat]
                if cur < lo or cur > hi:
                    break
            else:
                return prep[1]  # ... the plain scores decide, worked out once
            # otherwise the pick depends on the checked counters' values alone: remembered
            key = prep[3](stats)
            memo = prep[4]
            pick = memo.get(key)
            if pick is None:
                pick = self.pick(stats, options, outcomes)
                if len(memo) < TABLE_MEMO:
                    memo[key] = pick
            return pick
        if outcomes is None:
            return 0
        return self.pick(stats, options, outcomes)

    def best(self, state: State, seat: int, options: Sequence[Any],
             outcomes: Outcomes) -> list[int]:
        """Every option scored within greedy's tolerance (1e-9) of the best, in order; all of
        them when the rules give no estimates."""
        if outcomes is None:
            return list(range(len(options)))
        stats = self.counters(state, seat)
        if outcomes.__class__ is OptionTable and options is outcomes.options:
            deltas = outcomes.estimates
        else:
            deltas = map(outcomes, options)
        scores = [self.score(stats, delta or {}) for delta in deltas]
        top = max(scores) - 1e-9
        return [i for i, s in enumerate(scores) if s >= top]

    def pick(self, stats: dict[str, int], options: Sequence[Any], outcomes: Outcomes) -> int:
        """The best option scored one by one (ties to the earliest)."""
        info = self.info
        best = None
        pick = i = 0
        if outcomes.__class__ is OptionTable and options is outcomes.options:
            deltas = outcomes.estimates  # each option's estimate, without a call per option
        else:
            deltas = map(outcomes, options)
        for delta in deltas:
            if delta.__class__ is Estimate:
                prep = delta.bot_memo
                if prep is None:  # an Estimate seen for the first time: digest it once
                    prep = delta.bot_memo = self.digest(delta)
                if prep[0] is info:  # score() inlined for the common case
                    s = prep[1]
                    for stat, lo, hi, k in prep[2]:
                        cur = stats[stat]
                        if cur < lo or cur > hi:
                            d, w, cap, line = prep[3][k]
                            s += self.risky(stats, stat, d, w, cap, line) - w * d
                else:  # digested by a bot of another game
                    s = self.score(stats, delta)
            else:  # a plain dict (or nothing)
                s = self.score(stats, delta or {})
            if best is None or s > best + 1e-9:
                best = s
                pick = i
            i += 1
        return pick


def break_tie(tied: Sequence[int], draw: Callable[[], float]) -> int:
    """One of greedy's tied best (`GreedyBot.best`), drawn with `draw` when there are
    several: greedy-varied's tie-break, and mcts's rollouts' in a game without chance."""
    return tied[0] if len(tied) == 1 else tied[int(draw() * len(tied))]


class VariedGreedyBot(GreedyBot):
    """Greedy's judgement with its ties broken at random (seeded by game seed and seat), so
    bots that judge alike still play distinct games where the rules add no chance."""

    def __init__(self, seed: int, seat: int, meta: GameMeta, hints: BotHints = NO_HINTS):
        super().__init__(seed, seat, meta, hints)
        self._random = random.Random(f"greedy-varied:{seed}:{seat}").random

    def choose(self, state: State, seat: int, options: Sequence[Any], why: str,
               outcomes: Outcomes) -> int:
        return break_tie(self.best(state, seat, options, outcomes), self._random)


#: emptied past 64 (meta, hints) pairs
_INFO: BoundedMemo[tuple[int, int], tuple[GameMeta, BotHints, dict]] = BoundedMemo(65)


def _info(meta: GameMeta, hints: BotHints) -> dict[str, tuple[float, int | None, int | None]]:
    """Stat -> (value, cap, danger line), one dict per game's (meta, hints) pair."""
    hit = _INFO.get((id(meta), id(hints)))
    if hit is not None and hit[0] is meta and hit[1] is hints:
        return hit[2]
    info: dict[str, tuple[float, int | None, int | None]] = {}
    caps = {s: b[1] for s, b in meta.counter_bounds.items()}
    floors = hints.floors
    for stat in {*meta.bot_values, *caps, *floors}:
        floor = floors.get(stat)
        info[stat] = (meta.bot_values.get(stat, 1.0), caps.get(stat),
                      None if floor is None else floor + DANGER_MARGIN)
    _INFO.put((id(meta), id(hints)), (meta, hints, info))
    return info


def _search(seed: int, seat: int, meta: GameMeta, hints: BotHints = NO_HINTS,
            playouts: int | None = None) -> SearchBot:
    return SearchBot(seed, seat, meta, playouts, hints=hints)


def _search_greedy(seed: int, seat: int, meta: GameMeta, hints: BotHints = NO_HINTS,
                   playouts: int | None = None) -> SearchBot:
    return SearchBot(seed, seat, meta, playouts, policy="greedy", hints=hints)


def _mcts(seed: int, seat: int, meta: GameMeta, hints: BotHints = NO_HINTS,
          iterations: int | None = None) -> MctsBot:
    return MctsBot(seed, seat, meta, iterations, hints=hints)


#: bot name -> factory(seed, seat, meta, hints): hints are the game's BotHints (NO_HINTS when
#: its module has no `bot_hints`); a bot that needs none may ignore them
BOTS: dict[str, Callable[..., Any]] = {
    "random": RandomBot,
    "greedy": GreedyBot,
    "greedy-varied": VariedGreedyBot,
    "first": FirstBot,
    "search": _search,
    "search-greedy": _search_greedy,
    "mcts": _mcts,
}
#: bots that take a budget after a colon (`search:32`): the most it may be, and what it counts
BUDGETED = {"search": (MAX_PLAYOUTS, "playouts per option"),
            "search-greedy": (MAX_PLAYOUTS, "playouts per option"),
            "mcts": (MAX_ITERATIONS, "iterations per decision")}


def bot_factory(name: str) -> Callable[..., Any]:
    """The factory for a bot name, budget included ('search:32'); ValueError in plain words."""
    base, colon, arg = name.partition(":")
    if base not in BOTS:
        raise ValueError(f"unknown bot {name!r}; bots: {', '.join(sorted(BOTS))}")
    if not colon:
        return BOTS[base]
    if base not in BUDGETED:
        raise ValueError(f"bot {base!r} takes no budget (only {', '.join(sorted(BUDGETED))} "
                         f"do, as in 'search:32')")
    most, unit = BUDGETED[base]
    if not arg.isdigit() or not 1 <= int(arg) <= most:
        raise ValueError(f"bot {name!r}: the budget after ':' is {unit}, a whole "
                         f"number from 1 to {most}")
    playouts = int(arg)
    factory = BOTS[base]

    def make(seed: int, seat: int, meta: GameMeta, hints: BotHints = NO_HINTS) -> Any:
        return factory(seed, seat, meta, hints, playouts)

    return make


def make_bots(names: Sequence[str], players: int, seed: int, meta: GameMeta,
              hints: BotHints = NO_HINTS) -> list[Any]:
    """One bot per seat; a single name is used for every seat. `hints`: the game's greedy-bot
    hints (its module's `bot_hints`), handed to every bot."""
    if len(names) == 1:
        names = list(names) * players
    if len(names) != players:
        raise ValueError(f"{len(names)} bots for {players} players")
    factories = [bot_factory(name) for name in names]
    return [make(seed, seat, meta, hints) for seat, make in enumerate(factories)]
