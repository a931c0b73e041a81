"""Schemas beside a game, so a game folder validates in an editor wherever it is moved.

Every data file names its schema on its first line (`# yaml-language-server: $schema=...`);
pnp takes the kind from the file name the line points at (KIND.schema.json), wherever that is,
while an editor needs the file to exist at that path. `install_schemas` copies pnp's schemas
into `GAME/.schemas/` and points each file's line there, so the folder carries what its editor
needs and the lines stay right when the folder is copied or moved.
"""

from __future__ import annotations

import os
import stat
import tempfile
from pathlib import Path

from pnp.data.loader import SCHEMA_LINE_RE
from pnp.diagnostics import ERROR, Diagnostic
from pnp.paths import SCHEMAS

FOLDER = ".schemas"

#: `pnp schemas` refuses to write through a link (it would write outside the game folder)
LINKED = "PNP-C002"


def link_problems(game: Path) -> list[Diagnostic]:
    """Every link `pnp schemas` would write through: `.schemas` itself, a schema file in it, a
    data file or a folder holding one. Written through, a link to a folder outside the game
    receives the schema files and a linked data file has its first line rewritten."""
    found: list[Path] = []
    dest = game / FOLDER
    if dest.is_symlink():
        found.append(dest)
    elif dest.is_dir():
        found += [dest / src.name for src in sorted(SCHEMAS.glob("*.schema.json"))
                  if (dest / src.name).is_symlink()]
    from pnp.data.game import game_files

    for path in game_files(game):
        rel = path.relative_to(game)
        linked = next((game.joinpath(*rel.parts[:i]) for i in range(1, len(rel.parts) + 1)
                       if game.joinpath(*rel.parts[:i]).is_symlink()), None)
        if linked is not None and linked not in found:
            found.append(linked)
    # reported at the game folder: a link's own path would be shown as where it leads
    return [Diagnostic(ERROR, LINKED, f"{p.relative_to(game).as_posix()} is a link (to "
                       f"{os.readlink(p)}); pnp schemas writes nothing through links, so "
                       "nothing was written", str(game),
                       hint="replace the link with a copy of what it points at, then run "
                            "pnp schemas again") for p in found]


def _replace(path: Path, data: bytes, mode: int) -> None:
    """Write `data` to a temporary file beside `path`, then rename it over `path`: the file is
    whole or untouched, and a link in its place would be replaced, never written through."""
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
        os.chmod(tmp, mode)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def _new_file_mode() -> int:
    umask = os.umask(0)
    os.umask(umask)
    return 0o666 & ~umask


def schema_line(data_file: Path, game: Path, kind: str) -> str:
    """The first line for `data_file` (inside `game`) pointing at `game/.schemas/KIND.schema.json`."""
    rel = Path(os.path.relpath(game / FOLDER / f"{kind}.schema.json", data_file.parent)).as_posix()
    return f"# yaml-language-server: $schema={rel}"


def copy_schemas(game: Path, source: Path = SCHEMAS) -> list[Path]:
    """Copy every `*.schema.json` into `game/.schemas/` (their `$ref`s are relative, so they
    keep working together); returns the files written."""
    dest = game / FOLDER
    dest.mkdir(parents=True, exist_ok=True)
    written = []
    mode = _new_file_mode()
    for src in sorted(source.glob("*.schema.json")):
        _replace(dest / src.name, src.read_bytes(), mode)
        written.append(dest / src.name)
    return written


def point_lines(game: Path) -> list[Path]:
    """Rewrite the schema line of each YAML file in `game` that has one to point at .schemas/.

    Only the first line changes; files without a schema line are left for `pnp validate` to
    report. Returns the files changed.
    """
    from pnp.data.game import game_files
    from pnp.data.loader import Document

    changed = []
    for path in game_files(game):
        raw = path.read_bytes()
        end = raw.find(b"\n")
        first = (raw if end < 0 else raw[:end]).decode("utf-8", "replace").rstrip("\r")
        match = SCHEMA_LINE_RE.match(first.lstrip("\ufeff"))
        if not match:
            continue
        kind = Document(path, None, match.group("ref")).kind
        if not kind or not (SCHEMAS / f"{kind}.schema.json").exists():
            continue
        line = schema_line(path, game, kind)
        if line == first:
            continue
        eol = b"\r\n" if first.encode() + b"\r" == (raw if end < 0 else raw[:end]) else b"\n"
        rest = b"" if end < 0 else raw[end + 1:]
        _replace(path, line.encode() + eol + rest, stat.S_IMODE(path.stat().st_mode))
        changed.append(path)
    return changed


def install_schemas(game: Path) -> tuple[list[Path], list[Path], list[Diagnostic]]:
    """Copy the schemas into the game and point its files at them: (schemas written, files
    changed, problems). A link in the way is a problem, and then nothing is written."""
    problems = link_problems(game)
    if problems:
        return [], [], problems
    return copy_schemas(game), point_lines(game), []
