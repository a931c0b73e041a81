"""The engine's state and metadata built from a game's components (components.yaml, decks)."""

from __future__ import annotations

from pathlib import Path

from pnp.data.game import load_game
from pnp.engine.components import counter_bounds, initial_state, supplies, zone_visibility
from pnp.engine.core import observe, redeterminize
from pnp.paths import SCHEMAS

GAME = {
    "game.yaml": "# yaml-language-server: $schema=../../schemas/game.schema.json\n"
                 "id: tiny\nname: Tiny\nplayers: {min: 2, max: 4}\ncomponents:\n  - {id: cards, name: Cards, count: 5}\n"
                 "phases:\n  - {id: work, name: Work}\n",
    "stats.yaml": "# yaml-language-server: $schema=../../schemas/stats.schema.json\n"
                  "stats:\n  - {id: coins, name: Coins, abbreviation: C, start: 3, cap: 20}\n",
    "components.yaml": "# yaml-language-server: $schema=../../schemas/components.schema.json\n"
                       "counters:\n  - {id: round, name: Round, per_player: false, start: 1, min: 1, cap: 6}\n"
                       "supplies:\n  - {id: cubes, name: Cubes, stock: 30}\n"
                       "  - {id: coin-tokens, name: Coin tokens, stock: 40, may_run_out: true}\n"
                       "zones:\n  - {id: deck, name: Deck, kind: pile, deck: market}\n"
                       "  - {id: row, name: Market row, kind: row, capacity: 3}\n"
                       "  - {id: hand, name: Hand, kind: hand, owner: player}\n",
    "deck.yaml": "# yaml-language-server: $schema=../../schemas/deck.schema.json\n"
                 "decks:\n  - id: market\n    name: Market\n    size: poker\n    front: f\n"
                 "    cards:\n      - {id: farm, name: Farm, count: 3}\n"
                 "      - {id: mine, name: Mine, count: 2}\n",
}


def _game(tmp_path: Path):
    folder = tmp_path / "tiny"
    folder.mkdir()
    for name, text in GAME.items():
        (folder / name).write_text(text.replace("$schema=../../schemas", f"$schema={SCHEMAS}"))
    result = load_game(folder)
    errors = [d.format_text() for d in result.diagnostics if d.severity == "error"]
    assert result.game is not None, errors
    return result.game


def test_bounds_supplies_and_visibility_come_from_the_data(tmp_path: Path) -> None:
    game = _game(tmp_path)
    mine, shared = counter_bounds(game)
    assert mine == {"coins": (0, 20)} and shared == {"round": (1, 6)}
    assert supplies(game) == {"cubes": (30, False), "coin-tokens": (40, True)}
    vis = zone_visibility(game)
    assert vis["deck"] == "none" and vis["row"] == "all" and vis["hand"] == "owner"


def test_the_initial_state_deals_every_copy_into_its_zone(tmp_path: Path) -> None:
    state = initial_state(_game(tmp_path), 3)
    assert [c.card for c in state.zones["deck"]] == ["farm"] * 3 + ["mine"] * 2
    assert len({c.uid for c in state.zones["deck"]}) == 5
    assert state.zones["row"] == [] and all(p.zones == {"hand": []} for p in state.players)
    assert state.counters == {"round": 1} and state.players[0].counters == {"coins": 3}
    assert state.supply == {"cubes": 30, "coin-tokens": 40}


def test_an_observer_sees_its_own_hand_but_not_the_deck_or_other_hands(tmp_path: Path) -> None:
    game = _game(tmp_path)
    state = initial_state(game, 2)
    vis = zone_visibility(game)
    state.players[0].zones["hand"].append(state.zones["deck"].pop())
    state.players[1].zones["hand"].append(state.zones["deck"].pop())
    state.zones["row"].append(state.zones["deck"].pop())
    obs = observe(state, 0, vis)
    assert [c.card for c in obs.players[0].zones["hand"]] == ["mine"]
    assert [c.card for c in obs.players[1].zones["hand"]] == ["?"]
    assert {c.card for c in obs.zones["deck"]} == {"?"} and obs.zones["row"][0].card == "farm"
    assert state.players[1].zones["hand"][0].card == "mine"  # the real state is untouched


def test_redeterminize_only_moves_cards_the_seat_cannot_see(tmp_path: Path) -> None:
    import random

    game = _game(tmp_path)
    state = initial_state(game, 2)
    vis = zone_visibility(game)
    state.players[0].zones["hand"].append(state.zones["deck"].pop())  # a mine, seen by seat 0
    state.zones["row"].append(state.zones["deck"].pop(0))  # a farm, seen by all
    before_hidden = sorted(c.card for c in state.zones["deck"])
    for seed in range(10):
        copy = state.copy()
        redeterminize(copy, 0, vis, random.Random(seed))
        assert copy.players[0].zones["hand"][0].card == "mine"
        assert copy.zones["row"][0].card == "farm"
        assert sorted(c.card for c in copy.zones["deck"]) == before_hidden
