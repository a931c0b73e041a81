"""How long `pnp validate` takes in process: the bundled flagship, and generated decks that grow.

Prints one line per measurement; targets (issue 2): Ancient Civilizations < 0.3 s, a generated
game of 10,000 cards < 5 s, with cost growing linearly in the number of cards.

    python benchmarks/validate_games.py [--sizes 1000,2500,5000,10000]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

from pnp.data.game import load_game
from pnp.paths import CARDS, SCHEMAS


def timed(folder: Path, repeat: int) -> tuple[float, object]:
    times, result = [], None
    for _ in range(repeat):
        start = time.perf_counter()
        result = load_game(folder)
        times.append(time.perf_counter() - start)
    return statistics.median(times), result


def generated_game(root: Path, cards: int) -> Path:
    """A small game whose deck has `cards` cards with a handful of fields each."""
    folder = root / f"generated-{cards}"
    folder.mkdir()
    s = SCHEMAS.resolve()
    (folder / "game.yaml").write_text(
        f"# yaml-language-server: $schema={s}/game.schema.json\n"
        f"id: generated-{cards}\nname: Generated\nplayers: {{min: 2, max: 4}}\n"
        f"components:\n  - {{id: deck, name: Deck, count: {cards}, counts: 'deck:main'}}\n"
        "phases:\n  - {id: draw, name: Draw Phase, track: path}\n", encoding="utf-8")
    (folder / "stats.yaml").write_text(
        f"# yaml-language-server: $schema={s}/stats.schema.json\n"
        "stats:\n  - {id: gold, name: Gold, abbreviation: G}\n", encoding="utf-8")
    (folder / "tracks.yaml").write_text(
        f"# yaml-language-server: $schema={s}/tracks.schema.json\n"
        "tracks:\n  - id: path\n    name: Path\n    spaces:\n      - {name: Start, start: true}\n"
        "      - {name: Mine, effect: G+1}\n", encoding="utf-8")
    lines = [f"# yaml-language-server: $schema={s}/deck.schema.json", "decks:", "  - id: main",
             "    name: Main deck", "    size: poker", "    front: poker-front", "    back: poker-back",
             "    cards:"]
    for i in range(cards):
        lines.append(f"      - id: card-{i}\n        name: Card {i}\n        count: 1\n"
                     f"        fields: {{type: Action, cost: {i % 7}, text: 'Gain {i % 5} gold "
                     f"and draw a card.', flavour: 'Number {i}'}}")
    (folder / "deck.yaml").write_text("\n".join(lines) + "\n", encoding="utf-8")
    return folder


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="1000,2500,5000,10000")
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    load_game(CARDS / "ancient-civilizations")  # warm imports and schema compilation
    seconds, result = timed(CARDS / "ancient-civilizations", args.repeat)
    errors = [d for d in result.diagnostics if d.severity == "error"]
    print(f"ancient-civilizations validate_seconds={seconds:.4f} errors={len(errors)} (target < 0.3)")
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for n in (int(x) for x in args.sizes.split(",")):
            folder = generated_game(Path(tmp), n)
            seconds, result = timed(folder, max(1, args.repeat // 2))
            errors = [d for d in result.diagnostics if d.severity == "error"]
            rows.append((n, seconds))
            print(f"generated cards={n} validate_seconds={seconds:.3f} "
                  f"us_per_card={seconds / n * 1e6:.1f} errors={len(errors)}")
            for d in errors[:3]:
                print("   ", d.format_text())
    if len(rows) > 1:
        (n0, t0), (n1, t1) = rows[0], rows[-1]
        print(f"growth: {n1 / n0:.1f}x cards -> {t1 / t0:.1f}x time (linear = {n1 / n0:.1f}x)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
