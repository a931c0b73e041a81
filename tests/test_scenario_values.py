"""Every scenario value a rules module reads is checked before play (issue 28): a start turn
past the last round (PNP-S008), a counter or supply outside its bounds (PNP-S009), and every
var or module key of a wrong type, an unknown name or out of range (PNP-S010) is a failure at
its line and column with a hint, for each bundled game, never a traceback.

Each row is one mutation of a small scenario; the value on the line marked `# <-` is the one
reported. Before these checks, the marked rows raised IndexError (TAW turn 7), TypeError (AoC
bonus null), KeyError (a citizen on 'space:nowhere'), StopIteration (an unknown army card) or
ValueError (AC powers, AoC military) out of `pnp scenario`."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from pnp.engine.scenario import run_scenario

SCHEMAS = Path(__file__).parent.parent / "schemas"

TEMPLATE = """# yaml-language-server: $schema={schemas}/scenario.schema.json
name: one value broken
game: {game}
players: 2
start: {start}
{state}
bots: first
expect:
  - {{after: finish, ended: completed}}
"""

AC, AOC, TAW = "ancient-civilizations", "age-of-civilization", "the-ancient-world"
ANT, ANT_START = "antike", "{turn: 1, phase: round}"
AC_START, AOC_START, TAW_START = "{turn: 1, phase: start}", "{turn: 2, phase: turns}", \
    "{turn: 1, phase: actions}"

ROWS = [
    # Ancient Civilizations: 60 turns (end.max_turns), stats at least 0
    (AC, "{turn: 61, phase: start}  # <-", "", "PNP-S008", "turn 61 is past the last round"),
    (AC, AC_START, "state:\n  vars: {turn_order: [1, 0]}  # <-", "PNP-S010", "no var 'turn_order'"),
    (AC, AC_START, "state:\n  players:\n    - vars: {powers: 3}  # <-", "PNP-S010", "no var 'powers'"),
    (AC, AC_START, "state:\n  players:\n    - powers: [nowhere]  # <-", "PNP-S010",
     "grants no power"),
    (AC, AC_START, "state:\n  players:\n    - leader: nobody  # <-", "PNP-S010", "no leader 'nobody'"),
    (AC, AC_START, "state:\n  players:\n    - owned: [stonehenge]\n    - owned: [stonehenge]  # <-",
     "PNP-S010", "owned by one player only"),
    (AC, AC_START, "state:\n  players:\n    - counters: {M: -1}  # <-", "PNP-S009",
     "military -1 is outside its bounds 0.."),
    # Age of Civilization: 6 rounds, 70 coins, 16 workers (4 a player at most)
    (AOC, "{turn: 7, phase: turns}  # <-", "", "PNP-S008", "turn 7 is past the last round"),
    (AOC, AOC_START, "state:\n  vars: {bonus: {iberia: null}}  # <-", "PNP-S010",
     "bonus coins on iberia are a whole number, not null"),
    (AOC, AOC_START, "state:\n  vars: {bonus: {atlantis: 2}}  # <-", "PNP-S010",
     "'atlantis' is not a civilization card"),
    (AOC, AOC_START, "state:\n  vars: {bonus: {iberia: -1}}  # <-", "PNP-S010",
     "-1 bonus coins on iberia: a card holds 0 or more"),  # substitutes: no upper bound
    (AOC, AOC_START, "state:\n  vars: {starter: 2}  # <-", "PNP-S010", "starter is a seat: 0 to 1"),
    (AOC, AOC_START, "state:\n  vars: {starter: first}  # <-", "PNP-S010",
     "var 'starter' is a integer, not a string"),
    (AOC, AOC_START, "state:\n  vars: {totals: {}}  # <-", "PNP-S010", "no var 'totals'"),
    (AOC, AOC_START, "state:\n  players:\n    - technologies: [writing, telepathy]  # <-",
     "PNP-S010", "no technology 'telepathy'"),
    (AOC, AOC_START, "state:\n  players:\n    - military: 3  # <-", "PNP-S010",
     "military is counted from the cards"),
    (AOC, AOC_START, "state:\n  players:\n    - counters: {workers: 5}  # <-", "PNP-S009",
     "workers 5 is outside its bounds 0..4"),
    (AOC, AOC_START, "state:\n  supply: {workers: 17}  # <-", "PNP-S009",
     "the workers supply 17 is outside its bounds 0..16"),
    # The Ancient World: 6 rounds, citizens of skills 1 to 5
    (TAW, "{turn: 7, phase: prepare}  # <-", "", "PNP-S008", "turn 7 is past the last round"),
    (TAW, TAW_START, "state:\n  players:\n    - citizens: ['6 ready']  # <-", "PNP-S010",
     "skills 1 to 5"),
    (TAW, TAW_START, "state:\n  players:\n    - citizens: ['2 space:nowhere']  # <-", "PNP-S010",
     "a citizen cannot be 'space:nowhere'"),
    (TAW, TAW_START, "state:\n  players:\n    - armies: ['no-such-card 0 0 0']  # <-", "PNP-S010",
     "'no-such-card' is not a military card"),
    (TAW, TAW_START, "state:\n  players:\n    - damaged: [nothing]  # <-", "PNP-S010",
     "'nothing' is not an empire card"),
    (TAW, TAW_START, "state:\n  players:\n    - vars: {cit: []}  # <-", "PNP-S010", "no var 'cit'"),
    (TAW, TAW_START, "state:\n  counters: {round: 9}  # <-", "PNP-S009",
     "shared round 9 is outside its bounds 0..6"),
    # Antike: 150 rounds at most; pieces on the map's nodes only
    (ANT, "{turn: 151, phase: round}  # <-", "", "PNP-S008", "turn 151 is past the last round"),
    (ANT, ANT_START, "state:\n  vars: {map: {atlantis: {legion: [1, 0]}}}  # <-", "PNP-S010",
     "no node 'atlantis' on the map"),
    (ANT, ANT_START, "state:\n  vars: {map: {roma: {legion: [1]}}}  # <-", "PNP-S010",
     "legion on roma needs 2 counts"),
    (ANT, ANT_START, "state:\n  vars: {map: {mare-ionium: {legion: [1, 0]}}}  # <-", "PNP-S010",
     "a legion cannot stand on mare-ionium"),
    (ANT, ANT_START, "state:\n  players:\n    - vars: {know_hows: wheel}  # <-", "PNP-S010",
     "var 'know_hows' is a list"),
]


@pytest.mark.parametrize("game, start, state, code, message", ROWS,
                         ids=[f"{r[0]}:{r[3]}:{r[4][:30]}" for r in ROWS])
def test_a_broken_scenario_value_is_a_failure_at_its_line(tmp_path, game, start, state, code,
                                                           message):
    text = TEMPLATE.format(schemas=SCHEMAS, game=game, start=start, state=state)
    path = tmp_path / "broken.yaml"
    path.write_text(text, encoding="utf-8")
    line = next(i for i, t in enumerate(text.splitlines(), 1) if "# <-" in t)
    started = time.perf_counter()
    report = run_scenario(path)  # raised IndexError, TypeError, KeyError... before the checks
    assert time.perf_counter() - started < 30
    coded = [f for f in report.failures if f.code]
    assert [f.code for f in coded] == [code], [f.format() for f in report.failures]
    (failure,) = coded
    assert message in failure.message, failure.message
    assert failure.line == line and failure.column > 1 and failure.hint
    assert report.decisions == 0 and report.rolls == 0  # nothing was played


def test_every_bundled_game_checks_its_scenario_values():
    """The table covers each bundled game with each code it can raise."""
    from pnp.data.game import bundled_games

    games = {Path(g).name for g in bundled_games()}
    covered = {(r[0], r[3]) for r in ROWS}
    for game in games:
        assert {(game, "PNP-S008"), (game, "PNP-S010")} <= covered, game


def test_all_problems_are_reported_at_once(tmp_path):
    """Collected, not raised: a start turn, a bonus and a counter, three failures."""
    state = ("state:\n  vars: {bonus: {iberia: null}}\n  players:\n"
             "    - counters: {workers: 5}")
    text = TEMPLATE.format(schemas=SCHEMAS, game=AOC, start="{turn: 7, phase: turns}",
                           state=state)
    path = tmp_path / "broken.yaml"
    path.write_text(text, encoding="utf-8")
    codes = sorted(f.code for f in run_scenario(path).failures)
    assert codes == ["PNP-S008", "PNP-S009", "PNP-S010"]


def test_a_module_without_a_check_gets_its_vars_checked_by_their_starting_names(tmp_path):
    """The starter game's rules module has no check_scenario: vars must be names its starting
    state has, of the same JSON type."""
    from pnp.engine.module import default_scenario_problems
    from pnp.engine.state import PlayerState, State

    state = State([PlayerState({}, {}, vars={"hand": []})], {})
    state.vars = {"first": 0}
    spec = {"vars": {"first": "zero", "extra": 1}, "players": [{"vars": {"hand": [], "x": 1}}]}
    problems = default_scenario_problems(state, spec)
    assert [(p.path, p.at_key) for p in problems] == [
        (("vars", "first"), False), (("vars", "extra"), True), (("players", 0, "vars", "x"), True)]


def test_a_counter_past_the_stat_limit_is_refused_by_the_scenario_schema(tmp_path):
    """Stats in game data lie within ±1,000,000,000; a scenario's counters and supplies too."""
    state = "state:\n  players:\n    - counters: {M: 99999999999999999999999999}  # <-"
    text = TEMPLATE.format(schemas=SCHEMAS, game=AC, start=AC_START, state=state)
    path = tmp_path / "broken.yaml"
    path.write_text(text, encoding="utf-8")
    (failure,) = run_scenario(path).failures
    assert failure.line == 8 and "greater than the maximum of 1000000000" in failure.message
