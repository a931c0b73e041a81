"""Pool several `benchmarks/mcts_bot.py --record` runs (other seeds, same game and budget).

One run of 40 to 100 games leaves a wide interval on the mcts bot's gain; runs on other seeds
are independent, so their seat-games can be read as one sample. Prints each run and the pool:
seat-games, the mcts bot's win rate (Wilson 95% interval), what greedy won in the same seats
on the same seeds, and the paired gain with its 95% t interval over every seat-game. Say so
when a seed was run after seeing the others: the pooled interval is then not a test fixed in
advance. With `--against`, each run is also paired game by game with another setting's run
of the same seed (the i-th with the i-th), and the pool gives one setting's gain over the
other on the same luck. Usage:

    python benchmarks/mcts_pool.py RECORD.json [RECORD.json ...] [--against OTHER.json ...]
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from pnp.engine import stats as st

sys.path.insert(0, str(Path(__file__).resolve().parent))
from mcts_bot import paired_differences  # noqa: E402


def summary(records: list[dict[str, Any]]) -> str:
    """Seat-games, mcts win rate with its interval, greedy's rate in the same seats, and the
    paired gain with its interval, as one line."""
    n = len(records)
    wins = sum(r["mcts"] for r in records)
    lo, hi = st.wilson(wins, n)
    base = sum(r["greedy"] for r in records) / n
    gain, g_lo, g_hi = st.mean_ci([r["mcts"] - r["greedy"] for r in records])
    return (f"{n} seat-games: mcts wins {wins / n:.1%} ({lo:.1%}-{hi:.1%}), the opponent in "
            f"the same seats {base:.1%}, gain {gain:+.1%} ({g_lo:+.1%} to {g_hi:+.1%}), paired")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("records", nargs="+", metavar="RECORD.json")
    ap.add_argument("--against", nargs="+", default=[], metavar="OTHER.json",
                    help="another setting's runs of the same seeds, in the same order")
    args = ap.parse_args()
    if args.against and len(args.against) != len(args.records):
        raise SystemExit("--against needs one run for each RECORD.json, in the same order")
    pooled: list[dict[str, Any]] = []
    differences: list[float] = []
    kinds = set()  # what each run played: the pool should hold one
    for i, path in enumerate(args.records):
        run = _load(path)
        if args.against:
            other = _load(args.against[i])
            if (other["game"], other["players"], other["seed"]) != \
                    (run["game"], run["players"], run["seed"]):
                raise SystemExit(f"{args.against[i]} is not {path}'s game, players and seed")
            mine = paired_differences(run["records"], other["records"])
            differences += mine
            gain, lo, hi = st.mean_ci(mine)
            print(f"{path} against {args.against[i]}: {gain:+.1%} ({lo:+.1%} to {hi:+.1%}), "
                  f"paired")
        kinds.add((run.get("game"), run.get("players"), run.get("opponent"), run.get("mixed"),
                   run["budget"], tuple(run["settings"])))
        pooled += run["records"]
        print(f"{path} (mcts:{run['budget']}, seed {run['seed']}"
              f"{', ' + ', '.join(run['settings']) if run['settings'] else ''}): "
              f"{summary(run['records'])}")
    if len(kinds) > 1:
        print("warning: the runs differ in game, players, opponent, budget or settings; "
              "the pool mixes them")
    print(f"pooled over {len(args.records)} runs: {summary(pooled)}")
    if args.against:
        gain, lo, hi = st.mean_ci(differences)
        print(f"pooled against the other runs: {gain:+.1%} ({lo:+.1%} to {hi:+.1%}), paired "
              f"over {len(differences)} seat-games")


def _load(path: str) -> dict[str, Any]:
    with open(path, encoding="utf-8") as fh:
        return json.load(fh)


if __name__ == "__main__":
    main()
