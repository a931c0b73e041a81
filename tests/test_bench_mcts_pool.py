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


def pool(*paths: Path | str) -> list[str]:
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


def test_against_pairs_each_run_with_the_other_settings_run_of_its_seed(tmp_path):
    # setting A against setting B on the same two seeds: A wins one seat-game B lost, in each
    a1 = record(tmp_path / "a1.json", 1, [(1, 0), (0, 0)])
    a2 = record(tmp_path / "a2.json", 2, [(1, 1), (1, 0)])
    b1 = record(tmp_path / "b1.json", 1, [(0, 0), (0, 0)])
    b2 = record(tmp_path / "b2.json", 2, [(0, 1), (1, 0)])
    lines = pool(a1, a2, "--against", b1, b2)
    assert lines[0].startswith(f"{a1} against {b1}: +50.0% (")
    assert lines[-1].startswith("pooled against the other runs: +50.0%")
    assert lines[-1].endswith("paired over 4 seat-games")


def test_against_a_run_of_another_seed_is_refused(tmp_path):
    a = record(tmp_path / "a.json", 1, [(1, 0)])
    b = record(tmp_path / "b.json", 2, [(0, 0)])
    done = subprocess.run([sys.executable, str(POOL), str(a), "--against", str(b)],
                          capture_output=True, text=True)
    assert done.returncode != 0 and "is not" in done.stderr and "seed" in done.stderr


def test_against_needs_one_run_for_each_record(tmp_path):
    a = record(tmp_path / "a.json", 1, [(1, 0)])
    b = record(tmp_path / "b.json", 2, [(0, 0)])
    done = subprocess.run([sys.executable, str(POOL), str(a), str(b), "--against", str(a)],
                          capture_output=True, text=True)
    assert done.returncode != 0 and "one run for each" in done.stderr
