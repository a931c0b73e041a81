"""Playing one game end to end: the entry point of the self-play harness, and replays."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from pnp.data.model import GameDef
from pnp.engine.bots import make_bots
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
from pnp.engine.invariants import REPLAY_EVERY, StepChecker
from pnp.engine.module import Rules, rules_of
from pnp.engine.registry import module_for
from pnp.engine.result import TIMEOUT, GameResult

#: GameResult.ended when a decision had no legal option or a bot broke the rules (the same
#: word the self-play harness uses for a game that raised)
ABORTED = "crashed"


def metadata(game: GameDef) -> GameMeta:
    """What the game declares for the harness: players, turn cap, counter bounds, chance."""
    return module_for(game).metadata(game)


def rules(game: GameDef) -> Rules:
    """The game's rules module, wrapped with the harness's defaults for optional hooks."""
    return rules_of(module_for(game))


def step_checker(game: GameDef, module: Rules, meta: GameMeta, mode: str, seed: int,
                 state: State) -> StepChecker:
    """Generic invariants plus the module's own, at every (or every sampled) step."""
    def own(st: State, label: str) -> list[str]:
        return module.invariants(game, st, label)

    return StepChecker(meta, mode, seed, state, own)


def play_game(game: GameDef, players: int, seed: int, bots: Sequence[str], *,
              invariants: str = "sample", log: list | None = None,
              max_turns: int | None = None) -> GameResult:
    """Self-play one seeded game; violations are recorded in the result, never raised."""
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
    checker = step_checker(game, module, meta, invariants, seed, state)
    ctx = Context(state, SeededDice(seed), seats, result, log, checker.__call__,
                  meta.zone_visibility)  # a bound method: called faster than the object
    for bot in seats:
        attach = getattr(bot, "attach", None)
        if attach is not None:  # search bots replay the game so far: they need its trace
            attach(game, players, ctx, cap)
    try:
        module.play(game, ctx, cap)
    except RunawayGame as exc:
        ctx.violate(f"the game did not end: {exc}")
        state.ended = TIMEOUT
    except IllegalChoice:  # already recorded by ctx.choose; the game cannot go on
        state.ended = ABORTED
    module.finish(game, ctx)
    due = invariants == "all" or (invariants == "sample" and seed % REPLAY_EVERY == 0)
    if due and not ctx.violations:
        for message in check_replay(game, players, ctx.trace, cap, state):
            ctx.violate(message)
    result.violations = list(ctx.violations)
    if log is not None:
        log.append({"e": "end", "ended": result.ended, "turns": result.turns,
                    "winners": list(result.winners), "scores": list(result.scores),
                    "state": state.to_json()})
    return result


def replay(game: GameDef, players: int, trace: Iterable[int],
           max_turns: int | None = None, state: State | None = None,
           log: list | None = None) -> tuple[State, GameResult]:
    """Play again from the recorded dice and decisions; returns the final state and result.

    With `log`, the replay writes its events there too, so a test can hold them against the
    original game's (every roll, decision and zone move in the same order)."""
    module = rules(game)
    meta = module.metadata(game)
    cap = meta.max_turns if max_turns is None else max_turns
    source = Replay(trace)
    state = state.copy() if state is not None else module.new_state(game, players)
    result = GameResult(game=game.id, seed=0, players=players, bots=("replay",) * players,
                        variant=game.variant)
    ctx = Context(state, source, [source] * players, result, log,
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
        again, _ = replay(game, players, trace, cap)
    except (ReplayMismatch, Exception) as exc:  # any failure here is a finding, not a crash
        return [f"replaying the log failed: {type(exc).__name__}"]
    return [] if again == final else ["replaying the log gives a different final state"]
