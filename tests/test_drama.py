"""Lead changes, drama and decisiveness, from who led at the end of each turn."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from pnp.cli import main
from pnp.engine.drama import game_drama
from pnp.scaffold import scaffold


def test_a_wire_to_wire_win_has_no_drama():
    d = game_drama([(0,), (0,), (0,), (0,)], (0,))
    assert d == {"lead_changes": 0, "trailing_share": 0.0, "decided_at": 0.0, "comeback": 0}


def test_a_late_comeback_is_dramatic_and_decided_late():
    d = game_drama([(1,), (1,), (2,), (1,), (0,)], (0,))
    assert d["lead_changes"] == 3  # 1 -> 2 -> 1 -> 0
    assert d["trailing_share"] == pytest.approx(4 / 5)
    assert d["decided_at"] == pytest.approx(4 / 5)  # led only in the last of five turns
    assert d["comeback"] == 1  # not leading at half time (turn 3)


def test_ties_are_not_lead_changes_and_unnamed_turns_are_skipped():
    d = game_drama([(0,), (0, 1), (), (0,), (0,)], (0,))
    assert d["lead_changes"] == 0
    assert d["trailing_share"] == 0.0 and d["comeback"] == 0
    # a module whose leaders name nobody, or a game without a winner, records nothing
    assert game_drama([(), (), ()], (0,)) is None
    assert game_drama([(0,), (1,)], ()) is None


def test_simulate_reports_the_lead_of_a_game_played_by_turns(tmp_path):
    folder = tmp_path / "starter"
    scaffold(folder, "Starter")
    result = CliRunner().invoke(main, ["simulate", str(folder), "--games", "60",
                                       "--format", "json"])
    assert result.exit_code == 0, result.output
    lead = json.loads(result.stdout)["lead"]
    assert lead["games"] == 60
    assert 0 < lead["trailing_share"]["mean"] < 1
    assert lead["lead_changes"]["max"] >= 1
    assert lead["comeback_ci95"][0] <= lead["comeback_rate"] <= lead["comeback_ci95"][1]
    text = CliRunner().invoke(main, ["simulate", str(folder), "--games", "60"]).output
    assert "Lead       changes mean" in text


@pytest.mark.parametrize("game", ["ancient-civilizations", "age-of-civilization"])
def test_every_bundled_game_records_who_leads_each_turn(game):
    """Ancient Civilizations plays its own turn loop and Age of Civilization used to name
    nobody before the end: both now give the Lead line (points so far, the winners at the end)."""
    result = CliRunner().invoke(main, ["simulate", game, "--players", "3", "--games", "30",
                                       "--skill", "none", "--format", "json"])
    assert result.exit_code == 0, result.output
    lead = json.loads(result.stdout)["lead"]
    assert lead["games"] == 30
    assert 0 < lead["trailing_share"]["mean"] < 1  # some winners trailed, not all of the time
    assert lead["lead_changes"]["max"] >= 1


def test_an_age_of_civilization_game_stopped_by_the_cap_is_won_by_the_points_leaders(game_defs):
    """As in every other game: a timeout's winners are who leads then, not nobody."""
    from pnp.engine.play import play_game

    aoc = game_defs("age-of-civilization")
    result = play_game(aoc, 3, seed=5, bots=("greedy",) * 3, max_turns=3)
    assert result.ended == "timeout" and result.turns == 3
    points = [stats["points"] for stats in result.final_stats]
    assert result.winners and all(points[w] == max(points) for w in result.winners)
    assert len(result.leaders_by_turn) == 3 and result.leaders_by_turn[-1] == result.winners
