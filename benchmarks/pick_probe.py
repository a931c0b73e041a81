"""Is an option greedy never picks worth picking? One seat that picks it, against greedy.

`pnp simulate` lists options its bots never pick (PNP-B022) and options whose pickers win
more (PNP-B023); under greedy bots both may be a habit of the bot, not a fact about the game.
This probe asks the game: one `probe` seat plays as greedy does except at decisions whose
`why` is AT, where it picks the option labelled PICK whenever it is offered (with
`--share S`, at that share of those decisions, drawn from the probe's own seeded stream),
against OPPONENT (greedy) in every other seat, every seating equally often, on `simulate`'s
seeds. Then the same seeds with OPPONENT in every seat: the probe's gain over greedy in the
same seats, seat-game by seat-game, with a 95% interval. A game where the probe was never
offered PICK is the plain game, so the pairs cancel most of the luck.

Read a gain above 0 as a blind spot of greedy's (picking the option wins more than greedy's
habit); a loss says that this way of picking it loses, not that no way of picking it wins.
`--value STAT=V` (repeatable) instead, or as well, gives the probe's greedy bot another worth
for a stat (GameMeta.bot_values): is a stat greedy undervalues a blind spot? `--value
resources=0.8` seats Ancient Civilizations' earlier greedy among today's.
`--record FILE` writes the seat-games in mcts_bot.py's form (benchmarks/mcts_pool.py pools
several seeds). Labels are `simulate`'s (pnp/engine/choices.py: 'C+1', 'stop', 'explore').

    python benchmarks/pick_probe.py GAME --at 'build: pay to move' --pick stop
        [--value STAT=V] [--players 3] [--games 60] [--seed 1] [--share 1]
        [--opponent greedy] [--record FILE]
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import random
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from pnp.commands.common import load_or_exit
from pnp.engine import bots as bots_mod
from pnp.engine import lineup
from pnp.engine import stats as st
from pnp.engine.choices import option_label
from pnp.engine.core import NO_HINTS

sys.path.insert(0, str(Path(__file__).resolve().parent))
from mcts_bot import one_seat_games  # noqa: E402


def keep_probe_bots(at: str | None, pick: str | None, share: float, opponent: str,
                    values: dict[str, float] | None = None) -> list[Any]:
    """Register `bench-probe`: OPPONENT's bot (valuing stats at `values` where given) that, at
    a decision whose why is `at`, picks the option labelled `pick` (at `share` of those
    decisions). Returns the list of made bots
    (each counts `offered`, `forced`: decisions where PICK was offered, and where the probe
    took it though its own bot would not have)."""
    made: list[Any] = []
    base = bots_mod.bot_factory(opponent)

    class Probe:
        def __init__(self, seed: int, seat: int, meta: Any, hints: Any = NO_HINTS):
            if values:
                meta = dataclasses.replace(meta, bot_values={**meta.bot_values, **values})
            self.inner = base(seed, seat, meta, hints)
            self.draw = random.Random(f"probe:{seed}:{seat}").random
            self.offered = self.forced = 0

        def choose(self, state: Any, seat: int, options: Sequence[Any], why: str,
                   outcomes: Any) -> int:
            own = self.inner.choose(state, seat, options, why, outcomes)
            if at is None or why != at:
                return own
            for i, option in enumerate(options):
                if isinstance(option, str) and option_label(option) == pick:
                    self.offered += 1
                    if share < 1 and self.draw() >= share:
                        return own
                    self.forced += i != own
                    return i
            return own

    def factory(seed, seat, meta, hints=NO_HINTS):
        bot = Probe(seed, seat, meta, hints)
        made.append(bot)
        return bot

    bots_mod.BOTS["bench-probe"] = factory
    return made


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("game")
    ap.add_argument("--at", help="the decision's why, as simulate prints it")
    ap.add_argument("--pick", help="the option's label, as simulate prints it")
    ap.add_argument("--value", action="append", default=[], metavar="STAT=V",
                    help="the probe's greedy values STAT at V")
    ap.add_argument("--share", type=float, default=1.0,
                    help="pick it at this share of the decisions that offer it")
    ap.add_argument("--players", type=int, default=3)
    ap.add_argument("--games", type=int, default=60)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--opponent", default="greedy")
    ap.add_argument("--record", metavar="FILE", help="write every seat-game's result (JSON)")
    args = ap.parse_args()
    if (args.at is None) != (args.pick is None) or not (args.at or args.value):
        ap.error("give --at and --pick together, or --value, or both")
    values = {}
    for item in args.value:
        stat, _, v = item.partition("=")
        try:
            values[stat] = float(v)
        except ValueError:
            ap.error(f"--value {item!r}: give STAT=NUMBER")
    game = load_or_exit(args.game).game
    made = keep_probe_bots(args.at, args.pick, args.share, args.opponent, values)
    names = ("bench-probe",) + (args.opponent,) * (args.players - 1)
    games = lineup.balanced_games(args.games, names, args.players)
    mine, base, seconds, _ = one_seat_games(game, args.players, games, args.seed, names,
                                            "bench-probe", args.opponent)
    wins = sum(m[2] for m in mine)
    lo, hi = st.wilson(wins, len(mine))
    gain, gain_lo, gain_hi = st.mean_ci([m[2] - b for m, b in zip(mine, base, strict=True)])
    offered = sum(b.offered for b in made)
    forced = sum(b.forced for b in made)
    what = [f"picks {args.pick!r} at {args.at!r} (share {args.share:g})"] if args.at else []
    what += [f"values {stat} at {v:g}" for stat, v in values.items()]
    print(f"{game.id}, {args.players} players, {games} games: one seat {' and '.join(what)} "
          f"against {args.opponent}")
    if args.at:
        print(f"  offered at {offered} decisions; picked it where {args.opponent} would not at "
              f"{forced}")
        if not offered:
            print("  never offered: check --at and --pick against simulate's choices")
    print(f"  probe wins {wins / len(mine):.1%} of its seat-games (95% CI {lo:.1%}-{hi:.1%}); "
          f"{args.opponent} in the same seats on the same seeds {sum(base) / len(base):.1%}; "
          f"gain {gain:+.1%} (95% CI {gain_lo:+.1%} to {gain_hi:+.1%}), paired")
    print(f"  {seconds / games:.3f} CPU s a game")
    if args.record:
        records = [{"game": i, "seat": s, "mcts": m, "greedy": b}
                   for (i, s, m), b in zip(mine, base, strict=True)]
        with open(args.record, "w", encoding="utf-8") as fh:
            json.dump({"game": game.id, "players": args.players, "opponent": args.opponent,
                       "mixed": False, "settings": [f"at={args.at}", f"pick={args.pick}",
                                                    f"share={args.share:g}", *args.value],
                       "budget": 0, "seed": args.seed, "records": records}, fh)


if __name__ == "__main__":
    main()
