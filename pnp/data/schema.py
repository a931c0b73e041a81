"""JSON Schema checks (Draft 2020-12) for every document kind, errors as positioned Diagnostics.

The schema a file is checked against is the one its first line names
(`# yaml-language-server: $schema=...`), so editors and `pnp validate` agree.
"""

from __future__ import annotations

import difflib
import json
import os
from collections.abc import Iterable
from functools import cache
from pathlib import Path

from jsonschema import Draft202012Validator, validators
from jsonschema.exceptions import ValidationError, best_match
from referencing import Registry, Resource
from referencing.jsonschema import DRAFT202012

from pnp.data.loader import Document
from pnp.data.schema_refs import inline_refs
from pnp.diagnostics import ERROR, WARNING, Diagnostic
from pnp.paths import SCHEMAS

MAX_ERRORS_PER_FILE = 50


class _NumberKey(ValidationError):
    """A mapping key YAML read as a number (`2:`) where the schema matches keys by pattern."""


_PATTERN_PROPERTIES = Draft202012Validator.VALIDATORS["patternProperties"]
_ADDITIONAL_PROPERTIES = Draft202012Validator.VALIDATORS["additionalProperties"]


def _text_keys(instance: dict) -> dict:
    return {k: v for k, v in instance.items() if isinstance(k, str)}


def _pattern_properties(validator, patterns, instance, schema):
    """patternProperties that reports a number key (JSON keys are text, and a regular
    expression cannot read a number) instead of crashing on it, then checks the rest."""
    numbers = [k for k in instance if not isinstance(k, str)] if isinstance(instance, dict) else []
    for key in numbers:
        yield _NumberKey(f"key {key!r} is a number", path=[key])
    if numbers:
        instance = _text_keys(instance)
    yield from _PATTERN_PROPERTIES(validator, patterns, instance, schema)


def _additional_properties(validator, extra, instance, schema):
    """additionalProperties beside patternProperties: number keys are patternProperties'
    to report (above), so they are left out here rather than crash the pattern match."""
    if isinstance(instance, dict) and schema.get("patternProperties"):
        instance = _text_keys(instance)
    yield from _ADDITIONAL_PROPERTIES(validator, extra, instance, schema)


#: Draft 2020-12 with the two keywords above; everything else as jsonschema has it
_Validator = validators.extend(Draft202012Validator, {
    "patternProperties": _pattern_properties,
    "additionalProperties": _additional_properties,
})


@cache
def _schemas(folder: Path = SCHEMAS) -> dict[str, dict]:
    """Every `<kind>.schema.json` in the folder, keyed by kind, with a file URI as `$id`."""
    out = {}
    for path in sorted(folder.glob("*.schema.json")):
        schema = json.loads(path.read_text(encoding="utf-8"))
        schema.setdefault("$id", path.resolve().as_uri())
        out[path.name.removesuffix(".schema.json")] = schema
    return out


#: Stable addresses of the shared schemas, for a game's own rules.schema.json to $ref.
SHARED_BASE = "https://pnp.invalid/schemas/"


@cache
def _registry() -> Registry:
    """Every shared schema, by its file URI and by SHARED_BASE + file name."""
    resources = []
    for name, s in _schemas().items():
        resource = Resource.from_contents(s, default_specification=DRAFT202012)
        resources.append((s["$id"], resource))
        resources.append((f"{SHARED_BASE}{name}.schema.json", resource))
    return Registry().with_resources(resources)


def _shared_document(uri: str) -> dict | None:
    """A shared schema by the URI a `$ref` names (its file URI or SHARED_BASE address)."""
    try:
        return _registry().contents(uri)
    except LookupError:
        return None


@cache
def _inlined(kind: str) -> dict:
    """The kind's schema with its `$ref`s written in place when that keeps every error as
    jsonschema reports it (pnp/data/schema_refs.py), else the schema as written."""
    return _refs_inlined(_schemas()[kind])


def _refs_inlined(schema: dict) -> dict:
    """`schema` with its `$ref`s written in place where that keeps every error as jsonschema
    reports it (pnp/data/schema_refs.py), else `schema` itself."""
    return inline_refs(schema, _shared_document) or schema


@cache
def _validator(kind: str) -> Draft202012Validator:
    return _Validator(_inlined(kind), registry=_registry())


def known_kinds() -> list[str]:
    return [k for k in _schemas() if k != "common"]


def schema_path(kind: str) -> Path:
    return SCHEMAS / f"{kind}.schema.json"


def check_schema_line(doc: Document) -> list[Diagnostic]:
    """The first line must name a schema of ours that exists relative to the file."""
    file = str(doc.path)
    if doc.schema_ref is None:
        return [
            Diagnostic(
                ERROR, "PNP-L001", "missing schema line", file, 1, 1,
                "start the file with '# yaml-language-server: $schema=<relative path to "
                "schemas/KIND.schema.json>' so editors and pnp know what it is",
            )
        ]
    kind = doc.kind
    if kind not in known_kinds():
        close = difflib.get_close_matches(kind or "", known_kinds(), n=3)
        hint = f"did you mean {', '.join(close)}?" if close else f"known kinds: {', '.join(known_kinds())}"
        if not known_kinds():  # every file says this at once: pnp's own schemas are missing
            hint = (f"pnp found no schemas in {SCHEMAS}: reinstall pnp-toolkit, or point PNP_HOME "
                    "at a folder holding cards/, schemas/, templates/ and rulesheet/")
        return [Diagnostic(ERROR, "PNP-L010", f"unknown schema '{doc.schema_ref}'", file, 1, 1, hint)]
    target = (doc.path.parent / doc.schema_ref).resolve()
    if not target.exists():
        rel = _relative(schema_path(kind), doc.path.parent)
        return [
            Diagnostic(
                WARNING, "PNP-L011", f"schema line points at a missing file '{doc.schema_ref}'",
                file, 1, 1, f"editors will not find it; use $schema={rel}",
            )
        ]
    return []


def _relative(target: Path, start: Path) -> str:
    return Path(os.path.relpath(target.resolve(), start.resolve())).as_posix()


#: root keywords under which a document's errors are those of the root's own checks plus
#: those of each top-level value against its `properties` schema, independently
_SPLITTABLE = {"$schema", "$id", "$defs", "title", "description", "type", "properties",
               "additionalProperties", "required"}


@cache
def _validator_of(kind: str, keys: frozenset[str]) -> Draft202012Validator:
    """A validator that checks only the top-level values under `keys` (and the root's own
    keywords: type, required, additionalProperties); every other value passes. The whole
    validator when the root schema does not split that way."""
    root = _inlined(kind)
    if set(root) - _SPLITTABLE or not isinstance(root.get("properties"), dict):
        return _validator(kind)
    props = {k: (v if k in keys else True) for k, v in root["properties"].items()}
    return _Validator({**root, "properties": props}, registry=_registry())


def validate_document(doc: Document, only: Iterable[str] | None = None) -> list[Diagnostic]:
    """Schema errors of one document, each at the line and column of the offending node.

    `only`: check just these top-level values (and the root's own keywords), for a document
    whose other values passed already and have not changed since (a variant's overrides)."""
    kind = doc.kind
    if kind is None or kind not in known_kinds():
        return []
    validator = _validator(kind) if only is None else _validator_of(kind, frozenset(only))
    diags: list[Diagnostic] = []
    for error in sorted(validator.iter_errors(doc.data), key=lambda e: list(map(str, e.absolute_path))):
        diags.append(_to_diagnostic(doc, error))
        if len(diags) >= MAX_ERRORS_PER_FILE:
            break
    return diags


#: the rules schema every game's `rules:` block is checked against, whatever its engine
COMMON_RULES = SCHEMAS / "rules" / "common.schema.json"


def rules_schema_file(folder: Path, engine: str | None) -> Path | None:
    """The schema of a game's `rules:` block: the game folder's own rules.schema.json, else the
    bundled engine's schemas/rules/ENGINE.schema.json; None when there is neither."""
    own = folder / "rules.schema.json"
    if own.is_file():
        return own
    if isinstance(engine, str) and engine and "/" not in engine and "\\" not in engine:
        bundled = SCHEMAS / "rules" / f"{engine}.schema.json"
        if bundled.is_file():
            return bundled
    return None


@cache
def _rules_validator(path: Path, mtime: float) -> Draft202012Validator:
    """A validator for one rules schema file (mtime keys the cache, so edits are seen)."""
    schema = json.loads(path.read_text(encoding="utf-8"))
    if not isinstance(schema, dict):
        raise ValueError("the schema is not a JSON object")
    schema.setdefault("$id", path.resolve().as_uri())
    Draft202012Validator.check_schema(schema)
    return _Validator(_refs_inlined(schema), registry=_registry())


def validate_rules(doc: Document, folder: Path) -> list[Diagnostic]:
    """Check a game manifest's `rules:` block against the schema its engine supplies.

    The schema is data (JSON), never code: validating a game never imports its engine."""
    data = doc.data if isinstance(doc.data, dict) else {}
    if "rules" not in data:
        return []
    diags: list[Diagnostic] = []
    seen: set[tuple] = set()
    own = rules_schema_file(folder, data.get("engine"))
    for path in (COMMON_RULES, own):  # every game's shared parameters, then its engine's
        if path is None:
            continue
        try:
            validator = _rules_validator(path.resolve(), path.stat().st_mtime)
        except Exception as exc:  # a broken schema file is the game's problem, reported
            reason = str(exc).splitlines()[0][:200] if str(exc) else type(exc).__name__
            diags.append(Diagnostic(ERROR, "PNP-S007",
                                    f"rules schema {path.name} cannot be used: {reason}",
                                    str(path), 1, 1, "fix the JSON Schema file (Draft 2020-12)"))
            continue
        errors = validator.iter_errors(data["rules"])
        for error in sorted(errors, key=lambda e: list(map(str, e.absolute_path))):
            d = _to_diagnostic(doc, error, prefix=("rules",))
            if (d.line, d.column, d.message) not in seen:  # both schemas may say the same
                seen.add((d.line, d.column, d.message))
                diags.append(d)
            if len(diags) >= MAX_ERRORS_PER_FILE:
                return diags
    return diags


def _to_diagnostic(doc: Document, error: ValidationError, prefix: tuple = ()) -> Diagnostic:
    if error.validator in ("oneOf", "anyOf") and error.context:
        error = _best_branch(error)
    path = prefix + tuple(error.absolute_path)
    pos = doc.pos(path)
    where = "/".join(str(p) for p in path) or "(document)"
    if isinstance(error, _NumberKey):
        key = path[-1]
        return Diagnostic.at(doc.key_pos(path), ERROR, "PNP-S004",
                             f"{where}: the key {key!r} is a number; this map's keys are text",
                             f'write the key in quotes: "{key}":')
    validator = error.validator
    schema = error.schema if isinstance(error.schema, dict) else {}
    desc = schema.get("description", "")
    if validator == "additionalProperties":
        allowed = list(schema.get("properties", {}))
        extra = [k for k in error.instance if k not in allowed] if isinstance(error.instance, dict) else []
        key = extra[0] if extra else "?"
        pos = doc.key_pos(path + (key,)) if extra else pos
        close = difflib.get_close_matches(str(key), allowed, n=3)
        patterns = list(schema.get("patternProperties") or {})
        hint = (f"did you mean {' or '.join(close)}?" if close
                else f"allowed here: {', '.join(allowed)}" if allowed
                else f"a key here must match {' or '.join(patterns)}" if patterns
                else "this map takes no keys")
        return Diagnostic.at(pos, ERROR, "PNP-S002", f"unknown property '{key}' in {where}", hint)
    if validator == "required":
        missing = error.message.split("'")[1] if "'" in error.message else "?"
        return Diagnostic.at(pos, ERROR, "PNP-S003", f"{where}: missing required property '{missing}'",
                             f"add '{missing}:'")
    if validator == "type":
        expected = error.validator_value
        got = type(error.instance).__name__
        shown = json.dumps(error.instance, ensure_ascii=False, default=str)[:40]
        hint = desc or f"write a {expected} here"
        if _is_length(schema) and isinstance(error.instance, int | float) \
                and not isinstance(error.instance, bool):
            hint = f"add a unit: {error.instance:g}mm (or cm, in, pt)"
        return Diagnostic.at(pos, ERROR, "PNP-S004", f"{where}: expected {expected}, got {got} {shown}",
                             hint)
    instance = _short(error.instance)
    if validator == "enum":
        options = [str(o) for o in error.validator_value]
        close = difflib.get_close_matches(str(error.instance), options, n=2)
        hint = (f"did you mean {' or '.join(close)}? " if close else "") + f"one of: {', '.join(options)}"
        return Diagnostic.at(pos, ERROR, "PNP-S005", f"{where}: '{instance}' is not allowed", hint)
    if validator == "pattern":
        return Diagnostic.at(pos, ERROR, "PNP-S006", f"{where}: '{instance}' has the wrong form",
                             desc or f"must match {error.validator_value}")
    message = error.message
    if len(message) > 200:  # jsonschema quotes the whole value: a 5,000-digit number stays short
        message = message.replace(repr(error.instance), repr(instance)).replace(
            str(error.instance), instance)[:200]
    return Diagnostic.at(pos, ERROR, "PNP-S001", f"{where}: {message}", desc or "see the schema")


_JSON_TYPES = {"object": dict, "array": list, "string": str, "boolean": bool,
               "integer": int, "number": int | float, "null": type(None)}


def _best_branch(error: ValidationError) -> ValidationError:
    """The most telling error of a oneOf/anyOf: from the branch written for this kind of value
    (a mapping's errors for a mapping), so `{width: 63}` says 'add a unit', not 'not allowed'."""
    branches = error.schema.get(error.validator, []) if isinstance(error.schema, dict) else []
    instance = error.instance

    def fits(branch) -> bool:
        if not isinstance(branch, dict):
            return False
        kind = branch.get("type")
        if kind is None and "enum" in branch:
            return any(type(v) is type(instance) for v in branch["enum"])
        want = _JSON_TYPES.get(kind) if isinstance(kind, str) else None
        return want is not None and isinstance(instance, want) and not (
            isinstance(instance, bool) and kind in ("integer", "number"))

    matching = {i for i, b in enumerate(branches) if fits(b)}
    chosen = [e for e in error.context if e.relative_schema_path and
              e.relative_schema_path[0] in matching]
    if not chosen:
        chosen = [e for e in error.context if e.validator != "type"] or list(error.context)
    return best_match(chosen)


def _is_length(schema: dict) -> bool:
    return "mm|cm|in|pt" in str(schema.get("pattern", ""))


def _short(value, limit: int = 60) -> str:
    """A value as text, cut to `limit` characters with an ellipsis."""
    text = str(value)
    return text if len(text) <= limit else text[:limit - 1] + "…"
