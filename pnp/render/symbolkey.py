"""The symbol key: one page naming every symbol a game's cards and boards use.

Drawn from the game's icons that carry a `meaning` (pnp.templating.icons.game_symbols), so a
new symbol appears in the key the moment it is defined; the same list feeds the rulesheet's
glossary. Its preflight is the symbol lint (pnp.templating.symbols): two meanings that share a
shape and colour, or a label, are a warning. A game that prints words and its rulebook's short
forms instead of pictures (Ancient Civilizations: `F+2 M+1`) gets a key of those: each stat's
abbreviation, the board's tags, the dice notation and the pieces (`word_keys`).
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from pnp.colors import parse_color
from pnp.diagnostics import Diagnostic
from pnp.render.geometry import mm, parse_paper
from pnp.render.layout.icons import ICON_UNITS, Icon, icon_form
from pnp.render.pdfops import place_form
from pnp.render.pdfwrite import write_component_pdf
from pnp.render.scalebar import LENGTH, draw_scale_bar
from pnp.render.text import fit, fit_width
from pnp.templating.icons import game_symbols
from pnp.templating.symbols import symbol_clashes

FILE_NAME = "symbol-key.pdf"
ROW = mm(13)
ICON = mm(9)
INK = (0.11, 0.15, 0.2)


def symbols(game: Any) -> list:
    return game_symbols(game)[0]


def word_keys(game: Any) -> list[tuple[str, str, Any]]:
    """(what is printed, what it means, an icon drawn beside it or None) for the letters, words
    and marks a game prints where another would print a symbol: its stats' short forms, the
    tags and notes of its tracks, the dice notation of its charts, its pawns and counters.
    Empty for a game with none of these (its key is its icons)."""
    out: list[tuple[str, str, Any]] = []
    for stat in getattr(game, "stats", {}).values():
        abbr = getattr(stat, "abbreviation", None)
        if not abbr:
            continue
        also = [a for a in getattr(stat, "aliases", ()) if a != abbr]
        meaning = stat.name + (f" (also written {', '.join(also)})" if also else "")
        if getattr(stat, "note", ""):
            meaning += f". {stat.note}"
        out.append((abbr, meaning, None))
    if not out:
        return []  # the rest only explains a game that writes its effects in letters
    tracks = list(getattr(game, "tracks", {}).values())
    if getattr(game, "charts", None):
        out.append(("1D6", "Roll one six-sided die (2D6: two dice, added). An effect such as "
                           "Food -1D6 loses what the die shows; a chart gives the row of the "
                           "roll.", None))
    if tracks and getattr(game, "boards", None):
        out.append(("START", "A track's first space, tinted and edged in bold: each pawn "
                             "begins there; small arrows show the way round.", None))
        if any(t.shape == "path" for t in tracks):
            out.append(("END", "The last space of a path track.", None))
        if any(s.footnote for t in tracks for s in t.spaces):
            out.append(("(*)", "A space with a footnote: the note is printed in the middle of "
                               "its track.", None))
    from pnp.render.build import pawn_component, pawn_groups

    groups = pawn_groups(game)[0]
    pawns = [g for g in groups if g.shape == "pawn"]
    comp = pawn_component(game)
    if pawns and comp is not None:
        out.append((f"P1…P{len(pawns)}", f"{comp.name}: {comp.note or ''} The number is the "
                   "player's, the colour tells players apart.".replace(":  ", ": "), None))
    for g in groups:
        if g.shape == "circle":
            note = next((c.note for c in game.components if c.name == g.label), "")
            out.append(("", f"{g.label}: {note}".rstrip(": "),
                        Icon(name=f"counter-{g.label}", shape="circle",
                             fill=parse_color(g.colour), stroke=(0.15, 0.15, 0.15))))
    return out


def check_symbols(game: Any) -> list[Diagnostic]:
    found, diags = game_symbols(game)
    return diags + symbol_clashes(found)


WORDS_NOTE = ("prints words and its rulebook's own short forms, not pictures: the rules write "
              "every effect with these letters (F+2 M+1), so the board, the charts and the "
              "record page do too. What each one stands for:")


def draw_symbol_key(c, game: Any, paper: tuple[float, float]) -> int:
    """The key on as many pages as it needs (two columns of symbol and meaning): the icons,
    then the words and marks (`word_keys`)."""
    pw, ph = paper
    margin = mm(15)
    col_w = (pw - 2 * margin - mm(8)) / 2
    items = [(Icon.of(icon), "", icon.meaning) for icon in symbols(game)]
    words = word_keys(game)
    items += [(icon, text, meaning) for text, meaning, icon in words]
    intro = ("Every symbol printed on the cards, tiles and boards, and what it stands for."
             if not words else f"{game.name} {WORDS_NOTE}")
    head = fit(intro, "Vera", pw - 2 * margin, mm(10), size=9, min_size=7, leading=1.2)
    below = mm(20) + (len(head.strings()) - 1) * head.size * 1.2  # the first row's top
    per_col = max(1, int((ph - 2 * margin - below - mm(2)) // ROW))
    pages = 0
    for start in range(0, len(items), 2 * per_col):
        c.setPageSize(paper)
        c.setFillColorRGB(*INK)
        c.setFont("Vera-Bold", 16)
        c.drawString(margin, ph - margin - mm(6), f"{game.name}: symbol key")
        c.setFont("Vera", head.size)
        for k, line in enumerate(head.strings()):
            c.drawString(margin, ph - margin - mm(12) - k * head.size * 1.2, line)
        chunk = items[start:start + 2 * per_col]
        for i, (icon, text, meaning) in enumerate(chunk):
            col, row = divmod(i, per_col)
            x = margin + col * (col_w + mm(8))
            top = ph - margin - below - row * ROW
            key_w = ICON
            if icon is not None:
                place_form(c, icon_form(c, icon), x, top - ICON - mm(2), ICON / ICON_UNITS)
            if text:
                key_w = _draw_word(c, text, x, top - ICON - mm(2))
            tx, tw = x + key_w + mm(3), col_w - key_w - mm(3)
            fitted = fit(meaning, "Vera", tw, ROW - mm(2), size=9.5, min_size=7,
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


WORD_W = mm(16)


def _draw_word(c, text: str, x: float, y: float) -> float:
    """A printed word or short form in a pale box as wide as WORD_W; returns the width."""
    c.setFillColorRGB(0.93, 0.94, 0.95)
    c.setStrokeColorRGB(0.6, 0.63, 0.66)
    c.setLineWidth(0.5)
    c.roundRect(x, y, WORD_W, ICON, mm(1.5), stroke=1, fill=1)
    size = fit_width(text, "Vera-Bold", 11, WORD_W - mm(2), min_size=6)
    c.setFillColorRGB(*INK)
    c.setFont("Vera-Bold", size)
    c.drawCentredString(x + WORD_W / 2, y + ICON / 2 - size * 0.36, text)
    return WORD_W


def render_symbol_key(game: Any, out_dir: str | os.PathLike, paper: str = "a4",
                      ) -> tuple[list[Path], list[Diagnostic]]:
    paper_size = parse_paper(paper)
    return write_component_pdf(Path(out_dir) / FILE_NAME, lambda c: draw_symbol_key(c, game, paper_size),
                     paper_size, f"{game.name}: symbol key")
