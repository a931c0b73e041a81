"""Age of Civilization: the data agrees with itself and setup follows the rulebook's numbers."""

from __future__ import annotations

import pytest

from pnp.data.game import load_game
from pnp.engine.bots import FirstBot
from pnp.engine.core import Context, SeededDice
from pnp.engine.play import play_game
from pnp.engine.result import GameResult
from pnp.engine.state import observe
from pnp.games import age_of_civilization as aoc
from pnp.paths import CARDS

GAME = load_game(CARDS / "age-of-civilization").game


def _setup(players: int, variant: str | None = None, seed: int = 3):
    game = load_game(CARDS / "age-of-civilization", variant).game if variant else GAME
    state = aoc.new_state(game, players)
    ctx = Context(state, SeededDice(seed), [FirstBot()] * players,
                  GameResult(game.id, seed, players, ()))
    aoc.AoC(aoc.rules_for(game), ctx, state).setup()
    return game, state


def test_every_ability_names_a_card_and_every_requirement_a_technology() -> None:
    assert aoc.rules_for(GAME).problems() == []


def test_every_civilization_has_abilities_and_the_rulebook_ones_are_marked() -> None:
    r = aoc.rules_for(GAME)
    assert len(r.civs) == 48
    assert all(r.main.get(c) and r.legacy.get(c) for c in r.civs)
    explained = {c for c, f in r.civs.items() if f["main_from_rulebook"]}
    assert {"aksum", "arabia", "persia", "tiwanaku", "vikings", "iberia", "carthage"} <= explained


def test_the_printed_tree_and_solo_sheet_repeat_the_rules_data() -> None:
    r = aoc.rules_for(GAME)
    tree = GAME.decks["technology-cards"].cards[0].fields
    for t in r.basic:
        f = r.techs[t]
        assert tree[f"{f['column']}_{f['row']}"] == f"{r.tech_names[t]}: {f['ability']}"
    sheet = GAME.decks["solo-sheet"].cards[0].fields
    assert list(sheet["achievements"]) == [a["name"] for a in r.achievements]


def test_writing_and_education_open_science_engineering_sailing_and_mining() -> None:
    _, state = _setup(2)
    p = state.players[0]
    p.vars["techs"] = ["writing", "education"]
    game = aoc.AoC(aoc.rules_for(GAME), None, state)
    assert sorted(game.available_techs(p)) == ["engineering", "mining", "sailing", "science"]


@pytest.mark.parametrize("players", [2, 3, 4])
def test_setup_markets_coins_and_time_track(players: int) -> None:
    _, state = _setup(players)
    assert len(state.zones["wonder-market"]) == 3 + players
    assert len(state.zones["civilization-market"]) == 5
    assert len(state.zones["time-track"]) == 8
    assert all(p.counters["coins"] == 3 for p in state.players)
    assert state.supply["coins"] == 70 - 3 * players


def test_solo_setup_removes_seven_civilizations_and_puts_the_plague_fifth() -> None:
    _, state = _setup(1)
    removed = {"mongolia", "vikings", "germania", "carthage", "phoenicia", "scythia", "iberia"}
    left = {c.card for c in state.zones["civilization-deck"] + state.zones["civilization-market"]}
    assert not removed & left and len(left) == 41
    assert len(state.zones["wonder-market"]) == 4
    assert state.zones["time-track"][4].card == "plague-card"


def test_the_first_game_variant_orders_the_track_whatever_the_seed() -> None:
    orders = {tuple(c.card for c in _setup(2, "first-game", seed)[1].zones["time-track"])
              for seed in range(4)}
    assert orders == {("hunt-card", "fish-card", "farm-card", "conquest-card", "trade-card",
                       "culture-card", "plague-card", "build-card")}
    assert len({tuple(c.card for c in _setup(2, None, s)[1].zones["time-track"])
                for s in range(4)}) > 1


def test_vikings_keep_every_other_player_from_trading() -> None:
    state = aoc.main_state(GAME, 2)
    state.turn = 5  # Trade is open in round 5 of the unshuffled track
    game = aoc.AoC(aoc.rules_for(GAME), None, state)
    state.players[0].counters["workers"] = 1
    assert "trade" in game.placements(0, state.players[0], 1, [])
    vikings = next(c for c in state.zones["civilization-deck"] if c.card == "vikings")
    state.zones["civilization-deck"].remove(vikings)
    state.players[1].zones["civilizations"].append(vikings)
    assert "trade" not in game.placements(0, state.players[0], 1, [])
    assert "trade" in game.placements(1, state.players[1], 1, [])


def test_drafting_deals_five_each_leaves_two_each_in_the_market_and_hides_hands() -> None:
    game, state = _setup(3, "drafting")
    assert all(len(p.zones["civilization-hand"]) == 5 for p in state.players)
    assert len(state.zones["civilization-market"]) == 6
    seen = observe(state, 0, aoc.metadata(game).zone_visibility)
    assert all(c.card == "?" for c in seen.players[1].zones["civilization-hand"])


@pytest.mark.parametrize("players", [1, 2, 3, 4])
def test_every_game_lasts_six_rounds(players: int) -> None:
    r = play_game(GAME, players, 11, ["greedy"], invariants="all")
    assert r.ended == "completed" and r.turns == 6 and r.violations == []
