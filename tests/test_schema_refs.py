"""Schemas with their `$ref`s written in place report every error as jsonschema does with the
refs followed, and schemas the rewriting cannot follow exactly are left as written."""

from __future__ import annotations

import copy
import dataclasses
import json
import random

import pytest
from jsonschema import Draft202012Validator

from pnp.data import schema
from pnp.data.game import read_game
from pnp.data.schema_refs import inline_refs
from pnp.paths import CARDS, SCHEMAS

#: values a designer might mistype into any place of a document
WRONG = [12345, "not valid ~~", "", [], {}, None, True, -1.5, {"zz_unknown": 1}, "{{ x }}", "3mm"]


def _nodes(node, path=()):
    if path:
        yield path
    if isinstance(node, dict):
        for k, v in node.items():
            yield from _nodes(v, (*path, k))
    elif isinstance(node, list):
        for i, v in enumerate(node):
            yield from _nodes(v, (*path, i))


def _mutants(data, rng: random.Random, count: int):
    """`count` copies of `data`, each with one value replaced, removed or given an extra key."""
    paths = list(_nodes(data))
    for _ in range(count):
        out = copy.deepcopy(data)
        path = rng.choice(paths)
        parent = out
        for key in path[:-1]:
            parent = parent[key]
        roll = rng.random()
        if roll < 0.15 and isinstance(parent, dict):
            del parent[path[-1]]
        elif roll < 0.3 and isinstance(parent[path[-1]], dict):
            parent[path[-1]]["zz_extra"] = 1
        else:
            parent[path[-1]] = copy.deepcopy(rng.choice(WRONG))
        yield out


def _plain(kind: str) -> Draft202012Validator:
    return Draft202012Validator(schema._schemas()[kind], registry=schema._registry())


def _diagnostics(validator, doc, data):
    doc = dataclasses.replace(doc, data=data)
    errors = sorted(validator.iter_errors(data), key=lambda e: list(map(str, e.absolute_path)))
    return [schema._to_diagnostic(doc, e) for e in errors]


@pytest.mark.parametrize("game", [
    "ancient-civilizations",
    pytest.param("the-ancient-world", marks=pytest.mark.slow),  # large layouts: seconds
])
def test_rewritten_schemas_give_the_same_diagnostics_on_broken_documents(game):
    _, docs = read_game(CARDS / game)
    rng = random.Random(26)
    broken = 0
    for doc in docs:
        plain, rewritten = _plain(doc.kind), schema._validator(doc.kind)
        assert rewritten.schema is not plain.schema  # the rewriting applied
        for data in _mutants(doc.data, rng, 8):
            expected = _diagnostics(plain, doc, data)
            assert _diagnostics(rewritten, doc, data) == expected
            broken += bool(expected)
    assert broken > 20  # the mutants did break the documents


def test_rules_schemas_are_rewritten_and_agree_on_broken_rules():
    path = SCHEMAS / "rules" / "the-ancient-world.schema.json"
    raw = json.loads(path.read_text(encoding="utf-8"))
    raw.setdefault("$id", path.resolve().as_uri())
    rewritten = inline_refs(raw, schema._shared_document)
    assert rewritten is not None and "$ref" not in json.dumps(rewritten)
    _, docs = read_game(CARDS / "the-ancient-world")
    rules = next(d for d in docs if d.kind == "game").data["rules"]
    plain = Draft202012Validator(raw, registry=schema._registry())
    fast = Draft202012Validator(rewritten, registry=schema._registry())
    rng = random.Random(7)
    for data in _mutants(rules, rng, 60):
        def seen(v, data=data):
            return [(e.message, e.validator, list(e.absolute_path), e.schema.get("description")
                     if isinstance(e.schema, dict) else None) for e in v.iter_errors(data)]
        assert seen(fast) == seen(plain)


def test_every_bundled_schema_is_rewritten_without_a_ref_left():
    for kind in schema._schemas():
        assert "$ref" not in json.dumps(schema._inlined(kind)), kind


def test_a_ref_with_a_description_beside_it_keeps_the_targets_schema_in_its_errors():
    root = {"$id": "https://x.invalid/s.json", "type": "object",
            "properties": {"size": {"$ref": "#/$defs/len", "description": "card size"}},
            "$defs": {"len": {"type": "string", "description": "a length"}}}
    rewritten = inline_refs(root, lambda uri: None)
    (error,) = Draft202012Validator(rewritten).iter_errors({"size": 3})
    (before,) = Draft202012Validator(root).iter_errors({"size": 3})
    assert error.schema == before.schema == {"type": "string", "description": "a length"}
    assert list(rewritten["properties"]["size"]) == ["allOf", "description"]  # the ref's place


@pytest.mark.parametrize("why, root", [
    ("recursive", {"$id": "https://x.invalid/s.json", "$defs": {"node": {
        "type": "object", "properties": {"child": {"$ref": "#/$defs/node"}}}},
        "$ref": "#/$defs/node"}),
    ("nested $id", {"$id": "https://x.invalid/s.json", "properties": {
        "a": {"$id": "other.json", "$ref": "#/$defs/x"}}, "$defs": {"x": {"type": "string"}}}),
    ("anchor", {"$id": "https://x.invalid/s.json", "properties": {"a": {"$ref": "#x"}},
                "$defs": {"x": {"$anchor": "x", "type": "string"}}}),
    ("ref inside not: its message quotes the subschema", {
        "$id": "https://x.invalid/s.json", "not": {"$ref": "#/$defs/x"},
        "$defs": {"x": {"type": "string"}}}),
    ("ref beside allOf", {"$id": "https://x.invalid/s.json", "$ref": "#/$defs/x",
                          "allOf": [{"type": "string"}], "$defs": {"x": {"minLength": 2}}}),
    ("unknown document", {"$id": "https://x.invalid/s.json", "$ref": "elsewhere.json#/a"}),
    ("missing pointer", {"$id": "https://x.invalid/s.json", "$ref": "#/$defs/none"}),
    ("dynamic ref", {"$id": "https://x.invalid/s.json", "$dynamicRef": "#meta"}),
])
def test_schemas_the_rewriting_cannot_follow_exactly_are_left_as_written(why, root):
    assert inline_refs(root, lambda uri: None) is None, why


def test_a_recursive_game_rules_schema_still_checks_through_jsonschema(tmp_path):
    """A game's own rules schema may be recursive: it is used as written, errors and all."""
    own = tmp_path / "rules.schema.json"
    own.write_text(json.dumps({
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$defs": {"step": {"type": "object", "properties": {
            "then": {"$ref": "#/$defs/step"}, "gain": {"type": "integer"}}}},
        "type": "object", "properties": {"chain": {"$ref": "#/$defs/step"}}}), encoding="utf-8")
    validator = schema._rules_validator(own.resolve(), own.stat().st_mtime)
    assert "$ref" in json.dumps(validator.schema)
    (error,) = validator.iter_errors({"chain": {"then": {"then": {"gain": "two"}}}})
    assert list(error.absolute_path) == ["chain", "then", "then", "gain"]
