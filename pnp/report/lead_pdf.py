"""How the lead moved, on the simulate report's PDF: lead changes, drama (the share of turns
the winner trailed) and decisiveness (how far into the game the winner led for good) as
distributions over games, with comebacks (pnp/engine/drama.py measures them)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from pnp.engine.findings import num, pct
from pnp.report.pdf import BOLD, FONT, GREY, MARGIN, Pages, histogram
from pnp.report.text import lead_summary, sentence

#: the edges of the tenths the JSON counts shares in
TENTHS = [f"{i * 10}%" for i in range(11)]
CHART_H = 115.0
#: the section's height below its heading: notes, the summary and two rows of charts
SECTION_H = 100 + 2 * (CHART_H + 24)


def _bins(counts: Sequence[int] | None) -> dict[str, int]:
    """Tenths as the histogram's bins 0..9 (none when the document predates them)."""
    return {str(i): n for i, n in enumerate(counts or ())}


def draw_lead(pages: Pages, doc: Mapping[str, Any]) -> None:
    """The lead section: three distributions and the comeback rate, or why there are none."""
    lead = doc.get("lead") or {}
    # the charts are never split across pages; a note why there are none fits anywhere
    pages.heading("How the lead moved", keep=SECTION_H if lead.get("games") else 30)
    if not lead.get("games"):
        pages.paragraph("Not recorded: no game of this run named who led at the end of each "
                        "turn (a rules module with its own turn loop, or whose leaders name "
                        "nobody before the end, records nothing).", size=9)
        return
    c, t, d = lead["lead_changes"], lead["trailing_share"], lead["decided_at"]
    pages.paragraph(
        f"From who led at the end of each turn, in the {lead['games']} games that recorded "
        "it. A lead change is a turn whose sole leader differs from the last sole leader (ties "
        "do not count). Drama: the share of turns the eventual winner was not among the "
        "leaders. Decisiveness: the share of turns played before the winner took the lead for "
        "the rest of the game (0%: led throughout). A comeback: the winner was not leading at "
        "half time.", size=8, color=GREY)
    pages.paragraph(sentence(lead_summary(doc)), size=9)
    pages.gap(6)
    half = (pages.body_w - 24) / 2
    top = pages.need(CHART_H + 24)
    histogram(pages.c, MARGIN, top - CHART_H - 14, half, CHART_H, c.get("histogram") or {},
              "Lead changes per game", f"changes (mean {num(c['mean'])}, p95 {num(c['p95'])})")
    histogram(pages.c, MARGIN + half + 24, top - CHART_H - 14, half, CHART_H,
              _bins(t.get("tenths")), "Drama: turns the winner trailed",
              f"share of turns (mean {pct(t['mean'])})", edges=TENTHS)
    top = pages.need(CHART_H + 24)
    histogram(pages.c, MARGIN, top - CHART_H - 14, half, CHART_H, _bins(d.get("tenths")),
              "Decisiveness: the winner led for good after",
              f"share of the game (p50 {pct(d['p50'])})", edges=TENTHS)
    lo, hi = lead["comeback_ci95"]
    pages.c.setFont(BOLD, 10)
    pages.c.drawString(MARGIN + half + 24, top - 10, "Comebacks")
    lines = [f"{pct(lead['comeback_rate'])} of games (95% CI {pct(lo)}–{pct(hi)})",
             "were won by a player who was not", "leading at half time."]
    pages.c.setFont(FONT, 9)
    for i, line in enumerate(lines):
        pages.c.drawString(MARGIN + half + 24, top - 26 - 12 * i, line)
