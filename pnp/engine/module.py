"""The harness's view of a rules module: the protocol's required parts plus defaults.

A rules module must define `metadata`, `new_state`, `play` and `finish` (pnp.engine.core
.GameModule). Everything else a harness needs is optional, with a default that works for any
game: the observation a bot gets, the greedy bot's hints, the module's own invariants, where it
keeps supply tokens no counter shows, the coverage keys it reports, a player's counters as printed,
the score as it stands mid-game. `Rules(module)` wraps a module once and answers for both.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping
from types import ModuleType
from typing import Any, NamedTuple, TypeVar

from pnp.engine.core import NO_HINTS, BotHints, GameMeta, PlayerState, State, observe
from pnp.memo import per_object

T = TypeVar("T")


class Rules:
    """One rules module with every optional hook resolved to the module's or the default."""

    def __init__(self, module: ModuleType):
        self.module = module
        self.metadata = module.metadata
        self.new_state = module.new_state
        self.main_state = getattr(module, "main_state", None) or self._main_state
        self.play = module.play
        self.finish = module.finish

    def _main_state(self, game: Any, players: int) -> State:
        """Without a pregame, the state after setup is the state before anything is played."""
        return self.module.new_state(game, players)

    def counters(self, game: Any, player: PlayerState) -> dict[str, int]:
        """A player's counters with derived ones included (what a record sheet shows)."""
        hook = getattr(self.module, "player_counters", None)
        return dict(hook(game, player)) if hook else dict(player.counters)

    def bot_hints(self, game: Any) -> BotHints:
        """The greedy bot's extra heuristics for this game (danger floors, pregame offsets):
        the module's `bot_hints(game)`, else none."""
        hook = getattr(self.module, "bot_hints", None)
        return hook(game) if hook else NO_HINTS

    def observation(self, game: Any, state: State, seat: int, meta: GameMeta) -> State:
        """What `seat` may see: the module's own view, else hidden zones masked."""
        hook = getattr(self.module, "observation", None)
        if hook is not None:
            return hook(game, state, seat)
        return observe(state, seat, meta.zone_visibility)

    def invariants(self, game: Any, state: State, label: str) -> list[str]:
        """The module's own invariants at a step (`label` is the step just played)."""
        hook = getattr(self.module, "invariants", None)
        return list(hook(game, state, label)) if hook else []

    def holdings(self, game: Any) -> Callable[[State], Mapping[str, int]] | None:
        """The module's `holdings(game, state)`: supply id -> that supply's tokens kept where
        no linked counter or card token shows them (on its board, in its vars), so the
        harness's conservation check counts them; None when the module keeps none elsewhere."""
        hook = getattr(self.module, "holdings", None)
        return None if hook is None else functools.partial(hook, game)

    def coverage_keys(self, game: Any) -> dict[str, list[str]]:
        """Every key a game could report as used, by kind (what 'never used' is measured on)."""
        hook = getattr(self.module, "coverage_keys", None)
        if hook is not None:
            return {k: list(v) for k, v in hook(game).items()}
        return default_coverage_keys(game)

    def standing(self, game: Any, state: State) -> tuple[float, ...] | None:
        """Each seat's score if the game ended at this step boundary, for a playout cut
        short (the mcts bot's HORIZON): the module's `standing(game, state)` where its score
        is only counted at the game's end; None where the scores `finish` reports of any
        step's state already are that."""
        hook = getattr(self.module, "standing", None)
        return None if hook is None else tuple(hook(game, state))

    def scenario_hooks(self) -> Mapping[str, Any]:
        """Extra per-player scenario keys the module understands: key -> (set, get)."""
        hook = getattr(self.module, "scenario_fields", None)
        return hook() if hook else {}

    def scenario_problems(self, game: Any, state: State, spec: Mapping[str, Any]
                          ) -> list[ScenarioProblem]:
        """What is wrong with a scenario's `state:` values (`spec`) for this module, checked
        against the state play would start from and before any of it is set: the module's own
        `check_scenario(game, state, spec)`, else `vars` checked against the starting state's
        (known names, same JSON types)."""
        hook = getattr(self.module, "check_scenario", None)
        if hook is not None:
            return list(hook(game, state, spec))
        return default_scenario_problems(state, spec)


class ScenarioProblem(NamedTuple):
    """A scenario value a rules module rejects: where under `state:` (path), what, the fix."""

    path: tuple
    message: str
    hint: str = ""
    at_key: bool = False  # the mapping key at `path` is wrong (an unknown name), not its value


def json_type(value: Any) -> str:
    """A value's JSON type name (a bool is not a number, an int is a number)."""
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int):
        return "integer"
    if isinstance(value, float):
        return "number"
    if isinstance(value, str):
        return "string"
    if isinstance(value, list):
        return "list"
    if isinstance(value, dict):
        return "mapping"
    return "null" if value is None else type(value).__name__


def vars_problems(given: Any, known: Mapping[str, Any], path: tuple,
                  hint: str = "") -> list[ScenarioProblem]:
    """Each key of a scenario's `vars` must be one the state has, holding the same JSON type."""
    out = []
    for key, value in (given or {}).items():
        if key not in known:
            names = ", ".join(sorted(map(str, known))) or "none"
            out.append(ScenarioProblem((*path, key), f"no var '{key}' to set (settable: "
                                       f"{names})", hint or "remove it", at_key=True))
        elif json_type(value) != json_type(known[key]):
            out.append(ScenarioProblem((*path, key), f"var '{key}' is a {json_type(known[key])},"
                                       f" not a {json_type(value)}",
                                       f"write a {json_type(known[key])}"))
    return out


def default_scenario_problems(state: State, spec: Mapping[str, Any]) -> list[ScenarioProblem]:
    """A module without `check_scenario`: vars by the names and types its starting state has."""
    out = vars_problems(spec.get("vars"), state.vars, ("vars",))
    for j, ps in enumerate(spec.get("players") or []):
        seat = ps.get("seat", j)
        if 0 <= seat < len(state.players):
            out += vars_problems(ps.get("vars"), state.players[seat].vars, ("players", j, "vars"))
    return out


def default_coverage_keys(game: Any) -> dict[str, list[str]]:
    """Coverage keys from the data: action spaces taken and cards played, by id."""
    out: dict[str, list[str]] = {}
    actions = getattr(game, "action_spaces", None) or {}
    if actions:
        out["action"] = list(actions)
    decks = getattr(game, "decks", None) or {}
    cards = [f"{d.id}/{c.id}" for d in decks.values() for c in d.cards
             if not getattr(d, "generated", False)]
    if cards:
        out["card"] = cards
    return out


#: `build(x)` once per object, by identity: the tables a rules module compiles from one
#: GameDef (a variant's definition is another object, so it gets its own)
per_definition = per_object


#: the Rules wrapper of a module (built once per module)
rules_of = per_definition(Rules)
