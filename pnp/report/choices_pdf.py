"""The simulate PDF's pages on choices: the branching factor, and per option how often it was
offered and picked and how its pickers fared against every other seat-game, as a chart of the
options that differ most and a table of every option picked (pnp/engine/choices.py)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from reportlab.pdfgen.canvas import Canvas

from pnp.engine.choices import MIN_GROUP
from pnp.engine.findings import num, pct
from pnp.render.text import ellipsise
from pnp.report.pdf import (
    BAR,
    BOLD,
    FLAG,
    FONT,
    GREY,
    INK,
    LIGHT,
    MARGIN,
    Pages,
    finding_rows,
    findings_with,
    histogram,
)

#: options drawn on the chart: those whose pickers' win rate differs most from the rest
CHART_OPTIONS = 16
ROW = 17.0
#: the option table's rows, and its columns right of the option's name: (title, width)
TABLE_ROW = 10.5
#: (numbers right-aligned, text from the left)
TABLE_COLUMNS = (("offered", 40.0), ("picked", 40.0), ("pickers won", 82.0),
                 ("the rest won", 82.0), ("option test", 92.0))
NUMERIC = 2  # the first columns hold plain numbers


def chart_rows(options: Sequence[Mapping[str, Any]]) -> list[Mapping[str, Any]]:
    """The tested options (enough seat-games on both sides), largest difference first."""
    tested = [r for r in options if r["tested"]]
    return sorted(tested, key=lambda r: (-abs(r["gap"]), r["why"], r["option"]))[:CHART_OPTIONS]


def pick_chart(c: Canvas, x: float, top: float, w: float,
               rows: Sequence[Mapping[str, Any]]) -> float:
    """One row per option: its pickers' win rate as a bar with its 95% CI, every other
    seat-game's as a grey tick with its CI, a red label when the test flags it; the pick
    rate at the right. Returns the height used."""
    label_w, right_w = w * 0.40, 62.0
    left = x + label_w
    pw = w - label_w - right_w
    bottom = top - 14 - ROW * len(rows)
    c.setFont(FONT, 7)
    for t in (0.0, 0.25, 0.5, 0.75, 1.0):
        tx = left + t * pw
        c.setStrokeColor(LIGHT)
        c.line(tx, bottom, tx, top - 12)
        c.setFillColor(GREY)
        c.drawCentredString(tx, top - 10, pct(t))
    c.drawRightString(x + w, top - 10, "picked")
    for i, r in enumerate(rows):
        y = top - 14 - ROW * (i + 1)
        mid = y + ROW / 2
        c.setFillColor(FLAG if r["flagged"] else INK)
        c.setFont(FONT, 7.5)
        c.drawString(x, mid - 2.5, ellipsise(f"{r['option']} @ {r['why']}", FONT, 7.5,
                                             label_w - 6))
        c.setFillColor(BAR)
        c.rect(left, mid - 4, r["win_rate_picked"] * pw, 8, stroke=0, fill=1)
        c.setStrokeColor(INK)
        c.setLineWidth(0.8)
        lo, hi = r["ci95_picked"]
        c.line(left + lo * pw, mid, left + hi * pw, mid)
        lo, hi = r["ci95_not_picked"]
        rest = left + r["win_rate_not_picked"] * pw
        c.setStrokeColor(GREY)
        c.line(left + lo * pw, mid - 6, left + hi * pw, mid - 6)
        c.setLineWidth(1.6)
        c.line(rest, mid - 8, rest, mid + 6)
        c.setLineWidth(1)
        c.setFillColor(INK)
        c.setFont(FONT, 7)
        c.drawRightString(x + w, mid - 2.5, f"{pct(r['pick_rate'])} of {r['offered']}")
    c.setStrokeColor(INK)
    c.line(left, bottom, left + pw, bottom)
    return top - bottom


def draw_choices(pages: Pages, doc: Mapping[str, Any]) -> None:
    """The choices page, when the game's decisions were counted."""
    ch = doc.get("choices") or {}
    b, options = ch.get("branching") or {}, ch.get("options") or []
    if not b.get("decisions"):
        return
    c = pages.c
    pages.new_page()
    pages.heading("Choices")
    pages.paragraph(
        f"A decision offered {num(b['mean'])} options on average (p50 {b['p50']}, p95 "
        f"{b['p95']}, max {b['max']}), {num(b['per_game'])} decisions a game: the branching "
        "factor, counting only decisions with two options or more.", size=8.5)
    top = pages.need(170)
    histogram(c, MARGIN, top - 160, pages.body_w, 140, b["histogram"],
              "Decisions by number of options", "options")
    rows = chart_rows(options)
    if rows:
        pages.heading("Who picked what, and how they fared", 11,
                      keep=30 + ROW * len(rows))
        pages.paragraph(
            "Blue bar: the win rate of the seat-games that picked the option (line: 95% CI); "
            "grey tick: every other seat-game's. Red labels: the pickers win more or less than "
            "the rest beyond chance (Holm-corrected over every option tested). Right: the "
            "share of the offers it was picked. The options whose pickers differ most are "
            "shown; the JSON lists every option.", size=8, color=GREY)
        top = pages.need(20 + ROW * len(rows))
        pick_chart(c, MARGIN, top, pages.body_w, rows)
    openings = ch.get("openings") or {}
    if openings.get("most_played"):
        pages.heading("Openings", 11, keep=40)
        pages.paragraph(
            f"A seat's opening at a decision is its first {openings['picks']} picks there, in "
            f"order; {openings['distinct']} distinct openings were played. The most played, "
            "with the share of seat-games that played them, their win rate (95% CI) against "
            "the seat-games that opened otherwise there, and their share of all wins:",
            size=8, color=GREY)
        for r in openings["most_played"][:10]:
            flag = "  (dominant?)" if r["dominant"] else ""
            rest = (", no seat opened otherwise" if r["win_rate_rest"] is None
                    else f" against {pct(r['win_rate_rest'])}")
            pages.paragraph(
                f"{r['opening']}: {pct(r['share'])} of seat-games, won {pct(r['win_rate'])} "
                f"({pct(r['ci95'][0])}–{pct(r['ci95'][1])}){rest}, "
                f"{pct(r['win_share'])} of wins{flag}",
                size=8, indent=8, color=FLAG if r["dominant"] else INK)
    never = [r for r in options if not r["picked"]]
    if never:
        never.sort(key=lambda r: (-r["offered"], r["why"], r["option"]))
        pages.gap(6)
        pages.heading("Never picked", 11, keep=24)
        shown = ", ".join(f"{r['option']} @ {r['why']} ({r['offered']})" for r in never[:40])
        more = f", and {len(never) - 40} more" if len(never) > 40 else ""
        pages.paragraph(f"Options offered and never picked (times offered): {shown}{more}.",
                        size=8)
    said = findings_with(doc, "PNP-B022", "PNP-B023", "PNP-B024", "PNP-B025")
    if said:
        pages.gap(6)
        pages.heading("Findings on choices", 11, keep=30)
        finding_rows(pages, said)
    if any(r["picked"] for r in options):
        pages.gap(6)
        pages.heading("Every option picked, decision by decision", 11, keep=60)
        pages.paragraph(
            "Per option: the decisions that offered it, the share of those offers it was "
            "picked, the win rate of the seat-games that picked it and of every other "
            "seat-game, each with its 95% interval, and the option test (Holm-corrected over "
            f"every option tested; red: flagged; grey: fewer than {MIN_GROUP} seat-games on a "
            "side to test). The most offered first; the JSON lists every option.", size=8,
            color=GREY)
        pages.gap(3)
        option_table(pages, options)


def _rate(rate: float | None, ci: Sequence[float]) -> str:
    return "–" if rate is None else f"{pct(rate)} ({pct(ci[0])}–{pct(ci[1])})"


def _verdict(r: Mapping[str, Any]) -> str:
    """What the option test said of a row, in the words of PNP-B023."""
    if not r["tested"]:
        return "too few to test"
    if r["flagged"]:
        return "a dominant pick?" if r["gap"] > 0 else "never worth picking?"
    return "no clear difference"


def table_cells(r: Mapping[str, Any]) -> list[str]:
    """One option's cells after its name, in TABLE_COLUMNS order."""
    return [str(r["offered"]), pct(r["pick_rate"]),
            _rate(r["win_rate_picked"], r["ci95_picked"]),
            _rate(r["win_rate_not_picked"], r["ci95_not_picked"]), _verdict(r)]


def _cell(c: Canvas, x: float, y: float, width: float, text: str, numeric: bool,
          font: str = FONT) -> None:
    """A table cell: a number right-aligned 10 points short of the next column, text from
    the left; cut to fit either way."""
    if numeric:
        c.drawRightString(x + width - 10, y, ellipsise(text, font, 7, width - 10))
    else:
        c.drawString(x, y, ellipsise(text, font, 7, width - 4))


def _table_header(pages: Pages) -> None:
    c = pages.c
    top = pages.need(TABLE_ROW + 3)
    c.setFont(BOLD, 7)
    c.setFillColor(GREY)
    c.drawString(MARGIN, top - 8, "decision / option")
    x = MARGIN + pages.body_w - sum(w for _, w in TABLE_COLUMNS)
    for i, (title, width) in enumerate(TABLE_COLUMNS):
        _cell(c, x, top - 8, width, title, i < NUMERIC, BOLD)
        x += width
    c.setStrokeColor(LIGHT)
    c.line(MARGIN, top - TABLE_ROW - 1, MARGIN + pages.body_w, top - TABLE_ROW - 1)
    c.setFillColor(INK)


def option_table(pages: Pages, options: Sequence[Mapping[str, Any]]) -> None:
    """Every option picked at least once, decision by decision (the most offered first): how
    often offered, the share of offers picked, its pickers' and every other seat-game's win
    rates with 95% intervals, and the option test's verdict (red: flagged). The header, and
    the decision a page starts in ("continued"), come again on every page it runs onto."""
    c = pages.c
    rows = sorted((r for r in options if r["picked"]),
                  key=lambda r: (r["why"], -r["offered"], r["option"]))
    name_w = pages.body_w - sum(w for _, w in TABLE_COLUMNS)
    _table_header(pages)
    why = None
    for r in rows:
        heads = r["why"] != why
        continued = False
        if pages.y - TABLE_ROW * 2 < MARGIN:  # room for a decision's name and one row
            pages.new_page()
            _table_header(pages)
            heads, continued = True, not heads
        if heads:
            why = r["why"]
            top = pages.need(TABLE_ROW)
            c.setFont(BOLD, 7.5)
            c.setFillColor(INK)
            c.drawString(MARGIN, top - 8, ellipsise(why + (" (continued)" if continued else ""),
                                                    BOLD, 7.5, pages.body_w))
        top = pages.need(TABLE_ROW)
        color = FLAG if r["flagged"] else INK if r["tested"] else GREY
        c.setFillColor(color)
        c.setFont(FONT, 7)
        c.drawString(MARGIN + 8, top - 8, ellipsise(r["option"], FONT, 7, name_w - 12))
        x = MARGIN + name_w
        for i, (cell, (_, width)) in enumerate(zip(table_cells(r), TABLE_COLUMNS,
                                                    strict=True)):
            _cell(c, x, top - 8, width, cell, i < NUMERIC)
            x += width
    c.setFillColor(INK)
