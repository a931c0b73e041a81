"""Which rules module plays a game: GameDef.engine names a bundled engine or a Python file of
the game.

Bundled engines are the modules of the `pnp.games` package, found there by name (a game
registers itself by being there; no list to keep). A designer's game may carry its own rules
module: with
`engine: rules.py` in game.yaml, the file `rules.py` in the game folder is imported. Only the
commands that play (simulate, scenario, compare) import game code; validate and build never do.
"""

from __future__ import annotations

import hashlib
import importlib
import importlib.util
import pkgutil
import sys
import traceback
from pathlib import Path
from types import ModuleType
from typing import Any

from pnp.diagnostics import ERROR, Diagnostic
from pnp.engine.guards import prints_to_stderr

#: where the bundled games' rules modules live
GAMES_PACKAGE = "pnp.games"


def bundled_engines() -> dict[str, str]:
    """Engine id -> module name of every bundled game, found without importing one: the module
    `pnp.games.the_ancient_world` is the engine `the-ancient-world`."""
    package = importlib.import_module(GAMES_PACKAGE)
    return {info.name.replace("_", "-"): f"{GAMES_PACKAGE}.{info.name}"
            for info in sorted(pkgutil.iter_modules(package.__path__), key=lambda i: i.name)
            if not info.name.startswith("_")}


#: GameDef.engine -> module implementing the GameModule protocol (pnp.engine.core)
ENGINES = bundled_engines()

#: what a rules module must define (the rest of the protocol has defaults: pnp.engine.module)
REQUIRED = ("metadata", "new_state", "play", "finish")


#: diagnostic codes: the game names no usable rules module; its rules module does not load
NO_MODULE, BAD_MODULE = "PNP-M001", "PNP-M002"


class NoEngine(LookupError):
    """The game names no engine, or one that cannot be loaded.

    `file` and `line` say where the problem is when it is in the rules file itself (an import
    error, a missing function); otherwise it is reported at game.yaml's `engine:` (or `id:`).
    """

    def __init__(self, message: str, code: str = NO_MODULE, file: str = "", line: int = 0):
        super().__init__(message)
        self.code, self.file, self.line = code, file, line


#: how to get a rules module (a diagnostic's hint)
HOW = "`pnp new DIR` writes a small working rules.py to start from; docs/engine.md explains the API"


def _needs(game: Any) -> str:
    return ("simulate, scenario and compare play a game through its rules module: set `engine:` "
            f"in game.yaml to a bundled engine ({', '.join(sorted(ENGINES))}) or to a Python "
            "file in the game folder (e.g. `engine: rules.py`)")


def module_for(game: Any) -> ModuleType:
    """The rules module that plays `game` (by its `engine:` field)."""
    engine = getattr(game, "engine", None)
    gid = getattr(game, "id", "?")
    if not engine:
        raise NoEngine(f"game '{gid}' has no rules module, so it cannot be played: "
                       f"{_needs(game)}")
    if engine in ENGINES:
        module = importlib.import_module(ENGINES[engine])
        if getattr(module, "ENGINE", engine) != engine:
            raise NoEngine(f"{ENGINES[engine]} declares ENGINE = {module.ENGINE!r}, not "
                           f"{engine!r}: a bundled game's module is named for its engine",
                           BAD_MODULE)
        return module
    if str(engine).endswith(".py"):
        from pnp.data.lint import ENGINE_OUTSIDE, engine_outside

        folder = Path(getattr(game, "folder", "."))
        outside = engine_outside(folder, str(engine))
        if outside is not None:  # reported at game.yaml's `engine:`, like validate does
            raise NoEngine(f"game '{gid}': {outside}", ENGINE_OUTSIDE)
        return _load_file(game, folder / str(engine))
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
        raise NoEngine(f"cannot import {path}", BAD_MODULE, str(path), 1)
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    try:
        with prints_to_stderr():  # its prints never mix into a report
            spec.loader.exec_module(module)
    except BaseException as exc:  # the designer's code: report it, never crash the command
        del sys.modules[name]
        if not isinstance(exc, Exception | SystemExit):
            raise  # Ctrl-C stops the command as it always does
        raise NoEngine(f"{path}: importing the rules module failed: "
                       f"{type(exc).__name__}: {exc}", BAD_MODULE, str(path),
                       _error_line(exc, path)) from None
    missing = [f for f in REQUIRED if not callable(getattr(module, f, None))]
    if missing:
        del sys.modules[name]
        raise NoEngine(f"{path}: a rules module must define {', '.join(REQUIRED)}; "
                       f"missing: {', '.join(missing)} (see docs/engine.md)", BAD_MODULE,
                       str(path), 1)
    return module


def _error_line(exc: BaseException, path: Path) -> int:
    """The line of the rules file where importing it failed (a syntax error's own line)."""
    if isinstance(exc, SyntaxError) and exc.lineno and Path(exc.filename or "") == path:
        return exc.lineno
    frames = [f for f in traceback.extract_tb(exc.__traceback__) if Path(f.filename) == path]
    return (frames[-1].lineno or 1) if frames else 1


#: how much of an exception's text a report keeps (a module may raise with a whole state)
ERROR_TEXT_MAX = 300


def error_words(exc: BaseException) -> str:
    """'KeyError: 'nonsense'': the exception's type and text, cut at ERROR_TEXT_MAX characters
    so a report stays readable and one bug that prints its state counts as one problem."""
    text = str(exc)
    if len(text) > ERROR_TEXT_MAX:
        text = text[:ERROR_TEXT_MAX] + "..."
    return f"{type(exc).__name__}: {text}"


def crash_site(game: Any, exc: BaseException, raised: bool = True) -> str:
    """Where playing `game` raised `exc`, as its designer reads it: the deepest line of the
    game's own rules code ('rules.py:102'), and (with `raised`) where the error was raised when
    that is elsewhere, in pnp or a library ('rules.py:102, raised in api.py:301'); the raising
    line alone when no frame is the game's (a game without a loadable module, pnp's own fault)."""
    frames = traceback.extract_tb(exc.__traceback__)
    if not frames:
        return "?"
    last = f"{Path(frames[-1].filename).name}:{frames[-1].lineno}"
    scope = _rules_scope(game)
    if scope is None:
        return last
    mine = [f for f in frames if scope == Path(f.filename) or scope in Path(f.filename).parents]
    if not mine:
        return last
    own = f"{Path(mine[-1].filename).name}:{mine[-1].lineno}"
    return own if mine[-1] is frames[-1] or not raised else f"{own}, raised in {last}"


def _rules_scope(game: Any) -> Path | None:
    """The rules module's file, or its package folder for a bundled game split into modules;
    None when the game has no module that loads."""
    try:
        origin = module_for(game).__file__
    except (NoEngine, ImportError):
        return None
    if not origin:
        return None
    path = Path(origin)
    return path.parent if path.name == "__init__.py" else path


def engine_diagnostic(game: Any, exc: NoEngine) -> Diagnostic:
    """One diagnostic for a game that cannot be played: at the rules file's failing line, or at
    game.yaml's `engine:` line (its `id:` line when there is none), with what simulate needs."""
    hint = HOW
    if exc.file:
        hint = "fix the rules module (`pnp new DIR` writes a working one to compare with)"
        return Diagnostic(ERROR, exc.code, str(exc), exc.file, exc.line, 1, hint)
    origin = getattr(game, "origin", None)
    where = None
    for doc in getattr(game, "documents", ()):
        if origin is not None and str(doc.path) == origin.file:
            data = doc.data if isinstance(doc.data, dict) else {}
            where = doc.key_pos(("engine",) if "engine" in data else ("id",))
    if where is None:
        return Diagnostic(ERROR, exc.code, str(exc), hint=hint)
    return Diagnostic.at(where, ERROR, exc.code, str(exc), hint)
