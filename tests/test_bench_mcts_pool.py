"""benchmarks/mcts_pool.py reads several seeds' records as one sample, and says when it mixes
runs that are not alike."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

POOL = Path(__file__).resolve().parents[1] / "benchmarks" / "mcts_pool.py"


def record(path: Path, seed: int, pairs: list[tuple[float, float]], budget: int = 32) -> Path:
    """A record file as `mcts_bot.py --record` writes it: (mcts share, greedy share) per
    seat-game."""
    rows = [{"game": i, "seat": 0, "mcts": m, "greedy": g} for i, (m, g) in enumerate(pairs)]
    path.write_text(json.dumps({"game": "toy", "players": 2, "opponent": "greedy",
                                "mixed": False, "settings": [], "budget": budget,
                                "seed": seed, "records": rows}))
    return path


def pool(*paths: Path) -> list[str]:
    out = subprocess.run([sys.executable, str(POOL), *map(str, paths)], check=True,
                         capture_output=True, text=True).stdout
    return out.splitlines()


def test_two_seeds_pool_into_one_sample(tmp_path):
    # seed 1: mcts wins 3 of 4 where greedy won 1; seed 2: 1 of 4 where greedy won 1
    a = record(tmp_path / "a.json", 1, [(1, 0), (1, 0), (1, 1), (0, 0)])
    b = record(tmp_path / "b.json", 2, [(0, 0), (1, 1), (0, 0), (0, 0)])
    lines = pool(a, b)
    assert "4 seat-games: mcts wins 75.0%" in lines[0] and "gain +50.0%" in lines[0]
    assert "4 seat-games: mcts wins 25.0%" in lines[1] and "gain +0.0%" in lines[1]
    assert lines[-1].startswith("pooled over 2 runs: 8 seat-games: mcts wins 50.0%")
    assert "the same seats 25.0%, gain +25.0%" in lines[-1]
    assert not any(line.startswith("warning") for line in lines)


def test_runs_at_other_budgets_are_pooled_with_a_warning(tmp_path):
    a = record(tmp_path / "a.json", 1, [(1, 0), (0, 0)], budget=32)
    b = record(tmp_path / "b.json", 2, [(1, 0), (0, 0)], budget=128)
    assert any(line.startswith("warning: the runs differ") for line in pool(a, b))
