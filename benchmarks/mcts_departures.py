"""Are the mcts bot's departures from greedy real? Each one re-estimated on fresh worlds.

Plays `--games` games of GAME with one mcts:BUDGET seat against greedy (every seating equally
often, `pnp simulate`'s seeds). At every searched decision where mcts leaves greedy's pick it
prints the root's own estimate of the rival's edge (mean paired difference of the playouts
that chose it, and their number), then plays `--pairs` new pairs of playouts, rival against
the greedy pick, each pair in a world of its own that the search never saw (the bot's
`playout`: the rollout bot for every seat after the decision), and prints that estimate with
its 95% interval (`--play tree`: the fresh playouts go on down the search's own tree, as
mcts.CONFIRM_PLAY "tree" does). At the end: the mean of both over the departures. An edge the fresh pairs
do not reproduce was picked by the luck of the playouts that chose it (the winner's curse
that mcts.CONFIRM guards against). `--set NAME=VALUE` as in benchmarks/mcts_bot.py. Usage:

    python benchmarks/mcts_departures.py GAME [--players 3] [--games 4] [--budget 32]
        [--pairs 200] [--seed 1] [--play rollout|tree] [--set CONFIRM=1]
"""

from __future__ import annotations

import argparse
import statistics
import sys
from pathlib import Path

from pnp.commands.common import load_or_exit
from pnp.engine import lineup, mcts
from pnp.engine import stats as st
from pnp.engine.guards import limits_for
from pnp.engine.play import play_game
from pnp.engine.selfplay import game_seed

sys.path.insert(0, str(Path(__file__).resolve().parent))
from mcts_bot import keep_mcts_bots, set_constant  # noqa: E402


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("game")
    ap.add_argument("--players", type=int, default=3)
    ap.add_argument("--games", type=int, default=4)
    ap.add_argument("--budget", type=int, default=mcts.DEFAULT_ITERATIONS)
    ap.add_argument("--pairs", type=int, default=200)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--play", choices=("rollout", "tree"), default="rollout",
                    help="after the option, the rollout bot alone, or on down the search's "
                         "tree (which keeps growing with the fresh pairs)")
    ap.add_argument("--set", action="append", default=[], metavar="NAME=VALUE")
    args = ap.parse_args()
    for item in args.set:
        set_constant(item)
    game = load_or_exit(args.game).game
    keep_mcts_bots(args.budget)
    rows: list[tuple[float, float]] = []
    pending: list[str] = []  # the departures of the game being played
    decide = mcts.MctsBot.decide

    def check(self, root, state, seat, options, why, outcomes, picks):
        chosen = decide(self, root, state, seat, options, why, outcomes, picks)
        if chosen in picks:
            return chosen
        keys = [(seat, why, mcts._label(o)) for o in options]
        hint = mcts.greedy_reference(root, keys, picks)
        mine, theirs = root.children[keys[chosen]].samples, root.children[keys[hint]].samples
        seen = [a - b for a, b in zip(mine or [], theirs or [], strict=False)]
        said = statistics.fmean(seen) if seen else 0.0
        prefix = list(self.real.trace)
        base = f"departures:{self.seed}:{seat}:{self.real.decisions}"
        def value(world: str, pick: int) -> float:
            if args.play == "rollout":
                return self.playout(prefix, world, seat, pick)
            return self.iterate(root, prefix, world, base, seat, options, why, outcomes, False,
                                pick, world)

        fresh = [value(f"{base}:w{k}", chosen) - value(f"{base}:w{k}", hint)
                 for k in range(args.pairs)]
        mean, lo, hi = st.mean_ci(fresh)
        rows.append((said, mean))
        pending.append(  # printed after the game: a game's own prints go to stderr (guards.py)
            f"  turn {state.turn}, {why!r}, {len(options)} options: greedy "
            f"{mcts._label(options[hint])[:28]!r} -> {mcts._label(options[chosen])[:28]!r}: "
            f"search said {said:+.3f} on {len(seen)} pairs; {args.pairs} fresh pairs say "
            f"{mean:+.3f} ({lo:+.3f} to {hi:+.3f})")
        return chosen

    mcts.MctsBot.decide = check
    names = ("bench-mcts",) + ("greedy",) * (args.players - 1)
    games = lineup.balanced_games(args.games, names, args.players)
    for i in range(games):
        seats = lineup.seating(names, args.players, i)
        result = play_game(game, args.players, game_seed(args.seed, i), seats,
                           invariants="none", limits=limits_for(True))
        for line in pending:
            print(line, flush=True)
        pending.clear()
        print(f"game {i}: winners {result.winners}, scores {result.scores}", flush=True)
    print(f"{game.id}, {args.players} players, {games} games, mcts:{args.budget} "
          f"({', '.join(args.set) or 'default constants'}; fresh pairs played on by "
          f"{args.play}): {len(rows)} departures")
    if rows:
        print(f"  the search's edge, mean {statistics.fmean(r[0] for r in rows):+.3f}; "
              f"on fresh pairs {statistics.fmean(r[1] for r in rows):+.3f}")


if __name__ == "__main__":
    main()
