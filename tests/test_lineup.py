"""Line-ups separate seat from skill, and PNP-B005 and `pnp sweep` share one seat test.

The report this guards against: with the old default `random,greedy` at three players, seat 2
was the lone greedy bot against two random ones in every other game, so it "won" 44–50% of
games in fair games (the starter game, Age of Civilization, The Ancient World).
"""

from __future__ import annotations

import json
import random
from collections import Counter
from pathlib import Path

import pytest
from click.testing import CliRunner
from test_selfplay_fakes import fair_play, fake_game, skilled_play

from pnp.cli import main
from pnp.engine import lineup
from pnp.engine import stats as st
from pnp.engine.findings import find, seat_tests
from pnp.engine.selfplay import DEFAULT_BOTS, SimConfig, report_document, run_simulation
from pnp.engine.sweep import seat_balance
from pnp.scaffold import scaffold

MIX = ("random", "greedy")


def test_the_default_line_up_is_one_bot_in_every_seat():
    assert len(DEFAULT_BOTS) == 1
    assert lineup.seating(DEFAULT_BOTS, 4, 7) == DEFAULT_BOTS * 4
    assert lineup.balanced_games(199, DEFAULT_BOTS, 4) == 199


@pytest.mark.parametrize(("bots", "players", "seatings"), [
    (("random", "greedy"), 2, 2), (("random", "greedy"), 3, 3), (("random", "greedy"), 4, 6),
    (("a", "b", "c"), 3, 6), (("a", "b", "c"), 2, 6), (("a", "a", "b"), 3, 3),
])
def test_every_seating_is_played_equally_often(bots, players, seatings):
    assert lineup.count(bots, players) == seatings
    games = lineup.balanced_games(100, bots, players)
    assert games % seatings == 0 and 100 <= games < 100 + seatings
    played = Counter(lineup.seating(bots, players, i) for i in range(games))
    assert len(played) == seatings and set(played.values()) == {games // seatings}
    for seat in range(players):  # each bot in each seat as often as in any other seat
        per_seat = Counter(g[seat] for g in played.elements())
        assert per_seat == Counter(g[0] for g in played.elements())


def test_a_line_up_with_too_many_seatings_is_refused():
    assert lineup.problem(tuple("abcdef"), 6) is None  # 720: the most a run balances
    assert "seatings" in lineup.problem(tuple("abcdefg"), 7)
    result = CliRunner().invoke(main, ["simulate", "ancient-civilizations", "--players", "6",
                                       "--bots", "random,greedy,first,search:1,search:2,"
                                       "search:3,search-greedy:1", "--games", "1"])
    assert result.exit_code == 2 and "seatings" in result.output


def run(play, bots, players, games=300, seed=1):
    games = lineup.balanced_games(games, bots, players)
    config = SimConfig(games=games, players=players, seed=seed, bots=bots)
    return report_document(run_simulation(fake_game(), config, play=play))


@pytest.mark.parametrize("players", [3, 4])
def test_a_strong_bot_in_a_mixed_line_up_favours_no_seat(players):
    """greedy wins 70% of the games it sits in (skilled_play); every seat is fair. Rotating
    random,greedy gave seat 2 of 3 the greedy bot alone in half the games (about 48%)."""
    doc = run(skilled_play, MIX, players)
    assert "PNP-B005" not in {f["code"] for f in doc["findings"]}
    assert not any(s["flagged"] for s in doc["seats"])
    rates = {b["bot"]: b for b in doc["bots"]}  # bot rates reported apart, with intervals
    assert rates["greedy"]["ci95"][0] > doc["fair_share"] > rates["random"]["ci95"][1]


def _doc(wins: list[float], games: int) -> dict:
    fair = sum(wins) / (games * len(wins))
    return {"games": games, "fair_share": fair,
            "seats": [{"seat": i + 1, "wins": w, "win_rate": w / games,
                       "ci95": list(st.wilson(w, games))} for i, w in enumerate(wins)]}


def test_b005_and_sweep_never_disagree():
    """The same document gives the same verdict to both: here on the issue's case (seat 4 of
    4 at 18% in 200 games, which sweep flagged and B005 did not) and on 2,000 random ones."""
    rng = random.Random(5)
    cases = [_doc([52, 58, 54, 36], 200)]
    for _ in range(2000):
        players = rng.randint(2, 6)
        games = rng.choice([50, 200, 1000])
        weights = [rng.uniform(0.5, 1.5) for _ in range(players)]
        wins = Counter(rng.choices(range(players), weights, k=games))
        cases.append(_doc([wins[s] for s in range(players)], games))
    flagged_some = False
    for doc in cases:
        b005 = any(f.code == "PNP-B005" for f in find(_full(doc)))
        assert b005 == seat_balance(doc)["significant"] == any(
            t["flagged"] for t in seat_tests(doc))
        flagged_some |= b005
    assert flagged_some  # the test can fail: some of these seats are unfair


def _full(doc: dict) -> dict:
    """A document with just enough besides the seats for every finding check to run."""
    return {**doc, "outcomes": {"timeouts": 0, "elimination_causes": {}, "elimination_rate": 0,
                                "all_eliminated": 0},
            "violations": [], "bots": [], "never_seen": {"spaces": [], "chart_results": []},
            "spaces": {}, "charts": {}, "stats": {},
            "margin": {"tie_rate": 0, "negative": 0, "p50": 0, "p95": 0}}


def test_holm_is_never_looser_than_the_raw_p_values_and_keeps_their_order():
    raw = [0.01, 0.04, 0.03, 0.5]
    adjusted = st.holm(raw)
    assert adjusted == pytest.approx([0.04, 0.09, 0.09, 0.5])
    assert all(a >= r for a, r in zip(adjusted, raw, strict=True))
    assert st.rate_p_value(50, 100, 0.5) == 1.0
    assert st.rate_p_value(70, 100, 0.5) < 0.001


def test_fair_fake_game_is_flagged_in_no_seat():
    doc = run(fair_play, DEFAULT_BOTS, 4, games=1000)
    assert not any(s["flagged"] for s in doc["seats"])


def _starter(tmp_path, extra_gold: int):
    """The starter game of `pnp new`, seat 1 starting with `extra_gold` more gold."""
    folder = tmp_path / f"extra-{extra_gold}"
    scaffold(folder, "My Game!")
    rules = folder / "rules.py"
    text = rules.read_text()
    old = "    return State([PlayerState(start_counters(game), dict(pawns)) for _ in range(players)],"
    assert old in text
    rules.write_text(text.replace(old, (
        "    seats = [PlayerState(start_counters(game), dict(pawns)) for _ in range(players)]\n"
        f"    seats[0].counters[PAY] += {extra_gold}\n"
        "    return State(seats,")))
    return folder


@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_starter_game_is_fair_and_a_seat_with_extra_gold_is_flagged(tmp_path, players):
    """Done-when of issue 20: the starter game reports no seat finding with the default
    line-up; the same game with 4 more starting gold for seat 1 is flagged, at 2, 3 and 4."""
    verdicts = {}
    for extra in (0, 4):
        result = CliRunner().invoke(main, ["simulate", str(_starter(tmp_path, extra)),
                                           "--players", str(players), "--format", "json"])
        assert result.exit_code == 0, result.output
        doc = json.loads(result.stdout)
        assert doc["lineup"] == {"bots": list(DEFAULT_BOTS) * players, "seatings": 1}
        seat_findings = [f["message"] for f in doc["findings"] if f["code"] == "PNP-B005"]
        verdicts[extra] = (seat_findings, doc["seats"][0])
    assert verdicts[0][0] == []
    findings, seat1 = verdicts[4]
    assert seat1["flagged"] and seat1["win_rate"] > 1 / players
    assert any(m.startswith("Seat 1 wins") for m in findings)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_card_game_example_shows_no_seat_finding_with_the_default_line_up(players):
    folder = Path(__file__).resolve().parents[1] / "docs" / "examples" / "spice-market"
    result = CliRunner().invoke(main, ["simulate", str(folder), "--players", str(players),
                                       "--format", "json"])
    assert result.exit_code == 0, result.output
    doc = json.loads(result.stdout)
    assert [f for f in doc["findings"] if f["code"] == "PNP-B005"] == []
