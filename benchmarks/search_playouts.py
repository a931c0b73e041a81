"""Search bot cost: playouts per second, and seconds per searched decision, in Ancient
Civilizations, next to plain games per second (a playout replays the game so far, then plays
on to the end, so it costs about one whole game).

Plays `--games` 2-player games with one search bot (random or greedy playouts) against a
random bot, in alternating rounds with plain random games, and prints min and median of
each figure over the rounds (CPU time, so other load on the machine matters less). Usage:

    python benchmarks/search_playouts.py [--games 2] [--budget 4] [--rounds 3]
"""

from __future__ import annotations

import argparse
import statistics
import time

from pnp.data.game import load_game
from pnp.engine import bots as bots_mod
from pnp.engine.core import NO_HINTS
from pnp.engine.play import play_game
from pnp.engine.search import SearchBot
from pnp.paths import CARDS


def search_round(game, games: int, budget: int, policy: str, first_seed: int) -> tuple[float, int, int]:
    """(CPU seconds, playouts, decisions searched) over `games` games."""
    made: list[SearchBot] = []

    def factory(seed, seat, meta, hints=NO_HINTS):
        bot = SearchBot(seed, seat, meta, budget, policy, hints=hints)
        made.append(bot)
        return bot

    bots_mod.BOTS["bench-search"] = factory
    started = time.process_time()
    for i in range(first_seed, first_seed + games):
        seats = ["bench-search", "random"] if i % 2 == 0 else ["random", "bench-search"]
        play_game(game, 2, i, seats, invariants="none")
    seconds = time.process_time() - started
    return seconds, sum(b.playouts_run for b in made), sum(b.searched for b in made)


def plain_round(game, games: int, first_seed: int) -> float:
    """Plain random 2-player games per CPU second."""
    started = time.process_time()
    for i in range(first_seed, first_seed + games):
        play_game(game, 2, i, ["random"], invariants="none")
    return games / (time.process_time() - started)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=2, help="search games per round")
    ap.add_argument("--budget", type=int, default=4, help="playouts per option")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--plain-games", type=int, default=200, help="plain games per round")
    args = ap.parse_args()
    game = load_game(CARDS / "ancient-civilizations").game
    figures: dict[str, list[float]] = {}
    for r in range(args.rounds):
        figures.setdefault("plain random games/s", []).append(
            plain_round(game, args.plain_games, 1000 * r))
        for policy in ("random", "greedy"):
            seconds, playouts, searched = search_round(game, args.games, args.budget, policy,
                                                       1000 * r)
            figures.setdefault(f"{policy} playouts/s", []).append(playouts / seconds)
            figures.setdefault(f"{policy}: s per searched decision", []).append(
                seconds / max(1, searched))
            figures.setdefault(f"{policy}: s per game", []).append(seconds / args.games)
    print(f"Ancient Civilizations, 2 players, search budget {args.budget} per option, "
          f"{args.games} search games and {args.plain_games} plain games per round, "
          f"{args.rounds} rounds (CPU time)")
    for name, values in figures.items():
        print(f"  {name:34s} min {min(values):9.3f}  median {statistics.median(values):9.3f}")


if __name__ == "__main__":
    main()
