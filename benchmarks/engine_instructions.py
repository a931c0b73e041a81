"""Engine against the stripped loop in machine instructions, cache misses and mispredicted
branches per turn (valgrind's cachegrind): deterministic figures that explain the CPU-time
ratio `engine_games.py` prints, and that do not drift with the load on a shared machine.

Each side runs twice under cachegrind, N and 2N games (the engine: greedy bots in all four
seats, sampled invariants, 100 fresh seeds per round, as engine_games.py plays them); the
difference is the steady state of N games on seeds the first N did not play, start-up and
first-use tables left out. Needs valgrind (`apt-get install -y valgrind`); without it, it
says so and exits 0. Run from the checkout it measures, as a module:

    python -m benchmarks.engine_instructions [--rounds 1]
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from benchmarks.engine_games import BASELINE, SEED_TEXT

ROOT = Path(__file__).resolve().parent.parent
EVENTS = {"I   refs": "instructions", "I1  misses": "I1 misses", "D1  misses": "D1 misses",
          "Mispredicts": "mispredicted branches"}

ENGINE = """
import sys
from pnp.data.game import load_game
from pnp.engine.play import play_game
from pnp.paths import CARDS
game = load_game(CARDS / "ancient-civilizations").game
turns = 0
for r in range(int(sys.argv[1])):
    for i in range(100 * r, 100 * r + 100):  # every round on seeds of its own
        turns += play_game(game, 4, i, ["greedy"] * 4, invariants="sample").turns
print("turns", turns)
"""

STRIPPED = """
import importlib.util, random, sys
spec = importlib.util.spec_from_file_location("loop", {baseline!r})
loop = importlib.util.module_from_spec(spec)
spec.loader.exec_module(loop)
tracks = loop.load({seeds!r})
rng = random.Random(1)
print("turns", sum(loop.play(tracks, rng) for _ in range(1000 * int(sys.argv[1]))))
"""


def measure(script: str, rounds: int) -> dict[str, float]:
    """Cachegrind's totals (and the turns played) of `script` run for `rounds` rounds."""
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "run.py"
        path.write_text(script)
        out = subprocess.run(
            ["valgrind", "--tool=cachegrind", "--cache-sim=yes", "--branch-sim=yes",
             "--cachegrind-out-file=/dev/null", sys.executable, str(path), str(rounds)],
            capture_output=True, text=True, cwd=ROOT, check=True,
            env={**os.environ, "PYTHONHASHSEED": "0", "PYTHONPATH": str(ROOT)})
    figures = {"turns": float(re.search(r"turns (\d+)", out.stdout).group(1))}
    for line in out.stderr.splitlines():
        for label, name in EVENTS.items():
            m = re.search(re.escape(label) + r":\s+([\d,]+)", line)
            if m:
                figures[name] = float(m.group(1).replace(",", ""))
    return figures


def steady(script: str, rounds: int) -> dict[str, float]:
    """Per turn, the figures of `rounds` more rounds after `rounds` first ones."""
    once, twice = measure(script, rounds), measure(script, 2 * rounds)
    turns = twice["turns"] - once["turns"]
    return {k: (twice[k] - once[k]) / turns for k in twice if k != "turns"} | {"turns": turns}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rounds", type=int, default=1,
                    help="rounds of 100 engine games (1000 baseline games) per measure")
    args = ap.parse_args()
    if shutil.which("valgrind") is None:
        print("valgrind is not installed (apt-get install -y valgrind): nothing measured")
        return
    if not BASELINE.exists() or not SEED_TEXT.exists():
        print(f"baseline not found ({BASELINE}): nothing measured")
        return
    engine = steady(ENGINE, args.rounds)
    base = steady(STRIPPED.format(baseline=str(BASELINE), seeds=str(SEED_TEXT)), args.rounds)
    print(f"per turn (steady state; engine {engine['turns']:.0f} turns, "
          f"baseline {base['turns']:.0f} turns)")
    print(f"{'':24s} {'engine':>14s} {'baseline':>12s} {'baseline/engine':>16s}")
    for name in EVENTS.values():
        print(f"{name:24s} {engine[name]:14,.0f} {base[name]:12,.0f} "
              f"{base[name] / engine[name]:16.3f}")


if __name__ == "__main__":
    main()
