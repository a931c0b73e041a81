"""Self-play speed of every bundled game: greedy games per CPU second at 2, 3 and 4 players.

Every bot's rollouts pay for a game's engine, so this is the figure to watch when a rules
module or the engine core changes. For each game (The Ancient World in both editions) and
player count it plays `--games` games with greedy in every seat, in this one process, timed in
CPU seconds (`time.process_time`), with sampled invariants as `pnp simulate` plays them, on
the seeds `pnp simulate` derives (`game_seed`). The cells are played in turn for `--rounds`
rounds (interleaved, so a neighbour's load spreads over all of them); every round plays seeds
of its own, after one warm-up game per cell (per-definition tables are built once, as in any
long run). It prints, per cell, games/s at the round with the least CPU time and at the
median round, and turns a game. `--mcts N` also times `--mcts-games` games of mcts:N against
greedy per cell and prints the mcts bot's iterations (playouts) per CPU second. `--profile
GAME` prints a cProfile of one cell instead. Run it from the checkout it measures:

    python -m benchmarks.selfplay_games [--games 20] [--rounds 5] [--players 2,3,4]
        [--only the-ancient-world] [--mcts 8] [--profile the-ancient-world --players 3]
"""

from __future__ import annotations

import argparse
import cProfile
import io
import pstats
import statistics
import sys
import time
from pathlib import Path

import pnp
from pnp.data.game import load_game
from pnp.engine.guards import limits_for
from pnp.engine.play import play_game
from pnp.engine.selfplay import game_seed
from pnp.paths import CARDS

#: (label, game folder, variant): every bundled game, The Ancient World in both editions
GAMES = (
    ("ancient-civilizations", "ancient-civilizations", None),
    ("the-ancient-world (2nd ed.)", "the-ancient-world", None),
    ("the-ancient-world (1st ed.)", "the-ancient-world", "first-edition"),
    ("age-of-civilization", "age-of-civilization", None),
    ("antike", "antike", None),
)
#: the warm-up games' base seed: none of the rounds' seeds (base 1, games 0, 1, ...)
WARM_UP = 999


def play(game, players: int, bots: tuple[str, ...], first: int, games: int,
         invariants: str) -> tuple[float, int]:
    """(CPU seconds, turns) of games first..first+games-1 of `pnp simulate --seed 1`."""
    turns = 0
    started = time.process_time()
    for i in range(first, first + games):
        result = play_game(game, players, game_seed(1, i), bots, invariants=invariants)
        if result.violations:
            raise SystemExit(f"{game.id} seed {game_seed(1, i)}: {result.violations[0]}")
        turns += result.turns
    return time.process_time() - started, turns


def mcts_rate(game, players: int, budget: int, games: int) -> float:
    """The mcts bot's iterations per CPU second, against greedy in the other seats."""
    from pnp.engine import bots as bots_mod
    from pnp.engine import mcts
    from pnp.engine.core import NO_HINTS

    made: list = []

    def factory(seed, seat, meta, hints=NO_HINTS):
        bot = mcts.MctsBot(seed, seat, meta, budget, hints=hints)
        made.append(bot)
        return bot

    bots_mod.BOTS["bench-mcts"] = factory
    seats = ("bench-mcts",) + ("greedy",) * (players - 1)
    # the bot's name is not one play_game knows as a thinking bot, so it would get a plain
    # game's CPU limit and a long game would be cut short: the limit is the thinking one
    limits = limits_for(True)
    started = time.process_time()
    for i in range(games):
        result = play_game(game, players, game_seed(2, i), seats, invariants="none",
                           limits=limits)
        if result.violations:  # e.g. cut short by the CPU limit: the rate reads low
            print(f"  (mcts game {i + 1} of {game.id}: {result.violations[0]})",
                  file=sys.stderr)
    seconds = time.process_time() - started
    return sum(b.iterations_run for b in made) / seconds


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=20, help="games per cell and round")
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--players", default="2,3,4")
    ap.add_argument("--only", default="", help="comma-separated game ids (default: all)")
    ap.add_argument("--invariants", default="sample", choices=["all", "sample", "none"])
    ap.add_argument("--mcts", type=int, default=0, help="also time mcts:N's iterations/s")
    ap.add_argument("--mcts-games", type=int, default=2)
    ap.add_argument("--sort", default="tottime", help="--profile: pstats sort key")
    ap.add_argument("--profile", default="", help="profile this game id (first edition: "
                    "the-ancient-world:first-edition) at the first --players count")
    args = ap.parse_args()
    counts = [int(p) for p in args.players.split(",")]
    print(f"measuring {Path(pnp.__file__).parent}")
    if args.profile:
        folder, _, variant = args.profile.partition(":")
        game = load_game(CARDS / folder, variant or None).game
        bots = ("greedy",) * counts[0]
        play(game, counts[0], bots, WARM_UP, 1, args.invariants)
        prof = cProfile.Profile()
        prof.enable()
        play(game, counts[0], bots, 0, args.games, args.invariants)
        prof.disable()
        buf = io.StringIO()
        pstats.Stats(prof, stream=buf).sort_stats(args.sort).print_stats(40)
        print(buf.getvalue())
        return
    only = set(filter(None, args.only.split(",")))
    cells = []
    for label, folder, variant in GAMES:
        if only and folder not in only:
            continue
        game = load_game(CARDS / folder, variant).game
        for players in counts:
            bots = ("greedy",) * players
            play(game, players, bots, WARM_UP * 1000 + players, 1, args.invariants)
            cells.append((label, game, players, bots, []))
    for r in range(args.rounds):
        for _label, game, players, bots, runs in cells:
            runs.append(play(game, players, bots, r * args.games, args.games,
                             args.invariants))
    print(f"{args.games} games per cell and round, {args.rounds} rounds, greedy in every "
          f"seat, invariants {args.invariants}, CPU time")
    print(f"{'game':30s} {'players':>7s} {'games/s best':>13s} {'median':>8s} "
          f"{'turns/game':>10s}" + ("  mcts it/s" if args.mcts else ""))
    for label, game, players, _bots, runs in cells:
        seconds = [s for s, _ in runs]
        turns = sum(t for _, t in runs) / (args.games * args.rounds)
        line = (f"{label:30s} {players:7d} {args.games / min(seconds):13.1f} "
                f"{args.games / statistics.median(seconds):8.1f} {turns:10.1f}")
        if args.mcts:
            line += f"  {mcts_rate(game, players, args.mcts, args.mcts_games):9.1f}"
        print(line, flush=True)


if __name__ == "__main__":
    main()
