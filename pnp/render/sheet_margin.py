"""What a card sheet prints in its margin: the footer and the 50 mm scale bar.

The margin around the cards is cut into bands (below, above, left and right of the artwork,
and past the crop marks where the margin is deep enough); a crop mark blocks the stretch of a
band it crosses, and each thing placed blocks its own stretch, so nothing printed in the
margin meets a crop mark, the artwork or another label. Arithmetic on a few rectangles a page:
no drawing, no per-card work.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from pnp.render import fonts
from pnp.render.geometry import Grid, Rect, mm
from pnp.render.scalebar import HEIGHT as BAR_HEIGHT
from pnp.render.scalebar import LENGTH as BAR_LENGTH
from pnp.render.text import ellipsise, fit_width, measure

ART_CLEAR = mm(0.6)  # between the artwork (bleed included) and anything in the margin
MARK_CLEAR = mm(0.8)  # either side of a crop mark
MARK_REACH = mm(6)  # crop marks run from 1 to 6 mm past the bleed (geometry.crop_marks)
#: how near the paper's edge the margin may be used: most home printers leave 3 mm blank, so
#: nearer only when the bar finds no room otherwise (crop marks stop at 1 mm)
PAPER_EDGES = (mm(3), mm(2), mm(1.2))
PAPER_END = mm(4)  # along the paper's edges, nothing in the last 4 mm (the corners)
LABEL_SIZE, LABEL_MIN = 6.0, 4.0
FONT = fonts.DEFAULT_FONT

Segment = tuple[float, float, float, float]


@dataclass
class Band:
    """A strip of margin along one side of the artwork; `taken` are blocked stretches along it."""

    side: str  # bottom, top, left, right
    rect: Rect
    taken: list[tuple[float, float]] = field(default_factory=list)

    @property
    def along_x(self) -> bool:
        return self.side in ("bottom", "top")

    @property
    def depth(self) -> float:
        return self.rect.height if self.along_x else self.rect.width

    @property
    def span(self) -> tuple[float, float]:
        r = self.rect
        return (r.x, r.x1) if self.along_x else (r.y, r.y1)

    def free(self, lo: float | None = None, hi: float | None = None) -> list[tuple[float, float]]:
        """The free stretches of the band within [lo, hi]."""
        a, b = self.span
        a, b = max(a, a if lo is None else lo), min(b, b if hi is None else hi)
        out, cur = [], a
        for t0, t1 in sorted(self.taken):
            if t1 <= cur:
                continue
            if t0 >= b:
                break
            if t0 > cur:
                out.append((cur, t0))
            cur = max(cur, t1)
        if b > cur:
            out.append((cur, b))
        return out

    def take(self, length: float, lo: float | None = None, hi: float | None = None,
             anchor: str = "centre") -> float | None:
        """Block a free stretch of `length` within [lo, hi] and return where it starts: as near
        the window's centre as it is free ('end': as late as possible)."""
        stretches = [s for s in self.free(lo, hi) if s[1] - s[0] >= length - 1e-6]
        if not stretches:
            return None
        a, b = self.span
        lo, hi = max(a, a if lo is None else lo), min(b, b if hi is None else hi)
        if anchor == "end":
            start = stretches[-1][1] - length
        else:
            want = (lo + hi - length) / 2
            start = min((min(max(want, s0), s1 - length) for s0, s1 in stretches),
                        key=lambda v: abs(v - want))
        self.taken.append((start, start + length))
        return start

    def box(self, start: float, length: float, depth: float) -> Rect:
        """The page rectangle of a stretch, `depth` deep: centred across a narrow band, at the
        paper's side of a deep one (the empty part of a last sheet)."""
        r = self.rect
        room = self.depth - depth
        off = room / 2 if room < mm(6) else (mm(1) if self.side in ("bottom", "left")
                                              else room - mm(1))
        if self.along_x:
            return Rect(start, r.y + off, length, depth)
        return Rect(r.x + off, start, depth, length)


@dataclass(frozen=True)
class Text:
    """A line of grey margin text in `box`, turned a quarter (reading downwards) when `turned`."""

    text: str
    size: float
    box: Rect
    turned: bool


@dataclass
class MarginPlan:
    label: Text | None = None
    bar: Rect | None = None
    bar_turned: bool = False

    def boxes(self) -> list[Rect]:
        """Everything the plan prints, as page rectangles (for tests and the overlay)."""
        out = [self.label.box] if self.label else []
        return out + ([self.bar] if self.bar else [])


def art_rect(grid: Grid, filled: Sequence[tuple[int, int]]) -> Rect:
    """The artwork of the cards in `filled`: their block and its bleed."""
    rects = [grid.trim_rect(c, r) for c, r in filled]
    x0, x1 = min(r.x for r in rects), max(r.x1 for r in rects)
    y0, y1 = min(r.y for r in rects), max(r.y1 for r in rects)
    b = grid.bleed
    return Rect(x0 - b, y0 - b, x1 - x0 + 2 * b, y1 - y0 + 2 * b)


def _bands(grid: Grid, art: Rect, marks: Sequence[Segment], e: float) -> list[Band]:
    """Margin bands in the order things are put in them: past the crop marks below and above
    (where the margin is that deep), then the rest of the margin below and above, then beside
    the artwork (sides never reach under or over it, so bands do not overlap)."""
    pw, ph = grid.paper
    reach = MARK_REACH + MARK_CLEAR
    bands = []
    # (side, the margin's near and far edge across the band)
    for side, near, far in (("bottom", art.y - ART_CLEAR, e), ("top", art.y1 + ART_CLEAR, ph - e)):
        toward = 1 if far > near else -1
        if (far - near) * toward <= 0:
            continue  # no margin on this side
        if abs(far - near) - reach > mm(2):  # a band past the marks' reach: no mark crosses it
            bands.append(_band(side, pw, near + toward * reach, far))
            far = near + toward * reach
        bands.append(_band(side, pw, near, far))
    y0, y1 = max(art.y, PAPER_END), min(art.y1, ph - PAPER_END)
    bands.append(Band("left", Rect(e, y0, art.x - ART_CLEAR - e, y1 - y0)))
    bands.append(Band("right", Rect(art.x1 + ART_CLEAR, y0, pw - e - art.x1 - ART_CLEAR, y1 - y0)))
    for sx0, sy0, sx1, sy1 in marks:
        seg = Rect(min(sx0, sx1), min(sy0, sy1), abs(sx1 - sx0), abs(sy1 - sy0))
        for band in bands:
            r = band.rect
            if seg.x > r.x1 or seg.x1 < r.x or seg.y > r.y1 or seg.y1 < r.y:
                continue
            band.taken.append((seg.x - MARK_CLEAR, seg.x1 + MARK_CLEAR) if band.along_x
                              else (seg.y - MARK_CLEAR, seg.y1 + MARK_CLEAR))
    return [band for band in bands if band.depth > 0]


def _band(side: str, pw: float, y_a: float, y_b: float) -> Band:
    return Band(side, Rect(PAPER_END, min(y_a, y_b), pw - 2 * PAPER_END, abs(y_b - y_a)))


def _text_depth(size: float) -> float:
    return size * 1.15


def place_text(bands: Sequence[Band], text: str, size: float, min_size: float,
               lo: float | None = None, hi: float | None = None) -> Text | None:
    """`text` at `size` in the first band with room for it, else shrunk down to `min_size`:
    below or above the cards before beside them (turned text is harder to read, and to find
    again in the PDF); cut short with an ellipsis only as a last resort."""
    usable = [b for b in bands if b.depth >= _text_depth(min_size)]
    ends = [b for b in usable if b.along_x]
    sides = [b for b in usable if not b.along_x]
    for group, shrink_ok, cut_ok in ((ends, False, False), (ends, True, False),
                                     (sides, False, False), (sides, True, False),
                                     (usable, True, True)):
        for band in group:
            s = min(size, band.depth / 1.15)
            if s < size and not shrink_ok:
                continue
            room = max((s1 - s0 for s0, s1 in band.free(lo, hi)), default=0.0) - mm(0.5)
            if room < mm(8):
                continue
            s = fit_width(text, FONT, s, room * 0.995, min_size=min_size) if shrink_ok else s
            shown = text
            if measure(text, FONT, s) > room:
                if not cut_ok:
                    continue
                shown = ellipsise(text, FONT, s, room, min_cut=2)
            width = measure(shown, FONT, s) + mm(0.5)
            start = band.take(width, lo, hi)
            if start is not None:
                return Text(shown, s, band.box(start, width, _text_depth(s)), not band.along_x)
    return None


def plan_margin(grid: Grid, filled: Sequence[tuple[int, int]], marks: Sequence[Segment],
                label: str) -> MarginPlan:
    """Where the footer `label` and the scale bar go on a page whose cards sit in `filled`
    and whose crop marks are `marks`. The bar comes first (it must print, at full length),
    at the right end of the first band deep and long enough for it."""
    plan = MarginPlan()
    if not filled:
        return plan
    art = art_rect(grid, filled)
    for edge in PAPER_EDGES:
        bands = _bands(grid, art, marks, edge)
        for band in bands:
            if band.depth < BAR_HEIGHT:
                continue
            start = band.take(BAR_LENGTH + 2 * MARK_CLEAR, anchor="end")
            if start is not None:
                plan.bar = band.box(start + MARK_CLEAR, BAR_LENGTH, BAR_HEIGHT)
                plan.bar_turned = not band.along_x
                break
        if plan.bar is not None:
            break
    plan.label = place_text(bands, label, LABEL_SIZE, LABEL_MIN)
    return plan
