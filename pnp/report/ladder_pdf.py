"""The skill ladder as a PDF: each step's win rate with its interval against the fair share,
and the findings (pnp/engine/ladder.py makes the document)."""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from reportlab.pdfgen.canvas import Canvas

from pnp.engine.findings import all_crashed
from pnp.paper import DEFAULT_PAPER
from pnp.render.pdfwrite import write_pdf
from pnp.report.pdf import GREY, Pages, finding_rows, report_page
from pnp.report.skill_pdf import STEP_NOTE, draw_steps


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
    if any(all_crashed(s.get("crashed"), s["games"]) for s in doc["steps"]):
        pages.paragraph("A step crashed in every game, so nothing was measured: the error is "
                        "below.")  # a chart of games that never ran would read as no skill
    else:
        draw_steps(pages, doc["steps"])
        pages.gap(4)
        pages.paragraph(STEP_NOTE, size=8, color=GREY)
    pages.gap(8)
    pages.heading("Findings", 12)
    finding_rows(pages, doc["findings"])
    return pages.page


def write_ladder_pdf(path: str | os.PathLike, doc: Mapping[str, Any],
                     paper: str = DEFAULT_PAPER) -> Path:
    """Write the ladder PDF atomically (a failed render leaves any old file untouched)."""
    write_pdf(path, lambda c: draw_ladder(c, doc, paper), report_page(paper),
              f"pnp ladder {doc['game']}")
    return Path(path)
