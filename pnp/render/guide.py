"""The print guide: which file to print, how many copies, on what, one side or two, in what
order to cut and fold; and `print-all.pdf`, the guide and every home-printable file in one.

The guide is the last kind a build renders, so it lists the files the other kinds wrote (their
`output_names`) with their page counts; print-all is joined with pypdf, whose output is
byte-identical for the same inputs. The text is generic: what a file is comes from its kind and
the game's data (deck names, sizes, descriptions, per-player components), never from its rules.
"""

from __future__ import annotations

import hashlib
import io
import json
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from reportlab.lib.styles import ParagraphStyle
from reportlab.platypus import Paragraph, SimpleDocTemplate, Spacer, Table, TableStyle
from reportlab.platypus.flowables import Flowable

from pnp import __version__
from pnp.diagnostics import ERROR, Diagnostic
from pnp.render.fonts import ensure_fonts
from pnp.render.geometry import card_size, mm, parse_paper
from pnp.render.pdfwrite import write_outputs
from pnp.render.scalebar import LENGTH, draw_scale_bar

GUIDE = "print-guide.pdf"
PRINT_ALL = "print-all.pdf"
R_GUIDE = "PNP-R079"  # the print guide or print-all cannot be made
INK = "#1d2733"


def kit_stamp(game: Any) -> str:
    """`pnp VERSION · data HASH[ · variant V]`: which data printed a sheet, for playtest notes.

    The hash covers every data and layout document by its path inside the game folder, so the
    same data gives the same stamp wherever the folder lives."""
    h = hashlib.sha256()
    folder = Path(game.folder)
    for doc in [*getattr(game, "documents", ()), *getattr(game, "layout_documents", ())]:
        try:
            rel = Path(doc.path).resolve().relative_to(folder.resolve()).as_posix()
        except ValueError:
            rel = Path(doc.path).name
        h.update(rel.encode())
        h.update(json.dumps(doc.data, sort_keys=True, default=str).encode())
    stamp = f"pnp {__version__} · data {h.hexdigest()[:8]}"
    return stamp + (f" · variant {game.variant}" if getattr(game, "variant", None) else "")


@dataclass(frozen=True)
class Entry:
    name: str
    what: str
    copies: str
    stock: str
    sides: str
    home: bool = True  # printed at home, so part of print-all


def _deck_entry(game: Any, deck: Any, name: str) -> Entry:
    n = sum(max(0, int(c.count)) for c in deck.cards)
    w, h = card_size(deck.size)
    size = f"{w / mm(1):.0f}×{h / mm(1):.0f} mm"
    what = f"{deck.name}: {n} piece{'s' if n != 1 else ''}, {size}."
    description = _deck_description(game, deck.id)
    if description:
        what += " " + " ".join(description.split())
    sides = "two" if deck.back else "one"
    return Entry(name, what, "1", "card stock", sides)


def _one_sided(items: list[Entry]) -> list[Entry]:
    """A gutterfold kit prints its cards on one side (front and back share a page)."""
    return [Entry(e.name, e.what, e.copies, e.stock, "one (fold)", e.home)
            if e.name.startswith("cards-") and e.sides == "two" else e for e in items]


def _deck_description(game: Any, deck_id: str) -> str:
    """A deck's `description` as its YAML gives it (the model keeps no free text)."""
    for doc in getattr(game, "documents", ()):
        data = doc.data if isinstance(doc.data, dict) else {}
        for spec in data.get("decks") or []:
            if isinstance(spec, dict) and spec.get("id") == deck_id:
                return str(spec.get("description") or "")
    return ""


def _packed_entry(game: Any, decks: list, name: str) -> Entry:
    n = sum(max(0, int(c.count)) for d in decks for c in d.cards)
    w, h = card_size(decks[0].size)
    what = (f"{n} pieces of {w / mm(1):.0f}×{h / mm(1):.0f} mm sharing sheets: "
            + ", ".join(f"{d.name} ({sum(max(0, int(c.count)) for c in d.cards)})"
                        for d in decks) + ".")
    return Entry(name, what, "1", "card stock", "two" if any(d.back for d in decks) else "one")


def entries(game: Any, names: list[str], pack: bool = False) -> list[Entry]:
    """What the guide says about each file of the kit, in the order to print them."""
    from pnp.render.kinds import deck_files

    decks = {f"cards-{d.id}.pdf": d for d in game.decks.values() if d.printed}
    packed = {f"{stem}.pdf": ds for stem, ds in deck_files(game, True).items()} if pack else {}
    per_player = [c for c in game.components if c.per_player]
    players = f"{game.players_min}-{game.players_max}"
    out: list[Entry] = []
    for name in names:
        if name == PRINT_ALL or name == GUIDE:
            continue
        if name.startswith("rulesheet"):
            out.append(Entry(name, "The rules, written from the same data as the pieces.", "1",
                             "plain paper", "either"))
        elif name == "symbol-key.pdf":
            out.append(Entry(name, "Every symbol or short form on the pieces and what it "
                             "stands for.",
                             "1 (2 for 4+ players)", "plain paper", "one"))
        elif name.startswith("record-") and "fillable" in name:
            out.append(Entry(name, "The record page with form fields, to keep score on a "
                             "tablet or laptop.", "none (save one copy per player)", "-", "-",
                             home=False))
        elif name.startswith("record-"):
            out.append(Entry(name, "The record page each player keeps in pencil.",
                             f"one per player ({players})", "plain paper", "one"))
        elif name.startswith("board-") and name.endswith("-tiled.pdf"):
            out.append(Entry(name, "The board on home-printer pages: cut and glue them "
                             "together in the order of the tile names (A1, A2, ... B1 ...).",
                             "1", "heavy paper", "one"))
        elif name.startswith("board-"):
            out.append(Entry(name, "The whole board on one large sheet, at a copy shop.", "1",
                             "large paper", "one", home=False))
        elif name == "tokens.pdf":
            what = "Pawns and counters: cut out; fold each pawn on its dashed lines."
            if per_player:
                what += " " + ", ".join(f"{c.name} ({c.count} each)" for c in per_player
                                        if "pawn" in c.id) + "."
            out.append(Entry(name, what, "1", "card stock", "one"))
        elif name.startswith("map-") and name.endswith("-tiled.pdf"):
            out.append(Entry(name, "The map on home-printer pages: cut and glue them together "
                             "in the order of the tile names (A1, A2, ... B1 ...).", "1",
                             "heavy paper", "one"))
        elif name.startswith("map-") and name.endswith("-pieces.pdf"):
            out.append(Entry(name, "The pieces that stand on the map, in the players' colours "
                             "and the shared ones: cut each on its outline.", "1", "card stock",
                             "one"))
        elif name.startswith("map-"):
            out.append(Entry(name, "The whole map on one large sheet, at a copy shop.", "1",
                             "large paper", "one", home=False))
        elif name == "supply-tokens.pdf":
            counts = ", ".join(f"{s.name} ({s.stock})" for s in game.supplies.values()
                               if s.token is not None)
            out.append(Entry(name, f"Supply tokens, as many as the box holds: {counts}.", "1",
                             "card stock", "one"))
        elif name == "player-aid.pdf":
            out.append(Entry(name, "The player aid: one page for each player, in the players' "
                             "colours.", "1", "plain paper", "one"))
        elif name in packed:
            out.append(_packed_entry(game, packed[name], name))
        elif name in decks:
            out.append(_deck_entry(game, decks[name], name))
        elif name.endswith(".pdf"):
            out.append(Entry(name, "Part of the kit.", "1", "plain paper", "one"))
    order = {"rulesheet": 0, "symbol-key": 1, "record": 2, "board": 3, "tokens": 4, "cards": 5}
    return sorted(out, key=lambda e: order.get(e.name.split(".")[0].split("-")[0]
                                               if not e.name.startswith("symbol-key")
                                               else "symbol-key", 9))


def _steps(items: list[Entry], gutterfold: bool = False, folds: bool = False) -> list[str]:
    names = {e.name for e in items}
    steps = ["Print at <b>actual size / 100 %</b> (never \"fit to page\"). Measure the 50 mm "
             "scale bar above with a ruler: if it is not 50 mm, the print is scaled and the "
             "pieces will not fit each other."]
    if any(n.startswith("rulesheet") or n == "symbol-key.pdf" for n in names):
        steps.append("Print the rulesheet and the symbol key on plain paper and read the "
                     "rules while the rest prints.")
    if any(n.startswith("cards-") for n in names) and gutterfold:
        steps.append("Print each card file on card stock (160-300 g/m²), one-sided: this kit "
                     "is built with --gutterfold, so each page holds fronts on the left and "
                     "their backs on the right. Fold each page on its dashed line, glue the "
                     "halves together, then cut.")
    elif any(n.startswith("cards-") for n in names):
        steps.append("Print each card file on card stock (160-300 g/m²), two-sided, flipping on the long "
                     "edge: every front page is followed by its back page, mirrored to land "
                     "behind it. No duplex printer? Build with <b>--gutterfold</b>: each front "
                     "and its back side by side, to fold and glue. Print the duplex "
                     "calibration page (pnp render cards --calibration) once if your backs "
                     "land off-centre.")
        steps.append("Cut the card sheets along the crop marks in the margins: first every "
                     "long cut right across the sheet, then the short ones. Cut round tokens "
                     "on their outline.")
    if any(n.startswith("board-") or n.startswith("map-") and n.endswith("-tiled.pdf")
           for n in names):
        steps.append("Trim and glue the board tiles in the order of their names; each tile's "
                     "margin names its neighbours.")
    if "tokens.pdf" in names:
        steps.append("Cut the pawns and counters; fold each pawn on its dashed lines, the base "
                     "tabs outwards.")
    if folds:
        steps.append("Pieces to fold (die nets): cut on the solid outline, fold on the dashed "
                     "lines, glue each grey tab under the face it meets.")
    return steps


def _has_die_nets(game: Any) -> bool:
    """Whether a layout of the game draws a die net (the guide then says how to fold it)."""
    for doc in getattr(game, "layout_documents", ()):
        data = doc.data if isinstance(doc.data, dict) else {}
        for layout in data.get("layouts") or []:
            if any(isinstance(el, dict) and el.get("type") == "die_net"
                   for el in (layout.get("elements") or [])):
                return True
    return False


class ScaleBar(Flowable):
    """A 50 mm bar with 10 mm ticks, to check that the print is at actual size."""

    def wrap(self, avail_w, avail_h):
        return (mm(50), mm(7))

    def draw(self):
        c = self.canv
        c.setFillColorRGB(0.11, 0.15, 0.2)
        c.rect(0, mm(1), mm(50), mm(1.2), stroke=0, fill=1)
        c.setLineWidth(0.5)
        c.setStrokeColorRGB(0.11, 0.15, 0.2)
        for k in range(6):
            c.line(mm(10 * k), mm(1), mm(10 * k), mm(3.6 if k in (0, 5) else 2.8))
        c.setFont("Vera", 7)
        c.drawString(0, mm(4.4), "50 mm: check with a ruler")


def guide_pdf(game: Any, items: list[Entry], pages: dict[str, int], paper: tuple[float, float],
              stamp: str, gutterfold: bool = False) -> bytes:
    ensure_fonts()
    buf = io.BytesIO()
    doc = SimpleDocTemplate(buf, pagesize=paper, leftMargin=mm(15), rightMargin=mm(15),
                            topMargin=mm(15), bottomMargin=mm(15),
                            title=f"{game.name}: print guide", author="pnp",
                            creator=f"pnp {__version__}", subject="print guide", invariant=1,
                            initialFontName="Vera")
    h1 = ParagraphStyle("h1", fontName="Vera-Bold", fontSize=16, leading=20, textColor=INK)
    h2 = ParagraphStyle("h2", fontName="Vera-Bold", fontSize=11, leading=14, textColor=INK,
                        spaceBefore=8, spaceAfter=4)
    body = ParagraphStyle("body", fontName="Vera", fontSize=8.5, leading=10.5, textColor=INK)
    small = ParagraphStyle("small", parent=body, fontSize=7.5, leading=9)
    story: list[Any] = [
        Paragraph(f"{_x(game.name)}: print guide", h1),
        Paragraph(f"{_x(stamp)} · {'prototype data, ' if game.prototype else ''}"
                  f"{game.players_text()}", small),
        Spacer(0, mm(3)), ScaleBar(),
        Paragraph("In what order", h2),
    ]
    for i, step in enumerate(_steps(items, gutterfold, _has_die_nets(game)), 1):
        story.append(Paragraph(f"{i}. {step}", body))
        story.append(Spacer(0, 2))
    story.append(Paragraph("What to print", h2))
    rows = [[Paragraph(f"<b>{x}</b>", small) for x in
             ("file", "what it is", "pp.", "copies", "paper", "sides")]]
    for e in items:
        rows.append([Paragraph(_x(e.name), small), Paragraph(_x(e.what), small),
                     Paragraph(str(pages.get(e.name, "")), small), Paragraph(_x(e.copies), small),
                     Paragraph(_x(e.stock), small), Paragraph(_x(e.sides), small)])
    width = paper[0] - mm(30)
    cols = [0.24, 0.42, 0.05, 0.11, 0.11, 0.07]
    table = Table(rows, colWidths=[width * k for k in cols], repeatRows=1)
    table.setStyle(TableStyle([
        ("VALIGN", (0, 0), (-1, -1), "TOP"), ("FONTNAME", (0, 0), (-1, -1), "Vera"),
        ("LINEBELOW", (0, 0), (-1, 0), 0.8, INK),
        ("LINEBELOW", (0, 1), (-1, -1), 0.3, "#b0bec5"),
        ("BACKGROUND", (0, 0), (-1, 0), "#eef2f4"),
        ("LEFTPADDING", (0, 0), (-1, -1), 3), ("RIGHTPADDING", (0, 0), (-1, -1), 3),
    ]))
    story.append(table)
    story.append(Paragraph(f"<b>{PRINT_ALL}</b> holds this guide and every file marked for home "
                           "printing, in this order, for one print job (set two-sided printing "
                           "for the card pages, or print the card files on their own).", body))

    def stamp_page(canv, _doc):
        canv.saveState()
        canv.setViewerPreference("PrintScaling", "None")
        canv.setFont("Vera", 6.5)
        canv.setFillColorRGB(0.4, 0.4, 0.4)
        canv.drawString(mm(15), mm(8), f"{game.name} · print guide · {stamp}")
        canv.restoreState()

    def later_page(canv, doc_):
        stamp_page(canv, doc_)  # the first page has the big bar; later ones a footer bar
        draw_scale_bar(canv, paper[0] - mm(15) - LENGTH, mm(7))

    doc.build(story, onFirstPage=stamp_page, onLaterPages=later_page)
    return buf.getvalue()


def _x(text: str) -> str:
    return str(text).replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def render_guide(game: Any, out_dir: str | os.PathLike, paper: str = "a4",
                 names: list[str] | None = None, gutterfold: bool = False,
                 pack: bool = False) -> tuple[list[Path], list[Diagnostic]]:
    """Write the guide, and print-all when every home file it lists is in out_dir."""
    from pypdf import PdfReader, PdfWriter

    from pnp.render.kinds import in_kit, renderers

    out = Path(out_dir)
    if names is None:
        names = [n for kind in renderers() if kind.name != "guide" and in_kit(kind)
                 and kind.applies(game) for n in kind.output_names(game, paper)]
        if pack:
            from pnp.render.kinds import deck_files

            unpacked = {f"cards-{d.id}.pdf" for d in game.decks.values()}
            names = [n for n in names if n not in unpacked] + [
                f"{stem}.pdf" for stem in deck_files(game, True)]
    items = entries(game, names, pack)
    if gutterfold:
        items = _one_sided(items)
    pages: dict[str, int] = {}
    for e in items:
        path = out / e.name
        if path.is_file():
            try:
                pages[e.name] = len(PdfReader(path).pages)
            except Exception:  # pypdf on a broken file: the guide just leaves the count out
                pass
    diags: list[Diagnostic] = []
    stamp = kit_stamp(game)
    try:
        guide = guide_pdf(game, items, pages, parse_paper(paper), stamp, gutterfold)
    except Exception as exc:  # reportlab on unusual data: a diagnostic, never a traceback
        return [], [Diagnostic(ERROR, R_GUIDE, f"the print guide cannot be laid out: {exc}")]
    outputs = [(out / GUIDE, guide)]
    home = [e.name for e in items if e.home]
    if home and all((out / n).is_file() for n in home):
        writer = PdfWriter()
        writer.append(io.BytesIO(guide))
        for n in home:
            writer.append(str(out / n))
        writer.add_metadata({"/Title": f"{game.name}: everything to print", "/Creator":
                             f"pnp {__version__}"})
        writer.create_viewer_preferences()
        writer.viewer_preferences.print_scaling = "/None"  # as every pnp PDF asks
        buf = io.BytesIO()
        writer.write(buf)
        outputs.append((out / PRINT_ALL, buf.getvalue()))
    return write_outputs(outputs, diags), diags
