"""Diagnostics a designer can act on: one message per root cause, at the line that caused it,
with a hint that names the fix."""

from __future__ import annotations

from pnp.data.loader import load_text
from tests.broken_games import edit, errors, starter, validate


def test_unknown_stat_in_a_conversion_brings_no_unknown_conversion_error(tmp_path):
    folder = starter(tmp_path)
    line = edit(folder / "game.yaml", "phases:\n",
                'conversions:\n  - {id: buy, pay: "Glod-2", gain: "VP+1"}\nphases:\n')
    edit(folder / "game.yaml", "{id: market, name: Market Phase,",
         "{id: market, name: Market Phase, conversions: [buy],")
    status, diags = validate(folder)
    assert status == 1
    assert [(d["code"], d["line"]) for d in diags] == [("PNP-E002", line + 1)], diags
    assert "did you mean Gold" in diags[0]["message"]


def test_over_indented_key_is_told_to_line_up_not_to_quote():
    _, diags = load_text("id: x\nplayers:\n  min: 2\n    max: 4\n", "game.yaml")
    assert diags[0].code == "PNP-Y001" and diags[0].line == 4
    assert "indented further than the key above" in diags[0].hint


def test_colon_inside_a_value_still_gets_the_quotes_hint():
    _, diags = load_text("text: Pay 2: draw a card\n", "deck.yaml")
    assert "put the whole value in quotes" in diags[0].hint


def test_length_without_a_unit_is_told_to_add_one(tmp_path):
    folder = starter(tmp_path)
    line = edit(folder / "deck.yaml", "size: poker", "size: {width: 63, height: 88mm}")
    status, diags = validate(folder)
    found = errors(diags, "PNP-S004")
    assert status == 1 and found[0]["line"] == line
    assert found[0]["hint"].startswith("add a unit: 63mm")


def test_bad_variant_override_is_reported_at_the_variant_not_the_data(tmp_path):
    folder = starter(tmp_path)
    line = edit(folder / "game.yaml", "rules:",
                "variants:\n  - id: rich\n    overrides:\n      stats/gold/start: lots\nrules:")
    status, diags = validate(folder)
    assert status == 1
    assert [(d["file"].endswith("game.yaml"), d["line"]) for d in diags] == [(True, line + 3)]
    assert "variant 'rich'" in diags[0]["message"] and "expected integer" in diags[0]["message"]


def test_chart_roll_past_the_maximum_names_the_maximum_not_the_type(tmp_path):
    from tests.test_validate_limits import with_chart

    folder = starter(tmp_path)
    with_chart(folder, "1D6", ["{roll: [1, 6], effect: G+1}", "{roll: [3, 300000], effect: G+2}"])
    status, diags = validate(folder)
    assert status == 1 and "greater than the maximum of 99000" in diags[0]["message"]
