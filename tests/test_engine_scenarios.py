"""Ancient Civilizations' rule scenarios: every rule has one, and a failing scenario reads well.
That each passes and every variant has one is test_scenario_battery.py's, for every game."""

from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner
from scenario_text import TIED_WAR, write_case

from pnp.commands.scenario import command as scenario_command
from pnp.engine.scenario import run_scenario
from pnp.paths import CARDS

FOLDER = CARDS / "ancient-civilizations" / "scenarios"
FILES = sorted(FOLDER.glob("*.yaml"))

#: every rule of the issue, with the scenario that shows it
RULES = {
    "pregame: a marked space moves the player to an unmarked one": "pregame-marked-space",
    "pregame: the path end (interpretation pre-history-end)": "pregame-path-end",
    "setup bonus P T F S Z M C +5": "pregame-marked-space",
    "turn order rolled high each phase, ties re-rolled, clockwise": "turn-order-tie",
    "start space: no benefit, 1 Gold buys a reroll": "start-space-reroll",
    "occupied space: before or after": "blocked-space",
    "occupied space: no free neighbour, roll again": "blocked-no-free-neighbour",
    "leader: Reformer +1/-1 to one roll": "leader-reformer",
    "leader: Politician reroll": "leader-politician",
    "leader: Populist extra roll": "leader-populist",
    "leader: Builder's choice R+5 | W+1": "leader-builder",
    "powers last this turn only": "powers-lost-at-end",
    "famine and Provinces": "famine",
    "Food cap 20": "food-cap",
    "Population surplus 5 Food -> 1 P": "surplus",
    "Industry track and Resources cap 10": "resources-cap",
    "Earthquake volcano": "earthquake-volcano",
    "Earthquake without volcano": "earthquake-no-volcano",
    "Build: 2 Resources a move, +1 Infrastructure": "build",
    "Cities: one per 7 Infrastructure, City chart": "cities",
    "Wonders: 2 points a move, built once, marked, owned": "wonder-build",
    "a built wonder blocks like a pawn": "wonder-built-blocks",
    "wonder bonuses in the Start Phase": "wonder-bonuses",
    "Stonehenge as a roll modifier": "stonehenge-adjust",
    "Pyramids as a roll modifier": "pyramids-reroll",
    "Conquest chart then -1D6 Military": "conquest",
    "Defeat chart with 0 Gold rolls again": "defeat-zero-gold",
    "war: tie has no winner": "war-tie",
    "war: aggressor wins 2 VP and 1 Territory": "war-won-aggressor",
    "war: defender wins 2 VP": "war-won-defender",
    "Culture: 10 Culture -> 1D6 VP": "culture-vp",
    "Religion: Conversion, steal 1 Pop, -1D6 Zeal": "conversion-steal",
    "Religion: Civil War under 1 Zeal": "zeal-civil-war",
    "Government: Civil War under 1 Stability": "stability-civil-war",
    "Trade option: both +1 Idea, exchange": "trade-option",
    "Purchase list": "purchase-list",
    "Sell Surplus exchange": "sell-surplus",
    "Naval track (12-space loop), Expedition": "naval-expedition",
    "Knowledge: 2 Ideas a move": "knowledge",
    "End Phase elimination, the game goes on": "elimination",
    "elimination waits for the End Phase": "elimination-waits-for-end-phase",
    "last player standing": "last-standing",
    "game end at 20 Territories, tied VP share the win": "game-end-tied-vp",
    "the turn cap is a timeout": "turn-cap-timeout",
    "checks only in their own phase": "no-famine-outside-agriculture",
}


def test_every_rule_has_a_scenario() -> None:
    stems = {p.stem for p in FILES}
    missing = {rule: stem for rule, stem in RULES.items() if stem not in stems}
    assert not missing


# --------------------------------------------------------------------------- failure reports

def test_a_failed_expectation_reports_expected_actual_and_line(tmp_path: Path) -> None:
    path = write_case(tmp_path, TIED_WAR.replace("{M: 6, VP: 3}", "{M: 7, VP: 3}"))
    report = run_scenario(path)
    assert not report.ok
    (failure,) = report.failures
    assert "seat 0 military: expected 7, got 6" in failure.message
    assert failure.line == 16 and failure.file == str(path)


def test_running_out_of_dice_is_a_clear_failure(tmp_path: Path) -> None:
    report = run_scenario(write_case(tmp_path, TIED_WAR.replace("4, 3, 1]", "4, 3]")))
    assert any("ran out of scripted dice" in f.message for f in report.failures)


def test_dice_left_over_fail(tmp_path: Path) -> None:
    report = run_scenario(write_case(tmp_path, TIED_WAR.replace("4, 3, 1]", "4, 3, 1, 6]")))
    assert [f.message for f in report.failures] == ["1 scripted dice were not used"]


def test_an_illegal_choice_lists_the_legal_options(tmp_path: Path) -> None:
    report = run_scenario(write_case(tmp_path, TIED_WAR.replace("[war]", "[peace]")))
    message = report.failures[0].message
    assert "'peace' is not a legal option" in message and "'war', 'before'" in message
    assert report.failures[0].line == 12


def test_a_derived_stat_cannot_be_set(tmp_path: Path) -> None:
    report = run_scenario(write_case(tmp_path, TIED_WAR.replace("{M: 5, VP: 2}",
                                                            "{M: 5, VP: 2, cities: 2}")))
    assert [(f.message, f.line) for f in report.failures] == [
        ("cities is derived; set the counter it comes from", 9)]


def test_a_per_player_stat_is_not_a_shared_counter(tmp_path: Path) -> None:
    shared = TIED_WAR.replace("state:\n", "state:\n  counters: {M: 3}\n")
    report = run_scenario(write_case(tmp_path, shared))
    assert [(f.message, f.line) for f in report.failures] == [
        ("military is not a shared counter", 7)]


def test_schema_errors_are_positioned(tmp_path: Path) -> None:
    report = run_scenario(write_case(tmp_path, TIED_WAR.replace("players: 2", "players: two")))
    assert report.failures[0].line == 4
    assert "expected integer" in report.failures[0].message


def test_pnp_scenario_exits_0_when_all_pass_and_1_when_any_fails(tmp_path: Path) -> None:
    runner = CliRunner()
    good = runner.invoke(scenario_command, [str(FOLDER / "war-tie.yaml")])
    assert good.exit_code == 0 and "PASS" in good.output
    bad = runner.invoke(scenario_command,
                        [str(write_case(tmp_path, TIED_WAR.replace("M: 6,", "M: 1,")))])
    assert bad.exit_code == 1 and "expected 1, got 6" in bad.output


def test_scenario_logs_are_written_in_the_one_log_format(tmp_path: Path) -> None:
    from pnp.engine.log import jsonl_bytes, read_jsonl

    path = FOLDER / "build.yaml"
    result = CliRunner().invoke(scenario_command, [str(path), "--log", str(tmp_path)])
    assert result.exit_code == 0, result.output
    log = tmp_path / "build.jsonl"
    assert log.read_bytes() == jsonl_bytes(read_jsonl(log))  # as `pnp simulate --log` writes
    assert log.read_bytes() == jsonl_bytes(run_scenario(path).log)
