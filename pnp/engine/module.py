"""The harness's view of a rules module: the protocol's required parts plus defaults.

A rules module must define `metadata`, `new_state`, `play` and `finish` (pnp.engine.core
.GameModule). Everything else a harness needs is optional, with a default that works for any
game: the observation a bot gets, the module's own invariants, the coverage keys it reports, a
player's counters as printed. `Rules(module)` wraps a module once and answers for both.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping
from types import ModuleType
from typing import Any, TypeVar

from pnp.engine.core import GameMeta, PlayerState, State, observe

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
        hook = getattr(self.module, "player_counters", None) or \
            getattr(self.module, "player_stats", None)
        return dict(hook(game, player)) if hook else dict(player.counters)

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

    def coverage_keys(self, game: Any) -> dict[str, list[str]]:
        """Every key a game could report as used, by kind (what 'never used' is measured on)."""
        hook = getattr(self.module, "coverage_keys", None)
        if hook is not None:
            return {k: list(v) for k, v in hook(game).items()}
        return default_coverage_keys(game)

    def scenario_hooks(self) -> Mapping[str, Any]:
        """Extra per-player scenario keys the module understands: key -> (set, get)."""
        hook = getattr(self.module, "scenario_fields", None)
        return hook() if hook else {}


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


def per_definition(build: Callable[[Any], T]) -> Callable[[Any], T]:
    """`build(x)` once per object, by identity: the tables a rules module compiles from one
    GameDef (a variant's definition is another object, so it gets its own)."""
    cache: dict[int, tuple[Any, T]] = {}

    @functools.wraps(build)
    def get(key: Any) -> T:
        hit = cache.get(id(key))
        if hit is not None and hit[0] is key:
            return hit[1]
        value = build(key)
        if len(cache) > 32:  # definitions come and go in tests; keep the cache small
            cache.clear()
        cache[id(key)] = (key, value)
        return value

    return get


#: the Rules wrapper of a module (built once per module)
rules_of = per_definition(Rules)
