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
