"""Old game folders keep working: validate says where each moved key went, `pnp upgrade` moves it.

A schema-version-1 game.yaml has its rule parameters at the top level; version 2 has them under
`rules:`. The tests make version-1 games the way designers wrote them (the bundled Ancient
Civilizations moved back, and a small game with comments in and around the moved blocks) and
check the diagnostics, the rewritten bytes and every refusal.
"""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

from click.testing import CliRunner

from pnp.cli import main
from pnp.data.game import load_game
from pnp.data.upgrades import CURRENT_VERSION, MOVES, plan_upgrade, write_upgrade
from pnp.paths import CARDS, SCHEMAS
from pnp.scaffold import scaffold

AC_RULES_HEAD = ("# Rule parameters, read by the engine with game.rule(...); their schema is\n"
                 "# schemas/rules/ancient-civilizations.schema.json (named by engine: above).\n"
                 "rules:\n")


def downgraded_ac(tmp_path: Path) -> tuple[Path, str]:
    """A copy of Ancient Civilizations written for schema version 1 (its `rules:` entries at
    the top level, override paths without `rules/`, no schema_version), and the text
    `pnp upgrade` should turn it into."""
    folder = tmp_path / "ancient-civilizations"
    shutil.copytree(CARDS / "ancient-civilizations", folder)
    for path in folder.rglob("*.yaml"):  # schema lines that still find the schemas
        text = path.read_text(encoding="utf-8")
        rel = os.path.relpath(SCHEMAS, path.parent)
        path.write_text(text.replace("../../../schemas/", f"{rel}/").replace("../../schemas/", f"{rel}/"),
                        encoding="utf-8")
    current = (folder / "game.yaml").read_text(encoding="utf-8")
    assert AC_RULES_HEAD in current and "schema_version: 2\n" in current
    lines = current.splitlines(keepends=True)
    start = lines.index("rules:\n")
    end = next(i for i in range(start + 1, len(lines)) if lines[i][:1] not in (" ", "\n"))
    lines[start:end] = [line[2:] if line.startswith("  ") else line for line in lines[start + 1:end]]
    old = "".join(lines).replace("schema_version: 2\n", "").replace("game/rules/", "game/")
    (folder / "game.yaml").write_text(old, encoding="utf-8")
    # upgrade puts `rules:` where the first moved key's comments start
    expected = current.replace(AC_RULES_HEAD, "rules:\n" + "".join(
        "  " + line for line in AC_RULES_HEAD.splitlines(keepends=True)[:2]))
    return folder, expected


def line_of(path: Path, text: str) -> int:
    return next(i for i, line in enumerate(path.read_text().splitlines(), 1) if line.startswith(text))


def snapshot(folder: Path) -> dict[str, bytes | str]:
    """Every entry under the folder: file bytes, link targets."""
    out: dict[str, bytes | str] = {}
    for path in sorted(folder.rglob("*")):
        key = str(path.relative_to(folder))
        out[key] = os.readlink(path) if path.is_symlink() else (
            path.read_bytes() if path.is_file() else "dir")
    return out


def upgrade(*args: str):
    return CliRunner().invoke(main, ["upgrade", *args])


# ------------------------------------------------------------------- the moves and versions


def test_every_move_is_from_the_top_level_of_game_yaml_to_rules_in_version_2():
    assert {(m.kind, m.under, m.version) for m in MOVES} == {("game", "rules", 2)}
    assert [m.key for m in MOVES] == ["setup", "movement", "pregame", "check_timing",
                                      "turn_order_timing", "options", "end"]


def test_the_schema_accepts_exactly_the_versions_pnp_knows():
    schema = json.loads((SCHEMAS / "game.schema.json").read_text())
    version = schema["properties"]["schema_version"]
    assert (version["minimum"], version["maximum"]) == (1, CURRENT_VERSION) == (1, 2)
    for move in MOVES:
        assert move.key not in schema["properties"], f"{move.key} is still a top-level key"


def test_bundled_games_are_current():
    for game in sorted(CARDS.glob("*/game.yaml")):
        assert "\nschema_version: 2\n" in game.read_text(), game
        assert plan_upgrade(game.parent).changes == []


# ------------------------------------------------------------------- validate


def test_each_moved_key_is_one_diagnostic_where_it_is_written(tmp_path):
    folder, _ = downgraded_ac(tmp_path)
    game = folder / "game.yaml"
    diags = [d for d in load_game(folder).diagnostics if d.severity == "error"]
    assert not [d for d in diags if d.code != "PNP-L022"], [d.format_text() for d in diags]
    top = [(d.line, d.column, d.message) for d in diags if "override" not in d.message]
    assert top == [(line_of(game, f"{key}:"), 1, f"`{key}` moved under `rules:` in schema version 2")
                   for key in ("setup", "movement", "pregame", "check_timing", "turn_order_timing",
                               "options", "end")]
    assert {d.hint for d in diags} == {f"run `pnp upgrade {folder}`"}
    override = next(d for d in diags if "'game/check_timing'" in d.message)
    assert (override.line, override.column) == (line_of(game, "      game/check_timing:"), 7)
    assert override.message == ("override path 'game/check_timing': `check_timing` moved under "
                                "`rules:` in schema version 2; the path is now "
                                "'game/rules/check_timing'")
    assert len(diags) == 7 + 6  # the seven keys and the six override paths that name them


def test_validate_prints_the_moved_key_and_the_command_that_moves_it(tmp_path):
    folder, _ = downgraded_ac(tmp_path)
    result = CliRunner().invoke(main, ["validate", str(folder)])
    assert result.exit_code == 1
    line = line_of(folder / "game.yaml", "check_timing:")
    assert (f"game.yaml:{line}:1: error PNP-L022: `check_timing` moved under `rules:` in schema "
            f"version 2\n    hint: run `pnp upgrade {folder}`") in result.output
    assert "PNP-S002" not in result.output


def test_the_hint_names_a_bundled_game_by_name_and_quotes_a_path():
    from pnp.data.upgrades import game_argument

    assert game_argument(CARDS / "ancient-civilizations") == "ancient-civilizations"
    assert game_argument(Path("/tmp/My Game!")) == "'/tmp/My Game!'"


def test_an_override_path_naming_the_old_place_is_reported_once_with_its_variant(tmp_path):
    folder, expected = downgraded_ac(tmp_path)
    (folder / "game.yaml").write_text(expected.replace("game/rules/check_timing", "game/check_timing"))
    diags = [d for d in load_game(folder, "checks-every-phase").diagnostics if d.severity == "error"]
    assert [(d.code, d.line) for d in diags] == [
        ("PNP-L022", line_of(folder / "game.yaml", "      game/check_timing:"))]


# ------------------------------------------------------------------- pnp upgrade


def test_upgrade_rewrites_ancient_civilizations_to_the_bytes_it_was_written_in(tmp_path):
    folder, expected = downgraded_ac(tmp_path)
    before = snapshot(folder)
    result = upgrade(str(folder))
    assert result.exit_code == 0, result.output
    assert (folder / "game.yaml").read_text() == expected
    assert (folder / "game.yaml.bak").read_bytes() == before["game.yaml"]
    after = snapshot(folder)
    assert sorted(after) == sorted([*before, "game.yaml.bak"])  # no temporary file left
    assert all(after[k] == v for k, v in before.items() if k != "game.yaml")
    assert load_game(folder).ok
    assert "moved `check_timing` under `rules:` (schema version 2)" in result.output


def test_a_second_upgrade_has_nothing_to_do(tmp_path):
    folder, _ = downgraded_ac(tmp_path)
    assert upgrade(str(folder)).exit_code == 0
    before = snapshot(folder)
    result = upgrade(str(folder))
    assert result.exit_code == 0
    assert result.output == f"{folder}: nothing to upgrade (schema version 2)\n"
    assert snapshot(folder) == before


def test_dry_run_prints_a_diff_and_writes_nothing(tmp_path):
    folder, _ = downgraded_ac(tmp_path)
    before = snapshot(folder)
    result = CliRunner().invoke(main, ["upgrade", str(folder), "--dry-run"])
    assert result.exit_code == 0
    assert snapshot(folder) == before
    assert result.stdout.startswith("--- a/game.yaml\n+++ b/game.yaml\n@@ ")
    assert "\n+schema_version: 2\n" in result.stdout and "\n+rules:\n" in result.stdout
    assert "\n-check_timing: phase-end\n" in result.stdout
    assert "\n+  check_timing: phase-end\n" in result.stdout
    assert "nothing written" in result.stderr


# A small version-1 game: comments above, inside and after the moved blocks, the moved blocks
# between keys that stay, quoted override paths, no line break after the last line.
SMALL_V1 = """{schema}
# A caravan game, written for pnp's first layout.
id: caravan
name: Caravan
engine: rules.py
players: {{min: 2, max: 4}}
# How pawns move.
movement:
  # one die a turn
  die: 1D6   # six sides
components:
  - {{id: market, name: Market deck, count: 54, counts: "deck:market"}}
  - {{id: pawns, name: Pawns, count: 1, per_player: true}}
phases:
  - {{id: travel, name: Travel Phase, track: road}}
  - {{id: end, name: End Phase, end_checks: true}}

# When the game ends.
end:
  game_ends_when: "VP >= 10"
  # most VP wins
  winner: most VP

  max_turns: 40   # a cap for self-play
# end of the end block

variants:
  - id: short
    overrides:
      "game/end/max_turns": 20   # a shorter game
      'game/movement/die': 1D4"""

SMALL_V2 = """{schema}
# A caravan game, written for pnp's first layout.
schema_version: 2
id: caravan
name: Caravan
engine: rules.py
players: {{min: 2, max: 4}}
rules:
  # How pawns move.
  movement:
    # one die a turn
    die: 1D6   # six sides

  # When the game ends.
  end:
    game_ends_when: "VP >= 10"
    # most VP wins
    winner: most VP

    max_turns: 40   # a cap for self-play
  # end of the end block
components:
  - {{id: market, name: Market deck, count: 54, counts: "deck:market"}}
  - {{id: pawns, name: Pawns, count: 1, per_player: true}}
phases:
  - {{id: travel, name: Travel Phase, track: road}}
  - {{id: end, name: End Phase, end_checks: true}}

variants:
  - id: short
    overrides:
      "game/rules/end/max_turns": 20   # a shorter game
      'game/rules/movement/die': 1D4"""


def small_game(tmp_path: Path, text: str = SMALL_V1) -> tuple[Path, str]:
    """A `pnp new` game whose game.yaml is `text`, and its schema line."""
    folder = tmp_path / "caravan"
    scaffold(folder)
    game = folder / "game.yaml"
    schema = game.read_text().splitlines()[0]
    game.write_text(text.format(schema=schema))
    return folder, schema


def test_upgrade_keeps_comments_blank_lines_and_order_in_and_around_moved_blocks(tmp_path):
    folder, schema = small_game(tmp_path)
    assert upgrade(str(folder)).exit_code == 0
    assert (folder / "game.yaml").read_text() == SMALL_V2.format(schema=schema)
    result = load_game(folder)
    assert result.ok and not result.diagnostics, [d.format_text() for d in result.diagnostics]
    assert load_game(folder, "short").game.rule("end", "max_turns") == 20



def test_upgrade_writes_new_lines_with_the_files_own_line_breaks(tmp_path):
    folder, schema = small_game(tmp_path)
    game = folder / "game.yaml"
    game.write_bytes(game.read_bytes().replace(b"\n", b"\r\n"))
    assert upgrade(str(folder)).exit_code == 0
    assert game.read_bytes() == SMALL_V2.format(schema=schema).replace("\n", "\r\n").encode()

def test_upgrade_adds_to_an_existing_rules_block_at_its_indentation(tmp_path):
    text = SMALL_V1.replace("players: {{min: 2, max: 4}}\n",
                            "players: {{min: 2, max: 4}}\nrules:\n    pace: slow\n")
    folder, _ = small_game(tmp_path, text)
    new = plan_upgrade(folder).changes[0].new.decode()
    assert "rules:\n    pace: slow\n    # How pawns move.\n    movement:\n      # one die a turn\n" in new
    assert "\n\n    # When the game ends.\n    end:\n      game_ends_when:" in new


def test_a_game_without_schema_version_is_version_1_and_gets_the_current_one(tmp_path):
    folder, schema = small_game(tmp_path, SMALL_V2.replace("schema_version: 2\n", ""))
    result = upgrade(str(folder))
    assert result.exit_code == 0 and "schema_version: 2" in result.output
    assert (folder / "game.yaml").read_text() == SMALL_V2.format(schema=schema)



def test_a_declared_version_1_is_set_to_the_current_one_where_it_stands(tmp_path):
    folder, schema = small_game(tmp_path, SMALL_V1.replace("id: caravan", "schema_version: 1\nid: caravan"))
    assert upgrade(str(folder)).exit_code == 0
    assert (folder / "game.yaml").read_text() == SMALL_V2.format(schema=schema)

# ------------------------------------------------------------------- refusals


def test_yaml_errors_stop_the_upgrade_and_nothing_is_written(tmp_path):
    folder, _ = downgraded_ac(tmp_path)
    with (folder / "stats.yaml").open("a") as out:
        out.write("  - {id: broken, name: [unclosed\n")
    before = snapshot(folder)
    result = upgrade(str(folder))
    assert result.exit_code == 1
    assert "stats.yaml:" in result.output and "error PNP-Y" in result.output
    assert snapshot(folder) == before


def test_a_game_yaml_linked_from_outside_the_folder_is_refused(tmp_path):
    folder, _ = small_game(tmp_path)
    outside = tmp_path / "elsewhere.yaml"
    (folder / "game.yaml").rename(outside)
    (folder / "game.yaml").symlink_to(outside)
    before, outside_bytes = snapshot(folder), outside.read_bytes()
    result = upgrade(str(folder))
    assert result.exit_code == 1 and "PNP-L020" in result.output
    assert snapshot(folder) == before and outside.read_bytes() == outside_bytes
    assert not (tmp_path / "elsewhere.yaml.bak").exists()


def test_the_writer_refuses_a_file_swapped_for_an_outside_link_after_planning(tmp_path):
    folder, _ = small_game(tmp_path)
    plan = plan_upgrade(folder)
    outside = tmp_path / "elsewhere.yaml"
    (folder / "game.yaml").rename(outside)
    (folder / "game.yaml").symlink_to(outside)
    outside_bytes = outside.read_bytes()
    assert [d.code for d in write_upgrade(plan)] == ["PNP-U004"]
    assert outside.read_bytes() == outside_bytes and (folder / "game.yaml").is_symlink()
    assert not (tmp_path / "elsewhere.yaml.bak").exists()


def test_a_game_yaml_linked_inside_the_folder_is_upgraded_where_it_lives(tmp_path):
    folder, _ = small_game(tmp_path)
    (folder / ".shared").mkdir()  # hidden: only the link is read as the manifest
    (folder / "game.yaml").rename(folder / ".shared" / "game.yaml")
    (folder / "game.yaml").symlink_to(Path(".shared") / "game.yaml")
    assert upgrade(str(folder)).exit_code == 0
    assert (folder / "game.yaml").is_symlink()
    assert "\nrules:\n" in (folder / ".shared" / "game.yaml").read_text()
    assert (folder / ".shared" / "game.yaml.bak").exists()


def test_an_existing_backup_is_never_overwritten(tmp_path):
    folder, _ = small_game(tmp_path)
    (folder / "game.yaml.bak").write_text("my own backup")
    before = snapshot(folder)
    result = upgrade(str(folder))
    assert result.exit_code == 1 and "PNP-U003" in result.output
    assert snapshot(folder) == before


def test_a_key_in_both_places_is_not_moved(tmp_path):
    text = SMALL_V1.replace("players: {{min: 2, max: 4}}\n",
                            "players: {{min: 2, max: 4}}\nrules:\n  end: {{max_turns: 9}}\n")
    folder, _ = small_game(tmp_path, text)
    before = snapshot(folder)
    result = upgrade(str(folder))
    assert result.exit_code == 1
    assert "`end` moved under `rules:` in schema version 2, and `rules:` already has a `end`" \
        in result.output
    assert snapshot(folder) == before


def test_a_newer_schema_version_is_refused(tmp_path):
    folder, _ = small_game(tmp_path, SMALL_V2.replace("schema_version: 2", "schema_version: 3"))
    before = snapshot(folder)
    result = upgrade(str(folder))
    assert result.exit_code == 1 and "PNP-U001" in result.output and "up to 2" in result.output
    assert snapshot(folder) == before


def test_a_move_that_would_change_a_value_is_refused(tmp_path):
    # a keep-chomped block scalar owns the blank line after it; moved next to another block,
    # it would end with that place's blank lines instead
    text = SMALL_V1.replace("  winner: most VP\n\n  max_turns: 40   # a cap for self-play\n"
                            "# end of the end block\n", "  max_turns: 40\n  winner: |+\n    most VP\n\n\n")
    folder, _ = small_game(tmp_path, text)
    before = snapshot(folder)
    result = upgrade(str(folder))
    assert result.exit_code == 1 and "PNP-U002" in result.output
    assert "would not hold the same data" in result.output
    assert snapshot(folder) == before


def test_upgrade_keeps_the_files_permissions(tmp_path):
    folder, _ = small_game(tmp_path)
    (folder / "game.yaml").chmod(0o640)
    assert upgrade(str(folder)).exit_code == 0
    assert (folder / "game.yaml").stat().st_mode & 0o777 == 0o640


def test_upgrade_is_a_listed_command():
    assert "upgrade" in CliRunner().invoke(main, ["--help"]).output


def test_a_moved_key_merged_in_from_an_anchor_is_left_to_the_designer(tmp_path):
    text = SMALL_V1.replace("# When the game ends.\nend:\n", "base: &base\n  end:\n    max_turns: 40\n"
                            "<<: *base\nnotes:\n")
    folder, _ = small_game(tmp_path, text)
    before = snapshot(folder)
    result = upgrade(str(folder))
    assert result.exit_code == 1 and "`end` is merged in with `<<:`" in result.output
    assert snapshot(folder) == before
