"""PNP-L041: a rules key no engine code names is a warning at its line (issue 22: Age of
Civilization printed five keys its engine never read)."""

from __future__ import annotations

import re
from pathlib import Path

from pnp.data import rules_reads
from pnp.data.game import load_game
from pnp.paths import CARDS, SCHEMAS
from tests.broken_games import edit, line_of, starter, validate


def _warnings(diags: list[dict]) -> list[dict]:
    return [d for d in diags if d["code"] == rules_reads.RULES_KEY_UNREAD]


def test_a_rules_key_the_rules_module_never_names_is_a_warning_at_its_line(tmp_path: Path) -> None:
    folder = starter(tmp_path)
    game_yaml = folder / "game.yaml"
    edit(game_yaml, "    die: 1D6\n", "    die: 1D6\n    speed: 3\n")
    status, diags = validate(folder)
    (found,) = _warnings(diags)
    assert status == 1  # --strict: a warning fails
    assert "rules key 'movement.speed' is read by no engine code" in found["message"]
    assert found["file"].endswith("game.yaml") and found["line"] == line_of(game_yaml, "speed: 3")


def test_keys_the_rules_module_names_and_the_shared_end_keys_pass(tmp_path: Path) -> None:
    folder = starter(tmp_path)
    assert _warnings(validate(folder)[1]) == []  # movement.die is read; end.* is shared


def test_an_f_string_names_every_key_it_can_build(tmp_path: Path) -> None:
    folder = starter(tmp_path)
    edit(folder / "game.yaml", "    die: 1D6\n", "    die: 1D6\n    grow_rounds: [1]\n")
    assert len(_warnings(validate(folder)[1])) == 1
    rules = folder / "rules.py"
    rules.write_text(rules.read_text(encoding="utf-8")
                     + "\n\ndef _unused(s):\n    return f\"{s}_rounds\"\n", encoding="utf-8")
    assert _warnings(validate(folder)[1]) == []


def test_a_bundled_engine_that_stops_reading_a_key_is_caught(monkeypatch) -> None:
    """Age of Civilization as main had it: nothing in its engine named events_from_round."""
    loaded = load_game(CARDS / "age-of-civilization")
    assert not [d for d in loaded.diagnostics if d.code == rules_reads.RULES_KEY_UNREAD]
    real = rules_reads._literals

    def without(files):
        names, patterns = real(files)
        return names - {"events_from_round"}, patterns

    monkeypatch.setattr(rules_reads, "_literals", without)
    found = [d for d in load_game(CARDS / "age-of-civilization").diagnostics
             if d.code == rules_reads.RULES_KEY_UNREAD]
    assert [d.message.split("'")[1] for d in found] == ["time_track.events_from_round"]
    assert found[0].line == line_of(CARDS / "age-of-civilization" / "game.yaml",
                                    "events_from_round:")


def test_data_keys_and_one_value_keys_are_not_checked() -> None:
    """Ability maps are keyed by card ids (data), and a one-value enum states a rule."""
    aoc = SCHEMAS / "rules" / "age-of-civilization.schema.json"
    keys = list(rules_reads._named_keys({"abilities": {"no-such-card": {"main": []}}},
                                        rules_reads._load(aoc), aoc, ()))
    assert keys == [("abilities",), ("abilities", "no-such-card", "main")]  # not the card id
    ac = SCHEMAS / "rules" / "ancient-civilizations.schema.json"
    keys = list(rules_reads._named_keys({"pregame": {"ends_when": "all-spaces-marked"}},
                                        rules_reads._load(ac), ac, ()))
    assert keys == [("pregame",)]


def test_the_engine_is_read_as_python_text_not_as_words() -> None:
    """Literals are found as Python reads them: a key named only in a comment or as a variable
    is not read; quotes in comments and hashes in strings do not confuse the scan; a string in
    an f-string's field counts, and the f-string itself is a pattern."""
    names: set[str] = set()
    patterns: list[str] = []
    rules_reads._scan(
        "# the engine doesn't read 'comment_key'\n"
        "speed_key = 1\n"
        "x = rules['has # hash']\n"
        "y = r'raw_key' + \"\"\"triple_key\"\"\"\n"
        "z = f\"{'field_key' if a else b}_rounds and {{braces}}\"\n", names, patterns)
    assert {"has # hash", "raw_key", "triple_key", "field_key"} <= names
    assert "comment_key" not in names and "speed_key" not in names
    assert any(re.fullmatch(p, "grow_rounds and {braces}") for p in patterns)
