"""Age of Civilization self-play figures: every player count (solo included) for the base game
and each variant; completion, violations, seat balance, civilization win rates, coverage gaps
and solo achievement rates by bot.

    python benchmarks/aoc_selfplay.py [--games 500] [--bots greedy]

Civilization win rate = games a winner held the civilization / games it was risen or annexed
(coverage 'civilization' counts takings; events 'won-with:<civ>' count the winners' cards).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # this checkout's pnp, not another

from pnp.data.game import load_game
from pnp.engine import selfplay
from pnp.engine.selfplay import SimConfig
from pnp.paths import CARDS

VARIANTS = (None, "innovation", "changing-world", "drafting")


def run(games: int, players: int, variant: str | None, bots: tuple[str, ...]) -> dict:
    game = load_game(CARDS / "age-of-civilization", variant).game
    config = SimConfig(games=games, players=players, seed=1, bots=bots, variant=variant,
                       invariants="sample", max_turns=None, workers=1, log_games=0)
    return selfplay.summarize(selfplay.run_simulation(game, config))


def civ_rates(doc: dict, games: int) -> list[tuple[str, int, float]]:
    taken = doc["coverage"].get("civilization", {})
    out = []
    for civ, n in taken.items():
        won = doc["events"].get(f"won-with:{civ}", {}).get("total", 0)
        out.append((civ, n, won / n if n else 0.0))
    return sorted(out, key=lambda x: -x[2])


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=500)
    ap.add_argument("--bots", default="greedy")
    args = ap.parse_args()
    bots = tuple(args.bots.split(","))
    for variant in VARIANTS:
        for players in (1, 2, 3, 4):
            doc = run(args.games, players, variant, bots)
            o = doc["outcomes"]
            seats = " ".join(f"{s['win_rate']:.2f}" for s in doc["seats"])
            unused = [f"{u['kind']}/{u['key']}" for u in doc["never_seen"]["unused"]]
            print(f"{variant or 'base':14} P={players} games={doc['games']} "
                  f"completed={o['completed']} turns(max)={doc['turns']['max']} "
                  f"violations={len(doc['violations'])} seats=[{seats}] "
                  f"points p50={doc['stats']['points']['p50']} unused={len(unused)}"
                  f"{' ' + ','.join(unused[:6]) if unused else ''}")
            if players == 1:
                ach = {k.split(':', 1)[1]: v["total"] / doc["games"]
                       for k, v in doc["events"].items() if k.startswith("achievement:")}
                print("   achievements:", " ".join(f"{k}={v:.2f}" for k, v in sorted(ach.items())))
            elif variant is None:
                rates = civ_rates(doc, doc["games"])
                top = ", ".join(f"{c} {r:.2f} ({n})" for c, n, r in rates[:5])
                low = ", ".join(f"{c} {r:.2f} ({n})" for c, n, r in rates[-5:])
                print(f"   civ win rate top: {top}\n   civ win rate low: {low}")


if __name__ == "__main__":
    main()
