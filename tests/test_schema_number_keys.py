"""A map key YAML reads as a number (`2: 9`) where a schema matches keys by pattern is an
error at the key, not a crash: JSON keys are text, and a regular expression cannot read an
int. The rest of the map is still checked."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from pnp.data import schema
from pnp.data.loader import load_text
from pnp.paths import CARDS

RULES_SCHEMA = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "type": "object",
    "properties": {"by_count": {
        "type": "object", "additionalProperties": False,
        "patternProperties": {"^[2-6]$": {"type": "integer"}}}},
}


def check(tmp_path: Path, by_count: str) -> list:
    (tmp_path / "rules.schema.json").write_text(json.dumps(RULES_SCHEMA), encoding="utf-8")
    text = f"id: toy\nrules:\n  by_count: {by_count}\n"
    doc, diags = load_text(text, tmp_path / "game.yaml")
    assert doc is not None and not diags
    return schema.validate_rules(doc, tmp_path)


def test_a_number_key_is_an_error_at_the_key_with_a_quoting_hint(tmp_path):
    (d,) = check(tmp_path, '{2: 9, "3": 8}')
    assert (d.code, d.line, d.column) == ("PNP-S004", 3, 14)
    assert "the key 2 is a number" in d.message and d.hint == 'write the key in quotes: "2":'


def test_the_text_keys_beside_a_number_key_are_still_checked(tmp_path):
    found = {(d.code, d.message.split(": ", 1)[-1][:22]) for d in
             check(tmp_path, '{2: 9, "3": eight, "7": 1}')}
    assert ("PNP-S004", "the key 2 is a number;") in found  # the number key
    assert any(code == "PNP-S004" and "expected integer" in m for code, m in found)  # "3"
    assert any(code == "PNP-S002" for code, _ in found)  # "7" matches no pattern


def test_quoted_keys_pass(tmp_path):
    assert check(tmp_path, '{"2": 9, "3": 8}') == []


def test_pnp_validate_reports_an_unquoted_count_in_antike_and_exits_1(tmp_path):
    game = tmp_path / "antike"
    subprocess.run(["cp", "-r", str(CARDS / "antike"), str(game)], check=True)
    path = game / "game.yaml"
    text = path.read_text(encoding="utf-8")
    assert 'personages: {"2": 9,' in text
    path.write_text(text.replace('personages: {"2": 9,', "personages: {2: 9,"), encoding="utf-8")
    run = subprocess.run([sys.executable, "-m", "pnp", "validate", str(game)],
                         capture_output=True, text=True, cwd=tmp_path)
    assert run.returncode == 1, run.stderr
    assert "Traceback" not in run.stderr + run.stdout
    assert "PNP-S004: rules/end/personages/2: the key 2 is a number" in run.stdout + run.stderr


def test_a_key_no_pattern_matches_gets_the_pattern_as_its_hint(tmp_path):
    (d,) = check(tmp_path, '{"7": 1}')
    assert d.code == "PNP-S002" and d.hint == "a key here must match ^[2-6]$"
