"""Antike: a rondel of eight actions on a map of provinces and seas (the summary's rules, our
prototype map and the gaps filled under game.yaml `interpretations:`), 2 to 6 players.

This file is the rules-module protocol; the rules live beside it, one concern a file:
rules.py (the data compiled once), table.py (what the parts share), actions.py (the rondel,
income, temples, arming, know-hows), maneuver.py (movement, fights, conquest), personages.py
(awards and the end), game.py (setup and the round driver), checks.py (the game's
invariants). Only `pnp.engine.api` is imported. The map is the engine's graph board: pieces
(cities, temples, legions, galleys) move only through the context's logged map operations.

State layout: shared vars `order` (seats in turn order), `stacks` (personages left),
`first` (know-how -> first owner), `neutral` (neutral city sites), `map` (the pieces);
a player's vars `nation`, `rondel` (wedge index, -1 before the first turn), `know_hows`,
`best` (most cities, temples and seas held at once) and `awarded` (personages per stack).
"""

from __future__ import annotations

from pnp.engine.api import (
    MAIN,
    PREGAME,
    Context,
    GameDef,
    GameMeta,
    GameResult,
    ScenarioProblem,
    State,
    fill_result,
    initial_state,
    vars_problems,
)

from .checks import invariants
from .game import ROUND, Antike
from .rules import Rules, rules_for

#: the engine this module plays (game.yaml `engine: antike`)
ENGINE = "antike"
#: `play` goes on from a state saved at any step boundary exactly as it went on from there
#: (all it carries from phase to phase is in the state), so search bots replay from the last
#: step instead of the game's start (pnp/engine/search.py; tests/test_resume_at_steps.py)
RESUMES_AT_STEPS = True

__all__ = ["ENGINE", "ROUND", "Antike", "Rules", "check_scenario", "coverage_keys", "finish",
           "invariants", "main_state", "metadata", "new_state", "play", "rules_for"]


def metadata(game: GameDef) -> GameMeta:
    return rules_for(game).meta


def new_state(game: GameDef, players: int) -> State:
    state = initial_state(game, players)
    state.stage = PREGAME
    return state


def main_state(game: GameDef, players: int) -> State:
    """The state right after setup (scenarios start here); the longer game's start city is
    the first of the three."""
    state = new_state(game, players)
    ctx = Context(state, _NoDice(), [_First()] * players, GameResult(game.id, 0, players, ()))
    Antike(rules_for(game), ctx, state).setup()
    state.stage, state.turn = MAIN, 1
    return state


class _First:
    """Setup's only decision (a longer game's start city) outside play: the first option."""

    def choose(self, state, seat, options, why, outcomes):
        return 0


class _NoDice:
    """Antike has no dice: a setup context never draws one."""

    def draw(self, sides: int, why: str) -> int:
        raise RuntimeError(f"Antike rolls no dice ({why})")


def play(game: GameDef, ctx: Context, max_turns: int | None = None) -> None:
    r = rules_for(game)
    Antike(r, ctx, ctx.state).play(r.max_turns if max_turns is None else max_turns)


def finish(game: GameDef, ctx: Context) -> None:
    """The usual result, and each seat's nation as its faction (win rates by nation)."""
    fill_result(ctx, "personages")
    names = rules_for(game).nation_names
    ctx.result.factions = tuple(names.get(p.vars.get("nation", ""), "")
                                for p in ctx.state.players)


def coverage_keys(game: GameDef) -> dict[str, list[str]]:
    """Know-hows bought, personage stacks awarded from, nodes entered (the wedges are the
    rondel track's spaces, counted as landings)."""
    r = rules_for(game)
    return {"know-how": list(r.know_hows),
            "personage": ["kings", "scholars", "generals", "citizens", "navigators"],
            "node": list(r.map.nodes)}


def check_scenario(game: GameDef, state: State, spec) -> list[ScenarioProblem]:
    """A scenario may set the shared vars the game reads and a nation's vars; known names
    only, of the same JSON types; pieces on the map only on its nodes, of its kinds, one count
    per seat, where they may stand."""
    out = vars_problems(spec.get("vars"), state.vars, ("vars",))
    board = (spec.get("vars") or {}).get("map")
    if isinstance(board, dict):
        out += _map_problems(game, board, len(state.players))
    for j, ps in enumerate(spec.get("players") or []):
        seat = ps.get("seat", j)
        if 0 <= seat < len(state.players):
            out += vars_problems(ps.get("vars"), state.players[seat].vars,
                                 ("players", j, "vars"))
    return out


def _map_problems(game: GameDef, board: dict, players: int) -> list[ScenarioProblem]:
    m = rules_for(game).map
    out = []
    for node, at in board.items():
        path = ("vars", "map", node)
        if node not in m.nodes:
            out.append(ScenarioProblem(path, f"no node '{node}' on the map",
                                       "name a node of components.yaml `map:`", at_key=True))
            continue
        if not isinstance(at, dict):
            out.append(ScenarioProblem(path, f"the pieces on {node} are a mapping",
                                       "write {piece: [count of seat 0, count of seat 1, ...]}"))
            continue
        for piece, row in at.items():
            if piece not in m.pieces:
                out.append(ScenarioProblem((*path, piece), f"no piece '{piece}' on the map",
                                           f"pieces: {', '.join(m.pieces)}", at_key=True))
            elif not (isinstance(row, list) and len(row) == players and all(
                    type(v) is int and v >= 0 for v in row)):
                out.append(ScenarioProblem((*path, piece), f"{piece} on {node} needs {players} "
                                           "counts, one per seat, each 0 or more",
                                           f"write e.g. [{', '.join(['0'] * players)}]"))
            elif any(row) and not m.may_stand(piece, node):
                out.append(ScenarioProblem((*path, piece), f"a {piece} cannot stand on {node}",
                                           "place it on a node of a kind it stands on"))
    return out
