"""The `mcts` bot: information-set Monte Carlo tree search for any rules module.

Single-observer ISMCTS (Cowling, Powley and Whitehouse 2012), played open loop over the
decisions that follow the one being made, on the same trace replay as the flat search bot
(pnp/engine/search.py; a rules module needs nothing beyond the protocol). One iteration:

1. replay the game so far from its recorded dice and decisions;
2. at the decision being made, **determinise** from what this seat may know: the unseen cards
   are dealt afresh among the unseen places, each only where a card of the same back (the
   same deck) could be (`redeterminize`), so every iteration samples another hidden world the
   seat cannot tell from the true one. The k-th playout of every option at the root is played
   in the same world k, hidden cards and dice alike (common random numbers), so options are
   compared on the same luck as far as it goes;
3. **select** down the tree: at each decision (any seat's), among the options offered now
   (their number may change with the dice), pick the child with the best UCB score *for the
   seat deciding* (max-n: every node keeps a reward per seat), counting a child's
   availability rather than its parent's visits (the ISMCTS form of UCB1); **progressive
   widening** lets a node open a new child only while fewer than
   ceil(WIDEN * visits ** 0.5) of the options offered have one, so a decision with many options is not spread thin;
   with OPPONENTS "model" only the searching seat's decisions are in the tree, and the other
   seats' are played by the rollout bot (the opponent model) on the way down, and with a
   TREE_DEPTH no node is made below that depth (1: flat Monte Carlo over the root's options);
4. **expand** one child and leave the tree: the rest of the game is played by the rollout
   bot (the game's greedy estimates where its module gives them, else uniform; with a little
   randomness either way), with fresh seeded dice, to the end or the turn cap, or with a
   HORIZON only to the first step boundary that many turns on (a step boundary is where a
   module's state is whole: `finish` of it is the result if the game ended there);
5. **back up** each seat's playout value (its share of the win, plus a small margin term).

The option with the most visits is played (ties to the earlier option). The budget is
iterations per decision (`mcts:N`, default DEFAULT_ITERATIONS); a decision with one option
costs nothing, and one whose pick the iterations left could no longer change stops there
(SETTLE). Everything is seeded from (game seed, seat, decision number), and the pick goes
into the trace like any decision, so a game is repeatable and its replay never searches.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from typing import Any

from pnp.engine.core import (
    NO_HINTS,
    BotHints,
    Context,
    GameMeta,
    State,
    redeterminize,
)
from pnp.engine.result import GameResult
from pnp.engine.search import MARGIN_WEIGHT as SEARCH_MARGIN
from pnp.engine.search import Replaying, _Playout, playout_value
from pnp.engine.stats import normal_cdf, t_quantile

#: iterations per decision of the plain `mcts` bot
DEFAULT_ITERATIONS = 32
#: at most this many iterations per decision, however the budget is spelled
MAX_ITERATIONS = 10000
#: UCB exploration constant (rewards lie in about [-0.05, 1.05])
EXPLORE = 0.7
#: progressive widening: a node may have ceil(WIDEN * visits ** 0.5) children
WIDEN = 1.5
#: the rollout bot's share of uniformly random picks (keeps the playouts from one script)
ROLLOUT_NOISE = 0.1
#: progressive bias: the greedy pick's UCB bonus, BIAS / (visits + 1), fading as it is tried
BIAS = 0.5
#: the root keeps the greedy pick unless the most visited option beats it by this many
#: standard errors of their paired differences (a noisy win must not undo what the estimates
#: know: at 2, about one decision in 40 between equal options leaves the greedy pick)
SURE = 2.0
#: how SURE is read: "z", as many standard errors whatever the number of pairs; "t", the same
#: one-sided level (about 2.3% at 2) with Student's t for the pairs there are, so a rival
#: seen in 3 pairs needs about 4.5 standard errors, in 10 about 2.5 (a tuning switch)
SURE_TEST = "z"
#: in a game whose module gives estimates, a decision it gives none for is played as the
#: greedy bot plays it (its first option) in rollouts and kept at the root unless surely worse;
#: 0 plays such decisions uniformly at random, as a game with no estimates at all is played
GUIDE_UNESTIMATED = 1.0
#: weight of the score margin over the best other seat, normalised, beside the win share: a
#: steadier signal than win or loss alone, in a game that is decided by points
MARGIN = 0.05
#: rollout horizon in turns (rounds): a playout stops at the first step boundary at which
#: the game's turn is this many past the decision's, and is valued by the module's own
#: `finish` of the state there (its scores by the module's `standing` hook where it has one),
#: the seats ahead on score counting as its winners ("the result if the game ended now");
#: 0 plays every playout to the end
HORIZON = 0
#: how the tree part of an iteration plays the other seats' decisions. "tree": every seat's
#: decision gets a node and is picked by UCB for the seat deciding (max-n), modelling each
#: opponent as searching for its own best reply; "model": only the searching seat gets nodes,
#: and the others' decisions are played by the rollout bot (the opponent model) all the way,
#: as TAG's MCTS does with its opponent tree policy SelfOnly. With an opponent model close to
#: how the opponents play, the root's estimates are those of the line-up actually faced
OPPONENTS = "tree"
#: the deepest tree node, counting the root's children as 1: a decision below it is played by
#: the rollout bot. 1 is flat Monte Carlo over the root's options with the rollout bot as
#: everyone's policy after them (rollout-policy improvement); 0: no limit
TREE_DEPTH = 0
#: fresh pairs that must confirm a departure, as a share of the budget (0: off). The root's
#: samples chose the rival *and* test it, so a rival that was lucky early is both the most
#: visited and the surest (the winner's curse): with CONFIRM, a rival that passes SURE on
#: them is played only if it passes SURE again on round(CONFIRM * N) new pairs of playouts,
#: rival against the greedy pick, each pair in a world of its own that the search never saw.
#: On since a test fixed in advance across the games (docs/mcts-strength.md, fresh pairs)
CONFIRM = 1.0
#: the standard errors of their paired differences by which the rival must beat the greedy
#: pick on the fresh pairs (read as SURE_TEST says)
CONFIRM_SURE = 2.0
#: how a confirming playout goes on after the option: "tree", down the search's tree as an
#: iteration does (the seat's own later decisions as the search would make them, every seat's
#: under OPPONENTS "tree"); "rollout", by the rollout bot alone
CONFIRM_PLAY = "tree"
#: stop a decision's iterations once they cannot change its pick: the greedy pick (or, at a
#: decision played without guidance, the leader) leads every other option by more visits
#: than there are iterations left, so it will be the most visited whatever they do, and the
#: most visited greedy pick is played without a test. The pick, the game and its replay are
#: the same as with the whole budget; only the iterations that could not matter are saved
SETTLE = True


class _Node:
    """One decision reached by a sequence of picks: children by (seat, why, option label)."""

    __slots__ = ("avail", "children", "samples", "total", "visits")

    def __init__(self, players: int):
        self.visits = 0
        self.avail = 0
        self.total = [0.0] * players
        #: at the root's children only: the root seat's value of each playout, in world order
        self.samples: list[float] | None = None
        self.children: dict[tuple, _Node] = {}

    def mean(self, seat: int) -> float:
        return self.total[seat] / self.visits if self.visits else 0.0


def _surely_better(mine: Sequence[float], theirs: Sequence[float], sure: float | None = None
                   ) -> bool:
    """Whether `mine` beats `theirs` by more than `sure` (default SURE) standard errors of
    their paired differences (playout k of each shares world k)."""
    if sure is None:
        sure = SURE
    diffs = [a - b for a, b in zip(mine, theirs, strict=False)]
    n = len(diffs)
    if n < 2:
        return False
    mean = sum(diffs) / n
    var = sum((d - mean) ** 2 for d in diffs) / (n - 1)
    if SURE_TEST == "t":
        return mean > t_quantile(normal_cdf(sure), n - 1) * (var / n) ** 0.5
    if SURE_TEST != "z":
        raise ValueError(f'mcts.SURE_TEST is "z" or "t", not {SURE_TEST!r}')
    return mean > sure * (var / n) ** 0.5


def _leader(root: _Node, keys: Sequence[tuple], seat: int) -> int | None:
    """The root's most visited option, ties to the better mean for `seat`, then the earlier
    option; None before any has been tried."""
    best, leader = (-1, -math.inf), None
    for i, k in enumerate(keys):
        child = root.children.get(k)
        if child is not None and (child.visits, child.mean(seat)) > best:
            best, leader = (child.visits, child.mean(seat)), i
    return leader


def _settled(root: _Node, keys: Sequence[tuple], seat: int, pick: int | None,
             left: int) -> bool:
    """Whether the root's most visited option is `pick` (None: whichever it is) and stays
    the most visited however the `left` iterations go."""
    leader = _leader(root, keys, seat)
    if leader is None or (pick is not None and leader != pick):
        return False
    ahead = root.children[keys[leader]]
    chased = max((child.visits for k in keys
                  if (child := root.children.get(k)) is not None and child is not ahead),
                 default=0)
    return chased + left < ahead.visits


def greedy_reference(root: _Node, keys: Sequence[tuple], picks: Sequence[int]) -> int:
    """The greedy pick a rival must surely beat: the one pick, or of greedy's tied best (a
    game without chance) the most visited, ties to the earlier option."""
    if len(picks) == 1:
        return picks[0]
    return max(picks, key=lambda i: (getattr(root.children.get(keys[i]), "visits", -1), -i))


def _label(option: Any) -> str:
    return option if isinstance(option, str) else repr(option)


class _Rollout:
    """The playout bot past the tree: greedy on the module's estimates with a little noise,
    uniform where the module gives none. In a game without chance (GameMeta.has_chance
    False) greedy's ties are broken at random, as greedy-varied breaks them: there the
    first of the tied options is one fixed habit that every playout would repeat, and the
    only variety would be the noise."""

    __slots__ = ("break_tie", "greedy", "guided", "rand", "varied")

    def __init__(self, meta: GameMeta, hints: BotHints, rand: random.Random, players: int,
                 guided: bool = False):
        from pnp.engine.bots import GreedyBot, break_tie

        self.varied = not meta.has_chance
        self.break_tie = break_tie
        self.greedy = [GreedyBot(0, s, meta, hints) for s in range(players)]
        self.rand = rand
        self.guided = guided  # the game gives estimates: unestimated decisions go as greedy's

    def hint(self, state: State, seat: int, options: Sequence[Any], why: str,
             outcomes: Any) -> int | None:
        """The greedy pick where the module gives estimates (or guides every decision), else
        None (no guidance)."""
        if outcomes is None:
            return 0 if self.guided else None
        return self.greedy_pick(state, seat, options, why, outcomes)

    def greedy_pick(self, state: State, seat: int, options: Sequence[Any], why: str,
                    outcomes: Any) -> int:
        """Greedy's pick; in a game without chance one of its tied best at random."""
        bot = self.greedy[seat]
        if self.varied:
            return self.break_tie(bot.best(state, seat, options, outcomes), self.rand.random)
        return bot.choose(state, seat, options, why, outcomes)

    def choose(self, state: State, seat: int, options: Sequence[Any], why: str,
               outcomes: Any) -> int:
        if (outcomes is None and not self.guided) or self.rand.random() < ROLLOUT_NOISE:
            return int(self.rand.random() * len(options))
        if outcomes is None:
            return 0
        return self.greedy_pick(state, seat, options, why, outcomes)


class _Walk:
    """One iteration's way down the tree (the policy of every seat after the root)."""

    __slots__ = ("bot", "deepest", "force", "node", "only", "out", "path", "rollout", "stay")

    def __init__(self, bot: MctsBot, root: _Node, rollout: _Rollout, only: int | None = None,
                 deepest: int = 0):
        self.bot = bot
        self.node: _Node | None = root
        self.path = [root]
        self.rollout = rollout
        self.out = False
        #: the one seat whose decisions get tree nodes (OPPONENTS "model"); None: every seat
        self.only = only
        #: the path's length past which decisions are the rollout bot's (0: no limit)
        self.deepest = deepest
        #: the option taken at the root whatever its score (a confirming iteration), or None
        self.force: int | None = None
        #: whether the walk goes on down the tree after a forced option (else the rollout's)
        self.stay = True

    def choose(self, state: State, seat: int, options: Sequence[Any], why: str,
               outcomes: Any) -> int:
        if (self.out or len(options) < 2 or (self.only is not None and seat != self.only)
                or (self.deepest and len(self.path) >= self.deepest)):
            return self.rollout.choose(state, seat, options, why, outcomes)
        return self.step(state, seat, options, why, outcomes)

    def step(self, state: State, seat: int, options: Sequence[Any], why: str,
             outcomes: Any) -> int:
        node = self.node
        assert node is not None
        keys = [(seat, why, _label(o)) for o in options]
        children = node.children
        if self.force is not None:
            pick, self.force = self.force, None
            child = children.get(keys[pick])
            if child is None:  # a new node ends the tree part, as an expansion does
                child = children[keys[pick]] = _Node(len(node.total))
                self.out = True
            if not self.stay:  # the rollout bot plays everything after the forced option
                self.out = True
            child.avail += 1
            self.node = child
            self.path.append(child)
            return pick
        present = [(i, children[k]) for i, k in enumerate(keys) if k in children]
        for _, child in present:
            child.avail += 1
        room = math.ceil(WIDEN * node.visits ** 0.5 + 1e-9)
        if not present or (len(present) < len(keys) and len(present) < room):
            taken = {i for i, _ in present}
            first = self.rollout.hint(state, seat, options, why, outcomes)
            pick = first if first is not None and first not in taken else next(i for i in range(len(keys))
                                                         if i not in taken)
            child = children[keys[pick]] = _Node(len(node.total))
            child.avail = 1
            self.path.append(child)
            self.out = True
            return pick
        hint = self.rollout.hint(state, seat, options, why, outcomes)
        best, pick = -math.inf, 0
        for i, child in present:
            score = child.mean(seat) + EXPLORE * math.sqrt(math.log(max(child.avail, 1))
                                                           / (child.visits or 1))
            if i == hint:
                score += BIAS / (child.visits + 1)
            if score > best + 1e-12:
                best, pick = score, i
        self.node = children[keys[pick]]
        self.path.append(self.node)
        return pick


def leaders_now(result: GameResult, state: State) -> tuple[int, ...]:
    """The winners of a playout cut at its horizon, if the game ended there: the seats still
    in with the top score (a module's `finish` names none before the game's end)."""
    if result.winners:
        return tuple(result.winners)
    scores = result.scores
    live = [i for i in range(len(scores)) if not state.players[i].out]
    if not live:
        return ()
    top = max(scores[i] for i in live)
    return tuple(i for i in live if scores[i] == top)


def _value(result: GameResult, seat: int) -> float:
    """A playout's worth to `seat`: its share of the win plus MARGIN times its normalised
    margin over the best other seat (playout_value with this module's weight)."""
    value = playout_value(result, seat)
    scores = result.scores
    if MARGIN != SEARCH_MARGIN and len(scores) > 1 and 0 <= seat < len(scores):
        best_other = max(s for i, s in enumerate(scores) if i != seat)
        scale = max(abs(s) for s in scores) or 1
        value += (MARGIN - SEARCH_MARGIN) * max(-1.0, min(1.0, (scores[seat] - best_other)
                                                          / scale))
    return value


class MctsBot(Replaying):
    """Information-set MCTS by trace replay (see the module docstring)."""

    def __init__(self, seed: int, seat: int, meta: GameMeta, iterations: int | None = None,
                 hints: BotHints = NO_HINTS):
        self.seed = seed
        self.seat = seat
        self.meta = meta
        self.hints = hints
        self.iterations = DEFAULT_ITERATIONS if iterations is None else iterations
        if not 1 <= self.iterations <= MAX_ITERATIONS:
            raise ValueError(f"an mcts budget is 1 to {MAX_ITERATIONS} iterations per decision, "
                             f"not {self.iterations}")
        self.game: Any = None
        self.players = 0
        self.real: Context | None = None
        self.cap = 0
        self.module: Any = None
        self.backs: dict = {}
        #: the rollout horizon in turns (HORIZON when the bot was made; 0: to the end)
        self.horizon = int(HORIZON)
        self.horizons = self.horizon > 0
        # the tree's shape, read once like HORIZON: OPPONENTS "model" keeps other seats out
        if OPPONENTS not in ("tree", "model"):
            raise ValueError(f'mcts.OPPONENTS is "tree" or "model", not {OPPONENTS!r}')
        self.self_only = OPPONENTS == "model"
        #: the path's length past which decisions are the rollout bot's (TREE_DEPTH; 0: none)
        self.deepest = int(TREE_DEPTH) + 1 if TREE_DEPTH else 0
        #: playouts cut at the horizon
        self.cut = 0
        #: decisions searched, iterations run, replays that did not reach the same decision
        self.searched = 0
        self.iterations_run = 0
        self.mismatches = 0
        #: searched decisions where the pick was not the greedy bot's (how often search spoke)
        self.departures = 0
        #: rivals put to the fresh-pairs test (CONFIRM)
        self.confirmations = 0
        #: set at the first decision that comes with estimates: the module gives them
        self.guided = False

    def choose(self, state: State, seat: int, options: Sequence[Any], why: str,
               outcomes: Any) -> int:
        if len(options) < 2:
            return 0
        real = self.real
        if real is None:
            raise RuntimeError("an mcts bot plays only through play_game, which attaches it "
                               "to the game it replays")
        self.searched += 1
        if outcomes is not None and GUIDE_UNESTIMATED:
            self.guided = True
        prefix = list(real.trace)
        tag = f"mcts:{self.seed}:{seat}:{real.decisions}"
        root = _Node(self.players)
        keys = [(seat, why, _label(o)) for o in options]
        picks = self.greedy_picks(state, seat, options, why, outcomes)
        # the option that ends the search once it cannot be overtaken (None: any leader)
        settles = None if (outcomes is None and not self.guided) or len(picks) > 1 else picks[0]
        for j in range(self.iterations):
            self.iterate(root, prefix, f"{tag}:{j}", tag, seat, options, why, outcomes, j == 0)
            if SETTLE and _settled(root, keys, seat, settles, self.iterations - j - 1):
                break
        return self.decide(root, state, seat, options, why, outcomes, picks)

    def greedy_picks(self, state: State, seat: int, options: Sequence[Any], why: str,
                     outcomes: Any) -> list[int]:
        """What the greedy bot would play here (0 where the module gives no estimate); in a
        game without chance every option it scores as the best, since its tie-break (the
        first) is a habit there, not a judgement (the rollouts break ties at random)."""
        from pnp.engine.bots import GreedyBot

        greedy = GreedyBot(0, seat, self.meta, self.hints)
        if not self.meta.has_chance and outcomes is not None:
            return greedy.best(state, seat, options, outcomes)
        return [greedy.choose(state, seat, options, why, outcomes)]

    def decide(self, root: _Node, state: State, seat: int, options: Sequence[Any], why: str,
               outcomes: Any, picks: list[int]) -> int:
        """The most visited option, unless greedy's pick is not clearly worse (SURE). With
        greedy's best tied (`picks`, a game without chance), the most visited of them is
        greedy's pick, and a leader among them is played as it is."""
        keys = [(seat, why, _label(o)) for o in options]
        pick = _leader(root, keys, seat) or 0
        hint = greedy_reference(root, keys, picks)
        if outcomes is None and not self.guided:
            self.departures += pick != hint
            return pick
        if pick in picks:
            return pick
        mine, theirs = root.children.get(keys[pick]), root.children.get(keys[hint])
        if pick == hint or mine is None or theirs is None:
            chosen = pick if theirs is None else hint
        else:
            # the k-th playouts of both were played in world k: compare them pair by pair
            chosen = pick if _surely_better(mine.samples or [], theirs.samples or []) else hint
            if chosen != hint and CONFIRM > 0 and not self.confirmed(root, seat, options, why,
                                                                     outcomes, pick, hint):
                chosen = hint
        self.departures += chosen != hint
        return chosen

    def confirmed(self, root: _Node, seat: int, options: Sequence[Any], why: str,
                  outcomes: Any, rival: int, hint: int) -> bool:
        """Whether the rival also beats the greedy pick (CONFIRM_SURE) on fresh pairs of
        playouts, in worlds the search did not see: a test its own selection cannot have
        flattered. With CONFIRM_PLAY "tree" each playout goes on down the search's tree (the
        seat's later decisions as the search would make them); "rollout" plays on with the
        rollout bot alone."""
        if CONFIRM_PLAY not in ("tree", "rollout"):
            raise ValueError(f'mcts.CONFIRM_PLAY is "tree" or "rollout", not {CONFIRM_PLAY!r}')
        real = self.real
        assert real is not None
        prefix = list(real.trace)
        base = f"mcts:{self.seed}:{seat}:{real.decisions}:confirm"
        pairs = max(2, round(CONFIRM * self.iterations))
        mine, theirs = [], []
        for k in range(pairs):
            world = f"{base}:w{k}"
            for pick, into in ((rival, mine), (hint, theirs)):
                into.append(self.iterate(root, prefix, world, base, seat, options, why,
                                         outcomes, False, pick, world,
                                         tree=CONFIRM_PLAY == "tree"))
        self.confirmations += 1
        return _surely_better(mine, theirs, CONFIRM_SURE)

    def playout(self, prefix: list[int], world: str, seat: int, pick: int) -> float:
        """One playout that takes option `pick` at the decision and leaves the rest to the
        rollout bot, in `world` (its hidden cards and dice): its value to `seat`."""
        return self.iterate(_Node(self.players), prefix, world, world, seat, (), "", None,
                            False, pick, world, tree=False)

    def values(self, source: _Playout, state: State, result: GameResult) -> list[float]:
        """Every seat's value of a finished playout (a playout cut at its horizon is read as
        the game ended there)."""
        if source.cut:
            self.cut += 1
            standing = self.module.standing(self.game, state)
            if standing is not None:  # the module counts its score only at the end
                result.scores = standing
            result.winners = leaders_now(result, state)
        return [_value(result, s) for s in range(self.players)]

    def iterate(self, root: _Node, prefix: list[int], tag: str, base: str, seat: int,
                options: Sequence[Any], why: str, outcomes: Any, check: bool,
                force: int | None = None, world: str | None = None, tree: bool = True
                ) -> float:
        """One iteration: replay, determinise, select and expand, roll out, back up; its
        value to `seat`. A confirming iteration takes option `force` at the root, in `world`,
        and keeps its value out of the root's samples; with `tree` False the rollout bot
        plays everything after it."""
        module, real = self.module, self.real
        assert module is not None and real is not None
        rollout = _Rollout(self.meta, self.hints, random.Random(tag), self.players,
                           self.guided)
        walk = _Walk(self, root, rollout, seat if self.self_only else None, self.deepest)
        walk.force = force
        walk.stay = tree

        def branch(p: _Playout, at_seat: int, at_options: Sequence[Any], at_why: str) -> None:
            st = p.ctx.state  # type: ignore[union-attr]
            if check and (p.off_script or at_seat != seat or at_why != why
                          or list(at_options) != list(options) or st != real.state):
                self.mismatches += 1
                real.violate("an mcts bot's replay of the game so far did not reach the same "
                             "decision in the same state: the rules module is not "
                             "deterministic given its dice and decisions")
            p.pick = walk.step(st, at_seat, at_options, at_why, outcomes)
            if self.horizon:
                p.until = st.turn + self.horizon
            # the k-th playout of every root option is played in world k: the same hidden
            # cards and the same dice, as far as they go (common random numbers)
            here = world or f"{base}:w{walk.path[1].visits}"
            p.tag = here
            rand = random.Random(here)
            rollout.rand = rand
            if self.meta.zone_visibility:
                redeterminize(st, seat, self.meta.zone_visibility, rand, self.backs)

        source = _Playout(prefix, 0, tag, [walk] * self.players, branch)
        state, result = self.play_out(source)
        self.iterations_run += 1
        if not source.branched:  # the replay ended before the decision: nothing to back up
            if check:
                self.mismatches += 1
                real.violate("an mcts bot's replay of the game so far ended before the "
                             "decision it was searching: the rules module is not "
                             "deterministic given its dice and decisions")
            return 0.0
        values = self.values(source, state, result)
        for node in walk.path:
            node.visits += 1
            total = node.total
            for s, v in enumerate(values):
                total[s] += v
        if force is None:
            child = walk.path[1]
            if child.samples is None:
                child.samples = []
            child.samples.append(values[seat])
        return values[seat]
