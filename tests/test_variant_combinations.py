"""Variants combine (`--variant a --variant b`, `a+b`, a scenario's list), and a combination
whose rules contradict each other is PNP-L042 at the variant's line (issue 22)."""

from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner

from pnp.cli import main
from pnp.data.game import load_game, variant_ids, variant_name
from pnp.engine.scenario import run_scenario
from pnp.paths import CARDS, SCHEMAS
from tests.broken_games import line_of

AOC = CARDS / "age-of-civilization"
TAW = CARDS / "the-ancient-world"


def _codes(result) -> list[str]:
    return [d.code for d in result.diagnostics if d.severity == "error"]


def test_names_of_a_combination() -> None:
    assert variant_ids("innovation+drafting") == ["innovation", "drafting"]
    assert variant_ids(("innovation", "base", "drafting")) == ["innovation", "drafting"]
    assert variant_name(["base"]) is None and variant_name(None) is None
    assert variant_name(("a+b", "c")) == "a+b+c"


def test_two_variants_apply_both_overrides() -> None:
    result = load_game(AOC, ["innovation", "drafting"])
    assert result.ok, [d.message for d in result.diagnostics]
    game = result.game
    assert game.variant == "innovation+drafting"
    assert game.rule("innovation", "enabled") is True and game.rule("drafting", "enabled") is True


def test_a_declared_conflict_is_refused_at_the_variant_line() -> None:
    result = load_game(TAW, "city-states+first-edition")
    (d,) = [d for d in result.diagnostics if d.code == "PNP-L042"]
    assert "first-edition lists city-states under its conflicts:" in d.message
    assert d.line == line_of(TAW / "game.yaml", "  - id: first-edition\n")
    assert result.game is None


def test_two_alternatives_of_one_interpretation_conflict() -> None:
    result = load_game(AOC, "hunt-twice+hunt-two-free")
    assert _codes(result) == ["PNP-L042"]
    assert "same interpretation 'hunt-slots'" in result.diagnostics[0].message


def test_one_path_set_to_two_values_conflicts() -> None:
    result = load_game(TAW, "first-edition+first-edition-expand-plus")
    assert _codes(result) == ["PNP-L042"]
    assert "game/rules/actions/expand/draw to 3, where it sets 1" in result.diagnostics[0].message


def test_a_variant_named_twice_and_an_unknown_one_are_refused() -> None:
    assert _codes(load_game(AOC, "innovation+innovation")) == ["PNP-L042"]
    assert _codes(load_game(AOC, "innovation+nope")) == ["PNP-L009"]


def test_combinable_variants_of_the_bundled_games_load() -> None:
    assert load_game(TAW, "first-edition+damage-harsh+starting-cards-free").ok
    assert load_game(AOC, "innovation+changing-world+drafting+first-game").ok


def test_simulate_takes_variant_repeated(tmp_path: Path) -> None:
    run = CliRunner().invoke(main, ["simulate", "age-of-civilization", "--games", "4",
                                    "--players", "3", "--variant", "innovation",
                                    "--variant", "drafting", "--format", "json"])
    assert run.exit_code == 0, run.output
    assert '"variant": "innovation+drafting"' in run.stdout
    bad = CliRunner().invoke(main, ["simulate", "age-of-civilization", "--games", "2",
                                    "--variant", "hunt-twice", "--variant", "hunt-two-free"])
    assert bad.exit_code == 1 and "PNP-L042" in bad.output


def test_a_scenario_may_list_its_variants(tmp_path: Path) -> None:
    path = tmp_path / "combo.yaml"
    path.write_text(f"# yaml-language-server: $schema={SCHEMAS / 'scenario.schema.json'}\n"
                    "name: Innovation and Changing World together\n"
                    "game: age-of-civilization\n"
                    "variant: [innovation, changing-world]\n"
                    "players: 2\n"
                    "start: {turn: 6, phase: round-end}\n"
                    "expect:\n"
                    "  - after: round-end\n"
                    "    zones: {technology-market: [philosophy-card, printing-card, law-card],\n"
                    "            event-track: [birth-boom, great-harvest, celebration]}\n",
                    encoding="utf-8")
    report = run_scenario(path)
    assert report.ok, [f.format() for f in report.failures]
