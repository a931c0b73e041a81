"""What the scenario format can state beyond values: options that must or must not be offered
at a decision, a zone's whole contents, and scenarios that live in the game's own folder."""

from __future__ import annotations

import shutil
from pathlib import Path

from click.testing import CliRunner
from scenario_text import HEAD, TIED_WAR, write_case

from pnp.commands.scenario import command as scenario_command
from pnp.data.game import load_game
from pnp.engine.scenario import run_scenario, scenario_files
from pnp.paths import CARDS, SCHEMAS


def _war(tmp_path: Path, choice: str) -> Path:
    return write_case(tmp_path, TIED_WAR.replace("choices: [war]", f"choices: [{choice}]"))


def test_options_offered_and_not_offered_pass_when_they_hold(tmp_path: Path) -> None:
    report = run_scenario(_war(tmp_path, "{pick: war, offered: [war, before], "
                                         "not_offered: [peace]}"))
    assert report.ok, [f.format() for f in report.failures]


def test_an_option_said_to_be_offered_that_is_not_fails_at_its_line(tmp_path: Path) -> None:
    report = run_scenario(_war(tmp_path, "{pick: war, offered: [peace]}"))
    (failure,) = report.failures
    assert "'peace' is not offered to seat 0" in failure.message and "'war'" in failure.message
    assert failure.line == 12


def test_an_illegal_choice_said_to_be_illegal_that_is_offered_fails(tmp_path: Path) -> None:
    report = run_scenario(_war(tmp_path, "{pick: war, not_offered: [before]}"))
    (failure,) = report.failures
    assert "'before' is offered to seat 0" in failure.message


TAW_ROW = """name: The empire deck replaced
game: the-ancient-world
players: 2
start: {turn: 1, phase: actions}
stop: actions
state:
  zones:
    empire-a: ZONE
choices: [pass, pass]
expect:
  - after: actions
    zones:
      empire-a: [tea-house, holy-site]
"""


def _taw(tmp_path: Path, zone: str) -> Path:
    path = tmp_path / "case.yaml"
    path.write_text(HEAD + TAW_ROW.replace("ZONE", zone), encoding="utf-8")
    return path


def test_a_zone_given_with_rest_to_holds_exactly_its_cards(tmp_path: Path) -> None:
    report = run_scenario(_taw(tmp_path, "{cards: [tea-house, holy-site], rest_to: box}"))
    assert report.ok, [f.format() for f in report.failures]  # invariants: no card lost


def test_a_zone_given_as_a_list_keeps_what_it_held_below(tmp_path: Path) -> None:
    report = run_scenario(_taw(tmp_path, "[tea-house, holy-site]"))
    assert not report.ok and "expected ['tea-house', 'holy-site'], got ['tea-house', " \
                               "'holy-site', " in report.failures[0].message


def test_rest_to_must_name_a_shared_zone(tmp_path: Path) -> None:
    report = run_scenario(_taw(tmp_path, "{cards: [tea-house], rest_to: attic}"))
    (failure,) = report.failures
    assert "rest_to names no other shared zone: 'attic'" in failure.message
    assert failure.line == 9


def _game_with_scenario(tmp_path: Path) -> Path:
    shutil.copytree(SCHEMAS, tmp_path / "schemas")  # the data files' schema lines point there
    game = tmp_path / "cards" / "ancient-civilizations"
    shutil.copytree(CARDS / "ancient-civilizations", game,
                    ignore=shutil.ignore_patterns("scenarios"))  # only the one written below
    (game / "scenarios").mkdir()
    text = HEAD + TIED_WAR.replace("game: ancient-civilizations",
                                                            "game: ..")
    (game / "scenarios" / "tied-war.yaml").write_text(text, encoding="utf-8")
    return game


def test_a_game_folder_stands_for_its_scenarios_and_game_is_relative(tmp_path: Path) -> None:
    game = _game_with_scenario(tmp_path)
    assert scenario_files([game]) == [game / "scenarios" / "tied-war.yaml"]
    result = CliRunner().invoke(scenario_command, [str(game)])
    assert result.exit_code == 0, result.output
    assert "PASS" in result.output


def test_a_games_scenarios_are_not_read_as_its_data(tmp_path: Path) -> None:
    game = _game_with_scenario(tmp_path)
    loaded = load_game(game)
    assert loaded.ok, [d.message for d in loaded.diagnostics]
    assert not any(f.relative_to(game).parts[0] == "scenarios" for f in loaded.files)


def test_face_up_cards_are_checked_exactly(tmp_path: Path) -> None:
    text = TAW_ROW.replace("ZONE", "[tea-house]").replace(
        "    zones:\n      empire-a: [tea-house, holy-site]\n", "    face_up: {districts: [FACE]}\n")
    path = tmp_path / "case.yaml"
    path.write_text(HEAD + text.replace("FACE", "north-ridge"), encoding="utf-8")
    assert run_scenario(path).ok  # setup turns the district deck's top card face up
    path.write_text(HEAD + text.replace("FACE", "tea-house"), encoding="utf-8")
    (failure,) = run_scenario(path).failures
    assert "face-up cards of districts: expected ['tea-house'], got ['north-ridge']" \
        in failure.message


def test_a_citizen_on_a_card_the_empire_lacks_is_refused_before_play(tmp_path: Path) -> None:
    path = tmp_path / "case.yaml"
    path.write_text(HEAD + """name: A citizen on a card nobody owns
game: the-ancient-world
players: 2
start: {turn: 1, phase: actions}
state:
  players:
    - {citizens: ["1 card:desert-caravan", "2 ready", "3 ready"]}
expect:
  - after: actions
    turn: 1
""", encoding="utf-8")
    (failure,) = run_scenario(path).failures
    assert failure.code == "PNP-S010" and failure.line == 8
    assert "empire holds no such card" in failure.message
