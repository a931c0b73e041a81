"""The search bot: flat Monte Carlo over whole-game playouts, for any rules module.

Rules modules are procedures (they call `ctx.roll` and `ctx.choose` as they go), so a game
cannot be resumed from a mid-game state. It can be re-played, though: `ctx.trace` holds every
die and decision so far, and replaying that prefix from `new_state` reaches the very point
where the bot is being asked. So, at a decision with k options, for each option the bot plays
`playouts` games that

1. replay the recorded prefix (dice and decisions, exactly as they happened),
2. at the decision being made, hide what the bot could not see (`redeterminize`: the unseen
   cards are dealt afresh among the unseen places, each only where a card of the same back,
   the same deck, could be) and take the option being evaluated,
3. go on with fresh seeded dice and a simple playout bot in every seat (random by default,
   greedy with `search-greedy`), to the game's end or the turn cap,

and scores each for its own seat: its share of the win, plus a small term for its score
margin. The option with the best mean wins; ties go to the earliest option (the one rules
list as the cautious one). `search-greedy` keeps the greedy bot's own pick unless another
option beats it by more than a standard error of their paired difference (`pick_option`).
Playout j of every option uses the same seeds (common random numbers, with one dice stream
and one random-bot stream per kind of roll or decision), so options are compared on the same
luck as far as it goes.

Everything is seeded from (game seed, seat, decision number), so a game with search bots is as
deterministic as any other; its picks are recorded in the trace like any decision, so a replay
never runs the search again. A module needs nothing beyond the GameModule protocol.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from math import floor as _floor
from typing import Any, NamedTuple

from pnp.engine.core import (
    NO_HINTS,
    BotHints,
    Context,
    GameMeta,
    IllegalChoice,
    RunawayGame,
    State,
    redeterminize,
)
from pnp.engine.guards import prints_dropped
from pnp.engine.module import Rules, rules_of
from pnp.engine.registry import module_for
from pnp.engine.result import TIMEOUT, GameResult
from pnp.engine.state import card_backs

#: playouts per option of the plain `search` bot
DEFAULT_PLAYOUTS = 8
#: at most this many playouts per option per decision, however the budget is spelled
MAX_PLAYOUTS = 1000
#: a decision never costs more than this many times the per-option budget in playouts: with
#: more options than this, the budget is spread over them (at least one playout each)
TOTAL_FACTOR = 8
#: weight of the normalised score margin next to the win share (only breaks near-ties)
MARGIN_WEIGHT = 0.05
#: search-greedy: how many standard errors of the paired difference the best option must be
#: ahead of the greedy bot's own pick to be taken instead
SURE = 1.0
#: playout policies by bot name
POLICIES = ("random", "greedy")
#: GameResult.ended of a playout in which a decision had no legal option
_ABORTED = "crashed"


def playout_value(result: GameResult, seat: int) -> float:
    """What one finished playout is worth to `seat`: its share of the win, plus a small,
    normalised score margin (over the best other seat) that only breaks near-ties."""
    winners = result.winners
    value = 1.0 / len(winners) if seat in winners else 0.0
    scores = result.scores
    if len(scores) > 1 and 0 <= seat < len(scores):
        mine = scores[seat]
        best_other = max(s for i, s in enumerate(scores) if i != seat)
        scale = max(abs(s) for s in scores) or 1
        value += MARGIN_WEIGHT * max(-1.0, min(1.0, (mine - best_other) / scale))
    return value


class _Playout:
    """Dice and decisions of one playout: the recorded prefix, then the option under test at
    the decision being searched, then seeded dice and playout bots."""

    __slots__ = ("branch", "branched", "ctx", "cut", "draw", "off_script", "pick", "policy",
                 "pos", "prefix", "tag", "until")

    def __init__(self, prefix: Sequence[int], pick: int, tag: str,
                 policy: Sequence[Any], branch: Callable[[_Playout, int, Sequence[Any], str], None]):
        self.prefix = prefix
        self.pos = 0
        self.pick = pick
        self.policy = policy
        self.branch = branch
        self.branched = False
        self.off_script = False  # a die was drawn after the prefix but before the decision
        self.ctx: Context | None = None
        #: a rollout horizon (set by a branch): the playout stops at the first step boundary
        #: whose turn is this or later, and `cut` says it stopped there (None: to the end)
        self.until: int | None = None
        self.cut = False
        #: what the dice after the prefix are seeded from (a branch may still change it)
        self.tag = tag
        n = len(prefix)
        #: one stream of dice per kind of roll (its `why`): after different options, the
        #: same kinds of roll still see the same luck for as long as their counts agree
        streams: dict[str, Callable[[], float]] = {}

        def draw(sides: int, why: str) -> int:
            i = self.pos
            if i < n:
                self.pos = i + 1
                return prefix[i]
            if not self.branched:
                self.off_script = True
            rand = streams.get(why)
            if rand is None:
                rand = streams[why] = random.Random(f"{self.tag}:{why}").random
            return _floor(rand() * sides) + 1

        self.draw = draw

    def choose(self, state: State, seat: int, options: Sequence[Any], why: str,
               outcomes: Any = None) -> int:
        i = self.pos
        if i < len(self.prefix):
            self.pos = i + 1
            return self.prefix[i]
        if not self.branched:
            self.branched = True
            self.branch(self, seat, options, why)
            return self.pick
        return self.policy[seat].choose(state, seat, options, why, outcomes)


def pick_option(values: Sequence[Sequence[float]], default: int = 0,
                margin: float = 1.0) -> int:
    """The option with the best mean playout value, if it beats `default` by more than
    `margin` standard errors of their paired differences (playout j of every option shares its
    seeds); otherwise `default`. Among equal means the earliest option wins.

    Without the margin, near-equal options would be picked by the luck of a few playouts: in a
    long dice game one decision moves the win rate by a point or two while one playout's
    outcome is all or nothing, so the best mean of a handful is mostly noise."""
    means = [sum(v) / len(v) for v in values]
    best = 0
    for i, m in enumerate(means):
        if m > means[best] + 1e-12:
            best = i
    if best == default or margin <= 0:
        return best
    diffs = [a - b for a, b in zip(values[best], values[default], strict=True)]
    n = len(diffs)
    mean = sum(diffs) / n
    if n < 2:
        return best if mean > 0 else default
    var = sum((d - mean) ** 2 for d in diffs) / (n - 1)
    return best if mean > margin * (var / n) ** 0.5 else default


class _Horizon(Exception):
    """Raised by a replay's step hook at a playout's horizon: the playout stops there."""


class _Resume(NamedTuple):
    """Where a replay may start instead of the game's beginning: a copy of the state at a
    step boundary of the game so far, how much of the trace led there, and the context's
    counts at that point (so every per-game and per-turn budget counts as in a replay from
    the start)."""

    state: State
    pos: int
    steps: int
    decisions: int
    budget_turn: int
    turn_steps: int
    turn_decisions: int


class Replaying:
    """What a bot that plays on by replaying the game's trace needs from the real game, given
    by play_game through `attach` (the search and mcts bots share it).

    A rules module that declares `RESUMES_AT_STEPS = True` promises that its `play` goes on
    from a state saved at any step boundary exactly as it went on from there before (all it
    carries from phase to phase is in the state). Then a replay need not start at the game's
    beginning: the bot keeps a copy of the state at the last step boundary its replays passed
    before the decision searched (`_Resume`), and every later replay starts there, with the
    trace that led there already read. The picks are the same as from the beginning; the
    first replay of every decision still checks that it reached the real state."""

    game: Any = None
    players = 0
    real: Context | None = None
    cap = 0
    module: Any = None
    backs: dict = {}
    #: the latest point a replay may start from (None: the game's beginning)
    resume: _Resume | None = None
    #: whether the module resumes at steps (RESUMES_AT_STEPS), so replays keep resume points
    resumes = False
    #: what `ctx.recall` computed in the replays since the resume point, in call order, and
    #: how many calls the replay being played has made since it
    recalled: list = []
    calls = 0
    #: whether playouts may stop at a horizon (`_Playout.until`), so replays watch the steps
    horizons = False

    def attach(self, game: Any, players: int, ctx: Context, cap: int) -> None:
        """Called by play_game before the game starts: what the bot needs to replay it."""
        self.game = game
        self.players = players
        self.real = ctx
        self.cap = cap
        self.module = rules_of(module_for(game))
        #: each card's back (the pile it starts in): determinisation swaps like with like
        self.backs = card_backs(self.module.new_state(game, players))
        self.resume = None
        self.resumes = bool(getattr(self.module.module, "RESUMES_AT_STEPS", False))
        self.recalled = []

    def play_out(self, source: Any) -> tuple[State, GameResult]:
        """Play the game again with `source` giving every die and decision (a playout), from
        its start or from the latest resume point; a playout that runs away or hits an
        illegal choice just ends there."""
        module = self.module
        at = self.resume
        state = (module.new_state(self.game, self.players) if at is None
                 else at.state.copy())
        result = GameResult(game=getattr(self.game, "id", "?"), seed=0, players=self.players,
                            bots=("playout",) * self.players)
        ctx = Context(state, source, [source] * self.players, result,
                      on_step=self._keep if self.resumes or self.horizons else None)
        if at is not None:  # the trace so far read, the budgets counted as from the start
            source.pos = at.pos
            ctx.trace.extend(source.prefix[:at.pos])
            ctx.steps, ctx.decisions = at.steps, at.decisions
            ctx._budget_turn, ctx._turn_steps, ctx._turn_decisions = (
                at.budget_turn, at.turn_steps, at.turn_decisions)
        source.ctx = ctx
        ctx.roll, ctx.roll_high = ctx.dice_drawn_by(source.draw)  # type: ignore[method-assign]
        self.calls = 0
        ctx.recall = self._recaller(source)  # type: ignore[method-assign]
        with prints_dropped():  # a designer reads the real game's prints, not a playout's
            try:
                module.play(self.game, ctx, self.cap)
            except RunawayGame:
                state.ended = TIMEOUT
            except IllegalChoice:
                state.ended = _ABORTED
            except _Horizon:  # cut at a step boundary: finish reads the score as it stands
                source.cut = not state.ended  # (a cut on the game's last step is its real end)
            module.finish(self.game, ctx)
        return state, result

    def _keep(self, ctx: Context, label: str) -> None:
        """A step hook of the replays: a step boundary passed while still replaying the real
        game (before the decision searched) is where later replays may start; one past the
        playout's horizon (`_Playout.until`) ends the playout."""
        source = ctx._dice
        if source.branched or source.off_script:
            if source.until is not None and ctx.state.turn >= source.until:
                raise _Horizon
            return
        if not self.resumes:
            return
        at = self.resume
        if at is not None and (source.pos, ctx.steps) <= (at.pos, at.steps):
            return
        self.resume = _Resume(ctx.state.copy(), source.pos, ctx.steps, ctx.decisions,
                              ctx._budget_turn, ctx._turn_steps, ctx._turn_decisions)
        self.recalled = []  # calls are counted from the new resume point
        self.calls = 0

    def _recaller(self, source: _Playout) -> Callable[..., Any]:
        """`ctx.recall` for one replay: the n-th call since the resume point, while the
        replay is still the real game's (before the decision searched), is the n-th call of
        every replay from there, on the same state, so its result is taken from the first
        replay that made it; after the branch everything is computed."""

        def recall(compute: Callable[..., Any], *args: Any) -> Any:
            if source.branched or source.off_script:
                return compute(*args)
            n = self.calls
            self.calls = n + 1
            done = self.recalled
            if n < len(done):
                return done[n]
            pos = source.pos
            value = compute(*args)
            # kept only if it drew nothing and decided nothing (a pure computation)
            if n == len(done) and source.pos == pos and not source.branched:
                done.append(value)
            return value

        return recall


class SearchBot(Replaying):
    """Flat Monte Carlo by trace replay (see the module docstring)."""

    def __init__(self, seed: int, seat: int, meta: GameMeta, playouts: int | None = None,
                 policy: str = "random", hints: BotHints = NO_HINTS):
        if policy not in POLICIES:
            raise ValueError(f"unknown playout policy {policy!r} (known: {', '.join(POLICIES)})")
        self.seed = seed
        self.seat = seat
        self.meta = meta
        self.hints = hints  # the game's greedy-bot hints, for greedy defaults and playouts
        self.playouts = DEFAULT_PLAYOUTS if playouts is None else playouts
        if not 1 <= self.playouts <= MAX_PLAYOUTS:
            raise ValueError(f"a search budget is 1 to {MAX_PLAYOUTS} playouts per option, "
                             f"not {self.playouts}")
        self.policy = policy
        #: standard errors by which the best option must beat the default one (pick_option):
        #: only a default worth keeping (the greedy bot's pick) is kept on thin evidence
        self.margin = SURE if policy == "greedy" else 0.0
        #: hide unseen cards before playing out (off only to show, in a test, what peeking does)
        self.hide = True
        self.game: Any = None
        self.players = 0
        self.real: Context | None = None
        self.cap = 0
        self.module: Rules | None = None
        self.backs: dict = {}
        #: decisions searched, prefixes checked against the real state, and mismatches found
        self.searched = 0
        self.checked = 0
        self.mismatches = 0
        self.playouts_run = 0

    def budget(self, options: int) -> int:
        """Playouts per option at a decision with this many options."""
        return max(1, min(self.playouts, self.playouts * TOTAL_FACTOR // options))

    def choose(self, state: State, seat: int, options: Sequence[Any], why: str,
               outcomes: Any) -> int:
        real = self.real
        if real is None:  # not attached (played outside play_game): nothing to replay
            raise RuntimeError("a search bot plays only through play_game, which attaches it "
                               "to the game it replays")
        self.searched += 1
        prefix = list(real.trace)
        decision = real.decisions
        per_option = self.budget(len(options))
        tag = f"search:{self.seed}:{seat}:{decision}"
        values = []
        for i in range(len(options)):
            values.append([self.playout(prefix, i, f"{tag}:{j}", seat, options, why,
                                        i == 0 and j == 0) for j in range(per_option)])
        default = self.default_pick(state, seat, options, why, outcomes)
        return pick_option(values, default, self.margin)

    def default_pick(self, state: State, seat: int, options: Sequence[Any], why: str,
                     outcomes: Any) -> int:
        """The option kept on a tie (or, for search-greedy, unless the playouts are sure of a
        better one): the greedy bot's own pick, or the earliest option."""
        if self.policy == "greedy":
            from pnp.engine.bots import GreedyBot

            return GreedyBot(self.seed, seat, self.meta, self.hints).choose(
                state, seat, options, why, outcomes)
        return 0

    def playout(self, prefix: list[int], pick: int, tag: str, seat: int,
                options: Sequence[Any], why: str, check: bool) -> float:
        """Play one game: the prefix, option `pick` here, then seeded play to the end."""
        module = self.module
        assert module is not None and self.real is not None
        hidden = random.Random(tag + ":unseen")
        bots = _policy_bots(self.policy, tag, self.players, self.meta, self.hints)
        real = self.real

        def branch(p: _Playout, at_seat: int, at_options: Sequence[Any], at_why: str) -> None:
            st = p.ctx.state  # type: ignore[union-attr]
            if check:
                self.checked += 1
                if (p.off_script or at_seat != seat or at_why != why
                        or list(at_options) != list(options) or st != real.state):
                    self.mismatches += 1
                    real.violate("a search bot's replay of the game so far did not reach the "
                                 "same decision in the same state: the rules module is not "
                                 "deterministic given its dice and decisions")
            if self.hide and self.meta.zone_visibility:
                redeterminize(st, seat, self.meta.zone_visibility, hidden, self.backs)

        source = _Playout(prefix, pick, tag, bots, branch)
        state, result = self.play_out(source)
        self.playouts_run += 1
        if check and not source.branched:
            self.checked += 1
            self.mismatches += 1
            real.violate("a search bot's replay of the game so far ended before the decision "
                         "it was searching: the rules module is not deterministic given its "
                         "dice and decisions")
        return playout_value(result, seat)


class _KeyedRandom:
    """A random playout bot with one stream per seat and kind of decision (its `why`), so
    that after different options the same kinds of decision still get the same luck."""

    __slots__ = ("streams", "tag")

    def __init__(self, tag: str):
        self.tag = tag
        self.streams: dict[str, Callable[[], float]] = {}

    def choose(self, state: State, seat: int, options: Sequence[Any], why: str,
               outcomes: Any) -> int:
        rand = self.streams.get(why)
        if rand is None:
            rand = self.streams[why] = random.Random(f"{self.tag}:{why}").random
        return int(rand() * len(options))


def _policy_bots(policy: str, tag: str, players: int, meta: GameMeta,
                 hints: BotHints) -> list[Any]:
    if policy == "greedy":
        from pnp.engine.bots import GreedyBot

        return [GreedyBot(0, seat, meta, hints) for seat in range(players)]
    return [_KeyedRandom(f"{tag}:bot{seat}") for seat in range(players)]
