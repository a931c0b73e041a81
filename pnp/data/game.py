"""Find, load and validate a game folder: the one pipeline every command goes through.

YAML (positions kept) -> schema check -> variant overrides -> model build -> lint.
"""

from __future__ import annotations

import copy
import dataclasses
import difflib
from dataclasses import dataclass, field
from pathlib import Path

from pnp.data import lint
from pnp.data.build import Builder, slug
from pnp.data.loader import Document, load_file
from pnp.data.model import GameDef
from pnp.data.schema import check_schema_line, validate_document
from pnp.diagnostics import ERROR, Diagnostic, has_errors
from pnp.paths import CARDS

#: Document kinds a game folder holds; other kinds (scenarios) are skipped by the game loader.
GAME_KINDS = {"game", "stats", "tracks", "charts", "tables", "deck", "board", "record-sheet", "layout"}


@dataclass
class LoadResult:
    """A game (None when it could not be built) and every diagnostic found on the way."""

    game: GameDef | None
    diagnostics: list[Diagnostic] = field(default_factory=list)
    files: list[Path] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return self.game is not None and not has_errors(self.diagnostics)


def bundled_games(cards: Path = CARDS) -> list[Path]:
    """Every folder under cards/ that has a game.yaml."""
    return sorted(p.parent for p in cards.glob("*/game.yaml"))


def find_game(name: str, cards: Path = CARDS) -> tuple[Path | None, str]:
    """A game folder by bundled name or path; on failure a hint with the nearest names."""
    path = Path(name)
    if path.is_dir():
        return path, ""
    candidate = cards / name
    if candidate.is_dir():
        return candidate, ""
    names = [p.name for p in bundled_games(cards)]
    close = difflib.get_close_matches(name, names, n=3)
    hint = f"did you mean {', '.join(close)}?" if close else f"bundled games: {', '.join(names)}"
    return None, hint


def game_files(folder: Path) -> list[Path]:
    """The YAML entries of a game folder, in a stable order (hidden folders skipped).

    Directories, broken links and link loops named *.yaml are kept: loading them reports why
    they cannot be read, instead of skipping a file the designer meant to be there."""
    files = [p for p in folder.rglob("*") if p.suffix in (".yaml", ".yml")]
    return sorted(p for p in files if not any(part.startswith(".") for part in p.relative_to(folder).parts))


def outside_link(folder: Path, path: Path) -> Diagnostic | None:
    """An error when `path` is (or lies under) a link leading out of the game folder: a game is
    one folder, so copying it copies the whole game (image links are refused the same way)."""
    try:
        inside = path.resolve().is_relative_to(folder.resolve())
    except (OSError, RuntimeError):
        return None  # a link loop: loading the file reports it
    if inside:
        return None
    return Diagnostic(ERROR, "PNP-L020", "this data file links to a place outside the game "
                      "folder", str(path), 1, 1,
                      "copy the file into the game folder instead of linking to it")


def load_game(folder: Path | str, variant: str | None = None) -> LoadResult:
    """Load, check and build one game; never raises on bad data."""
    folder = Path(folder)
    result = LoadResult(None, files=game_files(folder))
    diags = result.diagnostics
    if not (folder / "game.yaml").exists() and not result.files:
        diags.append(Diagnostic(ERROR, "PNP-L012", f"'{folder}' is not a game folder", str(folder),
                                hint="a game folder holds game.yaml and its definition files"))
        return result
    docs: list[Document] = []
    for path in result.files:
        escape = outside_link(folder, path)
        if escape is not None:
            diags.append(escape)
            continue
        doc, problems = load_file(path)
        diags.extend(problems)
        if doc is None:
            continue
        line_problems = check_schema_line(doc)
        diags.extend(line_problems)
        if has_errors(line_problems):
            continue
        if doc.kind not in GAME_KINDS:
            diags.append(Diagnostic(ERROR, "PNP-L021", f"a {doc.kind} file has no place in a game "
                                    "folder, so nothing in it is part of the game", str(path), 1, 1,
                                    f"a game folder holds {', '.join(sorted(GAME_KINDS))} files: "
                                    "fix the schema line, or move the file out"))
            continue
        docs.append(doc)
    if variant:
        diags.extend(apply_variant(docs, variant))
    for doc in docs:
        diags.extend(validate_document(doc))
    if has_errors(diags):
        return result
    builder = Builder(folder, docs, variant)
    game = builder.build()
    diags.extend(builder.diags)
    if game is not None:
        diags.extend(lint.lint_game(game, docs))
    result.game = game
    return result


def apply_variant(docs: list[Document], variant: str) -> list[Diagnostic]:
    """Apply a variant's overrides to the loaded documents, in place."""
    game_doc = next((d for d in docs if d.kind == "game"), None)
    if game_doc is None:
        return []
    variants = {v.get("id"): (i, v) for i, v in enumerate(game_doc.data.get("variants") or [])
                if isinstance(v, dict)}
    if variant not in variants:
        close = difflib.get_close_matches(variant, [str(k) for k in variants], n=3)
        hint = f"did you mean {', '.join(close)}?" if close else (
            f"variants: {', '.join(map(str, variants)) or '(none)'}")
        return [Diagnostic.at(game_doc.pos(("variants",)), ERROR, "PNP-L009",
                              f"unknown variant '{variant}'", hint)]
    index, spec = variants[variant]
    diags = override_value_problems(docs, game_doc, index, spec)
    if diags:
        return diags  # reported at the variant's lines; applying them would blame the data
    for key, value in (spec.get("overrides") or {}).items():
        pos = game_doc.key_pos(("variants", index, "overrides", key))
        problem = set_override(docs, key, value, dry_run=False)
        if problem:
            diags.append(Diagnostic.at(pos, ERROR, "PNP-L015", problem,
                                       "paths are KIND/step/...; list items match by id, name or index"))
    return diags


def override_value_problems(docs: list[Document], game_doc: Document, index: int,
                            spec: dict) -> list[Diagnostic]:
    """Schema errors an override's value would bring, each at the override's own line in
    game.yaml (not at the line it replaces), found on copies of the documents it touches."""
    from pnp.data.schema import validate_document

    out: list[Diagnostic] = []
    for key, value in (spec.get("overrides") or {}).items():
        kind = str(key).partition("/")[0]
        copies = [dataclasses.replace(d, data=copy.deepcopy(d.data)) for d in docs if d.kind == kind]
        if not copies or set_override(copies, str(key), value, dry_run=False):
            continue  # a path that matches nothing is reported elsewhere (PNP-L015)
        before = {(d.code, d.message) for c in docs if c.kind == kind for d in validate_document(c)}
        for c in copies:
            for d in validate_document(c):
                if (d.code, d.message) in before:
                    continue
                pos = game_doc.pos(("variants", index, "overrides", key))
                out.append(Diagnostic.at(pos, ERROR, d.code,
                                         f"variant '{spec.get('id')}', override '{key}': {d.message}",
                                         d.hint))
                break
    return out


def set_override(docs: list[Document], path: str, value, dry_run: bool) -> str:
    """Set one override (or, dry_run, only check its path); returns a problem or ''."""
    kind, _, rest = path.partition("/")
    steps = rest.split("/") if rest else []
    for doc in (d for d in docs if d.kind == kind):
        node = doc.data
        if kind != "game":
            node = node.get(kind) if isinstance(node, dict) else None
        problem = _walk_and_set(node, steps, copy.deepcopy(value), dry_run)
        if not problem:
            return ""
    return f"override path '{path}' does not match the data"


def _walk_and_set(node, steps: list[str], value, dry_run: bool) -> str:
    for i, step in enumerate(steps):
        last = i == len(steps) - 1
        if isinstance(node, list):
            match = _list_item(node, step)
            if match is None:
                return "no list item"
            if last:
                if not dry_run:
                    node[match] = value
                return ""
            node = node[match]
        elif isinstance(node, dict):
            if last:
                if not dry_run:
                    node[step] = value
                return ""
            if step not in node:
                return "no key"
            node = node[step]
        else:
            return "not a container"
    return "empty path"


def _list_item(items: list, step: str) -> int | None:
    for i, item in enumerate(items):
        if isinstance(item, dict) and (item.get("id") == step or slug(str(item.get("name", ""))) == step):
            return i
    if step.isdigit() and int(step) < len(items):
        return int(step)
    return None

