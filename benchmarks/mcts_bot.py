"""The mcts bot against greedy and random: win rate with a 95% interval, and its cost.

Plays `--games` games of GAME (a bundled game's id or a game folder) with one mcts:BUDGET
seat against OPPONENT (greedy by default) in every other seat (`--mixed`: the line-up
`mcts,OPPONENT` repeated over the seats instead), every seating equally often
(pnp/engine/lineup.py), on the seeds `pnp simulate` uses, in this process (CPU time, so other
load on the machine matters less). Prints the mcts bot's win rate per seat-game with its
Wilson interval, the fair share, CPU seconds per game, decisions searched per CPU second and
iterations per CPU second, and the same seeds' plain greedy games per CPU second beside them.
Those plain games also give the paired baseline: what the mcts bot's seats won when greedy
sat in them on the same seeds, and the mcts bot's gain over it with a 95% interval (a game in
which mcts picks as greedy would is the same game, so the pairs cancel most of the luck; this
is the sharper test of whether search helps). `departed` counts searched decisions whose pick
was not greedy's.
`--set NAME=VALUE` overrides one of pnp/engine/mcts.py's constants (EXPLORE, WIDEN, BIAS, SURE,
SURE_TEST, CONFIRM, CONFIRM_SURE, CONFIRM_PLAY, ROLLOUT_NOISE, MARGIN, GUIDE_UNESTIMATED,
HORIZON, OPPONENTS, TREE_DEPTH, SETTLE) for a tuning run (a constant that is a string, such as
OPPONENTS=model, takes the text; the others a number); with
a HORIZON, `cut` counts the playouts stopped at it. Two runs on the same seeds pair up game by
game: each `game i` line gives the mcts seats' running win total, `--record FILE` writes every
seat-game's result (JSON), and `--paired-with FILE` reads another run's record on the same
seeds and prints this run's gain over it, seat-game by seat-game, with a 95% interval. Usage:

    python benchmarks/mcts_bot.py GAME [--players 2] [--games 40] [--budget 32]
        [--opponent greedy] [--mixed] [--set BIAS=0.5] [--record FILE] [--paired-with FILE]
"""

from __future__ import annotations

import argparse
import json
from typing import Any

from pnp.commands.common import load_or_exit
from pnp.engine import bots as bots_mod
from pnp.engine import lineup, mcts
from pnp.engine import stats as st
from pnp.engine.core import NO_HINTS
from pnp.engine.guards import limits_for
from pnp.engine.play import play_game
from pnp.engine.probe import one_seat_against
from pnp.engine.selfplay import game_seed


def keep_mcts_bots(budget: int) -> list[mcts.MctsBot]:
    """Register `bench-mcts`, an mcts:BUDGET bot, and return the list every such bot a game
    makes is kept in (its counters: searched decisions, departures, iterations)."""
    made: list[mcts.MctsBot] = []

    def factory(seed, seat, meta, hints=NO_HINTS):
        bot = mcts.MctsBot(seed, seat, meta, budget, hints=hints)
        made.append(bot)
        return bot

    bots_mod.BOTS["bench-mcts"] = factory
    return made


def set_constant(item: str) -> None:
    """Override one mcts constant from NAME=VALUE: text for a string constant, else a number."""
    name, _, value = item.partition("=")
    if not hasattr(mcts, name):
        raise SystemExit(f"mcts has no constant {name}")
    setattr(mcts, name, value if isinstance(getattr(mcts, name), str) else float(value))


def paired_differences(mine: list[dict[str, Any]], other: list[dict[str, Any]]) -> list[float]:
    """This run's mcts share minus another run's, seat-game by seat-game (the same games and
    seats): one setting's gain over another on the same luck."""
    theirs = {(r["game"], r["seat"]): r["mcts"] for r in other}
    if set(theirs) != {(r["game"], r["seat"]) for r in mine}:
        raise SystemExit("the two runs did not play the same games and seats")
    return [r["mcts"] - theirs[(r["game"], r["seat"])] for r in mine]


def paired_gain(mine: list[dict[str, Any]],
                other: list[dict[str, Any]]) -> tuple[float, float, float]:
    """paired_differences' mean with its 95% interval."""
    return st.mean_ci(paired_differences(mine, other))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("game")
    ap.add_argument("--players", type=int, default=2)
    ap.add_argument("--games", type=int, default=40)
    ap.add_argument("--budget", type=int, default=mcts.DEFAULT_ITERATIONS,
                    help="iterations per decision")
    ap.add_argument("--opponent", default="greedy")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--mixed", action="store_true",
                    help="seat mcts,OPPONENT repeated (not one mcts seat against the rest)")
    ap.add_argument("--set", action="append", default=[], metavar="NAME=VALUE")
    ap.add_argument("--record", metavar="FILE", help="write every seat-game's result (JSON)")
    ap.add_argument("--paired-with", metavar="FILE",
                    help="another run's --record on the same seeds: print the gain over it")
    args = ap.parse_args()
    for item in args.set:
        set_constant(item)
    game = load_or_exit(args.game).game
    made = keep_mcts_bots(args.budget)
    names = (("bench-mcts", args.opponent) if args.mixed
             else ("bench-mcts",) + (args.opponent,) * (args.players - 1))
    games = lineup.balanced_games(args.games, names, args.players)

    def play(i: int, seats: tuple[str, ...]) -> Any:
        if len(seats) == 1:  # the opponent alone: the paired baseline
            return play_game(game, args.players, game_seed(args.seed, i), seats,
                             invariants="none")
        # the time budget of a line-up with a searching bot (the registered name is not one)
        result = play_game(game, args.players, game_seed(args.seed, i), seats,
                           invariants="none", limits=limits_for(True))
        if result.violations:
            raise SystemExit(f"game {i}: {result.violations[0]}")
        return result

    def progress(done: int, held: list) -> None:
        if done <= games:
            print(f"  game {done}/{games}: mcts {sum(h[2] for h in held):g} of "
                  f"{float(len(held)):g} seat-games", flush=True)

    paired = one_seat_against(args.players, games, names, "bench-mcts", args.opponent, play,
                              progress)
    mine, base, seconds = paired.held, paired.base, paired.seconds
    plain = games / paired.plain_seconds
    wins, seat_games = sum(m[2] for m in mine), float(len(mine))
    gain, gain_lo, gain_hi = st.mean_ci([m[2] - b for m, b in zip(mine, base, strict=True)])
    lo, hi = st.wilson(wins, int(seat_games))
    searched = sum(b.searched for b in made)
    departed = sum(b.departures for b in made)
    iterations = sum(b.iterations_run for b in made)
    cut = sum(b.cut for b in made)
    confirmations = sum(b.confirmations for b in made)
    print(f"{game.id}, {args.players} players, {games} games, mcts:{args.budget} against "
          f"{args.opponent} ({'mixed line-up' if args.mixed else 'one mcts seat'}; "
          f"{', '.join(args.set) or 'default constants'})")
    print(f"  mcts wins {wins / seat_games:.1%} of its seat-games (95% CI {lo:.1%}-{hi:.1%}); "
          f"fair share {1 / args.players:.1%}")
    print(f"  {args.opponent} in the same seats on the same seeds wins {sum(base) / len(base):.1%}"
          f"; mcts gains {gain:+.1%} (95% CI {gain_lo:+.1%} to {gain_hi:+.1%}), paired; "
          f"departed from greedy's pick at {departed} of {searched} searched decisions"
          + (f" ({confirmations} rivals put to the fresh-pairs test)" if confirmations else ""))
    records = [{"game": i, "seat": s, "mcts": m, "greedy": b}
               for (i, s, m), b in zip(mine, base, strict=True)]
    if args.record:
        with open(args.record, "w", encoding="utf-8") as fh:
            json.dump({"game": game.id, "players": args.players, "opponent": args.opponent,
                       "mixed": args.mixed, "settings": args.set, "budget": args.budget,
                       "seed": args.seed, "records": records}, fh)
    if args.paired_with:
        with open(args.paired_with, encoding="utf-8") as fh:
            other = json.load(fh)
        d, d_lo, d_hi = paired_gain(records, other["records"])
        print(f"  against {args.paired_with} ({', '.join(other['settings']) or 'default constants'}"
              f"): {d:+.1%} (95% CI {d_lo:+.1%} to {d_hi:+.1%}), paired")
    print(f"  {seconds / games:.2f} CPU s a game; {searched / seconds:.1f} decisions searched "
          f"and {iterations / seconds:.0f} iterations a CPU second; plain greedy games "
          f"{plain:.1f} a CPU second" + (f"; {cut} of {iterations} playouts cut at the horizon"
                                        if cut else ""))


if __name__ == "__main__":
    main()
