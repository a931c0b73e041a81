"""Playing one game end to end: the entry point of the self-play harness, and replays."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import Any

from pnp.data.model import GameDef
from pnp.engine.bots import BUDGETED, make_bots
from pnp.engine.core import (
    LOG_VERSION,
    Context,
    GameMeta,
    IllegalChoice,
    Replay,
    ReplayMismatch,
    RunawayGame,
    SeededDice,
    State,
    trace_from_log,
)
from pnp.engine.guards import (
    DEFAULT_LIMITS,
    GameLimits,
    OutOfBudget,
    fingerprint,
    first_fingerprint,
    guarded,
    has_run_away,
    limits_for,
    prints_dropped,
    prints_to_stderr,
    ran_away,
)
from pnp.engine.invariants import REPLAY_EVERY, StepChecker, world_of
from pnp.engine.module import Rules, rules_of
from pnp.engine.registry import crash_site, module_for
from pnp.engine.result import NOT_PLAYED, RUNAWAY_PREFIX, GameResult

#: GameResult.ended when a decision had no legal option, a bot broke the rules or the game ran
#: past its budget (the same word the self-play harness uses for a game that raised)
ABORTED = "crashed"


def metadata(game: GameDef) -> GameMeta:
    """What the game declares for the harness: players, turn cap, counter bounds, chance."""
    return module_for(game).metadata(game)


def rules(game: GameDef) -> Rules:
    """The game's rules module, wrapped with the harness's defaults for optional hooks."""
    return rules_of(module_for(game))


def step_checker(game: GameDef, module: Rules, meta: GameMeta, mode: str, seed: int,
                 state: State, from_stock: bool = False) -> StepChecker:
    """Generic invariants plus the module's own, at every (or every sampled) step.
    `from_stock`: the game starts fresh, so linked supplies must add up to the box's stock."""
    def own(st: State, label: str) -> list[str]:
        return module.invariants(game, st, label)

    world = world_of(game, state, from_stock, module.holdings(game))
    return StepChecker(meta, mode, seed, state, own, world)


def play_game(game: GameDef, players: int, seed: int, bots: Sequence[str], *,
              invariants: str = "sample", log: list | None = None,
              max_turns: int | None = None, limits: GameLimits = DEFAULT_LIMITS) -> GameResult:
    """Self-play one seeded game; violations are recorded in the result, never raised.

    Besides the step checks, every game is checked once more when it ends; the first game a
    process plays of a definition, and one in REPLAY_EVERY (all with 'all'), is also replayed
    from its log and the definition compared with its fingerprint, so a module that is not a
    pure function of its seed, or that changes the rules every game reads, is caught in the
    default mode too. What the module prints goes to stderr, in any process that plays."""
    with prints_to_stderr():
        return _play_game(game, players, seed, bots, invariants, log, max_turns, limits)


def _play_game(game: GameDef, players: int, seed: int, bots: Sequence[str], invariants: str,
               log: list | None, max_turns: int | None, limits: GameLimits) -> GameResult:
    digest, first = first_fingerprint(game)
    if has_run_away(game):  # a module that loops forever costs one budget, not one a game
        return GameResult(game=game.id, seed=seed, players=players, bots=tuple(bots),
                          variant=game.variant, ended=ABORTED, violations=[NOT_PLAYED])
    module = rules(game)
    meta = module.metadata(game)
    if not meta.players_min <= players <= meta.players_max:
        raise ValueError(f"{game.id} is for {meta.players_min}-{meta.players_max} players, "
                         f"not {players}")
    seats = make_bots(bots, players, seed, meta, module.bot_hints(game))
    names = tuple(bots) if len(bots) == players else tuple(bots) * players
    cap = meta.max_turns if max_turns is None else max_turns
    result = GameResult(game=game.id, seed=seed, players=players, bots=names,
                        variant=game.variant)
    state = module.new_state(game, players)
    if log is not None:
        log.append({"e": "game", "version": LOG_VERSION, "game": game.id,
                    "variant": game.variant, "players": players, "seed": seed,
                    "bots": list(names), "max_turns": cap})
    checker = step_checker(game, module, meta, invariants, seed, state, from_stock=True)
    ctx = Context(state, SeededDice(seed), seats, result, log, checker.__call__,
                  meta.zone_visibility,  # a bound method: called faster than the object
                  tally_choices=True)
    for bot in seats:
        attach = getattr(bot, "attach", None)
        if attach is not None:  # search bots replay the game so far: they need its trace
            attach(game, players, ctx, cap)
    budget = limits_for(any(n.split(":")[0] in BUDGETED for n in names), limits)
    with guarded(budget):
        try:
            module.play(game, ctx, cap)
        except (RunawayGame, OutOfBudget, MemoryError) as exc:
            looping = crash_site(game, exc, raised=False)  # the rules' line it was stopped at
            ctx.violate(f"{RUNAWAY_PREFIX}{_budget_words(exc, limits)} (at {looping})")
            state.ended = ABORTED  # stopped, not at the turn cap: TIMEOUT would read as PNP-B002
            if not isinstance(exc, OutOfBudget) or "os._exit" not in str(exc):
                ran_away(game)
        except IllegalChoice:  # already recorded by ctx.choose; the game cannot go on
            state.ended = ABORTED
        try:
            module.finish(game, ctx)
        except (OutOfBudget, MemoryError) as exc:
            ctx.violate(f"finishing the game failed: {_budget_words(exc, limits)}")
    for message in checker.final_check(state, result.winners):
        ctx.violate(message)
    due = invariants == "all" or (invariants == "sample"
                                  and (first or seed % REPLAY_EVERY == 0))
    if due and fingerprint(game) != digest:
        ctx.violate("the rules module changed the game definition during play (every later "
                    "game would read other rules)")
    elif due and not ctx.violations:
        with guarded(budget):
            found = check_replay(game, players, ctx.trace, cap, state)
        for message in found:
            ctx.violate(message)
    result.violations = list(ctx.violations)
    if log is not None:
        log.append({"e": "end", "ended": result.ended, "turns": result.turns,
                    "winners": list(result.winners), "scores": list(result.scores),
                    "state": state.to_json()})
    return result


def _budget_words(exc: BaseException, limits: GameLimits) -> str:
    """A runaway's own words; a MemoryError (the address-space cap) said the same way."""
    if isinstance(exc, MemoryError):
        return (f"the game used more than its memory budget ({limits.memory_mib} MiB) at once "
                f"(a game that needs more: set PNP_GAME_MEMORY_MIB)")
    return str(exc)


def replay(game: GameDef, players: int, trace: Iterable[int],
           max_turns: int | None = None, state: State | None = None,
           log: list | None = None,
           on_step: Callable[[Context, str], None] | None = None) -> tuple[State, GameResult]:
    """Play again from the recorded dice and decisions (from `state` if given: a copy of it is
    played on); returns the final state and result.

    With `log`, the replay writes its events there too, so a test can hold them against the
    original game's (every roll, decision and zone move in the same order); `on_step` is
    called at every step, as a context's step hook is."""
    module = rules(game)
    meta = module.metadata(game)
    cap = meta.max_turns if max_turns is None else max_turns
    source = Replay(trace)
    state = state.copy() if state is not None else module.new_state(game, players)
    result = GameResult(game=game.id, seed=0, players=players, bots=("replay",) * players,
                        variant=game.variant)
    ctx = Context(state, source, [source] * players, result, log, on_step,
                  visibility=meta.zone_visibility)
    module.play(game, ctx, cap)
    module.finish(game, ctx)
    left = source.left()
    if left:
        raise ReplayMismatch(f"the game ended with {left} logged dice or decisions unused")
    return state, result


def replay_log(game: GameDef, events: Sequence[dict[str, Any]]) -> tuple[State, GameResult]:
    """Replay a JSONL event log written by play_game(log=...)."""
    head = next((e for e in events if e.get("e") == "game"), None)
    if head is None:
        raise ReplayMismatch("the log has no 'game' event")
    if head.get("game") != game.id or head.get("variant") != game.variant:
        raise ReplayMismatch(f"the log is of {head.get('game')} (variant {head.get('variant')}), "
                             f"not {game.id} (variant {game.variant})")
    return replay(game, int(head["players"]), trace_from_log(events), head.get("max_turns"))


def check_replay(game: GameDef, players: int, trace: list[int], cap: int,
                 final: State) -> list[str]:
    """Replaying the game's own dice and decisions must reach the identical final state."""
    try:
        with prints_dropped():  # the game printed once already
            again, _ = replay(game, players, trace, cap)
    except (ReplayMismatch, Exception, OutOfBudget) as exc:  # a finding, never a crash
        return [f"replaying the log failed: {type(exc).__name__}"]
    if again != final:
        return ["replaying the log gives a different final state"]
    return check_resume(game, players, trace, cap, final)


def check_resume(game: GameDef, players: int, trace: list[int], cap: int,
                 final: State) -> list[str]:
    """A module that says it resumes at steps (RESUMES_AT_STEPS, which lets search bots
    replay from the last step instead of the start) must end the game the same when its
    `play` starts again from a state saved at a step: checked from the last of the steps
    1, 2, 4, 8, ... of a replay (at least halfway through the game)."""
    if not getattr(rules(game).module, "RESUMES_AT_STEPS", False):
        return []
    saved: list[tuple[State, int, int]] = []

    def keep(ctx: Context, label: str) -> None:
        if not ctx.steps & (ctx.steps - 1):  # a power of two
            saved[:] = [(ctx.state.copy(), len(ctx.trace), ctx.steps)]

    try:
        with prints_dropped():
            replay(game, players, trace, cap, on_step=keep)
            if not saved:
                return []
            at, pos, step = saved[0]
            again, _ = replay(game, players, trace[pos:], cap, state=at)
    except (ReplayMismatch, Exception, OutOfBudget) as exc:  # a finding, never a crash
        return [f"the rules module says it resumes at steps (RESUMES_AT_STEPS) but playing on "
                f"from a saved step failed: {type(exc).__name__}"]
    if again != final:
        return [f"the rules module says it resumes at steps (RESUMES_AT_STEPS) but playing on "
                f"from the state saved at step {step} ended otherwise than the game: keep "
                f"what play carries from phase to phase in the state, or drop the flag"]
    return []

