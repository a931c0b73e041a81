"""Engine speed: complete 4-player Ancient Civilizations games, against a stripped loop.

Both sides are measured the same way: CPU time (time.process_time), in this one process,
engine and baseline runs interleaved (a shared machine drifts), over several rounds; it prints
the min and median CPU seconds of each side, its best and median turns per second, and the
ratio engine turns/s ÷ baseline turns/s (target ≥ 0.10 with greedy bots and sampled
invariants). Every engine round plays seeds no earlier round played (after one warm-up block):
the engine remembers decisions and tables across games, and a round that replayed the seeds
of the one before would find them ready, as no long run of distinct seeds does. The baseline
remembers nothing, so its rounds replay its own seed. The baseline is
/work/shared/bench/ac_stripped_loop.py, imported and timed here rather than trusting its own
wall-clock figure. Run it from the checkout to measure (as a module, so that checkout's `pnp`
is the one imported; the first line says which):

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

#: the warm-up block's first seed: far from the rounds' seeds (0, games, 2 games, ...)
WARM_UP = 1_000_000
BASELINE = Path("/work/shared/bench/ac_stripped_loop.py")
SEED_TEXT = Path("/work/shared/seeds/002_966292444ce3e8d0.txt")


def run_engine(game, games: int, bots: list[str], players: int, invariants: str,
               first: int = 0) -> tuple[float, int]:
    """(CPU seconds, turns) for seeds first..first+games-1, bots rotated through the seats."""
    turns = 0
    started = time.process_time()
    for i in range(first, first + games):
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


def summary(name: str, what: str, runs: list[tuple[float, int]]) -> tuple[float, float]:
    """Print min and median CPU seconds of one side's (seconds, turns) runs; return its best
    and median turns per second."""
    seconds = [s for s, _ in runs]
    rates = [t / s for s, t in runs]
    best, mid = max(rates), statistics.median(rates)
    print(f"{name:9s} {what}: CPU s per run min {min(seconds):.3f} median "
          f"{statistics.median(seconds):.3f} ({len(runs)} runs); turns/s {best:.0f} (best) "
          f"{mid:.0f} (median)")
    return best, mid


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
    # warm-up: the per-definition tables are built, as in any long run (seeds of their own)
    run_engine(game, args.games, bots, args.players, args.invariants, WARM_UP)
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
    engine: list[tuple[float, int]] = []
    base: list[tuple[float, int]] = []
    for r in range(args.rounds):
        if baseline is not None:
            base.append(run_baseline(baseline, args.baseline_games))
        engine.append(run_engine(game, args.games, bots, args.players, args.invariants,
                                 r * args.games))  # round r: seeds no other round plays
    turns = sum(t for _, t in engine) / (args.games * args.rounds)
    e_best, e_mid = summary("engine", f"{args.games} games ({args.players} players, bots "
                            f"{args.bots}, invariants {args.invariants}, {turns:.1f} "
                            "turns/game, fresh seeds each run)", engine)
    if baseline is None:
        print("baseline: not found")
        return
    b_best, b_mid = summary("baseline", f"{BASELINE.name}, {args.baseline_games} games "
                            f"({base[0][1] / args.baseline_games:.1f} turns/game)", base)
    print(f"ratio     engine turns/s / baseline turns/s: {e_mid / b_mid:.3f} (medians), "
          f"{e_best / b_best:.3f} (best runs); target >= 0.10")


if __name__ == "__main__":
    main()
