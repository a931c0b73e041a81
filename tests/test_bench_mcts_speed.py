"""benchmarks/mcts_speed.py compares the mcts bot's cost as shipped against a changed setting on
the same games, and says whether the change altered play (a saving must not)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from pnp.scaffold import scaffold

SPEED = Path(__file__).resolve().parents[1] / "benchmarks" / "mcts_speed.py"


def speed(game: Path, *settings: str) -> list[str]:
    sets = [arg for s in settings for arg in ("--set", s)]
    done = subprocess.run([sys.executable, str(SPEED), str(game), "--players", "2",
                           "--games", "2", "--rounds", "1", "--budget", "8", *sets],
                          capture_output=True, text=True, check=True)
    return done.stdout.splitlines()


def test_settling_saves_iterations_and_changes_no_game_while_a_looser_root_does(tmp_path):
    game = tmp_path / "caravan"
    scaffold(game)
    lines = speed(game, "SETTLE=0")
    shipped, whole = (float(line.split("median), ")[1].split()[0]) for line in lines[1:3])
    assert whole == 8.0 and shipped < whole
    assert lines[-1].endswith("the same games: same")
    # a root that leaves greedy's pick on any lead (with no fresh pairs to check it) plays
    # other games, and says so
    assert speed(game, "SURE=0", "CONFIRM=0", "SETTLE=0")[-1].endswith(
        "the same games: different")


def test_a_misspelt_setting_is_refused_before_any_game():
    done = subprocess.run([sys.executable, str(SPEED), "ancient-civilizations",
                           "--set", "SETLE=0"], capture_output=True, text=True)
    assert done.returncode == 1 and "mcts has no constant SETLE" in done.stderr
