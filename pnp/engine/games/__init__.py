"""Rules modules by engine id: GameDef.engine names the module that plays a game."""

from __future__ import annotations

import importlib
from types import ModuleType
from typing import Any

#: GameDef.engine -> module implementing the GameModule protocol (pnp.engine.core)
ENGINES = {
    "ancient-civilizations": "pnp.engine.games.ancient_civilizations",
}


class NoEngine(LookupError):
    """The game names no engine, or one this version does not have."""


def module_for(game: Any) -> ModuleType:
    """The rules module that plays `game` (by its `engine:` field)."""
    engine = getattr(game, "engine", None)
    if engine not in ENGINES:
        known = ", ".join(sorted(ENGINES))
        raise NoEngine(f"game '{getattr(game, 'id', '?')}' names engine {engine!r}; "
                       f"engines available: {known}")
    return importlib.import_module(ENGINES[engine])
