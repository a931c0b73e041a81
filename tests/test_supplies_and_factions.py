"""Component sufficiency and win rates by faction: generic harness measures, checked on fake
games whose true answers are known, and on The Ancient World itself."""

from __future__ import annotations

import dataclasses
import random

from test_selfplay_fakes import _result, fake_game

from pnp.data.game import load_game
from pnp.data.model import Supply
from pnp.engine.findings import find
from pnp.engine.selfplay import SimConfig, report_document, run_simulation
from pnp.paths import CARDS
from pnp.report.text import render_text

#: a fake game's coins: 30 in the box; games need between 20 and 39 of them at once
COINS = Supply("coins", "Coin tokens", 30, may_run_out=True)
CUBES = Supply("cubes", "Cubes", 12)


def _supplied():
    return dataclasses.replace(fake_game(), supplies={"coins": COINS, "cubes": CUBES})


def needy_play(game, players, seed, bots, *, invariants="sample", log=None, max_turns=None):
    """Coins: need uniform on 20..39 (so the box's 30 falls short in about half the games);
    cubes: need 4..8 of 12. Seat 0 plays the 'strong' faction, which always wins; games last
    9 to 11 turns (so they are not one game repeated, PNP-B027)."""
    rng = random.Random(seed)
    need = 20 + rng.randrange(20)
    return _result(game, players, seed, bots, 9 + seed % 3, (0,), [30] + [10] * (players - 1),
                   supply_low={"coins": COINS.stock - need, "cubes": 12 - rng.randint(4, 8)},
                   factions=("strong",) + ("weak",) * (players - 1))


def _doc(games=400, players=3):
    config = SimConfig(games=games, players=players, seed=5, bots=("random",), workers=1)
    return report_document(run_simulation(_supplied(), config, play=needy_play))


def test_supply_need_at_the_99th_percentile_against_the_stock():
    doc = _doc()
    coins, cubes = doc["supplies"]["coins"], doc["supplies"]["cubes"]
    assert coins["stock"] == 30 and coins["need_max"] <= 39 and coins["need_p99"] in (38, 39)
    assert coins["print_more"] == coins["need_p99"] - 30
    assert 0.35 < coins["short_rate"] < 0.65 and coins["shortfall_max"] == coins["need_max"] - 30
    assert cubes["need_p99"] <= 8 and cubes["print_more"] == 0 and cubes["short_games"] == 0


def test_a_supply_the_box_cannot_serve_is_a_finding_that_says_how_many_to_print():
    doc = _doc()
    found = [f for f in doc["findings"] if f["code"] == "PNP-B018"]
    assert len(found) == 1 and "Coin tokens" in found[0]["message"]
    assert f"print {doc['supplies']['coins']['print_more']} more" in found[0]["message"]
    assert "Supply     Coin tokens" in render_text(doc)


def test_enough_stock_gives_no_supply_finding():
    doc = _doc()
    doc["supplies"]["coins"]["print_more"] = 0
    assert not [f for f in find(doc) if f.code == "PNP-B018"]


def test_win_rate_by_faction_with_intervals_and_a_finding_for_the_strong_one():
    doc = _doc(games=200)
    rows = {f["faction"]: f for f in doc["factions"]}
    assert rows["strong"]["seat_games"] == 200 and rows["strong"]["win_rate"] == 1.0
    assert rows["weak"]["seat_games"] == 400 and rows["weak"]["win_rate"] == 0.0
    lo, hi = rows["strong"]["ci95"]
    assert lo > 0.9 and hi == 1.0
    messages = [f["message"] for f in doc["findings"] if f["code"] == "PNP-B019"]
    assert any(m.startswith("strong wins 100%") for m in messages)
    assert "Factions   strong: 100%" in render_text(doc)


def test_games_without_factions_report_none():
    doc = _doc(games=20)
    doc["factions"] = []
    assert not [f for f in find(doc) if f.code == "PNP-B019"]


def test_the_ancient_world_reports_its_supplies_and_city_states():
    game = load_game(CARDS / "the-ancient-world", "city-states").game
    config = SimConfig(games=8, players=4, seed=3, bots=("random", "greedy"), workers=1)
    doc = report_document(run_simulation(game, config))
    assert set(doc["supplies"]) == {"coins", "knowledge", "ambrosia", "citizens"}
    assert doc["supplies"]["citizens"]["need_max"] <= 20  # citizens may not run out
    assert all(s["need_p50"] > 0 for s in doc["supplies"].values())
    assert {f["faction"] for f in doc["factions"]} <= {
        "Unearthers of Umnok", "Merchants of Merlume", "Architects of Amnite", "Zealots of Zaltor"}
    assert sum(f["seat_games"] for f in doc["factions"]) == 32
