"""Antike's start coins by turn order (`rules: setup: start_coins_by_order`, our prototype
data, tuned with `pnp tune`): the schema holds the list to six whole numbers of 0 or more,
and setup gives each nation the entry for its place in turn order."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from pnp.cli import main
from pnp.data.game import load_game
from pnp.games.antike import main_state, rules_for
from pnp.paths import CARDS
from tests.scenario_breaks import copy_with

GAME = CARDS / "antike"
LINE = re.compile(r"start_coins_by_order: \[[^\]]*\]")


def with_coins(tmp_path: Path, coins: str) -> Path:
    """A copy of Antike whose start-coin list reads `coins` (YAML text, e.g. "[9, 0]")."""
    text = (GAME / "game.yaml").read_text(encoding="utf-8")
    old = LINE.search(text)
    assert old, "game.yaml has no start_coins_by_order list"
    return copy_with(GAME, tmp_path, [("game.yaml", old.group(0),
                                       f"start_coins_by_order: {coins}")])


def _where(folder: Path, needle: str) -> tuple[int, int]:
    """1-based line and column of `needle` in the copy's start-coin list."""
    text = (folder / "game.yaml").read_text(encoding="utf-8")
    at = text.index(needle, text.index("start_coins_by_order: "))
    line = text.count("\n", 0, at) + 1
    return line, at - text.rfind("\n", 0, at)


@pytest.mark.parametrize("coins,needle,code,message", [
    ("[1, -2, 3, 4, 5, 6]", "-2", "PNP-S001", "-2 is less than the minimum of 0"),
    ("[1, 2, 3]", "[1, 2, 3]", "PNP-S001", "is too short"),
    ("[1, 2, 3, 4, 5, 6, 7]", "[1, 2, 3, 4, 5, 6, 7]", "PNP-S001", "is too long"),
    ("[1, 2, 3.5, 4, 5, 6]", "3.5", "PNP-S004", "expected integer, got float 3.5"),
])
def test_a_bad_start_coin_list_is_a_schema_error_at_its_place(tmp_path, coins, needle, code,
                                                              message) -> None:
    folder = with_coins(tmp_path, coins)
    line, column = _where(folder, needle)
    result = CliRunner().invoke(main, ["validate", str(folder)])
    assert result.exit_code == 1
    errors = [ln for ln in result.output.splitlines() if " error " in ln]
    assert len(errors) == 1, result.output
    assert f"game.yaml:{line}:{column}: error {code}" in errors[0]
    assert "start_coins_by_order" in errors[0] and message in errors[0]


def test_the_bundled_start_coin_list_validates() -> None:
    result = CliRunner().invoke(main, ["validate", str(GAME)])
    assert result.exit_code == 0, result.output


@pytest.mark.parametrize("players,starter,order", [
    (2, "romans", ["romans", "phoenicians"]),
    (4, "phoenicians", ["phoenicians", "carthaginians", "persians", "romans"]),
])
def test_each_nation_starts_with_the_coins_of_its_place_in_turn_order(tmp_path, players,
                                                                      starter, order) -> None:
    """The starting nation (the one whose card shows the player count) takes the first entry,
    9 here, the next nation in turn order the second, and so on."""
    game = load_game(with_coins(tmp_path, "[9, 0, 4, 7, 5, 6]")).game
    assert rules_for(game).starter(players) == starter
    state = main_state(game, players)
    coins = {p.vars["nation"]: p.counters["coins"] for p in state.players}
    assert coins == dict(zip(order, [9, 0, 4, 7], strict=False))
    assert state.supply["coins"] == 40 - sum(coins.values())


def test_without_a_list_no_nation_startswith_coins(tmp_path) -> None:
    text = (GAME / "game.yaml").read_text(encoding="utf-8")
    line = next(ln for ln in text.splitlines() if "start_coins_by_order:" in ln)
    folder = copy_with(GAME, tmp_path, [("game.yaml", line + "\n", "")])
    state = main_state(load_game(folder).game, 3)
    assert [p.counters["coins"] for p in state.players] == [0, 0, 0]


def test_the_docs_tune_file_reads_clean_against_antike() -> None:
    """docs/examples/antike-start-coins.tune.yaml names the first four entries of the list
    (the places of a four-player game), each a value the schema takes at both ends."""
    from pnp.data.game import load_game_and_documents
    from pnp.engine import tune_spec as ts

    path = Path(__file__).resolve().parents[1] / "docs/examples/antike-start-coins.tune.yaml"
    spec, diags = ts.read_tune_file(path)
    assert diags == [] and spec is not None
    loaded, docs = load_game_and_documents(GAME)
    assert docs is not None and ts.check(spec, docs, {}) == []
    assert [p.path for p in spec.params] == [
        f"game/rules/setup/start_coins_by_order/{i}" for i in range(4)]
    coins = loaded.game.rule("setup", "start_coins_by_order")
    assert [p.base for p in spec.params] == list(coins[:4])
    assert (spec.players, spec.bots) == (4, "greedy-varied")


@pytest.mark.slow  # 200 four-player games, about 15 CPU s
def test_the_default_four_player_report_flags_no_seat_with_the_tuned_coins() -> None:
    """Issue 20: Antike's default report (greedy-varied in every seat, 200 games, seed 1) at
    the recommended count names no seat or nation finding. With the coins of before the
    tuning (1 to 6 by turn order) it flagged all four seats."""
    import json

    result = CliRunner().invoke(main, ["simulate", "antike", "--players", "4", "--skill", "none",
                                       "--format", "json"])
    assert result.exit_code == 0, result.output
    doc = json.loads(result.stdout)
    assert doc["games"] == 200 and doc["lineup"]["bots"] == ["greedy-varied"] * 4
    flagged = [f["message"] for f in doc["findings"] if f["code"] in ("PNP-B005", "PNP-B019")]
    assert flagged == []
