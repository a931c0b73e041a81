"""Reading a deck from a spreadsheet against the same deck in YAML (issue 21: 5,000 rows of
XLSX within 2x the YAML time).

Builds one generated game three ways (cards in deck.yaml, in an XLSX sheet, in a CSV file; the
sheets are written by `pnp export cards`), then times, interleaved and on the same wall clock:
`read_game` (load the files, cards from the sheet included) and `load_game` (read, schema check,
typed fields, lint). Prints min and median of each.

    python benchmarks/sheet_decks.py [--cards 5000] [--repeat 7]
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import tempfile
import time
from pathlib import Path

from pnp.data.deck_export import plan_export
from pnp.data.game import load_game, load_game_and_documents, read_game
from pnp.paths import SCHEMAS


def yaml_game(root: Path, cards: int) -> Path:
    folder = root / "yaml" / "sheet-bench"
    folder.mkdir(parents=True)
    s = SCHEMAS.resolve()
    copies = sum(1 + i % 3 for i in range(cards))
    (folder / "game.yaml").write_text(
        f"# yaml-language-server: $schema={s}/game.schema.json\n"
        "id: sheet-bench\nname: Sheet bench\nplayers: {min: 2, max: 4}\n"
        f"components:\n  - {{id: deck, name: Deck, count: {copies}, counts: 'deck:main'}}\n"
        "phases:\n  - {id: draw, name: Draw Phase, track: path}\n", encoding="utf-8")
    (folder / "stats.yaml").write_text(
        f"# yaml-language-server: $schema={s}/stats.schema.json\n"
        "stats:\n  - {id: gold, name: Gold, abbreviation: G}\n", encoding="utf-8")
    (folder / "tracks.yaml").write_text(
        f"# yaml-language-server: $schema={s}/tracks.schema.json\n"
        "tracks:\n  - id: path\n    name: Path\n    spaces:\n      - {name: Start, start: true}\n"
        "      - {name: Mine, effect: G+1}\n", encoding="utf-8")
    lines = [f"# yaml-language-server: $schema={s}/deck.schema.json", "decks:", "  - id: main",
             "    name: Main deck", "    front: poker-front", "    back: poker-back",
             "    fields:", "      cost: {type: integer, min: 0, max: 9}",
             "      kind: {type: enum, values: [action, event, place]}",
             "      banners: {type: list, values: [red, blue, green]}",
             "      gain: {type: effect}", "      text: {type: text}", "    cards:"]
    kinds, banners = ("action", "event", "place"), ("red", "blue, green", "green")
    for i in range(cards):
        lines.append(f"      - {{id: card-{i}, name: Card {i}, count: {1 + i % 3}, fields: "
                     f"{{cost: {i % 7}, kind: {kinds[i % 3]}, banners: [{banners[i % 3]}], "
                     f"gain: G+{1 + i % 4}, text: 'Gain {i % 5} gold and draw a card.'}}}}")
    (folder / "deck.yaml").write_text("\n".join(lines) + "\n", encoding="utf-8")
    return folder


def sheet_game(yaml_folder: Path, fmt: str) -> Path:
    folder = yaml_folder.parent.parent / fmt / yaml_folder.name
    shutil.copytree(yaml_folder, folder)
    result, docs = load_game_and_documents(yaml_folder)
    assert result.ok, result.diagnostics[:3]
    plan = plan_export(docs, fmt, "bench")
    assert not plan.diagnostics, plan.diagnostics[:3]
    [(name, data)] = plan.files.items()
    (folder / name).write_bytes(data)
    deck = (folder / "deck.yaml").read_text(encoding="utf-8")
    head = deck.split("    cards:\n")[0]
    (folder / "deck.yaml").write_text(head + f"    {plan.uses['main']}\n", encoding="utf-8")
    return folder


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cards", type=int, default=5000)
    parser.add_argument("--repeat", type=int, default=7)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        base = yaml_game(Path(tmp), args.cards)
        folders = {"yaml": base, "xlsx": sheet_game(base, "xlsx"), "csv": sheet_game(base, "csv")}
        for folder in folders.values():  # the same cards every way, and a warm start
            loaded = load_game(folder)
            assert loaded.ok and sum(len(d.cards) for d in loaded.game.decks.values()) == args.cards
        times = {(step, name): [] for step in ("read", "load") for name in folders}
        for _ in range(args.repeat):
            for name, folder in folders.items():
                start = time.perf_counter()
                read_game(folder)
                times["read", name].append(time.perf_counter() - start)
                start = time.perf_counter()
                load_game(folder)
                times["load", name].append(time.perf_counter() - start)
        print(f"{args.cards:,} cards, {args.repeat} interleaved runs, wall clock (s)")
        for step in ("read", "load"):
            yaml_median = statistics.median(times[step, "yaml"])
            for name in folders:
                runs = times[step, name]
                ratio = statistics.median(runs) / yaml_median
                print(f"  {step:4} {name:4}: min {min(runs):.3f}  median "
                      f"{statistics.median(runs):.3f}  ({ratio:.2f}x yaml)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
