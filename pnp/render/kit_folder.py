"""Where pnp may write: a kit replaces only a folder pnp wrote, and no output lands on a game.

A build swaps a whole folder in for `OUT/<id>` (pnp/render/staging.py), so whatever was there is
deleted. pnp therefore marks every kit folder it writes with a small constant file (MARKER) and
replaces a folder only when it carries the mark, holds nothing, or does not exist yet. A kit is
never the game's own folder, never holds it and never lies inside it, and is never a symbolic
link. Reports and logs (`simulate --report/--log`, `sweep --report`, `scenario --log`) may go
anywhere, even inside the game folder, except onto a file pnp reads for the game.

Every check here only looks, so a refused command changes nothing on disk.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from pnp.diagnostics import ERROR, Diagnostic

#: the file that marks a folder as a kit pnp wrote; constant, so builds stay byte-identical
MARKER = ".pnp-kit"
MARKER_TEXT = (
    b"This folder is a print kit written by pnp (the print-and-play toolkit).\n"
    b"pnp build replaces the whole folder when it builds the game again, and pnp render\n"
    b"replaces the files it renders; anything else you put here may be deleted.\n"
    b"pnp replaces a folder only when it holds this file.\n"
)

R_FOREIGN = "PNP-R052"  # OUT/<id> exists and pnp did not write it
R_GAME_FOLDER = "PNP-R053"  # OUT/<id> is the game's own folder, or holds it
R_INSIDE_GAME = "PNP-R054"  # the kit would lie inside the game folder
R_LINK = "PNP-R055"  # OUT/<id> is a symbolic link
R_GAME_FILE = "PNP-R056"  # a report or log path is one of the game's own files, or its folder

_OLD_KIT = ("if it is a kit an earlier pnp wrote (before kits were marked with " + MARKER
            + "), delete that folder yourself and run pnp again")


def write_marker(folder: Path) -> None:
    """Mark `folder` as a kit pnp wrote (the staging folder, before anything else goes in)."""
    (folder / MARKER).write_bytes(MARKER_TEXT)


def is_kit(folder: Path) -> bool:
    """A folder pnp wrote: it holds the marker file (a real file, not a link)."""
    marker = folder / MARKER
    return marker.is_file() and not marker.is_symlink()


def _real(path: Path) -> Path:
    """The absolute path with links and `..` resolved (a missing tail is kept as written)."""
    return Path(os.path.realpath(path))


def _within(path: Path, folder: Path) -> bool:
    return path == folder or path.is_relative_to(folder)


def kit_folder_problems(target: str | os.PathLike, game_folder: str | os.PathLike,
                        ) -> list[Diagnostic]:
    """Why `target` must not become (or be written into as) the kit of the game in `game_folder`.

    Empty when pnp may write there: `target` does not exist, is an empty folder, or is a kit pnp
    wrote. `pnp build` and `pnp render` call this before they create or touch anything.
    """
    target = Path(target)
    where = str(target)  # the diagnostic's file: each message is about this path
    if target.is_symlink():
        return [Diagnostic(ERROR, R_LINK, "the kit folder is a symbolic link; pnp does not "
                           "replace a link or write a kit through one", where,
                           hint="remove the link, or choose another --out (a real folder)")]
    real, game = _real(target), _real(Path(game_folder))
    if _within(game, real):
        what = "is the game's own folder" if real == game else f"holds the game folder {game_folder}"
        return [Diagnostic(ERROR, R_GAME_FOLDER, f"the kit folder {what}: writing the kit there "
                           "would replace the game's files", where,
                           hint="choose an --out outside the game folder, e.g. --out output")]
    if _within(real, game):
        return [Diagnostic(ERROR, R_INSIDE_GAME, "the kit folder lies inside the game folder "
                           f"{game_folder}; kits are written outside the game", where,
                           hint="run pnp from the folder that holds the game (the kit goes to "
                                "./output/<id>/), or choose an --out outside the game folder")]
    if not os.path.lexists(target):
        return []
    if not target.is_dir():
        return [Diagnostic(ERROR, R_FOREIGN, "a file is where the kit folder goes; writing the "
                           "kit would delete it", where,
                           hint="move it away, or choose another --out")]
    if is_kit(target) or not any(target.iterdir()):
        return []
    return [Diagnostic(ERROR, R_FOREIGN, "the kit folder exists but pnp did not write it (it "
                       f"holds no {MARKER} file): writing the kit would delete what it holds", where,
                       hint="move the folder away or choose another --out; " + _OLD_KIT)]


def game_own_paths(game: Any) -> tuple[list[Path], list[Path]]:
    """(files, folders) pnp reads for `game`, as real paths: a report or log may go onto none.

    Files: the rules module (`engine: rules.py`) and the game's rules.schema.json. Folders,
    anything inside which counts: the game's rulesheet sources (every *.md there is printed)
    and the `.schemas/` copies editors read. Every *.yaml/*.yml in the game folder outside
    hidden folders counts too, existing or not (the loader reads each one): see own_file.
    """
    from pnp.rulesheet.sources import rulesheet_folder

    folder = Path(game.folder)
    files = [folder / "rules.schema.json"]
    engine = getattr(game, "engine", None)
    if isinstance(engine, str) and engine.endswith(".py"):
        files.append(folder / engine)
    folders = [folder / ".schemas"]
    sheet = rulesheet_folder(game)
    if sheet is not None:
        folders.append(sheet)
    return [_real(f) for f in files], [_real(f) for f in folders]


def own_file(path: Path, game: Any) -> str:
    """What `path` is to `game` when a command must not write it ('' when it may)."""
    real, folder = _real(path), _real(Path(game.folder))
    if _within(folder, real):
        return "the game folder" if real == folder else "a folder holding the game"
    files, folders = game_own_paths(game)
    if real in files:
        return "one of the game's files (its rules module or rules schema)"
    if any(_within(real, f) for f in folders):
        return "inside a folder of the game's sources (its rulesheet or .schemas)"
    if real.is_relative_to(folder) and real.suffix in (".yaml", ".yml") and not any(
            part.startswith(".") for part in real.relative_to(folder).parts):
        return "a YAML file of the game folder (pnp reads every one as the game's data)"
    return ""


def output_path_problem(path: str | os.PathLike, game: Any, option: str,
                        example: str = "report.pdf") -> Diagnostic | None:
    """The R056 refusal when an output path of `option` would overwrite what `game` is made of.

    Any other path is allowed, a report inside the game folder included (`GAME/report.pdf`).
    """
    what = own_file(Path(path), game)
    if not what:
        return None
    return Diagnostic(ERROR, R_GAME_FILE, f"{option} {path} is {what}; pnp does not write over "
                      f"the game {game.id}", str(path),
                      hint=f"choose another path for {option}, e.g. {option} {example}: any "
                           "path but the game's YAML files, rules module, rules schema, "
                           "rulesheet and .schemas folders (inside the game folder is fine)")
