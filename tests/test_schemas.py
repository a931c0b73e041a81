"""Each document kind's schema rejects a representative mistake, at the mistake's line."""

from __future__ import annotations

import json

import pytest

from pnp.data.loader import load_text
from pnp.data.schema import known_kinds, validate_document
from pnp.paths import SCHEMAS

CASES = {
    # kind: (document, expected code, expected line)
    "game": ("id: g\nname: G\nplayers: {min: 2, max: four}\ncomponents: []\nphases: [{id: a, name: A}]\n",
             "PNP-S004", 3),
    "stats": ("stats:\n  - id: food\n    name: Food\n    cap: twenty\n", "PNP-S004", 4),
    "tracks": ("tracks:\n  - id: t\n    name: T\n    spaces:\n      - {name: S, start: true}\n"
               "      - {name: X, efect: F+1}\n", "PNP-S002", 6),
    "charts": ("charts:\n  - id: c\n    name: C\n    die: six\n    rows: [{roll: 1, effect: F+1}]\n",
               "PNP-S006", 4),
    "tables": ("tables:\n  - id: t\n    name: T\n    rows:\n      - {cost: -2, buys: F+1}\n", "PNP-S001", 5),
    "board": ("boards:\n  - id: b\n    name: B\n    items:\n      - {track: a, chart: b}\n", "PNP-S001", 5),
    "record-sheet": ("record_sheets:\n  - id: r\n    name: R\n    fields:\n      - {id: x, kind: box}\n",
                     "PNP-S005", 5),
    "deck": ("decks:\n  - id: d\n    name: D\n    front: f\n    cards:\n      - {id: a, name: A, count: two}\n",
             "PNP-S004", 6),
    "layout": ("layouts:\n  - id: f\n    size: poker\n    elements:\n      - {type: txet, x: 1mm, y: 1mm}\n",
               None, 5),
    "scenario": ("name: S\ngame: g\nplayers: 2\nexpect: []\ndice: [0]\n", "PNP-S001", 5),
    "components": ("counters:\n  - {id: round, name: Round}\nzones:\n  - {id: z, name: Z, kind: heap}\n",
                   "PNP-S005", 4),
}


def check(kind: str, body: str):
    doc, diags = load_text(f"# yaml-language-server: $schema=../../schemas/{kind}.schema.json\n{body}",
                           f"cards/x/{kind}.yaml")
    assert doc is not None and not diags
    return validate_document(doc)


@pytest.mark.parametrize("kind", sorted(CASES))
def test_schema_rejects_a_bad_document_at_the_right_line(kind):
    body, code, line = CASES[kind]
    diags = check(kind, body)
    assert diags, f"{kind}: nothing reported"
    first = diags[0]
    assert first.line == line + 1, first.format_text()  # +1: the schema line
    assert code is None or first.code == code, first.format_text()
    assert first.hint


def test_unknown_property_points_at_the_key_and_suggests_the_right_one():
    diags = check("tracks", CASES["tracks"][0])
    assert diags[0].column == 19 and "did you mean effect" in diags[0].hint


def test_enum_mistake_suggests_the_nearest_value():
    diags = check("record-sheet", CASES["record-sheet"][0])
    assert "one of: text, number, lines" in diags[0].hint


def test_every_schema_is_draft_2020_12_and_every_property_has_a_description():
    from jsonschema import Draft202012Validator

    def walk(node, where):
        if isinstance(node, dict):
            for name, sub in (node.get("properties") or {}).items():
                assert "description" in sub, f"{where}/properties/{name} has no description"
            for key, sub in node.items():
                if key != "if":  # a condition's properties restate ones described elsewhere
                    walk(sub, f"{where}/{key}")
        elif isinstance(node, list):
            for i, sub in enumerate(node):
                walk(sub, f"{where}/{i}")

    for path in sorted(SCHEMAS.glob("*.schema.json")):
        schema = json.loads(path.read_text())
        Draft202012Validator.check_schema(schema)
        assert schema["$schema"].endswith("2020-12/schema")
        walk(schema, path.name)


def test_objects_reject_unknown_properties():
    """additionalProperties: false wherever a typo would otherwise pass (free-form maps excepted)."""
    free_form = {"fields", "defaults", "overrides", "track_groups", "icons", "set", "expect",
                 "stats", "positions", "vars"}

    def walk(node, key, where):
        if isinstance(node, dict):
            if node.get("type") == "object" and "properties" in node and key not in free_form:
                assert node.get("additionalProperties") is False or "patternProperties" in node, where
            for k, sub in node.items():
                walk(sub, k, f"{where}/{k}")
        elif isinstance(node, list):
            for sub in node:
                walk(sub, key, where)

    for path in sorted(SCHEMAS.glob("*.schema.json")):
        walk(json.loads(path.read_text()), "", path.name)


def test_every_bundled_file_names_its_schema_on_line_one():
    from pnp.data.game import bundled_games, game_files

    for folder in bundled_games():
        for path in game_files(folder):
            first = path.read_text(encoding="utf-8").splitlines()[0]
            assert first.startswith("# yaml-language-server: $schema="), path
            ref = first.split("=", 1)[1]
            assert (path.parent / ref).resolve().exists(), f"{path}: {ref} does not exist"
            assert ref.removesuffix(".schema.json").rsplit("/", 1)[-1] in known_kinds()
