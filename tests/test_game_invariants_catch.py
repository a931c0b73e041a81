"""The Ancient World's and Age of Civilization's own invariants, and the generic token
conservation their linked supplies get, catch the broken states they exist for: tokens made or
lost, a card or citizen held twice, limits exceeded."""

from __future__ import annotations

import pytest

from pnp.data.game import load_game
from pnp.engine.core import CardInstance, State
from pnp.engine.invariants import check_conservation, world_of
from pnp.engine.play import play_game, rules
from pnp.games import age_of_civilization as aoc
from pnp.games import the_ancient_world as taw
from pnp.paths import CARDS


def _midgame(game_id: str, players: int = 3) -> tuple:
    game = load_game(CARDS / game_id).game
    log: list = []
    play_game(game, players, 3, ["greedy"], log=log, max_turns=2)
    return game, State.from_json(log[-1]["state"])


@pytest.fixture(scope="module")
def aoc_mid():
    return _midgame("age-of-civilization")


@pytest.fixture(scope="module")
def taw_mid():
    return _midgame("the-ancient-world")


def conserved(game, state: State) -> list[str]:
    """The generic conservation check of a fresh game (totals = the box's stock)."""
    return check_conservation(state, world_of(game, state, True, rules(game).holdings(game)))


def test_aoc_a_played_state_breaks_nothing(aoc_mid) -> None:
    game, state = aoc_mid
    assert aoc.invariants(game, state, "") == []
    assert conserved(game, state) == []


def test_aoc_a_coin_out_of_nowhere_is_caught(aoc_mid) -> None:
    game, state = aoc_mid
    state = state.copy()
    state.players[0].counters["coins"] += 1
    assert any(m.startswith("coins tokens were made or lost") for m in conserved(game, state))


def test_aoc_a_bonus_coin_on_a_card_counts_as_held(aoc_mid) -> None:
    """A coin moved from the supply onto a civilization card is still in the game."""
    game, state = aoc_mid
    state = state.copy()
    card = state.zones["civilization-market"][0]
    card.tokens = {**(card.tokens or {}), "coins": (card.tokens or {}).get("coins", 0) + 2}
    assert any(m.startswith("coins tokens") for m in conserved(game, state))
    state.supply["coins"] -= 2
    assert conserved(game, state) == []


def test_aoc_a_lost_worker_is_caught(aoc_mid) -> None:
    game, state = aoc_mid
    state = state.copy()
    state.supply["workers"] -= 1
    assert any(m.startswith("workers tokens were made or lost") for m in conserved(game, state))


def test_aoc_a_technology_held_twice_is_caught(aoc_mid) -> None:
    game, state = aoc_mid
    state = state.copy()
    state.players[1].vars["techs"] += ["writing", "writing"]
    state.supply["technology-tokens"] -= 2
    assert "a technology is held twice" in aoc.invariants(game, state, "")


def test_aoc_too_many_civilizations_are_caught(aoc_mid) -> None:
    game, state = aoc_mid
    state = state.copy()
    state.players[0].zones["civilizations"] = [CardInstance(9000 + i, "rome") for i in range(4)]
    assert any("more than 3 civilizations" in m for m in aoc.invariants(game, state, ""))


def test_aoc_a_time_track_missing_a_card_is_caught(aoc_mid) -> None:
    game, state = aoc_mid
    state = state.copy()
    state.zones["time-track"].pop()
    assert "the time track does not hold all its action cards" in aoc.invariants(game, state, "")


def test_taw_a_played_state_breaks_nothing(taw_mid) -> None:
    game, state = taw_mid
    assert taw.invariants(game, state, "") == []
    assert conserved(game, state) == []


@pytest.mark.parametrize("supply", ["coins", "knowledge", "ambrosia"])
def test_taw_a_token_out_of_nowhere_is_caught(taw_mid, supply) -> None:
    game, state = taw_mid
    state = state.copy()
    state.players[2].counters[supply] += 2
    assert any(m.startswith(f"{supply} tokens were made or lost") for m in conserved(game, state))


def test_taw_tokens_on_armies_board_and_table_are_counted(taw_mid) -> None:
    """`holdings` names what no counter shows: ambrosia on a space, a citizen off the box."""
    game, state = taw_mid
    state = state.copy()
    state.vars.setdefault("amb", {})["explore"] = state.vars.get("amb", {}).get("explore", 0) + 1
    assert any(m.startswith("ambrosia tokens") for m in conserved(game, state))
    state.supply["ambrosia"] -= 1
    assert conserved(game, state) == []
    state.supply["citizens"] += 1
    assert any(m.startswith("citizens tokens") for m in conserved(game, state))


def test_taw_a_citizen_of_one_number_twice_is_caught(taw_mid) -> None:
    game, state = taw_mid
    state = state.copy()
    assert taw.invariants(game, state, "") == []
    cit = state.players[0].vars["cit"]
    cit.append(list(cit[0]))
    state.supply["citizens"] -= 1
    assert "a player holds two citizens of one number, or a number outside 1-5" in \
        taw.invariants(game, state, "")


def test_taw_an_empire_card_owned_twice_is_caught(taw_mid) -> None:
    game, state = taw_mid
    state = state.copy()
    empire = state.players[1].zones["empire"]
    empire.append(CardInstance(99999, empire[0].card))
    assert "a player owns two copies of one empire card" in taw.invariants(game, state, "")


def test_taw_a_round_marker_off_its_round_is_caught(taw_mid) -> None:
    game, state = taw_mid
    state = state.copy()
    state.counters["round"] = state.turn + 3
    assert "the round marker is not on the current round" in taw.invariants(game, state, "")


def test_a_scenario_from_the_pregame_is_held_to_the_box_stock(tmp_path) -> None:
    """Age of Civilization's counters start with 3 coins each (taken from the supply when the
    state is made): a scenario played from the pregame must not read them as coins made (it
    is held to the stock, as a fresh game is), while one that starts later is held to its own
    totals."""
    import os

    from click.testing import CliRunner

    from pnp.cli import main
    from pnp.paths import SCHEMAS

    schema = os.path.relpath(SCHEMAS / "scenario.schema.json", tmp_path)
    scenario = tmp_path / "pregame.yaml"
    scenario.write_text(f"# yaml-language-server: $schema={schema}\nname: from the pregame\n"
                        f"game: {CARDS / 'age-of-civilization'}\nplayers: 2\nbots: first\n"
                        "expect:\n  - after: pregame\n    players:\n"
                        "      - counters: {coins: 3}\n")
    result = CliRunner().invoke(main, ["scenario", str(scenario)])
    assert result.exit_code == 0, result.output
