"""The mcts bot's cost as shipped against one changed setting, on the same games, interleaved.

Plays `--games` games of GAME with one mcts:BUDGET seat against greedy (every seating in
turn, `simulate`'s seeds) with pnp/engine/mcts.py's constants as shipped (A) and with the
`--set NAME=VALUE` overrides (B), A and B alternating for `--rounds` rounds in this process,
and prints each side's CPU seconds a game (min and median over the rounds), iterations per
searched decision (deterministic, so a change that saves iterations shows it exactly) and
whether the two sides played the same games (every pick and every die; a setting meant to
save work without changing play must say "same"). CPU time, so other load matters less, but
read it on a quiet machine. Usage:

    python benchmarks/mcts_speed.py GAME [--players 3] [--games 6] [--budget 32]
        [--rounds 3] --set SETTLE=0
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

from pnp.commands.common import load_or_exit
from pnp.engine import lineup, mcts
from pnp.engine.guards import limits_for
from pnp.engine.play import play_game
from pnp.engine.selfplay import game_seed

sys.path.insert(0, str(Path(__file__).resolve().parent))
from mcts_bot import keep_mcts_bots, set_constant  # noqa: E402


def play(game, players: int, games: int, seed: int, made: list) -> tuple[float, int, int, list]:
    """CPU seconds, iterations run, decisions searched, and every game's log."""
    made.clear()
    names = ("bench-mcts",) + ("greedy",) * (players - 1)
    logs = []
    started = time.process_time()
    for i in range(games):
        log: list = []
        play_game(game, players, game_seed(seed, i), lineup.seating(names, players, i),
                  invariants="none", limits=limits_for(True), log=log)
        logs.append(log)
    cpu = time.process_time() - started
    return (cpu, sum(b.iterations_run for b in made), sum(b.searched for b in made), logs)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("game")
    ap.add_argument("--players", type=int, default=3)
    ap.add_argument("--games", type=int, default=6)
    ap.add_argument("--budget", type=int, default=mcts.DEFAULT_ITERATIONS)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--set", action="append", required=True, metavar="NAME=VALUE")
    args = ap.parse_args()
    game = load_or_exit(args.game).game
    made = keep_mcts_bots(args.budget)
    names = [item.partition("=")[0] for item in args.set]
    unknown = [name for name in names if not hasattr(mcts, name)]
    if unknown:
        raise SystemExit(f"mcts has no constant {', '.join(unknown)}")
    shipped = {name: getattr(mcts, name) for name in names}
    sides: dict[str, list] = {"A": [], "B": []}
    logs: dict[str, list] = {}
    for _ in range(args.rounds):
        for side in ("A", "B"):
            for name, value in shipped.items():
                setattr(mcts, name, value)
            if side == "B":
                for item in args.set:
                    set_constant(item)
            cpu, iterations, searched, played = play(game, args.players, args.games,
                                                     args.seed, made)
            sides[side].append((cpu / args.games, iterations / searched))
            logs.setdefault(side, played)
    print(f"{game.id}, {args.players} players, {args.games} games a round, {args.rounds} "
          f"rounds, mcts:{args.budget} against greedy; B: {', '.join(args.set)}")
    for side, label in (("A", "as shipped"), ("B", ", ".join(args.set))):
        cpus = [c for c, _ in sides[side]]
        print(f"  {side} ({label}): {min(cpus):.2f} / {statistics.median(cpus):.2f} CPU s a "
              f"game (min / median), {sides[side][0][1]:.1f} iterations a searched decision")
    ratio = min(c for c, _ in sides["B"]) / min(c for c, _ in sides["A"])
    print(f"  B/A at the min: {ratio:.3f}; the same games: "
          f"{'same' if logs['A'] == logs['B'] else 'different'}")


if __name__ == "__main__":
    main()
