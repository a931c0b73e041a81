"""The Ancient World's and Age of Civilization's own invariants catch the broken states they
exist for: tokens made or lost, a card or citizen held twice, limits exceeded."""

from __future__ import annotations

import pytest

from pnp.data.game import load_game
from pnp.engine.core import CardInstance, State
from pnp.engine.play import play_game
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


def test_aoc_a_played_state_breaks_nothing(aoc_mid) -> None:
    game, state = aoc_mid
    assert aoc.invariants(game, state, "") == []


def test_aoc_a_coin_out_of_nowhere_is_caught(aoc_mid) -> None:
    game, state = aoc_mid
    state = state.copy()
    state.players[0].counters["coins"] += 1
    assert "coins were made or lost (supply, hands and bonus coins do not add up)" in \
        aoc.invariants(game, state, "")


def test_aoc_a_lost_worker_is_caught(aoc_mid) -> None:
    game, state = aoc_mid
    state = state.copy()
    state.supply["workers"] -= 1
    assert "worker tokens were made or lost" in aoc.invariants(game, state, "")


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


def test_taw_a_coin_out_of_nowhere_is_caught(taw_mid) -> None:
    """Tokens are conserved from the totals a game's state is first checked with (a scenario
    may start from other amounts), so check once, then break it, as the step checker does."""
    game, state = taw_mid
    state = state.copy()
    assert taw.invariants(game, state, "") == []
    state.players[2].counters["coins"] += 2
    assert "coins are made or lost: held and supply do not add up to the totals" in \
        taw.invariants(game, state, "")


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
