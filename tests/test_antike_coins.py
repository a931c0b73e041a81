"""Antike's start coins by turn order (`rules: setup: start_coins_by_order`, our prototype
data, tuned with `pnp tune`): the schema holds the list to six whole numbers of 0 or more,
and setup gives each nation the entry for its place in turn order. A player count may have a
list of its own (`start_coins_by_players`), one entry per player, used at that count only."""

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
PER_COUNT = re.compile(r"\n *start_coins_by_players: \{[^}]*\}")


def with_coins(tmp_path: Path, coins: str, per_count: str | None = None) -> Path:
    """A copy of Antike whose start-coin list reads `coins` (YAML text, e.g. "[9, 0]") and
    whose per-count lists read `per_count` (YAML text, e.g. '{"2": [5, 4]}'); without
    per_count the copy has none, so `coins` serves every player count."""
    text = (GAME / "game.yaml").read_text(encoding="utf-8")
    old, lists = LINE.search(text), PER_COUNT.search(text)
    assert old, "game.yaml has no start_coins_by_order list"
    assert lists, "game.yaml has no start_coins_by_players map"
    indent = lists.group(0)[:lists.group(0).index("s")]
    added = f"{indent}start_coins_by_players: {per_count}" if per_count is not None else ""
    return copy_with(GAME, tmp_path, [("game.yaml", old.group(0), f"start_coins_by_order: {coins}"),
                                      ("game.yaml", lists.group(0), added)])


def _where(folder: Path, needle: str, key: str = "start_coins_by_order: ") -> tuple[int, int]:
    """1-based line and column of `needle` in the copy's start-coin list (after `key`)."""
    text = (folder / "game.yaml").read_text(encoding="utf-8")
    at = text.index(needle, text.index(key))
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


@pytest.mark.parametrize("per_count,needle,code,message,hint", [
    ('{"2": [5, 4, 4]}', "[5, 4, 4]", "PNP-S001", "is too long", "exactly 2 whole numbers"),
    ('{"6": [4, 4, 3, 3, 4]}', "[4, 4, 3, 3, 4]", "PNP-S001", "is too short",
     "exactly 6 whole numbers"),
    ('{"2": [5, -1]}', "-1", "PNP-S001", "-1 is less than the minimum of 0", "0 or more"),
    ('{"2": [5, 4.5]}', "4.5", "PNP-S004", "expected integer, got float 4.5", "whole number"),
    ('{"7": [1, 1, 1, 1, 1, 1, 1]}', '{"7"', "PNP-S006", "'7' has the wrong form",
     'player count from "2" to "6"'),
    ('{"1": [3]}', '{"1"', "PNP-S006", "'1' has the wrong form", 'player count from "2" to "6"'),
    # a count written without quotes is a YAML integer: a schema error, not a crash
    ("{2: [5, 4]}", "{2", "PNP-S004", "expected string, got int 2", "in quotes"),
])
def test_a_bad_per_count_list_is_a_schema_error_at_its_place(tmp_path, per_count, needle, code,
                                                             message, hint) -> None:
    """A count's list holds exactly that many whole numbers of 0 or more, for a count of 2 to
    6 in quotes; the error names the place, and the hint says what the schema wants there."""
    folder = with_coins(tmp_path, "[4, 4, 3, 3, 4, 4]", per_count)
    line, column = _where(folder, needle, "start_coins_by_players: ")
    result = CliRunner().invoke(main, ["validate", str(folder)])
    assert result.exit_code == 1
    lines = result.output.splitlines()
    errors = [i for i, ln in enumerate(lines) if " error " in ln]
    assert len(errors) == 1, result.output
    error, hint_lines = lines[errors[0]], " ".join(lines[errors[0] + 1:errors[0] + 3])
    assert f"game.yaml:{line}:{column}: error {code}" in error
    assert "start_coins_by_players" in error and message in error
    assert hint in hint_lines


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


def _coins_by_nation(folder: Path, players: int, variant: str | None = None) -> dict[str, int]:
    loaded = load_game(folder, variant)
    assert loaded.game is not None, [d.message for d in loaded.diagnostics]
    state = main_state(loaded.game, players)
    assert state.supply["coins"] == 40 - sum(p.counters["coins"] for p in state.players)
    return {p.vars["nation"]: p.counters["coins"] for p in state.players}


def test_a_count_with_its_own_list_uses_it_and_another_count_the_general_list(tmp_path) -> None:
    """With a list for 2 players, a 2-player game deals from it (the starting Romans 7, the
    Phoenicians 1); a 3-player game, which has none, deals from the six-entry list."""
    folder = with_coins(tmp_path, "[9, 0, 4, 7, 5, 6]", '{"2": [7, 1]}')
    assert _coins_by_nation(folder, 2) == {"romans": 7, "phoenicians": 1}
    # 3 players: the Phoenicians start, then the Carthaginians, then the Romans
    assert _coins_by_nation(folder, 3) == {"phoenicians": 9, "carthaginians": 0, "romans": 4}


def test_a_per_count_list_serves_without_a_general_list(tmp_path) -> None:
    """Only the 2-player list: a 2-player game deals from it, a 3-player game deals none."""
    folder = with_coins(tmp_path, "[9, 0, 4, 7, 5, 6]", '{"2": [7, 1]}')
    text = (folder / "game.yaml").read_text(encoding="utf-8")
    text, gone = re.subn(r"\n *start_coins_by_order: \[[^\]]*\]", "", text)
    assert gone == 1
    (folder / "game.yaml").write_text(text, encoding="utf-8")
    assert _coins_by_nation(folder, 2) == {"romans": 7, "phoenicians": 1}
    assert set(_coins_by_nation(folder, 3).values()) == {0}


def test_a_variant_reaches_one_entry_of_a_counts_list_by_its_path(tmp_path) -> None:
    """Override paths name a count by its key (`start_coins_by_players/2/1`),
    as `pnp tune --param` does; the variant changes the 2-player game and no other."""
    folder = with_coins(tmp_path, "[9, 0, 4, 7, 5, 6]", '{"2": [7, 1]}')
    text = (folder / "game.yaml").read_text(encoding="utf-8")
    text = text.replace("variants:\n", "variants:\n  - {id: rich-second, description: x, "
                        "overrides: {game/rules/setup/start_coins_by_players/2/1: 5}}\n", 1)
    (folder / "game.yaml").write_text(text, encoding="utf-8")
    assert _coins_by_nation(folder, 2, "rich-second") == {"romans": 7, "phoenicians": 5}
    assert _coins_by_nation(folder, 3, "rich-second") == _coins_by_nation(folder, 3)


def test_tune_params_on_a_counts_list_read_their_base_values() -> None:
    """`pnp tune --param game/rules/setup/start_coins_by_players/2/0=...` names a number of
    the bundled game, and its base value is the 2-player list's entry."""
    from pnp.data.game import load_game_and_documents
    from pnp.engine import tune_spec as ts

    loaded, docs = load_game_and_documents(GAME)
    assert docs is not None
    per_count = loaded.game.rule("setup", "start_coins_by_players")
    for players in (2, 4, 5, 6):
        params, targets, diags = ts.from_options(
            tuple(f"game/rules/setup/start_coins_by_players/{players}/{i}=0..6"
                  for i in range(players)), ("seats",))
        assert diags == []
        spec = ts.TuneSpec(params=params, targets=targets)
        assert ts.check(spec, docs, {}) == []
        assert [p.base for p in spec.params] == list(per_count[str(players)])
    params, targets, _ = ts.from_options(("game/rules/setup/start_coins_by_players/3/0=0..6",),
                                         ("seats",))
    spec = ts.TuneSpec(params=params, targets=targets)
    assert [d.code for d in ts.check(spec, docs, {})] == [ts.UNKNOWN_PATH]  # no 3-player list


def test_the_rulesheet_prints_each_counts_own_list(tmp_path) -> None:
    from pnp.rulesheet.sources import render_sources

    folder = with_coins(tmp_path, "[9, 0, 4, 7, 5, 6]", '{"6": [2, 2, 2, 2, 2, 8], "2": [7, 1]}')
    rendered, diags = render_sources(load_game(folder).game)
    assert diags == []
    text = " ".join(" ".join(src.text for src in rendered).split())
    assert ("from the starting nation on (1st to 6th): 9, 0, 4, 7, 5, 6; with 2 players "
            "instead 7, 1; with 6 players instead 2, 2, 2, 2, 2, 8.") in text


def test_without_a_list_no_nation_startswith_coins(tmp_path) -> None:
    text = (GAME / "game.yaml").read_text(encoding="utf-8")
    line = next(ln for ln in text.splitlines() if "start_coins_by_order:" in ln)
    folder = copy_with(GAME, tmp_path, [("game.yaml", line + "\n", "")])
    state = main_state(load_game(folder).game, 3)
    assert [p.counters["coins"] for p in state.players] == [0, 0, 0]


@pytest.mark.parametrize("name,players,prefix,key", [
    # the four-player game's own list (it tuned the general list's first four entries until
    # four players had a list of their own)
    ("antike-start-coins.tune.yaml", 4, "start_coins_by_players/4", "4"),
    # the six-player game's own list, entry by entry
    ("antike-start-coins-6p.tune.yaml", 6, "start_coins_by_players/6", "6"),
])
def test_the_docs_tune_files_read_clean_against_antike(name, players, prefix, key) -> None:
    """Each tune file in docs/examples names its list's entries, each base value the bundled
    list's and a value the schema takes at both ends, at its player count."""
    from pnp.data.game import load_game_and_documents
    from pnp.engine import tune_spec as ts

    path = Path(__file__).resolve().parents[1] / "docs/examples" / name
    spec, diags = ts.read_tune_file(path)
    assert diags == [] and spec is not None
    loaded, docs = load_game_and_documents(GAME)
    assert docs is not None and ts.check(spec, docs, {}) == []
    assert [p.path for p in spec.params] == [
        f"game/rules/setup/{prefix}/{i}" for i in range(players)]
    coins = loaded.game.rule("setup", prefix.split("/")[0])
    coins = coins[key] if key else coins[:players]
    assert [p.base for p in spec.params] == list(coins)
    assert (spec.players, spec.bots) == (players, "greedy-varied")


@pytest.mark.slow  # 200 games at each count, about 3 (2 players) to 12 (6) CPU s
@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_the_default_report_flags_no_seat_with_the_tuned_coins(players) -> None:
    """Issue 20: Antike's default report (greedy-varied in every seat, 200 games, seed 1)
    names no seat or nation finding at any count. With the coins of before the tuning (1 to 6
    by turn order) it flagged seats at every count; with the general list alone, at 2 players
    (the starting Romans 60%) and 6 (the Romans 34%, the Greeks 6%)."""
    import json

    result = CliRunner().invoke(main, ["simulate", "antike", "--players", str(players),
                                       "--skill", "none", "--format", "json"])
    assert result.exit_code == 0, result.output
    doc = json.loads(result.stdout)
    assert doc["games"] == 200 and doc["lineup"]["bots"] == ["greedy-varied"] * players
    flagged = [f["message"] for f in doc["findings"] if f["code"] in ("PNP-B005", "PNP-B019")]
    assert flagged == []
