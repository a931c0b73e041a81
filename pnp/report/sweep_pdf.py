"""The sweep report as a PDF: the table, then one chart per measure across the cells.

It draws from the sweep document alone (pnp.engine.sweep), so a saved JSON file gives the same
PDF later (the text table is in pnp.report.text). Charts are reportlab's bar charts; 95% intervals are drawn over the bars on
the chart's own value axis.
"""

from __future__ import annotations

import math
import os
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from reportlab.graphics import renderPDF
from reportlab.graphics.charts.barcharts import HorizontalBarChart
from reportlab.graphics.shapes import Drawing, Line, String
from reportlab.pdfgen.canvas import Canvas

from pnp.paper import DEFAULT_PAPER
from pnp.render.pdfwrite import write_pdf
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
    SEVERITY_COLOR,
    Pages,
    report_page,
)
from pnp.report.text import TOP_FINDINGS, table_rows

ROW = 13.0  # points per cell in a chart
LABEL_W = 150.0  # room for the cell labels left of a chart
AXIS_H = 28.0  # room under a chart for the value axis




@dataclass(frozen=True)
class Measure:
    """One chart: a value per cell, optionally an interval drawn over the bar, and which cells
    to flag in red."""

    title: str
    note: str
    value: Callable[[Mapping[str, Any]], float | None]
    interval: Callable[[Mapping[str, Any]], tuple[float, float] | None] | None = None
    flag: Callable[[Mapping[str, Any]], bool] = lambda c: False
    axis: str = "%d%%"  # value-axis label format
    fixed: tuple[float, float] | None = None  # value-axis range, when the measure has one


def _scaled(pair: Sequence[float], k: float = 100.0) -> tuple[float, float]:
    return pair[0] * k, pair[1] * k


MEASURES = (
    Measure("Completion", "Share of games that reached the end condition (red: below 100%).",
            lambda c: c["completion_rate"] * 100, flag=lambda c: c["completion_rate"] < 1,
            fixed=(0, 100)),
    Measure("Game length", "Mean turns per game; the line runs from the median to the 95th "
            "percentile.", lambda c: c["turns"]["mean"],
            lambda c: (c["turns"]["p50"], c["turns"]["p95"]), axis="%d"),
    Measure("Eliminations", "Share of games in which a player was knocked out.",
            lambda c: c["elimination_rate"] * 100, fixed=(0, 100)),
    Measure("Seat balance", "The seat farthest from the fair share: its win rate minus the "
            "fair share, in points, with its 95% interval (red: the interval excludes 0).",
            lambda c: c["seat_balance"]["gap"] * 100,
            lambda c: _scaled(c["seat_balance"]["gap_ci95"]),
            lambda c: c["seat_balance"]["significant"], axis="%+d"),
    Measure("Skill depth", "Win rate of the best bot minus the worst bot's, in points, with "
            "the 95% interval (n/a: a mix of one bot; red: the interval holds 0, so better "
            "play may not pay).",
            lambda c: c["skill"]["diff"] * 100 if c["skill"] else None,
            lambda c: _scaled(c["skill"]["ci95"]) if c["skill"] else None,
            lambda c: bool(c["skill"]) and not c["skill"]["significant"], axis="%+d"),
)


def _nice_step(span: float) -> float:
    raw = span / 5 or 1.0
    magnitude = 10 ** math.floor(math.log10(raw))
    return next(m * magnitude for m in (1, 2, 2.5, 5, 10) if m * magnitude >= raw)


def bar_chart(cells: Sequence[Mapping[str, Any]], measure: Measure, width: float) -> Drawing:
    """A horizontal bar chart, one bar a cell (first cell at the top), intervals as lines."""
    n = len(cells)
    d = Drawing(width, n * ROW + AXIS_H)
    values = [measure.value(c) for c in cells]
    spans = [measure.interval(c) if measure.interval else None for c in cells]
    chart = HorizontalBarChart()
    chart.x, chart.y = LABEL_W, AXIS_H - 10
    chart.width, chart.height = width - LABEL_W - 12, n * ROW
    chart.data = [[v if v is not None else 0 for v in values]]
    chart.categoryAxis.categoryNames = [ellipsise(c["label"], FONT, 7, LABEL_W - 8) for c in cells]
    chart.categoryAxis.reverseDirection = 1
    chart.categoryAxis.labels.fontName, chart.categoryAxis.labels.fontSize = FONT, 7
    chart.categoryAxis.labels.boxAnchor, chart.categoryAxis.labels.dx = "e", -4
    chart.categoryAxis.strokeColor = GREY
    chart.categoryAxis.joinAxisMode = "left"  # labels stay left of the chart when values < 0
    chart.valueAxis.labels.fontName, chart.valueAxis.labels.fontSize = FONT, 7
    chart.valueAxis.labelTextFormat = measure.axis
    chart.valueAxis.strokeColor = GREY
    chart.valueAxis.visibleGrid, chart.valueAxis.gridStrokeColor = 1, LIGHT
    seen = [v for v in values if v is not None] + [x for s in spans if s for x in s]
    lo, hi = measure.fixed or (min([0.0, *seen]), max([0.0, *seen]))
    step = _nice_step(hi - lo)
    chart.valueAxis.valueMin = math.floor(lo / step) * step
    chart.valueAxis.valueMax = max(math.ceil(hi / step) * step, chart.valueAxis.valueMin + step)
    chart.valueAxis.valueStep = step
    chart.barWidth, chart.groupSpacing = 8, 5
    chart.bars.strokeColor = None
    chart.bars[0].fillColor = BAR
    for i, c in enumerate(cells):
        if measure.flag(c):
            chart.bars[(0, i)].fillColor = FLAG
    d.add(chart.draw())
    scale = chart.valueAxis.scale
    for i, (value, span) in enumerate(zip(values, spans, strict=True)):
        _x, y, _w, h = chart._barPositions[0][i]
        mid = y + h / 2
        if value is None:
            d.add(String(scale(0) + 3, mid - 2.5, "n/a", fontName=FONT, fontSize=7,
                         fillColor=GREY))
            continue
        if span:
            x0, x1 = scale(span[0]), scale(span[1])
            d.add(Line(x0, mid, x1, mid, strokeColor=INK, strokeWidth=0.8))
            for x in (x0, x1):
                d.add(Line(x, mid - 2.5, x, mid + 2.5, strokeColor=INK, strokeWidth=0.8))
    return d


def _summary(pages: Pages, sweep: Mapping[str, Any]) -> None:
    c = pages.c
    pages.heading(f"Sweep of {sweep['game']}", 15)
    pages.paragraph(f"{len(sweep['cells'])} cells (players {', '.join(map(str, sweep['players']))}"
                    f"; variants {', '.join(sweep['variants'])}; bot mixes "
                    f"{'; '.join(','.join(b) for b in sweep['bots'])}) × "
                    f"{sweep['games_per_cell']} games, seed {sweep['seed']}, invariants "
                    f"{sweep['invariants']}: {sweep['games']} games.", 9.5)
    pages.gap(6)
    rows = [["cell", "done", "turns (p50/p95)", "worst seat, pts (95% CI)",
             "skill, pts (95% CI)", "findings"], *table_rows(sweep)[1:]]
    widths = [0.2, 0.06, 0.13, 0.23, 0.25, 0.13]
    size = 6.5
    for n, row in enumerate(rows):
        top = pages.need(size * 1.6)
        x = MARGIN
        c.setFont(BOLD if n == 0 else FONT, size)
        c.setFillColor(INK)
        for text, share in zip(row, widths, strict=False):
            c.drawString(x, top - size, ellipsise(text, BOLD if n == 0 else FONT, size,
                                                 pages.body_w * share - 4))
            x += pages.body_w * share
        if n == 0:
            c.setStrokeColor(LIGHT)
            c.line(MARGIN, top - size * 1.45, MARGIN + pages.body_w, top - size * 1.45)
    pages.gap(4)
    pages.paragraph("pts: percentage points; *: the 95% interval excludes 0.", 7.5, color=GREY)
    pages.gap(12)


def _findings(pages: Pages, sweep: Mapping[str, Any]) -> None:
    pages.heading("Top findings per cell", keep=40)
    for cell in sweep["cells"]:
        pages.gap(4)
        pages.heading(cell["label"], 9.5, keep=14)
        findings = cell["findings"][:TOP_FINDINGS]
        if not findings:
            pages.paragraph("none", 8, color=GREY, indent=10)
        for f in findings:
            pages.paragraph(f"{f['severity']} {f['code']}: {f['message']}", 8, indent=10,
                            color=SEVERITY_COLOR.get(f["severity"], INK))
        more = len(cell["findings"]) - TOP_FINDINGS
        if more > 0:
            pages.paragraph(f"… {more} more in the JSON document", 7.5, color=GREY, indent=10)


def draw_sweep_report(c: Canvas, sweep: Mapping[str, Any], paper: str = DEFAULT_PAPER) -> int:
    """Summary table, one chart per measure, then the findings; returns the page count."""
    pages = Pages(c, f"pnp sweep {sweep['game']}", paper)
    _summary(pages, sweep)
    cells = sweep["cells"]
    fits = max(1, int((pages.height - 2 * MARGIN - AXIS_H - 60) // ROW))  # rows on one page
    per_chart = math.ceil(len(cells) / math.ceil(len(cells) / fits)) if cells else 1  # even parts
    parts = [cells[i:i + per_chart] for i in range(0, len(cells), per_chart)]
    for measure in MEASURES:
        for k, part in enumerate(parts):
            drawing = bar_chart(part, measure, pages.body_w)
            title = measure.title if len(parts) == 1 else \
                f"{measure.title} (cells {k * per_chart + 1}–{k * per_chart + len(part)})"
            pages.heading(title, keep=drawing.height + 30)
            pages.paragraph(measure.note, 8, color=GREY)
            top = pages.need(drawing.height + 8)
            renderPDF.draw(drawing, c, MARGIN, top - drawing.height)
            pages.gap(10)
    _findings(pages, sweep)
    c.showPage()
    return pages.page


def write_sweep_pdf(path: str | os.PathLike, sweep: Mapping[str, Any],
                    paper: str = DEFAULT_PAPER) -> Path:
    """Write the sweep report on `paper` atomically (a failed render leaves any old file
    untouched); GeometryError for an unknown paper."""
    write_pdf(path, lambda c: draw_sweep_report(c, sweep, paper), report_page(paper),
              f"pnp sweep {sweep['game']}")
    return Path(path)
