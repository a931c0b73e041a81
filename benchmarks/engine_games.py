"""Engine speed: complete 4-player Ancient Civilizations games, against a stripped loop.

Both sides are measured the same way: CPU time (time.process_time) of the same work in every
run, in this one process, engine and baseline runs interleaved (a shared machine drifts), over
several rounds; it prints the min and median CPU seconds of each side, turns per second at
each, and the ratio engine turns/s ÷ baseline turns/s (target ≥ 0.10 with greedy bots and
sampled invariants). The baseline is /work/shared/bench/ac_stripped_loop.py, imported and
timed here rather than trusting its own wall-clock figure. Run it from the checkout to
measure (as a module, so that checkout's `pnp` is the one imported; the first line says which):

    python -m benchmarks.engine_games [--games N] [--rounds R] [--bots greedy] [--profile]
"""

from __future__ import annotations

import argparse
import cProfile
import importlib.util
import io
import pstats
import random
import statistics
import time
from pathlib import Path
from types import ModuleType

import pnp
from pnp.data.game import load_game
from pnp.engine.play import play_game
from pnp.paths import CARDS

BASELINE = Path("/work/shared/bench/ac_stripped_loop.py")
SEED_TEXT = Path("/work/shared/seeds/002_966292444ce3e8d0.txt")


def run_engine(game, games: int, bots: list[str], players: int, invariants: str) -> tuple[float, int]:
    """(CPU seconds, turns) for games 0..games-1, bots rotated through the seats."""
    turns = 0
    started = time.process_time()
    for i in range(games):
        seats = [bots[(i + s) % len(bots)] for s in range(players)]
        turns += play_game(game, players, i, seats, invariants=invariants).turns
    return time.process_time() - started, turns


def load_baseline() -> tuple[ModuleType, object] | None:
    """The stripped loop as a module, with its track tables read once (as its own main does)."""
    if not BASELINE.exists() or not SEED_TEXT.exists():
        return None
    spec = importlib.util.spec_from_file_location("ac_stripped_loop", BASELINE)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module, module.load(str(SEED_TEXT))


def run_baseline(baseline: tuple[ModuleType, object], games: int) -> tuple[float, int]:
    """(CPU seconds, turns) of the stripped loop's `games` games from its own seed (1)."""
    module, tracks = baseline
    rng = random.Random(1)
    started = time.process_time()
    turns = sum(module.play(tracks, rng) for _ in range(games))
    return time.process_time() - started, turns


def summary(name: str, what: str, seconds: list[float], turns: int) -> tuple[float, float]:
    """Print min and median CPU seconds of one side; return (turns/s at min, at median)."""
    best, mid = min(seconds), statistics.median(seconds)
    print(f"{name:9s} {what}: CPU s per run min {best:.3f} median {mid:.3f} "
          f"({len(seconds)} runs); turns/s {turns / best:.0f} (min) {turns / mid:.0f} (median)")
    return turns / best, turns / mid


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=100, help="engine games in each run")
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--bots", default="greedy", help="rotated through the seats")
    ap.add_argument("--invariants", default="sample", choices=["all", "sample", "none"])
    ap.add_argument("--baseline-games", type=int, default=1000, help="baseline games in each run")
    ap.add_argument("--rounds", type=int, default=5,
                    help="engine and baseline runs alternate this many times each")
    ap.add_argument("--profile", action="store_true", help="print the top of a cProfile run")
    args = ap.parse_args()
    bots = args.bots.split(",")
    print(f"measuring {Path(pnp.__file__).parent}")
    game = load_game(CARDS / "ancient-civilizations").game
    play_game(game, args.players, 0, [bots[0]])  # build the per-definition tables once
    if args.profile:
        prof = cProfile.Profile()
        prof.enable()
        run_engine(game, args.games, bots, args.players, args.invariants)
        prof.disable()
        buf = io.StringIO()
        pstats.Stats(prof, stream=buf).sort_stats("tottime").print_stats(30)
        print(buf.getvalue())
        return
    baseline = load_baseline()
    engine_s: list[float] = []
    base_s: list[float] = []
    engine_turns = base_turns = 0
    for _ in range(args.rounds):
        if baseline is not None:
            dt, base_turns = run_baseline(baseline, args.baseline_games)
            base_s.append(dt)
        dt, engine_turns = run_engine(game, args.games, bots, args.players, args.invariants)
        engine_s.append(dt)
    e_best, e_mid = summary("engine", f"{args.games} games ({args.players} players, bots "
                            f"{args.bots}, invariants {args.invariants}, "
                            f"{engine_turns / args.games:.1f} turns/game)", engine_s, engine_turns)
    if baseline is None:
        print("baseline: not found")
        return
    b_best, b_mid = summary("baseline", f"{BASELINE.name}, {args.baseline_games} games "
                            f"({base_turns / args.baseline_games:.1f} turns/game)", base_s,
                            base_turns)
    print(f"ratio     engine turns/s / baseline turns/s: {e_mid / b_mid:.3f} (medians), "
          f"{e_best / b_best:.3f} (mins); target >= 0.10")


if __name__ == "__main__":
    main()
