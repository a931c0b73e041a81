"""Schemas beside a game, so a game folder validates in an editor wherever it is moved.

Every data file names its schema on its first line (`# yaml-language-server: $schema=...`);
pnp takes the kind from the file name the line points at (KIND.schema.json), wherever that is,
while an editor needs the file to exist at that path. `install_schemas` copies pnp's schemas
into `GAME/.schemas/` and points each file's line there, so the folder carries what its editor
needs and the lines stay right when the folder is copied or moved.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

from pnp.data.loader import SCHEMA_LINE_RE
from pnp.paths import SCHEMAS

FOLDER = ".schemas"


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
    for src in sorted(source.glob("*.schema.json")):
        shutil.copyfile(src, dest / src.name)
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
        path.write_bytes(line.encode() + eol + rest)
        changed.append(path)
    return changed


def install_schemas(game: Path) -> tuple[list[Path], list[Path]]:
    """Copy the schemas into the game and point its files at them: (schemas written, files changed)."""
    return copy_schemas(game), point_lines(game)
