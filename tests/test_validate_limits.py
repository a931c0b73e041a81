"""Data past sane limits gets a diagnostic with its file and line, in seconds: never a
traceback, a hang or gigabytes of memory (issue 8's reproductions, one test each)."""

from __future__ import annotations

import os
import time

import pytest

from pnp.data.build import chart_coverage
from tests.broken_games import edit, errors, run, starter, validate

CHART = """# yaml-language-server: $schema={schemas}/charts.schema.json
charts:
  - id: luck
    name: Luck
    die: {die}
    rows:
{rows}
"""


def with_chart(folder, die: str, rows: list[str]) -> None:
    schemas = os.path.relpath(os.path.join(os.path.dirname(__file__), "..", "schemas"), folder)
    body = "\n".join(f"      - {r}" for r in rows)
    (folder / "charts.yaml").write_text(CHART.format(schemas=schemas, die=die, rows=body))
    edit(folder / "tracks.yaml", '"VP+1"', '"VP+1 roll luck"')


def refused(folder, code: str, file: str, line: int, seconds: float = 10) -> dict:
    start = time.monotonic()
    status, diags = validate(folder)
    assert time.monotonic() - start < seconds
    found = errors(diags, code)
    assert status == 1 and found, diags
    assert found[0]["file"].endswith(file) and found[0]["line"] == line, found
    return found[0]


BIG = "9" * 5000


@pytest.mark.parametrize("file,old,new,code", [
    ("game.yaml", 'game_ends_when: "VP >= 10"', f'game_ends_when: "VP >= {BIG}"', "PNP-S006"),
    ("game.yaml", "{min: 2, max: 4}", "{min: 2, max: 400000000}", "PNP-S001"),
    ("game.yaml", "{id: pawns, name: Pawns, count: 1,", f"{{id: pawns, name: Pawns, count: {'1' + '0' * 23},",
     "PNP-S001"),
    ("game.yaml", "max_turns: 40", "max_turns: 4000000000000", "PNP-S001"),
    ("stats.yaml", "cap: 10}", f"cap: {BIG}}}", "PNP-S004"),
    ("record-sheet.yaml", "turns: 36", "turns: 2147483648", "PNP-S001"),
    ("deck.yaml", "count: 3,", "count: 1000000000,", "PNP-S001"),
    ("tracks.yaml", '"G-1D6"', '"G-1D999999"', "PNP-E008"),
    ("tracks.yaml", '"G-1D6"', '"G-99999D6"', "PNP-E008"),
])
def test_numbers_past_the_limits_are_diagnostics_at_their_line(tmp_path, file, old, new, code):
    folder = starter(tmp_path)
    line = edit(folder / file, old, new)
    found = refused(folder, code, file, line)
    assert len(found["message"]) < 300, "a 5,000-digit value is cut short in the message"


def test_a_die_of_a_billion_dice_is_refused_by_the_schema(tmp_path):
    folder = starter(tmp_path)
    with_chart(folder, "999999999D6", ["{roll: [1, 6], effect: G+1}"])
    found = refused(folder, "PNP-S006", "charts.yaml", 5)
    assert "at most 99 dice" in found["hint"]


def test_chart_roll_written_as_3_point_0_is_read_as_3(tmp_path):
    folder = starter(tmp_path)
    with_chart(folder, "1D2", ["{roll: 1, effect: G+1}", "{roll: 2.0, effect: G+2}"])
    status, diags = validate(folder)
    assert status == 0, diags


def test_chart_range_far_past_the_die_is_answered_quickly(tmp_path):
    folder = starter(tmp_path)
    with_chart(folder, "1D6", ["{roll: [1, 6], effect: G+1}", "{roll: [3, 99000], effect: G+2}"])
    found = refused(folder, "PNP-L014", "charts.yaml", 7, seconds=5)
    assert "twice [3-6]" in found["message"] and "impossible [7-99000]" in found["message"]


def test_chart_coverage_is_linear_in_rows_not_in_roll_values():
    start = time.monotonic()
    assert chart_coverage([(1, 6), (3, 10**12)], 1, 6) == "twice [3-6]; impossible [7-1000000000000]"
    assert time.monotonic() - start < 0.1
    assert chart_coverage([(2, 3), (5, 6)], 1, 6) == "missing [1, 4]"
    assert chart_coverage([(1, 6)], 1, 6) == ""


def test_game_yaml_that_is_a_symlink_loop_is_a_read_error(tmp_path):
    folder = starter(tmp_path)
    (folder / "game.yaml").unlink()
    (folder / "game.yaml").symlink_to("game.yaml")
    refused(folder, "PNP-Y009", "game.yaml", 1)


def test_data_file_that_is_a_folder_or_a_broken_link_is_an_error_not_a_skip(tmp_path):
    folder = starter(tmp_path)
    (folder / "more.yaml").mkdir()
    (folder / "gone.yaml").symlink_to("nowhere.yaml")
    status, diags = validate(folder)
    bad = {os.path.basename(d["file"]) for d in errors(diags, "PNP-Y009")}
    assert status == 1 and bad == {"more.yaml", "gone.yaml"}
    assert len(diags) == 2, "no follow-on errors"


def test_data_file_linking_outside_the_game_folder_is_refused(tmp_path):
    folder = starter(tmp_path)
    outside = tmp_path / "stats-elsewhere.yaml"
    (folder / "stats.yaml").rename(outside)
    (folder / "stats.yaml").symlink_to(outside)
    refused(folder, "PNP-L020", "stats.yaml", 1)


def test_file_naming_a_schema_that_is_no_game_kind_is_an_error(tmp_path):
    folder = starter(tmp_path)
    edit(folder / "stats.yaml", "stats.schema.json", "scenario.schema.json")
    status, diags = validate(folder)
    assert status == 1 and [d["code"] for d in diags] == ["PNP-L021"], diags


def test_simulate_refuses_zero_players_and_absurd_game_counts():
    res = run("simulate", "ancient-civilizations", "--players", "0", "--games", "2")
    assert res.exit_code == 2 and "takes 2 to 6 players" in res.output
    res = run("simulate", "ancient-civilizations", "--games", "1" + "0" * 23)
    assert res.exit_code == 2 and "--games" in res.output


def test_render_refuses_a_bad_paper_once_as_a_usage_error():
    res = run("render", "cards", "ancient-civilizations", "--paper", "a5x")
    assert res.exit_code == 2 and res.output.count("a5x") == 1


def test_scenario_with_a_number_as_owner_key_fails_with_a_message(tmp_path):
    from pnp.engine.scenario import run_scenario
    from pnp.paths import CARDS

    source = (CARDS / "ancient-civilizations" / "scenarios" / "war-tie.yaml").read_text()
    source = source.replace("../../../schemas", str(CARDS.parent / "schemas"))
    source = source.replace("    events: {war: 1,", "    owners: {1: 0}\n    events: {war: 1,")
    path = tmp_path / "owners.yaml"
    path.write_text(source)
    report = run_scenario(path)
    assert not report.ok
    assert any("no space '1'" in f.message for f in report.failures), report.failures


def test_renderers_enforce_the_limits_on_models_built_in_code(ac):
    """The schema bounds counts and turns; the renderers check again, for models built in code."""
    from dataclasses import replace

    from pnp.render.geometry import parse_paper
    from pnp.render.records import check_sheet
    from pnp.render.tokens import TokenGroup, check_groups

    start = time.monotonic()
    _, diags = check_groups([TokenGroup("pawns", "red", 10**23, "pawn", "13mm")], parse_paper("a4"))
    assert diags and "count must be a whole number from 0 to 10000" in diags[0].message
    sheet = next(iter(ac.record_sheets.values()))
    imp, diags = check_sheet(ac, replace(sheet, turn_grid_turns=2**31), parse_paper("a4"))
    assert imp is None and "at most 200" in diags[0].message
    assert time.monotonic() - start < 5


@pytest.mark.parametrize("dice, fits", [
    ("99D1000", True), ("D1000", True), ("1D1", True), ("99D1", True),
    ("100D6", False), ("1D1001", False), ("0D6", False), ("1D0", False),
    ("1D999999999", False), ("999999999D6", False), ("1D" + "9" * 5000, False),
])
def test_schema_effects_and_rules_dice_share_one_limit_of_99_dice_of_1000_sides(dice, fits):
    """The schema's dice pattern (an editor's view), the effect grammar and the rules' dice
    (build.dice, via limits.dice_in_limits) accept exactly the same dice."""
    import json
    import re
    from pathlib import Path

    from pnp.data.limits import dice_in_limits

    common = json.loads((Path(__file__).parent.parent / "schemas" / "common.schema.json")
                        .read_text(encoding="utf-8"))
    pattern = common["$defs"]["dice"]["pattern"]
    count, _, sides = dice.partition("D")
    assert bool(re.match(pattern, dice)) is fits
    assert dice_in_limits(count or "1", sides) is fits
    from tests.test_effects import errors, ok
    if fits:
        assert ok(f"F-{dice}")
    else:
        assert [d.code for d in errors(f"F-{dice}")] in (["PNP-E008"], ["PNP-E001"])


@pytest.mark.parametrize("die", ["{id: d, name: D, sides: 999999999}",
                                 "{id: d, name: D, faces: [" + ", ".join(["x"] * 1001) + "]}"])
def test_a_component_die_of_more_than_1000_sides_is_refused_in_seconds(tmp_path, die):
    """A numbered die was range(1, sides + 1) at build time: 999,999,999 sides took GBs."""
    folder = starter(tmp_path)
    schemas = os.path.relpath(os.path.join(os.path.dirname(__file__), "..", "schemas"), folder)
    (folder / "components.yaml").write_text(
        f"# yaml-language-server: $schema={schemas}/components.schema.json\ndice:\n  - {die}\n")
    found = refused(folder, "PNP-S001", "components.yaml", 3)
    assert "1000" in found["message"] + found["hint"]

