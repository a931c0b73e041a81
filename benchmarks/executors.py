"""Executors side by side: the same games on 1 worker, 2 local workers and a 2-worker Dask cluster.

Each round plays the same `--games` Ancient Civilizations games (4 players, random,greedy) on
every executor in turn (interleaved, since a shared machine drifts), checks that every executor
gave the same aggregate, and measures wall time and CPU time (this process plus its children;
for Dask, the CPU the workers report for their batches plus this process). Prints games/s and
the speed-up over one worker, min and median over the rounds. Usage:

    python benchmarks/executors.py [--games 4000] [--rounds 3] [--no-dask]

Only meaningful on an otherwise idle machine: check `uptime` first.
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import sys
import tempfile
import time
from pathlib import Path

from pnp.data.game import load_game
from pnp.engine import executor as ex
from pnp.engine.selfplay import SimConfig, default_play
from pnp.paths import CARDS

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))


def cpu_now() -> float:
    me = resource.getrusage(resource.RUSAGE_SELF)
    kids = resource.getrusage(resource.RUSAGE_CHILDREN)
    return me.ru_utime + me.ru_stime + kids.ru_utime + kids.ru_stime


def run(job: ex.Job, executor) -> tuple[float, float, ex.JobOutcome]:
    """(wall s, CPU s, outcome); the executor's own start-up and shut-down are included."""
    wall, cpu = time.perf_counter(), cpu_now()
    with executor:
        [outcome] = ex.run_jobs([job], executor)
    wall, cpu = time.perf_counter() - wall, cpu_now() - cpu
    if isinstance(executor, ex.DaskCluster):
        cpu += outcome.cpu_seconds  # worker CPU is not ours to measure: take what they report
    return wall, cpu, outcome


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=4000)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--no-dask", action="store_true", help="skip the Dask cluster")
    ap.add_argument("--own-sessions", action="store_true",
                    help="start local workers in sessions of their own, as the Dask workers "
                         "are (on a busy Linux machine with sched_autogroup, each then gets "
                         "its own share of the CPU)")
    args = ap.parse_args()
    game = load_game(CARDS / "ancient-civilizations").game
    job = ex.Job(game, SimConfig(games=args.games, players=4, seed=1), default_play())
    autogroup = Path("/proc/sys/kernel/sched_autogroup_enabled")
    grouped = autogroup.exists() and autogroup.read_text().strip() == "1"
    print(f"{args.games} games a run, {args.rounds} rounds, {os.cpu_count()} CPUs, load "
          f"{os.getloadavg()[0]:.2f} at start, sched_autogroup {'on' if grouped else 'off'}, "
          f"local workers in {'their own sessions' if args.own_sessions else 'this session'}")
    results: dict[str, list[tuple[float, float]]] = {}
    reference = None
    with tempfile.TemporaryDirectory() as tmp:
        cluster = None
        if not args.no_dask:
            from dask_cluster import dask_command, local_cluster

            if dask_command() is None:
                print("dask: not installed (pip install 'pnp[cluster]'), skipped")
            else:
                cluster = local_cluster(Path(tmp), workers=2)
                address = cluster.__enter__()
        try:
            for _ in range(args.rounds):
                makers = {"1 worker": ex.InProcess,
                          "2 local workers": lambda: ex.LocalProcesses(2, args.own_sessions)}
                if cluster is not None:
                    makers["2-worker Dask"] = lambda: ex.DaskCluster(address)
                for name, make in makers.items():
                    wall, cpu, outcome = run(job, make())
                    results.setdefault(name, []).append((wall, cpu))
                    state = vars(outcome.aggregate)
                    if reference is None:
                        reference = state
                    elif state != reference:
                        sys.exit(f"{name} gave a different aggregate: executors disagree")
        finally:
            if cluster is not None:
                cluster.__exit__(None, None, None)
    base_walls = [w for w, _ in results["1 worker"]]
    print(f"{'executor':<16} {'games/s (wall) min/med':>24} {'speed-up min/med':>17} "
          f"{'CPU ms/game min/med':>20}")
    for name, runs in results.items():
        walls, cpus = [w for w, _ in runs], [c for _, c in runs]
        gps = [args.games / w for w in walls]
        speed = [b / w for b, w in zip(base_walls, walls, strict=True)]  # same round, interleaved
        cpu_ms = [c / args.games * 1000 for c in cpus]
        print(f"{name:<16} {min(gps):>11.1f} / {statistics.median(gps):<10.1f} "
              f"{min(speed):>7.2f} / {statistics.median(speed):<7.2f} "
              f"{min(cpu_ms):>8.2f} / {statistics.median(cpu_ms):<8.2f}")
    print(f"load {os.getloadavg()[0]:.2f} at the end (on a shared machine the figures are noisy)")


if __name__ == "__main__":
    main()
