"""A game's own default line-up (game.yaml `selfplay:`) and the greedy-varied bot: Antike has no
chance after setup, so greedy in every seat plays one game over and over (PNP-B027); its
default, greedy-varied, breaks greedy's ties at random and plays distinct games."""

from __future__ import annotations

import json
import shutil
from types import SimpleNamespace

import pytest
from click.testing import CliRunner

from pnp.cli import main
from pnp.data.game import load_game
from pnp.engine.bots import GreedyBot, VariedGreedyBot
from pnp.engine.core import GameMeta, OptionTable
from pnp.engine.selfplay import SimConfig, report_document, run_simulation
from pnp.paths import CARDS


def _state(vp: int = 0):
    return SimpleNamespace(players=[SimpleNamespace(counters={"vp": vp})], stage="play")


META = GameMeta("t", 1, 1, 10, {"vp": (0, None)}, has_chance=False)
#: four options worth 1, 3, 3 and 0 points: the middle two tie for best
TABLE = OptionTable(["a", "b", "c", "d"], [{"vp": 1}, {"vp": 3}, {"vp": 3}, {"vp": 0}])


def _picks(seed: int, n: int = 40) -> list[int]:
    bot = VariedGreedyBot(seed, 0, META)
    return [bot.choose(_state(), 0, TABLE.options, "buy", TABLE) for _ in range(n)]


def test_greedy_varied_picks_only_among_greedys_best_and_greedy_takes_the_first_of_them():
    greedy = GreedyBot(1, 0, META)
    assert greedy.choose(_state(), 0, TABLE.options, "buy", TABLE) == 1
    picks = [p for seed in range(5) for p in _picks(seed)]
    assert set(picks) == {1, 2}  # both tied options, never a worse one


def test_greedy_varied_is_the_same_for_a_seed_and_differs_across_seeds():
    assert _picks(7) == _picks(7)
    assert _picks(7) != _picks(8)


def test_greedy_varied_without_estimates_treats_every_option_as_tied():
    bot = VariedGreedyBot(3, 0, META)
    picks = {bot.choose(_state(), 0, ["x", "y", "z"], "pick", None) for _ in range(60)}
    assert picks == {0, 1, 2}


def test_a_lone_best_option_is_always_taken():
    table = OptionTable(["a", "b"], [{"vp": 1}, {"vp": 2}])
    bot = VariedGreedyBot(5, 0, META)
    assert {bot.choose(_state(), 0, table.options, "buy", table) for _ in range(30)} == {1}


def _simulate(*args: str):
    return CliRunner().invoke(main, ["simulate", *args])


def test_antikes_default_run_plays_distinct_games_and_says_why_its_line_up():
    result = _simulate("antike", "--players", "2", "--games", "20", "--skill", "none",
                       "--format", "json")
    assert result.exit_code == 0, result.output
    doc = json.loads(result.stdout)
    assert doc["lineup"]["bots"] == ["greedy-varied", "greedy-varied"]
    assert "no chance" in doc["lineup"]["default_because"]
    assert doc["outcomes"]["all_alike"] is False
    assert len(doc["turns"]["histogram"]) > 1  # distinct game lengths, not one game repeated
    assert "PNP-B027" not in [f["code"] for f in doc["findings"]]


def test_the_text_report_says_the_line_up_is_the_games_default_and_why():
    result = _simulate("antike", "--players", "2", "--games", "2", "--skill", "none")
    assert result.exit_code == 0, result.output
    header = result.stdout.split("\n\n")[0]
    assert ("bots greedy-varied in every seat (the game's default line-up, because Antike has "
            "no chance after setup") in " ".join(header.split())
    # the reason is wrapped into the header's block, not printed as one long line
    assert max(len(line) for line in header.splitlines()) <= 100


def test_bots_given_on_the_command_line_win_over_the_games_default():
    result = _simulate("antike", "--players", "2", "--games", "3", "--skill", "none",
                       "--bots", "greedy", "--format", "json")
    doc = json.loads(result.stdout)
    assert doc["lineup"] == {"bots": ["greedy", "greedy"], "seatings": 1}
    assert doc["outcomes"]["all_alike"] is True


@pytest.fixture
def antike_copy(tmp_path):
    """Antike's data in a folder of its own, game.yaml editable."""
    folder = tmp_path / "antike"
    shutil.copytree(CARDS / "antike", folder)
    return folder


def _without_selfplay(text: str) -> str:
    start = text.index("selfplay:")
    end = text.index("\n", text.index("  why:", start)) + 1
    return text[:start] + text[end:]


def test_a_game_without_chance_and_without_a_default_still_plays_greedy_and_warns_b027(
        antike_copy):
    game_yaml = antike_copy / "game.yaml"
    game_yaml.write_text(_without_selfplay(game_yaml.read_text()))
    assert load_game(antike_copy).game.selfplay is None
    result = _simulate(str(antike_copy), "--players", "2", "--games", "4", "--skill", "none",
                       "--format", "json")
    assert result.exit_code == 0, result.output
    doc = json.loads(result.stdout)
    assert doc["lineup"] == {"bots": ["greedy", "greedy"], "seatings": 1}
    assert doc["outcomes"]["all_alike"] is True
    assert "PNP-B027" in [f["code"] for f in doc["findings"]]


@pytest.mark.parametrize("bots, message", [
    ("[greedy-varid]", "unknown bot 'greedy-varid'"),
    ('["mcts:0"]', "bot 'mcts:0': the budget after ':'"),
    ("[first, greedy, greedy-varied, mcts, random, search, search-greedy]",
     "840 seatings at 4 players"),
])
def test_a_bad_default_line_up_is_a_diagnostic_at_its_place_in_game_yaml(antike_copy, bots,
                                                                         message):
    game_yaml = antike_copy / "game.yaml"
    text = game_yaml.read_text().replace("bots: [greedy-varied]", f"bots: {bots}")
    game_yaml.write_text(text)
    line = text[:text.index("  bots:")].count("\n") + 1
    checked = CliRunner().invoke(main, ["validate", str(antike_copy)])
    assert checked.exit_code == 1
    assert "PNP-L043" in checked.output and message in checked.output
    assert f"game.yaml:{line}:" in checked.output
    played = _simulate(str(antike_copy), "--players", "2", "--games", "2", "--skill", "none")
    assert played.exit_code == 1 and "PNP-L043" in played.output  # a diagnostic, not a crash
    assert played.exception is None or isinstance(played.exception, SystemExit)


def test_greedy_varied_replays_exactly_from_its_log(game_defs):
    """A varied game is still one pure function of its seed: replaying its log reproduces it."""
    sim = run_simulation(game_defs("antike"),
                         SimConfig(games=2, players=3, seed=4, bots=("greedy-varied",),
                                   invariants="all"))
    doc = report_document(sim)
    assert doc["violations"] == [] and doc["outcomes"]["crashed"] == 0


def test_sweep_and_compare_play_the_games_default_when_no_bots_are_named():
    sweep = CliRunner().invoke(main, ["sweep", "antike", "--players", "2", "--games", "2",
                                      "--format", "json"])
    assert sweep.exit_code == 0, sweep.output
    assert json.loads(sweep.stdout)["cells"][0]["bots"] == ["greedy-varied"]
    compare = CliRunner().invoke(main, ["compare", "antike", "--variant", "round-coin",
                                        "--games", "2", "--players", "2", "--format", "json"])
    assert compare.exit_code == 0, compare.output
    assert json.loads(compare.stdout)["bots"] == ["greedy-varied"]


def test_a_selfplay_block_without_its_reason_breaks_the_schema(antike_copy):
    game_yaml = antike_copy / "game.yaml"
    text = game_yaml.read_text()
    start = text.index("  why:", text.index("selfplay:"))
    game_yaml.write_text(text[:start] + text[text.index("\n", start) + 1:])
    checked = CliRunner().invoke(main, ["validate", str(antike_copy)])
    assert checked.exit_code == 1 and "PNP-S003: selfplay: missing required property 'why'" in checked.output
