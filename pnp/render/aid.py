"""The player aid: `player-aid/*.md` in a game folder (Markdown + jinja2, read from the game data
like the rulesheet's sources) printed once per player, one page each, under a band in that
player's colour.

The sources go through the rulesheet's own `prepare` (sandbox, line-traced diagnostics, icons)
and its `Story` (tables, notes, lists), so an aid prints the numbers the engine reads and is
checked like the rulesheet. An aid is a page a player keeps beside the board: one that needs a
second page is an error (PNP-R088), found by `pnp validate` as well as by a build.
"""

from __future__ import annotations

import io
import os
import tempfile
from pathlib import Path

from reportlab import rl_config
from reportlab.lib import colors
from reportlab.platypus import PageBreak
from reportlab.platypus.doctemplate import LayoutError, PageTemplate
from reportlab.platypus.frames import Frame

from pnp import __version__
from pnp.data.model import GameDef
from pnp.diagnostics import ERROR, Diagnostic
from pnp.paper import names_text
from pnp.render.geometry import GeometryError, mm, parse_paper
from pnp.render.kinds import AID_FOLDER
from pnp.render.pdfwrite import write_outputs
from pnp.render.rulesheet import (
    BODY,
    GUTTER,
    MARGIN,
    R_LAYOUT,
    Heading,
    IconImages,
    Inline,
    PrintedDoc,
    Story,
    make_styles,
)
from pnp.render.scalebar import LENGTH, draw_scale_bar
from pnp.rulesheet.check import Prepared, prepare

#: the sources' folder in a game folder, and the kit file
FOLDER = AID_FOLDER
FILE_NAME = "player-aid.pdf"
BAND = mm(11)  # the coloured band at the top of each page


def aid_folder(game: GameDef) -> Path | None:
    folder = Path(game.folder) / FOLDER
    return folder if folder.is_dir() else None


class AidStory(Story):
    """The rulesheet's story with plain headings: an aid has no numbered sections."""

    def heading(self, text_markup: str, level: int) -> None:
        style = self.styles[f"h{min(level, 3)}"]
        self.pending.append(Heading(text_markup, style, level, "", f"a{len(self.flowables)}"))


class AidDoc(PrintedDoc):
    """Two columns under a band naming the player; page n is player n's."""

    def __init__(self, target, pagesize, game: GameDef, seats: list[tuple[str, str]]):
        super().__init__(target, pagesize=pagesize, leftMargin=MARGIN, rightMargin=MARGIN,
                         topMargin=MARGIN, bottomMargin=MARGIN, title=f"{game.name} — player aid",
                         author="pnp", creator=f"pnp {__version__}", subject="player aid",
                         invariant=1, initialFontName="Vera")
        self.game, self.seats = game, seats
        w, h = pagesize
        col = (w - 2 * MARGIN - GUTTER) / 2
        body_h = h - 2 * MARGIN - BAND - mm(4) - 8
        frames = [Frame(MARGIN + i * (col + GUTTER), MARGIN + 8, col, body_h, leftPadding=0,
                        rightPadding=0, topPadding=0, bottomPadding=0, id=f"c{i}")
                  for i in range(2)]
        self.addPageTemplates([PageTemplate("aid", frames, onPage=self.decorate)])
        self.column_width = col

    def decorate(self, canv, doc) -> None:
        w, h = doc.pagesize
        seat = doc.page - 1
        name, colour = self.seats[seat % len(self.seats)] if self.seats else ("", "#7a3b12")
        canv.saveState()
        fill = colors.HexColor(colour)
        canv.setFillColor(fill)
        canv.roundRect(MARGIN, h - MARGIN - BAND, w - 2 * MARGIN, BAND, mm(2), stroke=0, fill=1)
        lum = 0.2126 * fill.red + 0.7152 * fill.green + 0.0722 * fill.blue
        canv.setFillColor(colors.black if lum > 0.55 else colors.white)
        canv.setFont("Vera-Bold", 14)
        canv.drawString(MARGIN + mm(4), h - MARGIN - BAND / 2 - 5, f"{self.game.name} — player aid")
        canv.setFont("Vera", 10)
        canv.drawRightString(w - MARGIN - mm(4), h - MARGIN - BAND / 2 - 4,
                             f"Player {seat + 1} · {name}" if name else f"Player {seat + 1}")
        canv.setFont("Vera", 7.5)
        canv.setFillColor(colors.HexColor("#555555"))
        foot = f"{self.game.name} · player aid" + (
            f" · variant {self.game.variant}" if self.game.variant else "")
        canv.drawString(MARGIN, MARGIN - 2, foot)
        draw_scale_bar(canv, w - MARGIN - LENGTH, MARGIN - 3)
        canv.restoreState()


def _seats(game: GameDef) -> list[tuple[str, str]]:
    """(colour name, hex) of each seat, in the order the pawns and map pieces use."""
    from pnp.render.build import PLAYER_COLOURS

    return [PLAYER_COLOURS[i % len(PLAYER_COLOURS)] for i in range(max(1, game.players_max))]


def aid_pdf(game: GameDef, prepared: Prepared, size: tuple[float, float],
            copies: int | None = None) -> tuple[bytes, int]:
    """The PDF bytes (one page a copy, `players_max` copies unless told) and its page count;
    raises LayoutError when a block cannot fit a column."""
    seats = _seats(game)
    n = len(seats) if copies is None else copies
    styles = make_styles()
    buf = io.BytesIO()
    doc = AidDoc(buf, size, game, seats)
    saved = rl_config.useA85
    rl_config.useA85 = 0
    try:
        with tempfile.TemporaryDirectory(prefix="pnp-aid-") as tmp:
            icons = IconImages(prepared.icons, Path(tmp))
            story = []
            for k in range(n):  # platypus consumes flowables: a fresh story for each copy
                s = AidStory(styles, Inline(icons, BODY), doc.column_width)
                for src in prepared.sources:
                    s.blocks(src.tree.children)
                story += s.finish()
                if k < n - 1:
                    story.append(PageBreak())
            doc.build(story)
    finally:
        rl_config.useA85 = saved
    return buf.getvalue(), doc.page


def _layout_problem(game: GameDef, prepared: Prepared, size: tuple[float, float]
                    ) -> Diagnostic | None:
    """Why one copy of the aid cannot be printed on one page of paper `size`, or None."""
    where = str(prepared.folder)
    try:
        _data, pages = aid_pdf(game, prepared, size, copies=1)
    except LayoutError as exc:
        return Diagnostic(ERROR, R_LAYOUT, f"the player aid cannot be laid out: {exc}", where,
                          hint="a table or block is larger than a column; split it")
    except Exception as exc:  # reportlab on unusual content: report it, never a traceback
        return Diagnostic(ERROR, R_LAYOUT, f"the player aid cannot be laid out: "
                          f"{type(exc).__name__}: {exc}", where)
    if pages > 1:
        return Diagnostic(ERROR, R_LAYOUT, f"the player aid takes {pages} pages; a player's "
                          "aid is one page", where,
                          hint="shorten the sources, or leave the details to the rulesheet")
    return None


def check_aid(game: GameDef, size: tuple[float, float]) -> list[Diagnostic]:
    """Every problem of the aid's sources, and whether one copy fits one page of `size`."""
    folder = aid_folder(game)
    if folder is None:
        return []
    prepared = prepare(game, folder)
    diags = list(prepared.diagnostics)
    if any(d.is_error for d in diags):
        return diags
    problem = _layout_problem(game, prepared, size)
    return diags + ([problem] if problem else [])


def render_aid(game: GameDef, out_dir: str | os.PathLike, paper: str = "a4",
               ) -> tuple[list[Path], list[Diagnostic]]:
    """Write `player-aid.pdf`; nothing when a source has an error or a copy overflows a page."""
    folder = aid_folder(game)
    if folder is None:
        return [], []
    try:
        size = parse_paper(paper)
    except GeometryError as exc:
        return [], [Diagnostic(ERROR, R_LAYOUT, str(exc), hint=f"use {names_text()}")]
    prepared = prepare(game, folder)
    diags = list(prepared.diagnostics)
    if any(d.is_error for d in diags):
        return [], diags
    problem = _layout_problem(game, prepared, size)
    if problem is not None:
        return [], diags + [problem]
    data, _pages = aid_pdf(game, prepared, size)
    written = write_outputs([(Path(out_dir) / FILE_NAME, data)], diags)
    return written, diags
