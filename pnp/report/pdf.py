"""The simulate report as a PDF with charts, and the page kit the sweep PDF shares.

Everything here draws from the simulate document alone, so a saved JSON file can be turned into
the same PDF later (the text and JSON are in pnp.report.text). The PDF uses the embedded Vera
fonts, a deterministic canvas and an atomic write (pnp.render.pdfwrite).
"""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

from reportlab.lib import colors
from reportlab.pdfgen.canvas import Canvas

from pnp.engine.findings import all_crashed_words, every_game_crashed, num, pct, seat_name
from pnp.paper import DEFAULT_PAPER, REPORT_MIN_SIZE, too_small
from pnp.render.geometry import GeometryError, parse_paper
from pnp.render.pdfwrite import write_pdf
from pnp.render.text import ellipsise, measure
from pnp.render.text import wrap as wrap_text
from pnp.report.text import (
    coverage_title,
    lead_summary,
    lineup_text,
    played_words,
    skill_depth_text,
    skill_why_not,
)

MARGIN = 42.0
FONT, BOLD = "Vera", "Vera-Bold"
INK = colors.HexColor("#222222")
GREY = colors.HexColor("#777777")
LIGHT = colors.HexColor("#DDDDDD")
BAR = colors.HexColor("#4A78B0")
FLAG = colors.HexColor("#C0392B")
SEVERITY_LABEL = {"error": "error", "warning": "warning", "info": "info"}
SEVERITY_COLOR = {"error": FLAG, "warning": colors.HexColor("#D68910"),
                  "info": colors.HexColor("#2E86C1")}


def report_page(paper: str) -> tuple[float, float]:
    """The page size of a report on `paper`; GeometryError when unknown or smaller than A5
    (the fixed label columns would leave no room to wrap text into)."""
    size = parse_paper(paper)
    problem = too_small(size, REPORT_MIN_SIZE)
    if problem:
        raise GeometryError(f"paper {paper!r} is too small for a report: {problem}")
    return size


class Pages:
    """A top-down cursor over pages of one paper: callers ask for room and get a new page when
    needed, and draw `body_w` wide from MARGIN."""

    def __init__(self, c: Canvas, title: str, paper: str = DEFAULT_PAPER):
        self.c = c
        self.title = title
        self.width, self.height = report_page(paper)
        self.body_w = self.width - 2 * MARGIN
        self.page = 0
        self.y = 0.0
        self.new_page()

    def new_page(self) -> None:
        if self.page:
            self.c.showPage()
        self.page += 1
        self.c.setFont(FONT, 7.5)
        self.c.setFillColor(GREY)
        self.c.drawString(MARGIN, MARGIN / 2, self.title)
        self.c.drawRightString(self.width - MARGIN, MARGIN / 2, f"page {self.page}")
        self.c.setFillColor(INK)
        self.y = self.height - MARGIN

    def need(self, height: float) -> float:
        """Make room for `height` points; returns the top y of the reserved block."""
        if self.y - height < MARGIN:
            self.new_page()
        top = self.y
        self.y -= height
        return top

    def heading(self, text: str, size: float = 13, keep: float = 60) -> None:
        """A heading, moved to the next page unless `keep` points of what follows fit too."""
        if self.y - (size + 10 + keep) < MARGIN:
            self.new_page()
        top = self.need(size + 10)
        self.c.setFont(BOLD, size)
        self.c.setFillColor(INK)
        self.c.drawString(MARGIN, top - size, text)

    def paragraph(self, text: str, size: float = 9, font: str = FONT, indent: float = 0,
                  color=INK) -> None:
        for line in wrap(text, font, size, self.body_w - indent):
            top = self.need(size * 1.35)
            self.c.setFont(font, size)
            self.c.setFillColor(color)
            self.c.drawString(MARGIN + indent, top - size, line)
        self.c.setFillColor(INK)

    def gap(self, height: float) -> None:
        self.y -= height


def wrap(text: str, font: str, size: float, width: float) -> list[str]:
    """Report text in lines no wider than `width`: a word longer than a line is split between
    characters, a newline is a space, an empty text is one empty line."""
    return wrap_text(text, font, size, width, split_long_words=True, paragraphs=False)


def _axis_ticks(top: float, count: int = 4) -> list[float]:
    """Round tick values from 0 to at least `top`."""
    if top <= 0:
        return [0.0, 1.0]
    raw = top / count
    mag = 10 ** len(str(int(raw))) / 10 if raw >= 1 else 1
    step = next(s * mag for s in (1, 2, 2.5, 5, 10) if s * mag >= raw) if raw >= 1 else (
        next(s for s in (0.05, 0.1, 0.2, 0.25, 0.5, 1.0) if s >= raw))
    ticks, v = [], 0.0
    while v < top + step * 0.999:
        ticks.append(v)
        v += step
    return ticks


def histogram(c: Canvas, x: float, y: float, w: float, h: float, hist: Mapping[str, int],
              title: str, xlabel: str, edges: Sequence[str] | None = None) -> None:
    """Vertical bars of counts at integer values; labels thinned so they never overlap.

    With `edges` the keys are bins 0..n-1 and the n + 1 edges label the bars' boundaries
    (0%, 10%, ... 100% under tenths of a share)."""
    c.setFont(BOLD, 10)
    c.drawString(x, y + h + 6, title)
    left, bottom = x + 34, y + 26
    pw, ph = w - 40, h - 30
    values = sorted(int(k) for k in hist)
    if not values:
        c.setFont(FONT, 9)
        c.drawString(left, bottom + ph / 2, "no data")
        return
    lo, hi = min(values), max(values)
    slots = hi - lo + 1
    top = max(hist.values())
    ticks = _axis_ticks(top)
    scale = ph / ticks[-1]
    _gridlines(c, left, bottom, pw, ticks, scale, num)
    slot = pw / slots
    c.setFillColor(BAR)
    for k, n in hist.items():
        i = int(k) - lo
        c.rect(left + i * slot + slot * 0.08, bottom, slot * 0.84, n * scale, stroke=0, fill=1)
    c.setFillColor(GREY)
    if edges:
        label_w = max(measure(e, FONT, 7) for e in edges) + 6
        every = max(1, int(label_w // slot) + 1)
        for i in range(0, len(edges), every):
            c.drawCentredString(left + (i - lo) * slot, bottom - 10, edges[i])
    else:
        label_w = max(measure(str(v), FONT, 7) for v in (lo, hi)) + 8
        every = max(1, int(label_w // slot) + 1)
        for i in range(0, slots, every):
            c.drawCentredString(left + (i + 0.5) * slot, bottom - 10, str(lo + i))
    c.setFont(FONT, 8)
    c.drawCentredString(left + pw / 2, y + 2, xlabel)
    c.setStrokeColor(INK)
    c.line(left, bottom, left + pw, bottom)
    c.setFillColor(INK)


def _gridlines(c: Canvas, left: float, bottom: float, width: float, ticks: Sequence[float],
               scale: float, label: Callable[[float], str]) -> None:
    """Light horizontal lines at each tick, labelled left of the plot."""
    c.setFont(FONT, 7)
    c.setStrokeColor(LIGHT)
    for t in ticks:
        c.line(left, bottom + t * scale, left + width, bottom + t * scale)
        c.setFillColor(GREY)
        c.drawRightString(left - 4, bottom + t * scale - 2.5, label(t))


def rate_bars(c: Canvas, x: float, y: float, w: float, h: float,
              items: Sequence[tuple[str, float, float, float]], title: str,
              fair: float | None = None, short: Sequence[str] | None = None) -> None:
    """Win rates as bars with 95% error bars, and the fair share as a dashed line. `short`
    labels the bars instead when a label would be cut ("seat 1" at six seats read "sea…",
    every bar alike)."""
    c.setFont(BOLD, 10)
    c.drawString(x, y + h + 6, title)
    left, bottom = x + 34, y + 18
    pw, ph = w - 40 - (44 if fair is not None else 0), h - 22  # room right of the plot: fair label
    if not items:
        return
    top = max(max(hi for _, _, _, hi in items), fair or 0.0)
    ticks = _axis_ticks(max(top, 0.05))
    scale = ph / ticks[-1]
    _gridlines(c, left, bottom, pw, ticks, scale, pct)
    slot = pw / len(items)
    labels = [label for label, *_ in items]
    if short is not None and any(measure(label, FONT, 8) > slot - 2 for label in labels):
        labels = list(short)
    for i, (label, (_, rate, lo, hi)) in enumerate(zip(labels, items, strict=True)):
        cx = left + (i + 0.5) * slot
        bw = min(slot * 0.6, 48)
        c.setFillColor(BAR)
        c.rect(cx - bw / 2, bottom, bw, rate * scale, stroke=0, fill=1)
        c.setStrokeColor(INK)
        c.setLineWidth(0.8)
        c.line(cx, bottom + lo * scale, cx, bottom + hi * scale)
        c.line(cx - 4, bottom + lo * scale, cx + 4, bottom + lo * scale)
        c.line(cx - 4, bottom + hi * scale, cx + 4, bottom + hi * scale)
        c.setFillColor(INK)
        c.setFont(FONT, 7)
        c.drawCentredString(cx, bottom + hi * scale + 3, pct(rate))
        c.setFont(FONT, 8)
        c.drawCentredString(cx, bottom - 11, ellipsise(label, FONT, 8, slot - 2))
    if fair is not None:
        c.setStrokeColor(FLAG)
        c.setDash(3, 2)
        c.line(left, bottom + fair * scale, left + pw, bottom + fair * scale)
        c.setDash()
        c.setFont(FONT, 7)
        c.setFillColor(FLAG)
        c.drawString(left + pw + 4, bottom + fair * scale - 2.5, f"fair {pct(fair)}")
    c.setStrokeColor(INK)
    c.setLineWidth(1)
    c.line(left, bottom, left + pw, bottom)
    c.setFillColor(INK)


def stat_ranges(pages: Pages, doc: Mapping[str, Any], names: Mapping[str, str],
                caps: Mapping[str, int | None]) -> None:
    """One row per stat: the p5–p95 range as a bar, p50 as a tick, on the stat's own 0..max scale;
    a red tick marks the stat's cap."""
    row_h = 17.0
    label_w = 110.0
    left = MARGIN + label_w
    pw = pages.body_w - label_w - 120
    c = pages.c
    for stat, s in doc["stats"].items():
        top = pages.need(row_h)
        base = top - row_h + 5
        cap = caps.get(stat)
        hi = max(s["max"], cap or 0, 1)
        lo = min(s["min"], 0)
        span = hi - lo or 1

        def at(v: float, lo=lo, span=span) -> float:
            return left + (v - lo) / span * pw

        c.setFont(FONT, 8.5)
        c.setFillColor(INK)
        c.drawString(MARGIN, base + 1, ellipsise(names.get(stat, stat), FONT, 8.5, label_w - 6))
        c.setStrokeColor(LIGHT)
        c.setLineWidth(3)
        c.line(left, base + 4, left + pw, base + 4)
        c.setStrokeColor(BAR)
        c.setLineWidth(7)
        x0, x1 = at(s["p5"]), at(s["p95"])
        if x1 - x0 < 2:
            x0, x1 = x0 - 1, x1 + 1
        c.line(x0, base + 4, x1, base + 4)
        c.setStrokeColor(INK)
        c.setLineWidth(1.5)
        c.line(at(s["p50"]), base - 1, at(s["p50"]), base + 9)
        if cap is not None:
            c.setStrokeColor(FLAG)
            c.line(at(cap), base - 2, at(cap), base + 10)
        c.setLineWidth(1)
        c.setFont(FONT, 7.5)
        c.setFillColor(GREY)
        extra = f"max {num(s['max'])}" + (f", cap {cap}" if cap is not None else "")
        c.drawString(left + pw + 8, base + 1,
                     f"{num(s['p5'])} / {num(s['p50'])} / {num(s['p95'])}   ({extra})")
    c.setFillColor(INK)


def frequency_block(c: Canvas, x: float, top: float, w: float, title: str,
                    rows: Sequence[tuple[str, int, bool]], row_h: float = 10.5,
                    label_share: float = 0.42) -> float:
    """Horizontal bars of how often each item came up; flagged rows (never seen) in red.

    A row with no count that is not flagged (a start space) reads "start", in grey.
    Returns the block's height."""
    c.setFont(BOLD, 9)
    c.setFillColor(INK)
    c.drawString(x, top - 10, ellipsise(title, BOLD, 9, w))
    label_w = w * label_share
    bar_w = w - label_w - 36
    most = max((n for _, n, _ in rows), default=0) or 1
    y = top - 16
    for label, n, flagged in rows:
        y -= row_h
        c.setFont(FONT, 7)
        c.setFillColor(FLAG if flagged else INK)
        c.drawString(x, y + 2, ellipsise(label, FONT, 7, label_w - 4))
        if n:
            c.setFillColor(BAR)
            c.rect(x + label_w, y + 1.5, max(0.8, n / most * bar_w), row_h - 4, stroke=0, fill=1)
            c.setFillColor(GREY)
            c.drawString(x + label_w + n / most * bar_w + 3, y + 2, str(n))
        elif flagged:
            c.setFillColor(FLAG)
            c.drawString(x + label_w, y + 2, "never seen")
        else:
            c.setFillColor(GREY)
            c.drawString(x + label_w, y + 2, "start (not landed on)")
    c.setFillColor(INK)
    return top - y + 8


def columns(pages: Pages, blocks: Sequence[tuple[str, list[tuple[str, int, bool]]]],
            ncols: int = 2, row_h: float = 10.5, label_share: float = 0.42,
            heading: str = "", note: str = "") -> None:
    """Lay frequency blocks out in columns, filling each row of blocks before the next; the
    heading and note stay on the page of the first row of blocks."""
    gap = 18.0
    col_w = (pages.body_w - gap * (ncols - 1)) / ncols
    for i in range(0, len(blocks), ncols):
        group = blocks[i:i + ncols]
        height = max(16 + row_h * len(rows) + 10 for _, rows in group)
        if i == 0 and heading:
            pages.heading(heading, keep=height + (14 if note else 0))
            if note:
                pages.paragraph(note, size=8, color=GREY)
        top = pages.need(height)
        for j, (title, rows) in enumerate(group):
            frequency_block(pages.c, MARGIN + j * (col_w + gap), top, col_w, title, rows, row_h,
                            label_share)


def finding_rows(pages: Pages, findings: Sequence[Mapping[str, str]]) -> None:
    """Each finding as a row: its severity as a coloured badge, its code, its message."""
    c = pages.c
    for f in findings:
        lines = wrap(f["message"], FONT, 9, pages.body_w - 110)
        top = pages.need(12 * len(lines) + 4)
        c.setFillColor(SEVERITY_COLOR.get(f["severity"], INK))
        c.roundRect(MARGIN, top - 11, 46, 11, 2, stroke=0, fill=1)
        c.setFillColor(colors.white)
        c.setFont(BOLD, 7)
        c.drawCentredString(MARGIN + 23, top - 8.5, SEVERITY_LABEL.get(f["severity"], f["severity"]))
        c.setFillColor(GREY)
        c.setFont(FONT, 7.5)
        c.drawString(MARGIN + 52, top - 8.5, f["code"])
        c.setFillColor(INK)
        c.setFont(FONT, 9)
        for i, line in enumerate(lines):
            c.drawString(MARGIN + 110, top - 9 - 12 * i, line)


def findings_with(doc: Mapping[str, Any], *codes: str) -> list[Mapping[str, str]]:
    """The run's findings of these codes, in the report's order (most severe first)."""
    return [f for f in doc["findings"] if f["code"] in codes]


def _names(game: Any, attr: str) -> dict[str, str]:
    return {k: getattr(v, "name", k) for k, v in (getattr(game, attr, {}) or {}).items()}


def draw_report(c: Canvas, doc: Mapping[str, Any], game: Any = None,
                paper: str = DEFAULT_PAPER) -> int:
    """Every page of the simulate report; returns the page count."""
    title = getattr(game, "name", None) or doc["game"]
    pages = Pages(c, f"pnp simulate: {title}" + (f" ({doc['variant']})" if doc["variant"] else ""),
                  paper)
    body_w = pages.body_w
    o, t, m = doc["outcomes"], doc["turns"], doc["margin"]
    pages.heading(f"Self-play report: {title}", 16)
    pages.paragraph(
        f"Variant: {doc['variant'] or 'base rules'}. {played_words(doc)}, {doc['players']} "
        f"players, seed {doc['seed']}, {lineup_text(doc)}. "
        f"Invariants checked: {doc['invariants']}.",
        color=GREY)
    pages.gap(6)
    if every_game_crashed(doc):  # no figure or chart is of a game that ran: the error alone
        words = all_crashed_words(doc)
        pages.paragraph(f"{words[0].upper()}{words[1:]}. Fix that and run again.")
        pages.gap(10)
        pages.heading("Findings", 12)
        finding_rows(pages, doc["findings"])
        return pages.page
    figures = [
        ("Turns", f"mean {num(t['mean'])}, p50 {num(t['p50'])}, p95 {num(t['p95'])}, max {t['max']}"),
        ("Completed", f"{pct(o['completion_rate'])} ({o['completed']} games)"),
        ("Timeouts", f"{pct(o['timeout_rate'])} ({o['timeouts']} games)"),
        *([("Crashed", f"{pct(o['crashed'] / doc['games'])} ({o['crashed']} games)")]
          if o.get("crashed") else []),
        ("Eliminations", f"{pct(o['elimination_rate'])} of games"
         + (" - " + ", ".join(f"{k}: {v}" for k, v in o["elimination_causes"].items())
            if o["elimination_causes"] else "")),
        ("Winning margin", f"mean {num(m['mean'])}, p50 {num(m['p50'])}, p95 {num(m['p95'])}; "
         f"ties {pct(m['tie_rate'])}"),
        ("Win rate by seat", "; ".join(f"{seat_name(s)}: {pct(s['win_rate'])}" for s in doc["seats"])
         + f"   (fair {pct(doc['fair_share'])})"),
        ("Invariants", "no violations" if not doc["violations"] else
         f"{len(doc['violations'])} distinct violations"),
    ]
    branching = (doc.get("choices") or {}).get("branching") or {}
    if branching.get("decisions"):
        figures.insert(-1, ("Branching factor", f"{num(branching['mean'])} options a decision "
                                                f"(p95 {branching['p95']}, max "
                                                f"{branching['max']}); "
                                                f"{num(branching['per_game'])} decisions a game"))
    if lead := lead_summary(doc):
        figures.insert(-1, ("Lead", lead))
    figures.insert(-1, ("Skill depth", skill_depth_text(doc["skill"]) if doc.get("skill")
                        else f"not measured: {skill_why_not(doc)}"))
    for i, s in enumerate((doc.get("supplies") or {}).values()):
        figures.append(("" if i else "Components needed",
                        f"{s['name']}: p99 {s['need_p99']}, max {s['need_max']} of {s['stock']} "
                        "in the box"
                        + (f"; ran out in {pct(s['short_rate'])} of games" if s["short_games"]
                           else "")
                        + (f"; print {s['print_more']} more" if s["print_more"] else "")))
    if doc.get("factions"):
        figures.append(("Win rate by faction", "; ".join(
            f"{f['faction']}: {pct(f['win_rate'])} ({pct(f['ci95'][0])}–{pct(f['ci95'][1])})"
            for f in doc["factions"])))
    for label, value in figures:
        lines = wrap(value, FONT, 9, body_w - 110)
        top = pages.need(12 * len(lines) + 1)
        c.setFont(BOLD, 9)
        c.setFillColor(INK)
        c.drawString(MARGIN, top - 9, label)
        c.setFont(FONT, 9)
        for i, line in enumerate(lines):
            c.drawString(MARGIN + 110, top - 9 - 12 * i, line)
    pages.gap(10)
    pages.heading("Findings", 12)
    if not doc["findings"]:
        pages.paragraph("No findings: nothing crossed a threshold.")
    finding_rows(pages, doc["findings"])

    pages.new_page()
    pages.heading("Game length and margins")
    top = pages.need(190)
    histogram(c, MARGIN, top - 180, body_w, 160, t["histogram"], "Turns per game", "turns")
    top = pages.need(190)
    histogram(c, MARGIN, top - 180, body_w, 160, m["histogram"],
              "Winning margin (winner's score minus the next best; 0 = tie)", "points")
    pages.heading("Who wins")
    top = pages.need(180)
    half = (body_w - 24) / 2
    rate_bars(c, MARGIN, top - 168, half, 150,
              [(f"seat {s['seat']}", s["win_rate"], *s["ci95"]) for s in doc["seats"]],
              "Win rate by seat (95% CI)", doc["fair_share"],
              short=[str(s["seat"]) for s in doc["seats"]])
    rate_bars(c, MARGIN + half + 24, top - 168, half, 150,
              [(b["bot"], b["win_rate"], *b["ci95"]) for b in doc["bots"]],
              "Win rate by bot (95% CI)", doc["fair_share"])
    pages.paragraph("Ties count as shared wins: with k tied winners each gets 1/k of a win.",
                    size=8, color=GREY)
    from pnp.report.lead_pdf import draw_lead  # they draw with this module's page kit
    from pnp.report.skill_pdf import draw_skill

    pages.new_page()
    draw_skill(pages, doc)
    pages.gap(12)
    draw_lead(pages, doc)

    pages.new_page()
    pages.heading("Stats at game end")
    pages.paragraph("Bar: 5th to 95th percentile of every player's final value; black tick: median; "
                    "red tick: the stat's cap. Numbers: p5 / p50 / p95.", size=8, color=GREY)
    pages.gap(4)
    caps = {k: getattr(v, "cap", None) for k, v in (getattr(game, "stats", {}) or {}).items()}
    stat_ranges(pages, doc, _names(game, "stats"), caps)
    for key, title in (("cap_clips", "Gains cut at a cap"), ("floor_clips", "Losses cut at a floor")):
        if doc.get(key):
            pages.gap(10)
            pages.heading(title, 11)
            stat_names = _names(game, "stats")
            for stat, clip in doc[key].items():
                pages.paragraph(f"{stat_names.get(stat, stat)}: {clip['total']} times "
                                f"({num(clip['per_game'])} a game)", size=8.5)
    if o["elimination_causes"]:
        pages.gap(10)
        pages.heading("Elimination causes", 11)
        for cause, n in o["elimination_causes"].items():
            pages.paragraph(f"{cause}: {n} players", size=8.5)

    pages.new_page()
    track_names = _names(game, "tracks")
    space_names = {tid: {s.id: s.name for s in tr.spaces}
                   for tid, tr in (getattr(game, "tracks", {}) or {}).items()}
    flagged = {(s["track"], s["space"]) for s in doc["never_seen"]["spaces"]}
    blocks = [(track_names.get(tid, tid),
               [(space_names.get(tid, {}).get(sid, sid), n, (tid, sid) in flagged)
                for sid, n in row.items()])
              for tid, row in doc["spaces"].items()]
    columns(pages, blocks, heading="How often each space came up",
            note="Landings over all games; spaces never landed on are red.")
    if doc["charts"]:
        chart_rows = {cid: {r.roll_label: r.result_label for r in ch.rows}
                      for cid, ch in (getattr(game, "charts", {}) or {}).items()}
        chart_names = _names(game, "charts")
        blocks = [(chart_names.get(cid, cid),
                   [(f"{roll}: {chart_rows.get(cid, {}).get(roll, '')}".rstrip(": "), n, n == 0)
                    for roll, n in row.items()])
                  for cid, row in doc["charts"].items()]
        columns(pages, blocks, label_share=0.6, heading="How often each chart result came up")
    if any(doc.get("coverage", {}).values()):
        unused = {(u["kind"], u["key"]) for u in doc["never_seen"].get("coverage", ())}
        blocks = [(coverage_title(kind), [(_coverage_label(game, kind, key), n,
                                            (kind, key) in unused)
                          for key, n in row.items()])
                  for kind, row in doc["coverage"].items() if row]
        columns(pages, blocks, heading="How often each card and action space was used",
                note="Uses over all games, as the rules module reports them; unused ones are red.")
    if doc["events"]:
        pages.heading("Events: times a game, and games with at least one", 11)
        items = list(doc["events"].items())
        half = (len(items) + 1) // 2
        col_w = body_w / 2
        for i in range(half):
            top = pages.need(11)
            for j, (name, e) in enumerate(items[i::half][:2]):
                x = MARGIN + j * col_w
                c.setFont(FONT, 8)
                c.setFillColor(INK)
                c.drawString(x, top - 8, ellipsise(name, FONT, 8, col_w * 0.45))
                c.setFillColor(GREY)
                c.drawString(x + col_w * 0.47, top - 8,
                             f"{num(e['per_game'])} a game, {e['games']} of {doc['games']} games")
        c.setFillColor(INK)
    from pnp.report.choices_pdf import draw_choices  # it draws with this module's page kit

    draw_choices(pages, doc)
    return pages.page


def _coverage_label(game: Any, kind: str, key: str) -> str:
    """A card's name for 'deck/card' keys, else the key."""
    from pnp.engine.findings import _key_name

    return _key_name(game, kind, key)


def write_report_pdf(path: str | os.PathLike, doc: Mapping[str, Any], game: Any = None,
                     paper: str = DEFAULT_PAPER) -> Path:
    """Write the PDF report on `paper` atomically (a failed render leaves any old file
    untouched); GeometryError for an unknown paper."""
    title = f"pnp simulate {doc['game']}"
    write_pdf(path, lambda c: draw_report(c, doc, game, paper), report_page(paper), title)
    return Path(path)
