"""Where one game with an mcts seat spends its CPU: the replayed prefix, the determinisation,
the tree walk, the rollout, and within each the rules, the bots, observations and plumbing.

Plays one game (`pnp simulate`'s first seed, `game_seed(SEED, 0)`, or game INDEX's) with
`mcts:BUDGET` in seat 1 and greedy in the others, twice in this process (`--no-profile`: once):
once plain, timing the phases of every
iteration with `time.process_time` at their boundaries (the play of the real game around the
search, each replay up to the decision searched, the determinisation, and the rest of the
playout: tree walk and rollout), and once under cProfile, with one profiler per phase, to split
each phase's time by what the code is (every function's own time, the time of a C function
given to its callers' kinds in proportion). cProfile inflates Python calls, so read the second
table as shares, the first as CPU seconds. GAME is a bundled game's id or a game folder (a
fresh `pnp new` folder for the starter game). Usage:

    python -m benchmarks.mcts_split GAME [--players 3] [--budget 4] [--seed 1] [--index 0]
        [--no-profile] [--top N]
"""

from __future__ import annotations

import argparse
import cProfile
import pstats
import sys
import time
from collections import defaultdict
from pathlib import Path

from pnp.commands.common import load_or_exit
from pnp.engine import mcts, search
from pnp.engine.guards import limits_for
from pnp.engine.play import play_game
from pnp.engine.selfplay import game_seed

sys.path.insert(0, str(Path(__file__).parent))
from mcts_bot import keep_mcts_bots  # noqa: E402

PHASES = ("game", "prefix", "determinise", "playout")
KINDS = ("rules", "greedy bot", "observation", "determinisation", "tree walk",
         "engine plumbing", "invariants", "logging", "other")


def kind_of(func: tuple) -> str | None:
    """What a profiled function is (None: a C function, shared out to its callers)."""
    file, _, name = func
    if file == "~" or file.startswith("<") or file.endswith("random.py") and name != "shuffle":
        return None  # C functions, generated dataclass methods, seeding: their callers' kind
    if file.endswith("mcts_split.py"):
        return "harness"  # this script's own clock readings: left out
    f = file.replace("\\", "/")
    if "/pnp/games/" in f or f.endswith("rules.py") and "/pnp/engine/" not in f:
        return "rules"
    if f.endswith("pnp/engine/bots.py") or (f.endswith("mcts.py") and "_Rollout" in name):
        return "greedy bot"
    if f.endswith("pnp/engine/mcts.py") or name in ("_label",):
        return "tree walk"
    if f.endswith("pnp/engine/state.py"):
        if name in ("redeterminize", "visible", "card_backs"):
            return "determinisation"
        if "observ" in name or name in ("observe", "__getattr__", "_mask", "_same_fields"):
            return "observation"
        return "engine plumbing"
    if f.endswith("random.py") and name == "shuffle":
        return "determinisation"
    if "/pnp/engine/invariants" in f:
        return "invariants"
    if f.endswith("pnp/engine/log.py"):
        return "logging"
    if "/pnp/engine/" in f:
        if f.endswith(("core.py", "search.py", "zones.py", "graph.py", "result.py",
                       "module.py", "play.py", "choices.py", "dice.py", "turns.py", "guards.py",
                       "rondel.py", "effects_runtime.py", "components.py")):
            return "engine plumbing"
        return "rules"  # the engine's rule helpers a game calls (effects, stats)
    if "/pnp/" in f:
        return "rules"  # the game definition's data helpers
    return "other"


def split(stats: pstats.Stats) -> dict[str, float]:
    """Own time by kind; a C function's own time goes to its callers' kinds."""
    table = stats.stats  # type: ignore[attr-defined]
    out: dict[str, float] = defaultdict(float)

    def kind_deep(func: tuple, depth: int = 0) -> dict[str, float]:
        k = kind_of(func)
        if k is not None or depth > 6:
            return {k or "other": 1.0}
        callers = table[func][4]
        total = sum(v[2] for v in callers.values()) or 1.0
        shares: dict[str, float] = defaultdict(float)
        for caller, v in callers.items():
            for kk, s in kind_deep(caller, depth + 1).items():
                shares[kk] += s * v[2] / total
        return shares or {"other": 1.0}

    for func, (_, _, tt, _, _) in table.items():
        for k, s in kind_deep(func).items():
            out[k] += tt * s
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("game")
    ap.add_argument("--players", type=int, default=3)
    ap.add_argument("--budget", type=int, default=4)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--index", type=int, default=0, help="play game I of the run's seeds")
    ap.add_argument("--no-profile", action="store_true", help="the timed run only")
    ap.add_argument("--top", type=int, default=0, help="also print each phase's N costliest "
                    "functions by own time")
    args = ap.parse_args()
    game = load_or_exit(args.game).game
    made = keep_mcts_bots(args.budget)
    seats = ("bench-mcts",) + ("greedy",) * (args.players - 1)
    seed = game_seed(args.seed, args.index)

    clock = time.process_time
    spent: dict[str, float] = defaultdict(float)
    profs: dict[str, cProfile.Profile] = {}
    mark = [clock(), "game"]

    def switch(to: str) -> None:
        now = clock()
        spent[mark[1]] += now - mark[0]
        if profs:
            profs[mark[1]].disable()
            profs[to].enable()
        mark[0], mark[1] = clock(), to  # the switch's own cost left out

    plain_play_out = search.Replaying.play_out
    plain_redet = mcts.redeterminize

    def play_out(self, source):
        switch("prefix")
        try:
            return plain_play_out(self, source)
        finally:
            switch("game")

    def redet(*a, **k):
        switch("determinise")
        try:
            return plain_redet(*a, **k)
        finally:
            switch("playout")

    search.Replaying.play_out = play_out  # type: ignore[method-assign]
    mcts.redeterminize = redet
    plain_branch_hook = mcts._Walk.step

    def step(self, *a, **k):
        if mark[1] == "prefix":
            switch("playout")
        return plain_branch_hook(self, *a, **k)

    mcts._Walk.step = step  # type: ignore[method-assign]

    def run() -> float:
        spent.clear()
        made.clear()
        mark[0], mark[1] = clock(), "game"
        started = clock()
        if profs:
            profs["game"].enable()
        result = play_game(game, args.players, seed, seats, invariants="sample",
                           limits=limits_for(True))
        if profs:
            profs[mark[1]].disable()
        switch("game")
        if result.violations:
            print("violation:", result.violations[0])
        return clock() - started

    total = run()
    iterations = sum(b.iterations_run for b in made)
    decisions = sum(b.searched for b in made)
    print(f"{game.id}, {args.players} players, mcts:{args.budget} in seat 1, seed {seed}: "
          f"{total:.2f} CPU s, {decisions} decisions searched, {iterations} iterations "
          f"({iterations / total:.1f} per CPU s)")
    for phase in PHASES:
        print(f"  {phase:12s} {spent[phase]:7.2f} s  {100 * spent[phase] / total:5.1f}%")
    if args.no_profile:
        return
    for phase in PHASES:
        profs[phase] = cProfile.Profile()
    run()
    print("under cProfile, each phase's own time by kind of code (% of the phase):")
    print(f"  {'':12s}" + "".join(f"{k[:11]:>12s}" for k in KINDS))
    for phase in PHASES:
        prof = profs[phase]
        try:
            stats = pstats.Stats(prof)
        except TypeError:  # nothing recorded
            continue
        by_kind = split(stats)
        by_kind.pop("harness", None)
        whole = sum(by_kind.values()) or 1.0
        print(f"  {phase:12s}" + "".join(f"{100 * by_kind.get(k, 0) / whole:11.1f}%"
                                         for k in KINDS))
    for phase in PHASES if args.top else ():
        try:
            stats = pstats.Stats(profs[phase])
        except TypeError:  # nothing recorded (a game without hidden cards: no determinising)
            continue
        print(f"{phase}:")
        stats.sort_stats("tottime").print_stats(args.top)


if __name__ == "__main__":
    main()
