"""Rules modules by engine: GameDef.engine names a bundled engine or a Python file of the game.

Bundled engines live in this package. A designer's game may carry its own rules module: with
`engine: rules.py` in game.yaml, the file `rules.py` in the game folder is imported. Only the
commands that play (simulate, scenario, compare) import game code; validate and build never do.
"""

from __future__ import annotations

import hashlib
import importlib
import importlib.util
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

#: GameDef.engine -> module implementing the GameModule protocol (pnp.engine.core)
ENGINES = {
    "ancient-civilizations": "pnp.engine.games.ancient_civilizations",
    "the-ancient-world": "pnp.engine.games.the_ancient_world",
}

#: what a rules module must define (the rest of the protocol has defaults: pnp.engine.module)
REQUIRED = ("metadata", "new_state", "play", "finish")


class NoEngine(LookupError):
    """The game names no engine, or one that cannot be loaded."""


def _needs(game: Any) -> str:
    return ("simulate, scenario and compare need a rules module: set `engine:` in game.yaml to a "
            f"bundled engine ({', '.join(sorted(ENGINES))}) or to a Python file in the game "
            "folder (e.g. `engine: rules.py`); `pnp new DIR` writes a small one to start from, "
            "and docs/engine.md explains the API")


def module_for(game: Any) -> ModuleType:
    """The rules module that plays `game` (by its `engine:` field)."""
    engine = getattr(game, "engine", None)
    gid = getattr(game, "id", "?")
    if not engine:
        raise NoEngine(f"game '{gid}' has no rules module. {_needs(game)}")
    if engine in ENGINES:
        return importlib.import_module(ENGINES[engine])
    if str(engine).endswith(".py"):
        return _load_file(game, Path(getattr(game, "folder", ".")) / str(engine))
    raise NoEngine(f"game '{gid}' names engine {engine!r}, which is neither a bundled engine nor "
                   f"a .py file. {_needs(game)}")


def _load_file(game: Any, path: Path) -> ModuleType:
    """Import a game folder's rules file once per path and content (edits are picked up)."""
    try:
        source = path.read_bytes()
    except OSError as exc:
        raise NoEngine(f"game '{getattr(game, 'id', '?')}': cannot read its rules module "
                       f"{path}: {exc.strerror or exc}") from None
    digest = hashlib.blake2b(str(path.resolve()).encode() + b"\0" + source,
                             digest_size=8).hexdigest()
    name = f"pnp_game_rules_{digest}"
    if name in sys.modules:
        return sys.modules[name]
    spec = importlib.util.spec_from_file_location(name, path)
    if spec is None or spec.loader is None:
        raise NoEngine(f"cannot import {path}")
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    try:
        spec.loader.exec_module(module)
    except Exception as exc:  # the designer's code: report it, never crash the command
        del sys.modules[name]
        raise NoEngine(f"{path}: importing the rules module failed: "
                       f"{type(exc).__name__}: {exc}") from None
    missing = [f for f in REQUIRED if not callable(getattr(module, f, None))]
    if missing:
        del sys.modules[name]
        raise NoEngine(f"{path}: a rules module must define {', '.join(REQUIRED)}; "
                       f"missing: {', '.join(missing)} (see docs/engine.md)")
    return module
