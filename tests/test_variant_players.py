"""A variant may be written for some player counts only (game.yaml `players:` under it, as
Antike's three-player `neutral-cities`): validate checks the counts, every command that plays
refuses another count with the reason, sweep and soak leave those cells out, and the
rulesheet can say it."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from click.testing import CliRunner

from pnp.cli import main
from pnp.data.game import load_game
from pnp.engine.scenario import run_scenario
from pnp.paths import SCHEMAS
from pnp.rulesheet.context import Helpers
from pnp.scaffold import scaffold
from tests.broken_games import line_of

SOAK = Path(__file__).resolve().parents[1] / "benchmarks" / "soak.py"


def caravan(folder: Path, players: str = "[3]") -> Path:
    """The starter game (2 to 4 players) with `trio`, a variant written for `players`."""
    game = folder / "caravan"
    scaffold(game)
    with (game / "game.yaml").open("a") as f:
        f.write(f"variants:\n  - id: trio\n    players: {players}\n"
                '    description: "A shorter road for three caravans."\n'
                "    overrides: {game/rules/end/max_turns: 30}\n")
    return game


def run(*args: str):
    return CliRunner().invoke(main, list(args), catch_exceptions=False)


def test_a_count_the_game_does_not_take_is_an_error_at_the_variant(tmp_path):
    game = caravan(tmp_path, "[3, 9]")
    result = load_game(game)
    (d,) = [d for d in result.diagnostics if d.code == "PNP-L044"]
    assert d.severity == "error" and d.line == line_of(game / "game.yaml", "  - id: trio\n")
    assert "variant 'trio' is for 9 players, but the game takes 2 to 4" in d.message
    assert "2 to 4" in d.hint
    validate = run("validate", str(game))
    assert validate.exit_code == 1 and "PNP-L044" in validate.output


def test_simulate_refuses_another_count_and_defaults_to_the_variants_own(tmp_path):
    game = caravan(tmp_path)
    assert load_game(game).ok
    two = run("simulate", str(game), "--variant", "trio", "--players", "2", "--games", "2")
    assert two.exit_code == 2
    assert "the variant trio is written for 3 players, not 2" in two.output
    default = run("simulate", str(game), "--variant", "trio", "--games", "2", "--skill", "none",
                  "--format", "json")
    assert default.exit_code == 0, default.output
    assert json.loads(default.output)["players"] == 3  # the game's own default would be 2
    base = run("simulate", str(game), "--players", "2", "--games", "2", "--skill", "none")
    assert base.exit_code == 0  # the base game still takes every count


def test_compare_and_tune_check_the_variants_counts(tmp_path):
    game = caravan(tmp_path)
    compare = run("compare", str(game), "--variant", "trio", "--games", "2", "--format", "json")
    assert compare.exit_code == 0, compare.output
    assert json.loads(compare.output)["players"] == 3
    refused = run("compare", str(game), "--variant", "trio", "--players", "4", "--games", "2")
    assert refused.exit_code == 2 and "written for 3 players, not 4" in refused.output
    tune = run("tune", str(game), "--variant", "trio", "--players", "2",
               "--param", "game/rules/upkeep/eat=1..2")
    assert tune.exit_code == 2 and "written for 3 players, not 2" in tune.output


def test_sweep_leaves_out_the_cells_a_variant_is_not_written_for(tmp_path):
    game = caravan(tmp_path)
    result = CliRunner().invoke(main, ["sweep", str(game), "--players", "2,3",
                                       "--variant", "base,trio", "--games", "2",
                                       "--format", "json"], catch_exceptions=False)
    assert result.exit_code == 0, result.output
    assert "sweep: trio at 2 players left out (written for 3 players)" in result.stderr
    doc = json.loads(result.stdout)
    cells = sorted((c["players"], c["variant"] or "base") for c in doc["cells"])
    assert cells == [(2, "base"), (3, "base"), (3, "trio")]
    none = run("sweep", str(game), "--players", "2,4", "--variant", "trio", "--games", "2")
    assert none.exit_code == 2 and "no cell left" in none.output


def test_the_soak_has_no_cell_a_variant_is_not_written_for(tmp_path):
    caravan(tmp_path)
    code = ("import sys; sys.path.insert(0, sys.argv[1]); import soak; "
            "print(sorted((p, v) for p, v, _ in soak.cells('caravan', None, None)[1]))")
    out = subprocess.run([sys.executable, "-c", code, str(SOAK.parent)], capture_output=True,
                         text=True, cwd=tmp_path, check=True).stdout
    assert out.strip() == str([(2, "base"), (3, "base"), (3, "trio"), (4, "base")])


def test_a_scenario_at_another_count_fails_at_its_players_line(tmp_path):
    game = caravan(tmp_path)
    scenario = tmp_path / "two.scenario.yaml"
    scenario.write_text(f"# yaml-language-server: $schema={SCHEMAS / 'scenario.schema.json'}\n"
                        f"name: Two caravans\ngame: {game}\nvariant: trio\nplayers: 2\n"
                        "expect:\n  - after: travel\n    turn: 1\n")
    report = run_scenario(scenario)
    assert not report.ok
    (f,) = report.failures
    assert f.line == 5 and "the variant trio is written for 3 players" in f.message


def test_the_rulesheet_can_say_which_counts_a_variant_is_for(tmp_path):
    game = load_game(caravan(tmp_path)).game
    (v,) = Helpers(game).variants()
    assert v["players"] == "3 players" and v["name"] == "Trio"


def test_validate_renders_the_rulesheet_under_every_variant(tmp_path):
    """A template that branches on the variant breaks only when one is on (Antike's did:
    `variant.id` on the variant's name); validate says so before `build --variant` fails."""
    game = caravan(tmp_path, "[2, 3, 4]")
    sheet = game / "rulesheet"
    sheet.mkdir()
    (sheet / "01-rules.md").write_text("# Rules\n\nRoll and move.\n\n"
                                       "{% if variant %}Variant: {{ variant.id }}.{% endif %}\n")
    result = run("validate", str(game))
    assert result.exit_code == 1
    assert "01-rules.md:5:1: error PNP-R081: variant trio:" in result.output
    (sheet / "01-rules.md").write_text("# Rules\n\nRoll and move.\n\n"
                                       "{% if variant %}Variant: {{ variant }}.{% endif %}\n")
    assert run("validate", str(game)).exit_code == 0


def test_variants_with_no_count_in_common_are_refused_together(tmp_path):
    game = caravan(tmp_path)
    with (game / "game.yaml").open("a") as f:
        f.write("  - id: quartet\n    players: [4]\n    overrides: {game/rules/upkeep/eat: 2}\n")
    result = run("simulate", str(game), "--variant", "trio+quartet", "--games", "2")
    assert result.exit_code == 2
    assert "the variants trio+quartet are written for no player count in common" in result.output


def test_a_variant_kit_prints_the_counts_it_is_for(tmp_path):
    """The rulesheet's title line and the print guide of `build --variant trio` say 3
    players; the base kit keeps the game's range."""
    from pypdf import PdfReader

    game = caravan(tmp_path)
    assert load_game(game).game.players_text() == "2 to 4 players"
    assert load_game(game, "trio").game.players_text() == "3 players"
    out = tmp_path / "out"
    result = run("build", str(game), "--variant", "trio", "--out", str(out))
    assert result.exit_code == 0, result.output
    (guide,) = out.rglob("print-guide.pdf")
    text = " ".join(page.extract_text() for page in PdfReader(guide).pages)
    assert "3 players" in text and "2 to 4 players" not in text


def test_a_source_that_breaks_on_a_variants_data_stops_that_variants_build(tmp_path):
    """validate renders under each variant only the sources that read `variant` (all of them
    cost almost half its time); one that breaks on data a variant changes is caught
    by `build --variant`, which writes nothing, while the base kit builds."""
    game = caravan(tmp_path, "[2, 3, 4]")
    sheet = game / "rulesheet"
    sheet.mkdir()
    (sheet / "01-rules.md").write_text("# Rules\n\nRoll and move.\n\n"
                                       "{% if rule('end', 'max_turns') == 30 %}"
                                       "{{ rule('end', 'short') }}{% endif %}\n")
    assert run("validate", str(game)).exit_code == 0
    assert run("build", str(game), "--out", str(tmp_path / "base")).exit_code == 0
    out = tmp_path / "trio"
    result = run("build", str(game), "--variant", "trio", "--out", str(out))
    assert result.exit_code == 1 and "01-rules.md:5:1: error PNP-R08" in result.output
    assert not list(out.rglob("*.pdf"))
