"""The symbol key: one page naming every symbol a game's cards and boards use.

Drawn from the game's icons that carry a `meaning` (pnp.templating.icons.game_symbols), so a
new symbol appears in the key the moment it is defined; the same list feeds the rulesheet's
glossary. Its preflight is the symbol lint (pnp.templating.symbols): two meanings that share a
shape and colour, or a label, are a warning.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from pnp.diagnostics import Diagnostic
from pnp.render.geometry import mm, parse_paper
from pnp.render.layout.icons import ICON_UNITS, Icon, icon_form
from pnp.render.pdfops import place_form
from pnp.render.pdfwrite import pdf_bytes, write_outputs
from pnp.render.scalebar import LENGTH, draw_scale_bar
from pnp.render.text import fit
from pnp.templating.icons import game_symbols
from pnp.templating.symbols import symbol_clashes

FILE_NAME = "symbol-key.pdf"
ROW = mm(13)
ICON = mm(9)
INK = (0.11, 0.15, 0.2)


def symbols(game: Any) -> list:
    return game_symbols(game)[0]


def check_symbols(game: Any) -> list[Diagnostic]:
    found, diags = game_symbols(game)
    return diags + symbol_clashes(found)


def draw_symbol_key(c, game: Any, paper: tuple[float, float]) -> int:
    """The key on as many pages as it needs (two columns of symbol and meaning)."""
    pw, ph = paper
    margin = mm(15)
    col_w = (pw - 2 * margin - mm(8)) / 2
    items = symbols(game)
    per_col = max(1, int((ph - 2 * margin - mm(22)) // ROW))
    pages = 0
    for start in range(0, len(items), 2 * per_col):
        c.setPageSize(paper)
        c.setFillColorRGB(*INK)
        c.setFont("Vera-Bold", 16)
        c.drawString(margin, ph - margin - mm(6), f"{game.name}: symbol key")
        c.setFont("Vera", 9)
        c.drawString(margin, ph - margin - mm(12),
                     "Every symbol printed on the cards, tiles and boards, and what it stands for.")
        chunk = items[start:start + 2 * per_col]
        for i, icon in enumerate(chunk):
            col, row = divmod(i, per_col)
            x = margin + col * (col_w + mm(8))
            top = ph - margin - mm(20) - row * ROW
            place_form(c, icon_form(c, Icon.of(icon)), x, top - ICON - mm(2), ICON / ICON_UNITS)
            tx, tw = x + ICON + mm(3), col_w - ICON - mm(3)
            fitted = fit(icon.meaning, "Vera", tw, ROW - mm(2), size=9.5, min_size=7,
                         leading=1.15)
            c.setFillColorRGB(*INK)
            c.setFont("Vera", fitted.size)
            lines = fitted.strings()
            block = len(lines) * fitted.size * 1.15
            y = top - mm(2) - ICON / 2 + block / 2 - fitted.size
            for line in lines:
                c.drawString(tx, y, line)
                y -= fitted.size * 1.15
        c.setFont("Vera", 7)
        c.setFillColorRGB(0.4, 0.4, 0.4)
        c.drawString(margin, mm(8), f"{game.name} · symbol key · page {pages + 1}")
        draw_scale_bar(c, pw - margin - LENGTH, mm(7))
        c.showPage()
        pages += 1
    return pages


def render_symbol_key(game: Any, out_dir: str | os.PathLike, paper: str = "a4",
                      ) -> tuple[list[Path], list[Diagnostic]]:
    paper_size = parse_paper(paper)
    data, _ = pdf_bytes(lambda c: draw_symbol_key(c, game, paper_size), paper_size,
                        f"{game.name}: symbol key")
    diags: list[Diagnostic] = []
    return write_outputs([(Path(out_dir) / FILE_NAME, data)], diags), diags
