"""Helpers for the spreadsheet tests: a bundled game copied with its decks' cards moved out."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

from click.testing import CliRunner

from pnp.cli import main
from pnp.paths import CARDS

_DECK_ID = re.compile(r"^  - id: ([a-z0-9-]+)\s*$")
_CARDS = re.compile(r"^    cards:\s*$")


def replace_cards(text: str, uses: dict[str, str]) -> str:
    """A deck file with the block `cards:` list of every deck in `uses` replaced by the line
    uses[deck] (e.g. `cards: {from: empire-a.csv}`). The bundled deck files write each deck as
    `  - id: ...` and its cards as a block list under `    cards:`."""
    out: list[str] = []
    deck = None
    skipping = False
    for line in text.splitlines(keepends=True):
        if skipping:
            if line.startswith("      ") or not line.strip():
                continue
            skipping = False
        match = _DECK_ID.match(line)
        if match:
            deck = match.group(1)
        if _CARDS.match(line) and deck in uses:
            out.append(f"    {uses[deck]}\n")
            skipping = True
            continue
        out.append(line)
    return "".join(out)


def export(game: Path, fmt: str, out: Path) -> dict[str, str]:
    """`pnp export cards GAME --format FMT --out OUT`; the deck id -> `cards:` line it printed."""
    result = CliRunner().invoke(main, ["export", "cards", str(game), "--format", fmt, "--out",
                                       str(out)])
    assert result.exit_code == 0, result.output
    uses = {}
    for line in result.stderr.splitlines():
        match = re.match(r"^  deck ([a-z0-9-]+): (cards: .*)$", line)
        if match:
            uses[match.group(1)] = match.group(2)
    return uses


def game_with_sheet_cards(name: str, fmt: str, where: Path) -> Path:
    """A copy of bundled game `name` in `where` whose decks read their cards from files that
    `pnp export cards --format FMT` wrote into the game folder."""
    folder = where / name
    shutil.copytree(CARDS / name, folder)
    uses = export(CARDS / name, fmt, folder)
    for deck_file in folder.glob("*.yaml"):
        text = deck_file.read_text(encoding="utf-8")
        if "schemas/deck.schema.json" in text.splitlines()[0]:
            deck_file.write_text(replace_cards(text, uses), encoding="utf-8")
    return folder
