"""Find, load and validate a game folder: the one pipeline every command goes through.

YAML (positions kept) -> schema check -> variant overrides -> model build -> lint.
"""

from __future__ import annotations

import copy
import dataclasses
import difflib
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pnp.data import lint, upgrades
from pnp.data.build import Builder, slug
from pnp.data.effects import EffectCache
from pnp.data.loader import MEMO_SIZE, Document, load_file
from pnp.data.model import GameDef
from pnp.data.schema import check_schema_line, validate_document, validate_rules
from pnp.data.shared_builds import SharedBuilds
from pnp.data.sheet_decks import attach_sheets, unread_sheets
from pnp.diagnostics import ERROR, Diagnostic, has_errors
from pnp.memo import BoundedMemo
from pnp.paths import CARDS

#: Document kinds a game folder holds; other kinds (scenarios) are skipped by the game loader.
GAME_KINDS = {"game", "stats", "tracks", "charts", "tables", "deck", "board", "record-sheet", "layout",
              "components"}


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
    they cannot be read, instead of skipping a file the designer meant to be there. The
    folder `scenarios/` holds the game's rules tests (`pnp scenario GAME`), not its data."""
    files = [p for p in folder.rglob("*") if p.suffix in (".yaml", ".yml")]
    return sorted(p for p in files if not any(part.startswith(".") for part in p.relative_to(folder).parts)
                  and p.relative_to(folder).parts[0] != SCENARIOS)


#: the folder of a game that holds its scenarios (run by `pnp scenario GAME`)
SCENARIOS = "scenarios"


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


def load_game(folder: Path | str, variant: str | Sequence[str] | None = None) -> LoadResult:
    """Load, check and build one game; never raises on bad data."""
    result, docs = read_game(folder)
    if docs is not None:
        build_game(Path(folder), docs, variant, result)
    return result


def load_game_and_documents(folder: Path | str) -> tuple[LoadResult, list[Document] | None]:
    """`load_game` without a variant, plus the documents as read (the base game is built from
    copies), so `variant_problems` can build every variant without reading the files again."""
    result, docs = read_game(folder)
    if docs is not None:
        build_game(Path(folder), [_fresh(doc) for doc in docs], None, result)
    return result, docs


def read_game(folder: Path | str) -> tuple[LoadResult, list[Document] | None]:
    """The game folder's documents, parsed and schema-line checked (None: not a game folder),
    with the diagnostics found so far in the LoadResult."""
    folder = Path(folder)
    result = LoadResult(None, files=game_files(folder))
    diags = result.diagnostics
    if not (folder / "game.yaml").exists() and not result.files:
        diags.append(Diagnostic(ERROR, "PNP-L012", f"'{folder}' is not a game folder", str(folder),
                                hint="a game folder holds game.yaml and its definition files"))
        return result, None
    docs: list[Document] = []
    sheets: set[Path] = set()
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
        if doc.kind == "deck":  # cards kept in a spreadsheet become the deck's card list here
            diags.extend(attach_sheets(folder, doc, sheets))
        docs.append(doc)
    diags.extend(unread_sheets(folder, sheets))
    return result, docs


def build_game(folder: Path, docs: list[Document], variant: str | Sequence[str] | None,
               result: LoadResult, changed_only: bool = False,
               effects: EffectCache | None = None, errors_only: bool = False) -> None:
    """Apply the variant (or a combination, 'a+b'), check the documents against their
    schemas, build and lint the game into `result` (the documents are changed in place by a
    variant). `changed_only` checks only the documents the variant changed, when the others
    passed already. `effects`: parsed effect texts shared with other builds of the game.
    `errors_only`: lint skips the checks that can only warn (the caller keeps errors only)."""
    diags = result.diagnostics
    variant = variant_name(variant)
    if variant:
        diags.extend(apply_variant(docs, variant))
    for doc in docs:
        if changed_only and not doc.redirects:
            continue
        # changed_only: the other top-level values passed (the game was built) and are as
        # they were, so only those an override reaches are checked again
        changed = {path[0] for path in doc.redirects if path} if changed_only else None
        moved = upgrades.find_moved(doc)
        diags.extend(upgrades.moved_key_diagnostics(doc, moved, folder))
        diags.extend(validate_document(upgrades.without_moved(doc, moved), changed))
        if doc.kind == "game" and (changed is None or changed & {"rules", "engine"}):
            diags.extend(validate_rules(doc, folder))
    if has_errors(diags):
        return
    builder = Builder(folder, docs, variant, effects)
    game = builder.build()
    diags.extend(builder.diags)
    if game is not None:
        diags.extend(lint.lint_game(game, docs, errors_only))
    result.game = game


def variant_problems(folder: Path | str, base: LoadResult, docs: list[Document],
                     check: Callable[[GameDef], list[Diagnostic]] | None = None
                     ) -> list[Diagnostic]:
    """Errors that only a variant brings: each of the game's variants is applied to a fresh
    copy of the data and built, and what it finds beyond the base game's own diagnostics is
    reported (named after the variant), so a clean `pnp validate` also means every
    `--variant` loads. `docs` are the documents as read (`load_game_and_documents`); each
    variant works on a copy. `check` runs on each variant that builds (validate's rulesheet
    check: a template may branch on the variant)."""
    if base.game is None or not base.game.variants:
        return []
    folder = Path(folder)
    seen = {_key(d) for d in base.diagnostics}
    out: list[Diagnostic] = []
    effects = SharedBuilds()  # a variant changes few effects, tracks, charts: the rest once
    memos = [BoundedMemo(MEMO_SIZE) for _ in docs]  # each document's positions, looked up once
    for variant, spec in base.game.variants.items():
        result = LoadResult(None)
        changes = _changed_documents(docs, spec.overrides)
        build_game(folder, [_fresh(doc, memo) if changes is None or id(doc) in changes
                            else dataclasses.replace(doc, redirects={}, memo=memo)
                            for doc, memo in zip(docs, memos, strict=True)],
                   variant, result, changed_only=True,
                   effects=effects, errors_only=True)  # warnings are the base game's to give
        if check is not None and result.game is not None and result.ok:
            result.diagnostics.extend(check(result.game))
        for d in result.diagnostics:
            if d.severity == ERROR and _key(d) not in seen:
                seen.add(_key(d))
                out.append(dataclasses.replace(d, message=f"variant {variant}: {d.message}"))
    return out


def _changed_documents(docs: list[Document], overrides: dict) -> set[int] | None:
    """The ids of the documents a variant's overrides write into (the game manifest always:
    it holds the variants), or None when one does not resolve (then every one is copied).
    A variant build copies only these; the others are read, never written."""
    out = {id(d) for d in docs if d.kind == "game"}
    for path in overrides:
        found = resolve_override(docs, str(path))
        if isinstance(found, OverrideProblem):
            return None
        out.add(id(found.doc))
    return out


def _key(d: Diagnostic) -> tuple:
    return (d.file, d.line, d.column, d.code, d.message)


def _fresh(doc: Document, memo: BoundedMemo | None = None) -> Document:
    """A copy of a document a variant may change: its data and redirects anew, its source
    positions shared (a variant never moves them), with `memo` the positions looked up."""
    return dataclasses.replace(doc, data=copy_data(doc.data), redirects=dict(doc.redirects),
                               memo=memo)


_SCALARS = frozenset({str, int, float, bool, type(None)})


def copy_data(value: Any, memo: dict[int, Any] | None = None) -> Any:
    """`copy.deepcopy` of parsed data, several times faster on what YAML gives (plain dicts,
    lists and scalars; any other type goes to deepcopy). A node reached twice (a YAML alias)
    is copied once and stays shared, as deepcopy keeps it."""
    cls = value.__class__
    if cls in _SCALARS:
        return value
    if memo is None:
        memo = {}
    if id(value) in memo:
        return memo[id(value)]
    if cls is dict:
        out: Any = {}
        memo[id(value)] = out
        for k, v in value.items():
            out[k] = v if v.__class__ in _SCALARS else copy_data(v, memo)
    elif cls is list:
        out = []
        memo[id(value)] = out
        out.extend(v if v.__class__ in _SCALARS else copy_data(v, memo) for v in value)
    else:
        out = memo[id(value)] = copy.deepcopy(value, memo)
    return out


#: Kinds whose files hold one main list: an override path may start inside it
#: (`tracks/road/...` is `tracks/tracks/road/...`).
MAIN_LISTS = {"stats": "stats", "tracks": "tracks", "charts": "charts", "tables": "tables",
              "deck": "decks", "board": "boards", "record-sheet": "record_sheets", "layout": "layouts"}

#: Keys a card itself has; any other last step of a card path names one of its fields.
_CARD_KEYS = {"id", "name", "count", "fields"}

OVERRIDE_HINT = ("a path is KIND/step/...: KIND is a file kind (game, stats, tracks, charts, tables, "
                 "deck, board, record-sheet, components, layout); a list step matches an item's "
                 "id, its name as an id, or its index (docs/components.md)")


#: two variants combined that cannot be (declared, one interpretation, one path two values)
VARIANT_CONFLICT = "PNP-L042"


def variant_ids(variant: str | Sequence[str] | None) -> list[str]:
    """The variants a `--variant` value combines, in order: 'a+b' or ['a', 'b']; 'base' and
    empty parts are no variant."""
    if variant is None:
        return []
    parts = variant.split("+") if isinstance(variant, str) else [
        x for v in variant for x in str(v).split("+")]
    return [p.strip() for p in parts if p.strip() and p.strip() != "base"]


def variant_name(variant: str | Sequence[str] | None) -> str | None:
    """One name for a combination (`innovation+drafting`), None for the base game."""
    return "+".join(variant_ids(variant)) or None


def apply_variant(docs: list[Document], variant: str) -> list[Diagnostic]:
    """Apply a variant's overrides to the loaded documents, in place; a combination
    ('a+b') applies each in order, after checking that none conflicts with another.

    Every overridden value remembers the override's position, so a later schema, effect or
    type error in it is reported at the variant's line, where the new value is written."""
    game_doc = next((d for d in docs if d.kind == "game"), None)
    if game_doc is None:
        return []
    variants = {v.get("id"): (i, v) for i, v in enumerate(game_doc.data.get("variants") or [])
                if isinstance(v, dict)}
    ids = variant_ids(variant)
    for one in ids:
        if one not in variants:
            close = difflib.get_close_matches(one, [str(k) for k in variants], n=3)
            hint = f"did you mean {', '.join(close)}?" if close else (
                f"variants: {', '.join(map(str, variants)) or '(none)'}")
            return [Diagnostic.at(game_doc.pos(("variants",)), ERROR, "PNP-L009",
                                  f"unknown variant '{one}'", hint)]
    conflicts = variant_conflicts(game_doc, variants, ids)
    if conflicts:
        return conflicts
    diags: list[Diagnostic] = []
    for one in ids:
        diags += _apply_one(docs, game_doc, *variants[one])
    return diags


def variant_conflicts(game_doc: Document, variants: dict, ids: list[str]) -> list[Diagnostic]:
    """Why the variants `ids` cannot be played together: a variant named twice, one that
    says it conflicts with another, two alternatives of one interpretation, or one data
    path set to two different values."""
    out = []
    for k, b in enumerate(ids):
        ib, vb = variants[b]
        for a in ids[:k]:
            ia, va = variants[a]
            why = ""
            if a == b:
                why = "is named twice"
            elif b in (va.get("conflicts") or ()):
                why = f"is listed under {a}'s conflicts:"
            elif a in (vb.get("conflicts") or ()):
                why = f"lists {a} under its conflicts:"
            elif va.get("interpretation") and va.get("interpretation") == vb.get("interpretation"):
                why = f"plays another alternative of the same interpretation " \
                      f"'{va['interpretation']}'"
            else:
                oa, ob = va.get("overrides") or {}, vb.get("overrides") or {}
                both = [path for path in ob if path in oa and oa[path] != ob[path]]
                if both:
                    why = f"sets {both[0]} to {ob[both[0]]!r}, where it sets {oa[both[0]]!r}"
            if why:
                out.append(Diagnostic.at(game_doc.pos(("variants", ib)), ERROR,
                                         VARIANT_CONFLICT,
                                         f"variants {a} and {b} cannot be combined: {b} {why}",
                                         "play one of them, or the other"))
    return out


def _apply_one(docs: list[Document], game_doc: Document, index: int, spec: dict
               ) -> list[Diagnostic]:
    diags = []
    overrides = spec.get("overrides")
    for key, value in (overrides if isinstance(overrides, dict) else {}).items():
        where = ("variants", index, "overrides", key)
        if upgrades.moved_override_path(str(key)) is not None:
            continue  # a path to where a key used to be: PNP-L022 says where it went
        found = resolve_override(docs, str(key))
        if isinstance(found, OverrideProblem):
            diags.append(Diagnostic.at(game_doc.key_pos(where), ERROR, "PNP-L015",
                                       found.message, found.hint))
            continue
        found.set(copy.deepcopy(value))
        found.doc.redirects[found.data_path] = game_doc.pos(where)
    return diags


@dataclass
class OverrideTarget:
    """The place an override path names: `container[key]`, inside `doc` at `data_path`.

    `parent[parent_key]` is set to the container first when the container is new (a card's
    `fields:` map that the card did not have yet)."""

    doc: Document
    container: dict | list
    key: str | int
    data_path: tuple
    parent: dict | None = None
    parent_key: str = ""

    def set(self, value) -> None:
        if self.parent is not None and self.parent_key not in self.parent:
            self.parent[self.parent_key] = self.container
        self.container[self.key] = value


@dataclass(frozen=True)
class OverrideProblem:
    """Why an override path does not resolve, with a did-you-mean hint."""

    message: str
    hint: str = OVERRIDE_HINT


def set_override(docs: list[Document], path: str, value, dry_run: bool) -> str:
    """Set one override (or, dry_run, only check its path); returns a problem or ''."""
    found = resolve_override(docs, path)
    if isinstance(found, OverrideProblem):
        return found.message
    if not dry_run:
        found.set(copy.deepcopy(value))
    return ""


def resolve_override(docs: list[Document], path: str):
    """The OverrideTarget an override path names, or the OverrideProblem of the first document
    tried (the path's KIND picks the documents; nothing is changed)."""
    kind, _, rest = path.partition("/")
    steps = rest.split("/") if rest else []
    of_kind = [d for d in docs if d.kind == kind]
    if not of_kind:
        present = sorted({d.kind for d in docs if d.kind})
        close = difflib.get_close_matches(kind, present, n=2)
        hint = (f"did you mean {' or '.join(close)}? " if close else "") + (
            f"this game's file kinds: {', '.join(present)}")
        return OverrideProblem(f"override path '{path}': the game has no '{kind}' file", hint)
    if not steps:
        return OverrideProblem(f"override path '{path}' names a whole file", OVERRIDE_HINT)
    first: OverrideProblem | None = None
    for doc in of_kind:
        main = MAIN_LISTS.get(kind)
        starts = [(main,), ()] if main and steps[0] != main else [()]
        for start in starts:
            found = _walk(doc, start, steps, path)
            if not isinstance(found, OverrideProblem):
                return found
            first = first or found
    return first


def _walk(doc: Document, start: tuple, steps: list[str], path: str):
    node = doc.data
    data_path: tuple = ()
    for key in start:
        if not isinstance(node, dict) or key not in node:
            return OverrideProblem(f"override path '{path}' does not match the data")
        node, data_path = node[key], data_path + (key,)
    for i, step in enumerate(steps):
        last = i == len(steps) - 1
        here = "/".join(map(str, data_path)) or "the top of the file"
        if isinstance(node, list):
            match = _list_item(node, step)
            if match is None:
                ids = [_item_id(x, j) for j, x in enumerate(node)]
                close = difflib.get_close_matches(step, ids, n=3)
                hint = (f"did you mean {' or '.join(close)}?" if close
                        else f"items here: {', '.join(ids[:12]) or '(none)'}")
                return OverrideProblem(f"override path '{path}': no item '{step}' in "
                                       f"{Path(doc.path).name} {here}", hint)
            step_key: str | int = match
        elif isinstance(node, dict):
            step_key = step
            if step not in node and step not in _CARD_KEYS and _is_card(data_path):
                fields = node.get("fields")
                if fields is None and last:  # a card without fields: the override adds one
                    return OverrideTarget(doc, {}, step, data_path + ("fields", step), node, "fields")
                if isinstance(fields, dict):
                    node, data_path = fields, data_path + ("fields",)
            if step not in node and not last:
                close = difflib.get_close_matches(step, [str(k) for k in node], n=3)
                hint = (f"did you mean {' or '.join(close)}?" if close
                        else f"keys here: {', '.join(map(str, node)) or '(none)'}")
                if step == "cards" and node.get("generate"):
                    hint = (f"this deck's cards are generated from {node['generate']}; "
                            f"override the {node['generate']} data instead")
                return OverrideProblem(f"override path '{path}': no '{step}' in "
                                       f"{Path(doc.path).name} {here}", hint)
        else:
            return OverrideProblem(f"override path '{path}': {here} holds a value, not a list or map",
                                   "end the path at the value to replace")
        if last:
            return OverrideTarget(doc, node, step_key, data_path + (step_key,))
        node, data_path = node[step_key], data_path + (step_key,)
    return OverrideProblem(f"override path '{path}' is empty")


def _is_card(data_path: tuple) -> bool:
    """A card of a deck file: decks/N/cards/M."""
    return len(data_path) >= 4 and data_path[-2] == "cards" and data_path[0] == "decks"


def _item_id(item, index: int) -> str:
    if isinstance(item, dict) and item.get("id") is not None:
        return str(item["id"])
    if isinstance(item, dict) and item.get("name") is not None:
        return slug(str(item["name"]))
    return str(index)


def _list_item(items: list, step: str) -> int | None:
    for i, item in enumerate(items):
        if isinstance(item, dict) and (item.get("id") == step or slug(str(item.get("name", ""))) == step):
            return i
    if step.isdigit() and int(step) < len(items):
        return int(step)
    return None
