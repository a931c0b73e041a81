"""Card rendering speed against plain reportlab (shared/bench/reportlab_cards.py), side by side.

Renders a generated 54-card deck ten times (540 poker cards) on A4 with crop marks through the
real pipeline (templates/cards.yaml poker-front: sandboxed jinja2, text fitting, inline icons,
embedded TTF fonts, atomic write) and prints:

    cards_per_second=<n>        ten separate decks: every card laid out and drawn (no reuse)
    peak_memory_mb=<n>          peak resident memory of this process (getrusage)
    reportlab_cards_per_second=<n>, ratio=<reportlab / pnp>   target: ratio <= 2
    repeated_cards_per_second=<n>  one deck with count: 10, faces drawn once as PDF forms
    peak_rss_mb_54000_unique=<n>   a fresh process rendering 54,000 cards, every text different
                                   (input cards included); target: under 150 MB
    reportlab_peak_rss_mb_54000=<n>  plain reportlab drawing 54,000 text-only cards, same measure

Run: PYTHONPATH=. python benchmarks/render_cards.py [--runs 3] [--memory-cards 54000]
(PYTHONPATH=. so the script uses this checkout's pnp.)
"""

from __future__ import annotations

import argparse
import re
import resource
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from types import SimpleNamespace
from typing import Any

from pnp.diagnostics import Position
from pnp.render.sheets import render_deck_sheets

BASELINE = Path(__file__).resolve().parents[1].parent / "shared" / "bench" / "reportlab_cards.py"
if not BASELINE.exists():
    BASELINE = Path("/work/shared/bench/reportlab_cards.py")

RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]
SUITS = ["Spades", "Hearts", "Diamonds", "Clubs"]
ICONS = {"Spades": "sword", "Hearts": "food", "Diamonds": "coin", "Clubs": "star"}

try:
    from pnp.data.model import Card, Deck
except ImportError:  # the model is the lead's; these have the same fields
    @dataclass(frozen=True)
    class Card:  # type: ignore[no-redef]
        id: str
        name: str
        count: int
        fields: Any
        origin: Position = Position("")
        field_origins: Any = field(default_factory=dict)

    @dataclass(frozen=True)
    class Deck:  # type: ignore[no-redef]
        id: str
        name: str
        size: Any
        front: str
        back: str | None
        cards: tuple
        prototype: bool = False
        origin: Position = Position("")


def deck_cards(count: int) -> tuple:
    cards = []
    for s in SUITS:
        for i, r in enumerate(RANKS):
            name = f"{r} of {s}"
            cards.append(Card(
                f"{r.lower()}-{s.lower()}", name, count,
                {"name": name, "cost": f"{i % 5 + 1}{{{ICONS[s]}}}", "type": f"{s} — rank {r}",
                 "text": f"When you play this card, gain {i % 3 + 1} {{coin}} and draw a card. "
                         f"If it is a {s[:-1].lower()}, gain {{{ICONS[s]}}} as well."}))
    for colour in ("Red", "Black"):
        cards.append(Card(f"joker-{colour.lower()}", f"{colour} Joker", count,
                          {"name": f"{colour} Joker", "type": "Joker",
                           "text": "Counts as any card of your choice.",
                           "flavor": "Wild and unpredictable."}))
    return tuple(cards)


def game(decks: list) -> Any:
    return SimpleNamespace(id="bench", name="Benchmark", folder=Path(tempfile.gettempdir()),
                           decks={d.id: d for d in decks}, layout_documents=())


def distinct_game() -> Any:
    """Ten decks of the same 54 cards: every one of the 540 faces is laid out and drawn."""
    return game([Deck(f"deck-{k}", f"Deck {k}", "poker", "poker-front", None, deck_cards(1))
                 for k in range(10)])


def repeated_game() -> Any:
    """One 54-card deck printed ten times (count: 10): each face is drawn once, placed ten times."""
    return game([Deck("deck", "Deck", "poker", "poker-front", None, deck_cards(10))])


def time_render(make_game, out: Path, runs: int) -> float:
    best = float("inf")
    for _ in range(runs):
        g = make_game()
        t0 = time.perf_counter()
        paths, diags = render_deck_sheets(g, paper="a4", out_dir=out)
        best = min(best, time.perf_counter() - t0)
        assert paths and not diags, diags
    return best


def time_baseline(out: Path, runs: int) -> float:
    best = float("inf")
    for _ in range(runs):
        res = subprocess.run([sys.executable, str(BASELINE), str(out / "rl.pdf"), "540"],
                             capture_output=True, text=True, check=True)
        m = re.search(r"(\d+) cards in ([0-9.]+)s", res.stdout)
        best = min(best, float(m.group(2)))
    return best


def unique_game(n: int) -> Any:
    """One deck of `n` cards, each with its own text: nothing repeats, nothing can be reused."""
    base = deck_cards(1)
    cards = []
    for i in range(n):
        c = base[i % len(base)]
        cards.append(Card(f"card-{i}", c.name, 1,
                          {**c.fields, "text": f"{c.fields['text']} Card number {i}."}))
    return game([Deck("deck", "Deck", "poker", "poker-front", None, tuple(cards))])


def memory_child(n: int) -> None:
    """Run in a fresh process: render `n` unique cards, print this process's peak RSS (MiB)."""
    with tempfile.TemporaryDirectory() as tmp:
        paths, diags = render_deck_sheets(unique_game(n), paper="a4", out_dir=Path(tmp))
        assert paths and not diags, diags
    print(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024)


_PEAK_OF = ("import resource, runpy, sys; sys.argv = sys.argv[1:]; "
            "runpy.run_path(sys.argv[0], run_name='__main__'); "
            "print(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024)")


def peak_rss(n: int, out: Path) -> tuple[float, float]:
    """Peak RSS (MiB) of a fresh process rendering n unique cards: pnp, then plain reportlab."""
    ours = subprocess.run([sys.executable, __file__, "--memory-child", str(n)],
                          capture_output=True, text=True, check=True)
    base = float("nan")
    if BASELINE.exists():
        res = subprocess.run([sys.executable, "-c", _PEAK_OF, str(BASELINE), str(out / "m.pdf"),
                              str(n)], capture_output=True, text=True, check=True)
        base = float(res.stdout.split()[-1])
    return float(ours.stdout.split()[-1]), base


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=3, help="best of N runs (default 3)")
    ap.add_argument("--memory-cards", type=int, default=54000,
                    help="unique cards for the peak-memory run (0 skips it; default 54000)")
    ap.add_argument("--memory-child", type=int, default=0, help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.memory_child:
        memory_child(args.memory_child)
        return
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp)
        ours = time_render(distinct_game, out, args.runs)
        repeated = time_render(repeated_game, out, args.runs)
        peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024  # KiB on Linux
        base = time_baseline(out, args.runs) if BASELINE.exists() else float("nan")
    cps, rep_cps, base_cps = 540 / ours, 540 / repeated, 540 / base
    print(f"cards_per_second={cps:.0f}")
    print(f"peak_memory_mb={peak:.1f}")
    print(f"reportlab_cards_per_second={base_cps:.0f}")
    print(f"ratio={base_cps / cps:.2f}  (reportlab / pnp; target <= 2)")
    print(f"repeated_cards_per_second={rep_cps:.0f}")
    if args.memory_cards:
        with tempfile.TemporaryDirectory() as tmp:
            ours_mb, base_mb = peak_rss(args.memory_cards, Path(tmp))
        print(f"peak_rss_mb_{args.memory_cards}_unique={ours_mb:.1f}  (target < 150)")
        print(f"reportlab_peak_rss_mb_{args.memory_cards}={base_mb:.1f}")


if __name__ == "__main__":
    main()
