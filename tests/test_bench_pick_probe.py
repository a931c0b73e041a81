"""benchmarks/pick_probe.py: one seat that picks an option greedy passes over, paired with
greedy on the same seeds. A probe that takes nothing greedy would not must play greedy's very
games (gain exactly 0), and one that does must say how often it overrode greedy."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

SCRIPT = Path(__file__).resolve().parents[1] / "benchmarks" / "pick_probe.py"


def probe(tmp_path: Path, *args: str) -> str:
    return subprocess.run([sys.executable, str(SCRIPT), "ancient-civilizations", "--players",
                           "3", "--games", "12", *args], check=True, capture_output=True,
                          text=True, cwd=tmp_path).stdout


def figures(out: str) -> tuple[int, int, float]:
    offered, forced = map(int, re.search(r"offered at (\d+) decisions; picked it where greedy "
                                         r"would not at (\d+)", out).groups())
    gain = float(re.search(r"gain ([+-][\d.]+)%", out).group(1))
    return offered, forced, gain


def test_a_probe_that_overrides_nothing_plays_greedys_games(tmp_path):
    offered, forced, gain = figures(probe(tmp_path, "--at", "buy from the Purchase List",
                                          "--pick", "C+1", "--share", "0"))
    assert offered > 0 and forced == 0 and gain == 0.0


def test_a_probe_counts_its_overrides_and_plays_other_games(tmp_path):
    out = probe(tmp_path, "--at", "build: pay to move", "--pick", "stop",
                "--record", str(tmp_path / "r.json"))
    offered, forced, gain = figures(out)
    assert offered == forced > 0  # greedy always pays to move while it can
    assert (tmp_path / "r.json").stat().st_size > 0


def test_a_decision_the_game_never_asks_is_said_plainly(tmp_path):
    out = probe(tmp_path, "--at", "no such decision", "--pick", "stop")
    assert "never offered" in out and figures(out)[:2] == (0, 0)


def test_a_probe_valuing_a_stat_as_greedy_does_plays_greedys_games(tmp_path):
    out = probe(tmp_path, "--value", "gold=0.8")  # greedy's own worth for Gold
    assert "values gold at 0.8" in out and "offered at" not in out
    assert float(re.search(r"gain ([+-][\d.]+)%", out).group(1)) == 0.0


def test_a_probe_with_nothing_to_change_is_refused(tmp_path):
    for args in ([], ["--at", "build: pay to move"], ["--value", "gold=lots"]):
        run = subprocess.run([sys.executable, str(SCRIPT), "ancient-civilizations", *args],
                             capture_output=True, text=True, cwd=tmp_path)
        assert run.returncode == 2 and "pick_probe.py: error:" in run.stderr
