"""Coverage: which action spaces and cards a game used, and the 'never used' finding."""

from __future__ import annotations

from collections import Counter
from types import SimpleNamespace

from pnp.engine.findings import find
from pnp.engine.result import GameResult
from pnp.engine.selfplay import Aggregate, SimConfig, Simulation, summarize


def _sim(coverage: list[Counter], universe: dict[str, list[str]], monkeypatch) -> dict:
    game = SimpleNamespace(id="race", tracks={}, charts={}, stats={})
    agg = Aggregate(players=2)
    for i, cov in enumerate(coverage):
        agg.add(i, GameResult("race", i, 2, ("random", "random"), winners=(0,), scores=(3, 1),
                              turns=5, coverage=cov))
    return summarize(Simulation(game, SimConfig(games=len(coverage), players=2), agg, 1.0,
                                coverage_keys=universe))


def test_coverage_counts_every_declared_key_zeros_included(monkeypatch) -> None:
    doc = _sim([Counter({("action", "build"): 2}), Counter({("action", "build"): 1,
                                                            ("card", "deck/crane"): 1})],
               {"action": ["build", "explore"], "card": ["deck/crane", "deck/bridge"]},
               monkeypatch)
    assert doc["coverage"] == {"action": {"build": 3, "explore": 0},
                               "card": {"deck/crane": 1, "deck/bridge": 0}}
    assert {"kind": "action", "key": "explore"} in doc["never_seen"]["coverage"]


def test_a_never_used_action_is_a_warning_naming_it(monkeypatch) -> None:
    doc = _sim([Counter({("action", "build"): 1})] * 3, {"action": ["build", "explore"]},
               monkeypatch)
    found = [f for f in find(doc) if f.code == "PNP-B017"]
    assert len(found) == 1 and found[0].severity == "warning"
    assert found[0].message == "1 action space never used in 3 games: explore"


def test_full_coverage_gives_no_unused_finding(monkeypatch) -> None:
    doc = _sim([Counter({("card", "d/a"): 1, ("card", "d/b"): 2})], {"card": ["d/a", "d/b"]},
               monkeypatch)
    assert not [f for f in find(doc) if f.code == "PNP-B017"]


def test_a_modules_own_kind_is_named_in_plain_english(monkeypatch) -> None:
    """Age of Civilization counts technologies and wonders: "technologies", not "technologys"."""
    doc = _sim([Counter({("technology", "mining"): 1, ("box", "red"): 1})] * 2,
               {"technology": ["mining", "currency", "engineering"], "box": ["red", "blue", "green"],
                "wonder": ["colossus"]}, monkeypatch)
    messages = sorted(f.message for f in find(doc) if f.code == "PNP-B017")
    assert messages == ["1 wonder never used (no wonder was used at all) in 2 games: colossus",
                        "2 boxes never used in 2 games: blue, green",
                        "2 technologies never used in 2 games: currency, engineering"]


def test_a_kind_keyed_by_a_card_id_is_named_by_the_card(monkeypatch) -> None:
    """The Ancient World counts card actions by the card's id: the finding names the card
    the designer would look for; a key that is no card's id, or two cards' names, stays."""
    doc = _sim([Counter({("card-action", "town-hall"): 1})] * 2,
               {"card-action": ["town-hall", "desert-caravan", "twin", "no-card"]}, monkeypatch)
    card = SimpleNamespace
    decks = {"a": card(cards=(card(id="desert-caravan", name="Desert Caravan"),
                              card(id="town-hall", name="Town Hall"),
                              card(id="twin", name="Twin A"))),
             "b": card(cards=(card(id="twin", name="Twin B"),))}
    game = SimpleNamespace(id="race", tracks={}, charts={}, stats={}, decks=decks)
    found = [f.message for f in find(doc, game) if f.code == "PNP-B017"]
    assert found == ["3 card-actions never used in 2 games: Desert Caravan, twin, no-card"]
