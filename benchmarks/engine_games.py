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


def run_engine(game, games: int, bots: list[str], players: int, invariants: str,
               first_seed: int = 0) -> tuple[float, int]:
    """(CPU seconds, turns) for `games` games, bots rotated through the seats as in a balance run."""
    turns = 0
    started = time.process_time()
    for i in range(first_seed, first_seed + games):
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
    ap.add_argument("--games", type=int, default=1000, help="engine games in all")
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--bots", default="random,greedy", help="rotated through the seats")
    ap.add_argument("--invariants", default="sample", choices=["all", "sample", "none"])
    ap.add_argument("--baseline-games", type=int, default=6000, help="baseline games in all")
    ap.add_argument("--rounds", type=int, default=3,
                    help="engine and baseline alternate this many times (shared machines drift)")
    ap.add_argument("--profile", action="store_true", help="print the top of a cProfile run")
    args = ap.parse_args()
    bots = args.bots.split(",")
    game = load_game(CARDS / "ancient-civilizations").game
    play_game(game, args.players, 0, [bots[0]])  # build the per-definition tables once
    if args.profile:
        prof = cProfile.Profile()
        prof.enable()
        run_engine(game, min(args.games, 200), bots, args.players, args.invariants)
        prof.disable()
        buf = io.StringIO()
        pstats.Stats(prof, stream=buf).sort_stats("tottime").print_stats(25)
        print(buf.getvalue())
        return
    seconds = turns = 0.0
    base_tps: list[float] = []
    base_games = base_turns = 0.0
    first = 0
    for k in range(args.rounds):
        base = run_baseline(max(1, args.baseline_games // args.rounds))
        if base is not None:
            base_tps.append(base[0] * base[1])
            base_games += base[0]
            base_turns += base[1]
        count = args.games // args.rounds + (1 if k < args.games % args.rounds else 0)
        dt, n = run_engine(game, count, bots, args.players, args.invariants, first)
        first += count
        seconds += dt
        turns += n
    played = first
    gps, tps = played / seconds, turns / seconds
    print(f"engine:   {played} games ({args.players} players, bots {args.bots}, invariants "
          f"{args.invariants}): {gps:.0f} games/s, {turns / played:.1f} turns/game, "
          f"{tps:.0f} turns/s")
    if not base_tps:
        print("baseline: not found")
        return
    btps = sum(base_tps) / len(base_tps)
    print(f"baseline: {BASELINE.name} {args.baseline_games} games: "
          f"{base_games / len(base_tps):.0f} games/s, {base_turns / len(base_tps):.1f} "
          f"turns/game, {btps:.0f} turns/s")
    print(f"ratio:    engine turns/s / baseline turns/s = {tps / btps:.3f} (target >= 0.1)")


if __name__ == "__main__":
    main()
