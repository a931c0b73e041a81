"""Engine speed: complete 4-player Ancient Civilizations games per second on one process.

Plays seeded games with sampled invariants (the harness default), then runs the stripped
baseline loop (/work/shared/bench/ac_stripped_loop.py) side by side and prints the ratio of
turns per second. Usage:

    python benchmarks/engine_games.py [--games N] [--bots random,greedy] [--profile]
"""

from __future__ import annotations

import argparse
import cProfile
import io
import pstats
import re
import subprocess
import sys
import time
from pathlib import Path

from pnp.data.game import load_game
from pnp.engine.play import play_game
from pnp.paths import CARDS

BASELINE = Path("/work/shared/bench/ac_stripped_loop.py")
SEED_TEXT = Path("/work/shared/seeds/002_966292444ce3e8d0.txt")


def run_engine(games: int, bots: list[str], players: int, invariants: str) -> tuple[float, int]:
    """(CPU seconds, turns) for `games` games, bots rotated through the seats as in a balance run."""
    game = load_game(CARDS / "ancient-civilizations").game
    play_game(game, players, 0, [bots[0]])  # warm the per-definition tables
    turns = 0
    started = time.process_time()
    for i in range(games):
        seats = [bots[(i + s) % len(bots)] for s in range(players)]
        turns += play_game(game, players, i, seats, invariants=invariants).turns
    return time.process_time() - started, turns


def run_baseline(games: int) -> tuple[float, float] | None:
    """(games/s, turns per game) of the stripped loop, or None when it is not available."""
    if not BASELINE.exists() or not SEED_TEXT.exists():
        return None
    out = subprocess.run([sys.executable, str(BASELINE), str(SEED_TEXT), str(games)],
                         capture_output=True, text=True, check=True).stdout
    m = re.search(r"([\d.]+) turns avg, (\d+) games/s", out)
    return (float(m[2]), float(m[1])) if m else None


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=1000)
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--bots", default="random,greedy")
    ap.add_argument("--invariants", default="sample", choices=["all", "sample", "none"])
    ap.add_argument("--baseline-games", type=int, default=5000)
    ap.add_argument("--profile", action="store_true", help="print the top of a cProfile run")
    args = ap.parse_args()
    bots = args.bots.split(",")
    if args.profile:
        prof = cProfile.Profile()
        prof.enable()
        run_engine(min(args.games, 200), bots, args.players, args.invariants)
        prof.disable()
        buf = io.StringIO()
        pstats.Stats(prof, stream=buf).sort_stats("tottime").print_stats(20)
        print(buf.getvalue())
        return
    seconds, turns = run_engine(args.games, bots, args.players, args.invariants)
    gps, tps = args.games / seconds, turns / seconds
    print(f"engine:   {args.games} games ({args.players} players, bots {args.bots}, invariants "
          f"{args.invariants}): {gps:.0f} games/s, {turns / args.games:.1f} turns/game, "
          f"{tps:.0f} turns/s")
    base = run_baseline(args.baseline_games)
    if base is None:
        print("baseline: not found")
        return
    bgps, bturns = base
    btps = bgps * bturns
    print(f"baseline: {args.baseline_games} games: {bgps:.0f} games/s, {bturns:.1f} turns/game, "
          f"{btps:.0f} turns/s")
    print(f"ratio:    engine turns/s / baseline turns/s = {tps / btps:.3f} (target >= 0.1)")


if __name__ == "__main__":
    main()
