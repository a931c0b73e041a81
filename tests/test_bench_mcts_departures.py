"""benchmarks/mcts_departures.py re-estimates each mcts departure on fresh worlds: it must
keep working against the bot's internals it reaches into (the root's samples, `iterate` with
a forced option, `playout`)."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

SCRIPT = Path(__file__).resolve().parents[1] / "benchmarks" / "mcts_departures.py"


@pytest.mark.parametrize("play", ["rollout", "tree"])
def test_every_departure_gets_a_fresh_estimate_and_the_run_a_summary(tmp_path, play):
    out = subprocess.run([sys.executable, str(SCRIPT), "age-of-civilization", "--players", "3",
                          "--games", "3", "--budget", "8", "--pairs", "8", "--play", play,
                          "--seed", "2"],
                         check=True, capture_output=True, text=True, cwd=tmp_path).stdout
    lines = out.splitlines()
    departures = [line for line in lines if "fresh pairs say" in line]
    summary = re.search(r"fresh pairs played on by (\w+)\): (\d+) departures", out)
    assert summary and summary.group(1) == play
    assert int(summary.group(2)) == len(departures) > 0  # seed 2 departs at least once here
    for line in departures:
        said, fresh = re.search(r"search said ([+-][\d.]+) on \d+ pairs; 8 fresh pairs say "
                                r"([+-][\d.]+) \(", line).groups()
        assert -1.1 <= float(said) <= 1.1 and -1.1 <= float(fresh) <= 1.1
