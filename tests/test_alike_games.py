"""Games that all play out alike (PNP-B027): Antike has no dice, so greedy in every seat plays
one game over and over; its seat rates then measure nothing and no seat may be flagged."""

from __future__ import annotations

from pnp.engine.findings import seat_tests
from pnp.engine.result import GameResult
from pnp.engine.selfplay import Aggregate, SimConfig, report_document, run_simulation


def _codes(doc):
    return [f["code"] for f in doc["findings"]]


def test_antike_with_greedy_in_every_seat_is_one_game_repeated_and_no_seat_is_flagged(game_defs):
    doc = report_document(run_simulation(game_defs("antike"),
                                         SimConfig(games=4, players=2, seed=1, bots=("greedy",))))
    assert doc["outcomes"]["all_alike"] is True
    assert {s["win_rate"] for s in doc["seats"]} == {0.0, 1.0}  # one seat wins every game ...
    assert "PNP-B027" in _codes(doc) and "PNP-B005" not in _codes(doc)  # ... and is not flagged
    assert not any(s["flagged"] for s in doc["seats"])


def test_one_game_repeated_flags_no_faction_option_or_plan_but_the_same_rates_varied_would(
        game_defs):
    """Antike's one greedy game: a nation wins every copy, and the openings and options of its
    winner are picked in every winning seat-game; as one game, none of that is a finding."""
    from pnp.engine.findings import ALIKE_STAND_DOWN

    sim = run_simulation(game_defs("antike"),
                         SimConfig(games=40, players=3, seed=1, bots=("greedy",)))
    doc = report_document(sim)
    codes = set(_codes(doc))
    assert "PNP-B027" in codes and not codes & ALIKE_STAND_DOWN
    assert any(f["win_rate"] == 1.0 for f in doc["factions"])  # the rates are still reported
    choices = doc["choices"]
    assert not any(r["flagged"] for r in choices["options"])
    assert not choices["openings"]["dominant"] and not choices["openings"]["one_plan"]
    sim.aggregate.varied = True  # the same figures, as if the games had differed
    varied = report_document(sim)
    assert {"PNP-B019", "PNP-B022", "PNP-B023", "PNP-B024"} <= set(_codes(varied))
    assert "PNP-B027" not in _codes(varied)
    assert any(r["flagged"] for r in varied["choices"]["options"])


def test_bots_that_vary_are_measured_as_usual(game_defs):
    doc = report_document(run_simulation(game_defs("antike"),
                                         SimConfig(games=3, players=2, seed=1, bots=("random",))))
    assert doc["outcomes"]["all_alike"] is False and "PNP-B027" not in _codes(doc)


def _result(turns: int, winner: int) -> GameResult:
    return GameResult(game="g", seed=1, players=2, bots=("greedy", "greedy"), turns=turns,
                      winners=(winner,), scores=(5, 3) if winner == 0 else (3, 5), margin=2)


def test_one_different_game_anywhere_makes_the_run_varied_batched_or_not():
    same = [_result(10, 0) for _ in range(4)]
    whole = Aggregate(players=2)
    for i, r in enumerate(same):
        whole.add(i, r)
    assert not whole.varied
    for odd_at in range(4):  # the odd game in the first batch, the second, at its start or end
        games = list(same)
        games[odd_at] = _result(11, 0)
        first, second = Aggregate(players=2), Aggregate(players=2)
        for i, r in enumerate(games[:2]):
            first.add(i, r)
        for i, r in enumerate(games[2:], 2):
            second.add(i, r)
        first.merge(second)
        assert first.varied, odd_at
    doc = {"fair_share": 0.5, "games": 200, "outcomes": {"all_alike": True},
           "seats": [{"seat": 1, "wins": 200, "win_rate": 1.0},
                     {"seat": 2, "wins": 0, "win_rate": 0.0}]}
    assert not any(t["flagged"] for t in seat_tests(doc))
    doc["outcomes"]["all_alike"] = False
    assert all(t["flagged"] for t in seat_tests(doc))  # the same rates, varied: both flagged
