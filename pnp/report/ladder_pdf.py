"""The skill ladder as a PDF: each step's win rate with its interval against the fair share,
and the findings (pnp/engine/ladder.py makes the document)."""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from reportlab.pdfgen.canvas import Canvas

from pnp.engine.findings import pct
from pnp.paper import DEFAULT_PAPER
from pnp.render.pdfwrite import write_pdf
from pnp.report.pdf import GREY, MARGIN, Pages, rate_bars, report_page


def draw_ladder(c: Canvas, doc: Mapping[str, Any], paper: str = DEFAULT_PAPER) -> int:
    """The ladder's page(s); returns the page count."""
    pages = Pages(c, f"pnp ladder: {doc['game']}", paper)
    pages.heading(f"Skill ladder: {doc['game']}", 16)
    pages.paragraph(
        f"Variant: {doc['variant'] or 'base rules'}. {doc['players']} players, seed "
        f"{doc['seed']}, {doc['games_per_step']} games a step. Each rung's bot plays one seat "
        f"against the rung below in every other seat, every seating equally often: "
        f"{' < '.join(doc['rungs'])}.", color=GREY)
    pages.gap(8)
    steps = doc["steps"]
    top = pages.need(230)
    fair = steps[0]["fair_share"] if steps else None
    rate_bars(c, MARGIN, top - 210, pages.body_w, 190,
              [(f"{s['upper']} v {s['lower']}", s["win_rate"], *s["ci95"]) for s in steps],
              "The upper bot's win rate at each step (95% CI)", fair)
    pages.gap(6)
    for s in steps:
        pages.paragraph(f"{s['upper']} against {s['lower']}: {pct(s['win_rate'])} of "
                        f"{s['seat_games']} games (95% CI {pct(s['ci95'][0])}–"
                        f"{pct(s['ci95'][1])}), fair share {pct(s['fair_share'])}: "
                        f"{'climbs' if s['climbs'] else 'flat'}", size=9)
    pages.gap(8)
    pages.heading("Findings", 12)
    for f in doc["findings"]:
        pages.paragraph(f"{f['severity']} {f['code']}: {f['message']}", size=9)
    return pages.page


def write_ladder_pdf(path: str | os.PathLike, doc: Mapping[str, Any],
                     paper: str = DEFAULT_PAPER) -> Path:
    """Write the ladder PDF atomically (a failed render leaves any old file untouched)."""
    write_pdf(path, lambda c: draw_ladder(c, doc, paper), report_page(paper),
              f"pnp ladder {doc['game']}")
    return Path(path)
