"""A gallery of broken rules modules: each is the starter game's rules.py with one fault a
designer could write (docs/engine.md is all they read), and each must give the finding that
names it and exit 1: self-play is the rules validator, so a clean report from a broken module
would be a lie. Replacing any generic invariant or budget with a no-op turns one of these red."""

from __future__ import annotations

import json
import os
import re
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

from pnp.cli import main
from pnp.data.game import load_game
from pnp.engine.core import State
from pnp.engine.guards import GameLimits, limits_from_env
from pnp.engine.play import play_game
from pnp.engine.result import NOT_PLAYED
from pnp.paths import SCHEMAS
from pnp.scaffold import scaffold

PLAY = "    st, fx = ctx.state, Effects(game, ctx)\n"
TRAVEL = "    ctx.state.players[seat].pos[track.id] = space.index\n"
MARKET = "    fx.apply(seat, effect, card.card)\n    ctx.cover("
FINISH = "    fill_result(ctx, SCORE)\n"
CHOOSE = "    steps = ctx.choose(seat, "
EAT = "        fx.add(seat, FOOD, -need)\n"

#: fault -> (text of rules.py it replaces, the replacement, words of the finding)
FAULTS = {
    "a card lost": (
        MARKET, "    ctx.zone(DISCARD).pop()\n" + MARKET, "a card was lost"),
    "a card made from nothing": (
        MARKET, "    ctx.zone(DISCARD).append(type(card)(10**6, card.card))\n" + MARKET,
        "a card appeared that the game did not start with"),
    "a card in two zones": (
        MARKET, "    ctx.zone(DECK).append(card)\n" + MARKET, "a card is in two places at once"),
    "a counter over its cap": (
        EAT, EAT + "        st.players[seat].counters['food'] = 99\n",
        "food is above its cap (10)"),
    "a counter holding a string": (
        MARKET, "    st.players[seat].counters['gold'] = 'lots'\n" + MARKET, "TypeError"),
    "a decision with no legal option": (
        CHOOSE, "    ctx.choose(seat, [], 'nothing')\n" + CHOOSE, "no legal option"),
    "a winner who is not a seat": (
        FINISH, FINISH + "    ctx.result.winners = [7]\n", "a winner is not a seat of this game"),
    "a pawn off its track": (
        TRAVEL, "    ctx.state.players[seat].pos[track.id] = 999\n",
        "a pawn stands off its track"),
    "a card of no deck": (
        MARKET, "    card.card = 'no-such-card'\n" + MARKET,
        "a zone holds a card that is not one of the game's cards"),
    "a zone the game does not have": (
        MARKET, "    st.zones['limbo'] = []\n" + MARKET,
        "a card zone exists that the game does not have"),
    "state kept between games": (
        PLAY, "    global GAMES\n    GAMES = globals().get('GAMES', 0) + 1\n"
              "    if GAMES > 1:\n        ctx.roll(6, 'extra')\n" + PLAY,
        "replaying the log"),
    "Python's own random": (
        CHOOSE, "    import random\n    roll = random.randint(1, 6)\n" + CHOOSE,
        "replaying the log"),
    "the definition changed during play": (
        MARKET, "    game.rules['end']['max_turns'] += 1\n" + MARKET,
        "changed the game definition during play"),
    "sys.exit(0)": (PLAY, "    raise SystemExit(0)\n", "SystemExit: 0"),
    "os._exit(3)": (PLAY, "    import os\n    os._exit(3)\n",
                    "tried to end the process (os._exit(3))"),
    "a decision forever": (
        PLAY, "    while True:\n        ctx.choose(0, ['a', 'b'], 'forever')\n",
        "more than 20,000 decisions in turn 0 without the turn ending (the last: seat 1 "
        "deciding 'forever')"),
    "a step forever": (
        PLAY, "    while True:\n        ctx.step('again')\n", "more than 20,000 steps in turn 0"),
    "memory without bound": (
        PLAY, "    hog = []\n    while True:\n        hog.append(bytearray(1 << 22))\n",
        "MiB of memory"),
}

#: a coin supply the starter's Gold is linked to (components.yaml, stats.yaml)
COINS = "supplies:\n  - {{id: coin, name: Coin tokens, stock: {stock}}}\n"
PAY_BY_HAND = (MARKET, "    st.players[seat].counters['gold'] += 5\n" + MARKET,
               "coin tokens were made or lost")


def run(*args: str):
    return CliRunner().invoke(main, list(args))


def broken(tmp_path: Path, old: str, new: str, coins: int = 0) -> Path:
    """The starter game with `old` in its rules.py replaced by `new` (and, with `coins`, Gold
    linked to a coin supply of that many)."""
    folder = tmp_path / "demo"
    scaffold(folder)
    rules = folder / "rules.py"
    text = rules.read_text()
    assert old in text, old
    rules.write_text(text.replace(old, new, 1))
    if coins:
        (folder / "components.yaml").write_text(
            "# yaml-language-server: $schema=.schemas/components.schema.json\n"
            + COINS.format(stock=coins))
        stats = folder / "stats.yaml"
        stats.write_text(stats.read_text().replace(
            "{id: gold, name: Gold, abbreviation: G}",
            "{id: gold, name: Gold, abbreviation: G, supply: coin}"))
    return folder


def line_with(folder: Path, snippet: str) -> int:
    """The first line of the game's rules.py that holds `snippet`."""
    lines = (folder / "rules.py").read_text().splitlines()
    return next(i for i, line in enumerate(lines, 1) if snippet in line)


def findings(result) -> list[str]:
    return [f["message"] for f in json.loads(result.stdout)["findings"]
            if f["code"] == "PNP-B001"]


@pytest.mark.parametrize("fault", list(FAULTS))
def test_a_broken_rules_module_is_a_finding_and_exit_1(tmp_path, fault):
    old, new, words = FAULTS[fault]
    folder = broken(tmp_path, old, new)
    result = run("simulate", str(folder), "--games", "4", "--format", "json")
    assert result.exit_code == 1, result.output
    assert any(words in m for m in findings(result)), (fault, findings(result))


def test_a_fault_found_in_one_game_stops_the_run_from_looping_again(tmp_path):
    """After a runaway, the other games are reported as not played, not run to the budget."""
    old, new, _ = FAULTS["a decision forever"]
    result = run("simulate", str(broken(tmp_path, old, new)), "--games", "6", "--format",
                 "json")
    assert any(NOT_PLAYED in m for m in findings(result))


def test_a_run_of_a_looping_module_reports_the_stop_alone_and_no_turn_cap(tmp_path):
    """The runaway game was stopped, not cut at the turn cap: it and the games not played
    after it are the run's only findings (no PNP-B002, nothing measured from them)."""
    old, new, _ = FAULTS["a decision forever"]
    result = run("simulate", str(broken(tmp_path, old, new)), "--games", "6")
    assert result.exit_code == 1, result.output
    assert "every game crashed (6 of 6)" in result.output
    assert set(re.findall(r"PNP-B\d+", result.output)) == {"PNP-B001"}
    assert "Stopped in 1 of 6 games: the game did not end" in result.output
    assert "Not played in 5 of 6 games" in result.output
    assert result.output.index("Stopped in") < result.output.index("Not played in")  # cause first


def test_gold_paid_by_hand_from_a_linked_supply_is_caught(tmp_path):
    old, new, words = PAY_BY_HAND
    result = run("simulate", str(broken(tmp_path, old, new, coins=20)), "--games", "4",
                 "--format", "json")
    assert result.exit_code == 1, result.output
    assert any(words in m for m in findings(result))


def test_gold_through_effects_takes_from_its_supply_and_stops_when_it_is_empty(tmp_path):
    """The control: the same link with the starter's own rules is conserved, and a supply of
    6 that may not run out never gives more than it holds."""
    folder = broken(tmp_path, PLAY, PLAY, coins=6)
    result = run("simulate", str(folder), "--games", "40", "--invariants", "all",
                 "--format", "json")
    assert result.exit_code == 0, result.output
    assert findings(result) == []
    game = load_game(folder).game
    ran_dry = 0
    for seed in range(10):
        log: list = []
        played = play_game(game, 4, seed, ["greedy"], invariants="all", log=log)
        assert played.violations == []
        state = State.from_json(log[-1]["state"])
        assert 0 <= state.supply["coin"] <= 6
        assert sum(p.counters["gold"] for p in state.players) + state.supply["coin"] == 6
        ran_dry += played.events.get("coin ran out", 0)
    assert ran_dry  # 4 players earn more than 6 gold between them: the supply runs dry


def test_looking_up_positions_does_not_change_the_definitions_fingerprint(tmp_path):
    """The fingerprint that catches a module changing the rules must not see pnp's own caches:
    a build reads positions in a game's documents (filling their lookup memos), and in a test
    process sharing that definition the next game's check read it as a change (a CI flake)."""
    from pnp.engine.guards import fingerprint

    game = load_game(broken(tmp_path, PLAY, PLAY)).game
    before = fingerprint(game)
    for doc in game.documents:
        doc.pos(()), doc.pos(("no", "such", "path")), doc.positions.get(())
    assert fingerprint(game) == before


def test_an_endless_computation_stops_at_the_cpu_time_budget(tmp_path):
    folder = broken(tmp_path, PLAY, "    while True:\n        pass\n")
    game = load_game(folder).game
    started = time.monotonic()
    result = play_game(game, 2, 1, ["random"], limits=GameLimits(seconds=1))
    assert time.monotonic() - started < 15  # 1 CPU s, however busy the machine
    loop = line_with(folder, "while True:")  # the finding points at the rules' own loop
    assert result.violations == ["the game did not end: the game computed for more than 1 CPU s "
                                 f"(a game that needs longer: set PNP_GAME_SECONDS) (at "
                                 f"rules.py:{loop})"]


def test_a_module_that_waits_forever_stops_at_the_wall_clock_backstop(tmp_path):
    """CPU time is the budget (a loaded machine does not stop slow games), so a module that
    sleeps instead of computing is caught by the wall clock, at WALL_FACTOR times the budget."""
    folder = broken(tmp_path, PLAY, "    import time\n    while True:\n        time.sleep(0.05)\n")
    game = load_game(folder).game
    started = time.monotonic()
    result = play_game(game, 2, 1, ["random"], limits=GameLimits(seconds=0.2))
    assert 2 <= time.monotonic() - started < 10
    sleep = line_with(folder, "time.sleep(0.05)")
    assert result.violations == ["the game did not end: the game took more than 2 s while "
                                 "computing for less than 0.2 CPU s: it waits for something (a "
                                 f"game that needs longer: set PNP_GAME_SECONDS) (at "
                                 f"rules.py:{sleep})"]


def test_the_budgets_can_be_raised_for_a_game_that_needs_more():
    assert limits_from_env({}) == GameLimits()
    assert limits_from_env({"PNP_GAME_SECONDS": "60", "PNP_GAME_MEMORY_MIB": "4096"}) == \
        GameLimits(60.0, 4096)
    assert limits_from_env({"PNP_GAME_SECONDS": "0"}).seconds == 0  # no limit
    assert limits_from_env({"PNP_GAME_SECONDS": "soon"}) == GameLimits()  # ignored


@pytest.mark.slow
def test_an_endless_computation_is_a_finding_with_the_default_budget(tmp_path):
    folder = broken(tmp_path, PLAY, "    while True:\n        pass\n")
    started = time.monotonic()
    result = run("simulate", str(folder), "--games", "200", "--format", "json")
    assert result.exit_code == 1
    # one budget (10 CPU s; wall time stretches on a loaded machine), not one per game (2,000)
    assert time.monotonic() - started < 60
    assert any("computed for more than 10 CPU s" in m for m in findings(result))


def test_a_scenario_of_a_module_that_loops_fails_instead_of_hanging(tmp_path):
    old, new, _ = FAULTS["a step forever"]
    broken(tmp_path, old, new)  # tmp_path/demo, the scenario's `game: demo`
    scenario = tmp_path / "s.yaml"
    schema = os.path.relpath(SCHEMAS / "scenario.schema.json", tmp_path)
    scenario.write_text(f"# yaml-language-server: $schema={schema}\n"
                        "name: n\ngame: demo\nplayers: 2\nbots: first\nexpect:\n"
                        "  - players:\n      - counters: {G: 5}\n")
    result = run("scenario", str(scenario))
    assert result.exit_code == 1, result.output
    # a scenario checks every step in full, so the time budget may end it before the step
    # budget does: either way it fails with a runaway, not a hang
    assert "more than 20,000 steps" in result.output or \
        "computed for more than 10 CPU s" in result.output


def test_a_line_up_with_a_thinking_bot_gets_the_longer_time(monkeypatch):
    """search and mcts play games out for every decision: their games may run longer."""
    from pnp.engine import play as play_module
    from pnp.engine.guards import SEARCH_FACTOR, limits_for

    assert limits_for(True, GameLimits(2)).seconds == 2 * SEARCH_FACTOR
    assert limits_for(False, GameLimits(2)).seconds == 2
    assert {"search", "mcts"} <= set(play_module.BUDGETED)
