"""Lint: a key of a game's `rules:` block that no engine code names is a warning (PNP-L041).

game.yaml says the engine reads every rule parameter; a key the engine never looks at is a
number a designer may change to no effect (Age of Civilization once printed five). Validating
never imports game code, so the engine is read as text: every string literal of its Python
files (and of the engine core, which reads the shared `end:` keys), f-strings as patterns
(`f"{s}_rounds"` names every `..._rounds` key). Keys are checked where the engine's rules
schema fixes their names (`properties`); keys that are data (card ids under a free-keyed
map, found through `additionalProperties`) are not names the code can spell, and a key allowed
one value only states a rule rather than sets a parameter. Without a rules
schema every mapping key is checked but the shared `end:` ones (common.schema.json). A key named by any engine literal counts as read: this
catches keys nobody reads, not keys read at the wrong place.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from functools import cache
from pathlib import Path
from typing import Any

from pnp.data.loader import Document
from pnp.data.model import GameDef
from pnp.data.schema import COMMON_RULES, rules_schema_file
from pnp.diagnostics import WARNING, Diagnostic
from pnp.paths import PACKAGE

RULES_KEY_UNREAD = "PNP-L041"


def unread_rules_keys(game: GameDef, docs: list[Document]) -> list[Diagnostic]:
    """A warning at every rules key whose name no engine code spells."""
    gdoc = next((d for d in docs if d.kind == "game"), None)
    rules = gdoc.data.get("rules") if gdoc is not None and isinstance(gdoc.data, dict) else None
    files = engine_files(game)
    if gdoc is None or not isinstance(rules, dict) or not files:
        return []
    names, patterns = _literals(tuple(_stamped(f) for f in sorted(files) + _core_files()))
    schema_path = rules_schema_file(Path(game.folder), game.engine)
    schema = _load(schema_path) if schema_path is not None else None
    shared = _shared_keys() if schema is None else set()
    out = []
    for path in _named_keys(rules, schema, schema_path, ()):
        key = path[-1]
        if path in shared:  # end: ... every game shares, documented in common.schema.json
            continue
        if key in names or _spelled_by(patterns, key):
            continue
        where = ".".join(path)
        out.append(Diagnostic.at(gdoc.key_pos(("rules", *path)), WARNING, RULES_KEY_UNREAD,
                                 f"rules key '{where}' is read by no engine code: changing it "
                                 "changes nothing",
                                 "make the engine read it, or remove it from rules: (and from "
                                 "the rules schema)"))
    return out


def engine_files(game: GameDef) -> list[Path]:
    """The Python files of the game's rules module, found without importing it: a rules file
    in the game folder, or a bundled engine's package (pnp/games/NAME/)."""
    engine = game.engine
    if not isinstance(engine, str) or not engine:
        return []
    if engine.endswith(".py"):
        path = Path(game.folder) / engine
        return [path] if path.is_file() else []
    package = PACKAGE / "games" / engine.replace("-", "_")
    if package.is_dir():
        return sorted(package.rglob("*.py"))
    single = package.with_suffix(".py")
    return [single] if single.is_file() else []


@cache
def _shared_keys() -> frozenset[tuple]:
    """The parameters every game shares (schemas/rules/common.schema.json): a game without a
    rules schema of its own may give them for the harness and the rulesheet."""
    common = COMMON_RULES
    node = _load(common)
    out: set[tuple] = set()

    def walk(schema: Any, path: tuple) -> None:
        for key, sub in (schema.get("properties") or {}).items() if isinstance(schema, dict) \
                else ():
            out.add((*path, key))
            walk(sub, (*path, key))

    walk(node, ())
    return frozenset(out)


def _core_files() -> list[Path]:
    return sorted((PACKAGE / "engine").glob("*.py"))


def _stamped(path: Path) -> tuple[Path, int]:
    """A file with its modification time, so an edited rules file is read again."""
    try:
        return path, path.stat().st_mtime_ns
    except OSError:
        return path, 0


#: A comment or a string literal, whichever starts first, so quotes in comments and hashes in
#: strings are read as what they are (prefix, quote, body). The lookahead finds the same
#: matches, but rejects most positions at their first character (a third faster).
_TOKEN = re.compile(r"""(?=[\#'"rRbBuUfF])(?:
    \#[^\n]*
  | (?P<prefix>[rRbBuUfF]{0,2})(?P<q>\'\'\'|\"\"\"|\'|\")(?P<body>(?:\\.|(?!(?P=q))[^\\])*)(?P=q))
""", re.VERBOSE | re.DOTALL)
#: An f-string's replacement field (one level of nested braces), or an escaped brace.
_FIELD = re.compile(r"\{\{|\}\}|\{[^{}]*(?:\{[^{}]*\}[^{}]*)*\}")


@cache
def _literals(files: tuple[tuple[Path, int], ...]
              ) -> tuple[frozenset[str], tuple[str, ...]]:
    """Every string constant of the files, and every f-string as a pattern (regular expression
    text). The files are scanned as text (a regular expression over comments and literals,
    about ten times faster than parsing them); the strings inside an f-string's fields count
    as constants."""
    names: set[str] = set()
    patterns: list[str] = []
    for path, _ in files:
        try:
            text = path.read_text(encoding="utf-8")
        except (OSError, ValueError, UnicodeDecodeError):
            continue  # a broken rules file is reported when it is imported
        _scan(text, names, patterns)
    return frozenset(names), tuple(dict.fromkeys(patterns))


def _spelled_by(patterns: tuple[str, ...], key: str) -> bool:
    """Whether an f-string pattern spells the whole key (the patterns are compiled only when
    a key is not a plain literal: most keys are, and hundreds of patterns cost time)."""
    return bool(patterns) and _one_pattern(patterns).fullmatch(key) is not None


@cache
def _one_pattern(patterns: tuple[str, ...]) -> re.Pattern:
    """One expression matching what any of the patterns matches."""
    return re.compile("|".join(f"(?:{p})" for p in patterns))


def _scan(text: str, names: set[str], patterns: list[str]) -> None:
    for match in _TOKEN.finditer(text):
        if match.group("q") is None:
            continue  # a comment
        body = match.group("body")
        if "f" not in match.group("prefix").lower():
            names.add(body)
            continue
        parts, fixed, pos = [], [], 0
        for field in _FIELD.finditer(body):
            if field.group() in ("{{", "}}"):
                continue
            _scan(field.group()[1:-1], names, patterns)  # 'a' if x else 'b' inside a field
            fixed.append(_unbrace(body[pos:field.start()]))
            parts += [re.escape(fixed[-1]), ".+"]
            pos = field.end()
        fixed.append(_unbrace(body[pos:]))
        parts.append(re.escape(fixed[-1]))
        if any(fixed):
            patterns.append("".join(parts))


def _unbrace(text: str) -> str:
    return text.replace("{{", "{").replace("}}", "}")


def _named_keys(node: Any, schema: Any, base: Path | None, path: tuple) -> Iterator[tuple]:
    """Paths of the mapping keys whose names the schema fixes (all keys without a schema)."""
    schema = _resolve(schema, base)
    if isinstance(node, dict):
        props = schema.get("properties", {}) if isinstance(schema, dict) else {}
        extra = schema.get("additionalProperties") if isinstance(schema, dict) else None
        for key, value in node.items():
            key = str(key)
            if schema is None:
                yield (*path, key)
                yield from _named_keys(value, None, base, (*path, key))
            elif key in props:
                if not _fixed(_resolve(props[key], base)):
                    yield (*path, key)
                yield from _named_keys(value, props[key], base, (*path, key))
            elif isinstance(extra, dict):  # a data key (a card id): its values' names count
                yield from _named_keys(value, extra, base, (*path, key))
    elif isinstance(node, list):
        items = schema.get("items") if isinstance(schema, dict) else None
        for i, value in enumerate(node):
            yield from _named_keys(value, items if schema is not None else None, base,
                                   (*path, i))


def _fixed(schema: Any) -> bool:
    """A key the schema allows one value only (`const`, a one-value `enum`): it states a rule
    rather than sets a parameter, and cannot be changed to no effect."""
    return isinstance(schema, dict) and ("const" in schema or len(schema.get("enum") or ()) == 1)


def _resolve(schema: Any, base: Path | None) -> Any:
    """Follow `$ref`s (in the same file or a file beside it); a composite schema (oneOf,
    anyOf, allOf) is read through its first branch that is an object schema."""
    for _ in range(20):
        if not isinstance(schema, dict):
            return schema
        if "$ref" in schema and base is not None:
            target, _, pointer = str(schema["$ref"]).partition("#")
            doc_path = (base.parent / target).resolve() if target else base
            node: Any = _load(doc_path)
            for part in [p for p in pointer.split("/") if p]:
                node = node.get(part, {}) if isinstance(node, dict) else {}
            schema, base = node, doc_path
            continue
        for key in ("allOf", "anyOf", "oneOf"):
            branches = [b for b in schema.get(key, ()) if isinstance(b, dict)
                        and ("properties" in b or "$ref" in b or "items" in b)]
            if branches and "properties" not in schema:
                schema = branches[0]
                break
        else:
            return schema
    return schema


@cache
def _load(path: Path) -> Any:
    try:
        return json.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
