"""Skill depth on a PDF page: each ladder step's win rate with its interval against the fair
share, one line a step, and the depth. The one home of the steps' chart: `pnp ladder`'s PDF
and the simulate report's skill section both draw it here."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from pnp.report.pdf import GREY, MARGIN, Pages, finding_rows, findings_with, rate_bars
from pnp.report.text import sentence, skill_depth_text, skill_step_text, skill_why_not

#: what a step is and when it climbs, said under every chart of steps
STEP_NOTE = ("Each step's upper bot plays one seat against the lower bot in every other seat, "
             "every seating equally often, on the same seeds. A step climbs (more thinking "
             "wins more) when the upper bot's 95% interval lies above the fair share (dashed "
             "red) and it wins 3 points or more over it.")


def draw_steps(pages: Pages, steps: Sequence[Mapping[str, Any]], height: float = 190) -> None:
    """The upper bot's win rate at each step as bars with 95% error bars and the fair share,
    then one line a step."""
    top = pages.need(height + 20)
    fair = steps[0]["fair_share"] if steps else None
    rate_bars(pages.c, MARGIN, top - height - 20, pages.body_w, height,
              [(f"{s['upper']} v {s['lower']}", s["win_rate"], *s["ci95"]) for s in steps],
              "The upper bot's win rate at each step (95% CI)", fair)
    pages.gap(6)
    for s in steps:
        pages.paragraph(skill_step_text(s), size=9)


def draw_skill(pages: Pages, doc: Mapping[str, Any]) -> None:
    """The simulate report's skill section: its short ladder's steps and depth, or why the
    run has none; then the skill findings (PNP-B026)."""
    pages.heading("Skill depth: does more thinking win more?")
    sk = doc.get("skill")
    if not sk:
        pages.paragraph(f"Not measured: {skill_why_not(doc)}. Run pnp simulate with --skill "
                        "(default random,greedy) or pnp ladder to measure it.", size=9)
        return
    pages.paragraph(STEP_NOTE + f" Up to {sk['games_per_step']} games a step.", size=8,
                    color=GREY)
    pages.gap(4)
    draw_steps(pages, sk["steps"], height=130)
    pages.paragraph(sentence(skill_depth_text(sk)), size=9)
    pages.gap(4)
    finding_rows(pages, findings_with(doc, "PNP-B026"))
