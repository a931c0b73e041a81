"""What a card sheet prints in its margin: the footer, the 50 mm scale bar and the card ids.

The margin around the cards is cut into bands (below, above, left and right of the artwork,
and past the crop marks where the margin is deep enough); a crop mark blocks the stretch of a
band it crosses, and each thing placed blocks its own stretch, so nothing printed in the
margin meets a crop mark, the artwork or another label. Arithmetic on a few rectangles a page:
no drawing, no per-card work.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import lru_cache

from pnp.render import fonts
from pnp.render.geometry import Grid, Rect, mm
from pnp.render.scalebar import HEIGHT as BAR_HEIGHT
from pnp.render.scalebar import LENGTH as BAR_LENGTH
from pnp.render.text import ELLIPSIS, ellipsise, fit_width, measure

ART_CLEAR = mm(0.6)  # between the artwork (bleed included) and anything in the margin
MARK_CLEAR = mm(0.8)  # either side of a crop mark
MARK_REACH = mm(6)  # crop marks run from 1 to 6 mm past the bleed (geometry.crop_marks)
#: how near the paper's edge the margin may be used: most home printers leave 3 mm blank, so
#: nearer only when the bar finds no room otherwise (crop marks stop at 1 mm)
PAPER_EDGES = (mm(3), mm(2), mm(1.2))
PAPER_END = mm(4)  # along the paper's edges, nothing in the last 4 mm (the corners)
LABEL_SIZE, LABEL_MIN = 6.0, 4.0
ID_SIZE, ID_MIN = 5.0, 4.0
FONT = fonts.DEFAULT_FONT

Segment = tuple[float, float, float, float]


@dataclass
class Band:
    """A strip of margin along one side of the artwork; `taken` are blocked stretches along it."""

    side: str  # bottom, top, left, right
    rect: Rect
    taken: list[tuple[float, float]] = field(default_factory=list)
    # worked out from side and rect once (a page asks each band dozens of times)
    along_x: bool = field(init=False, repr=False, compare=False)
    depth: float = field(init=False, repr=False, compare=False)
    span: tuple[float, float] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        r = self.rect
        self.along_x = self.side in ("bottom", "top")
        self.depth = r.height if self.along_x else r.width
        self.span = (r.x, r.x1) if self.along_x else (r.y, r.y1)

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
    ids: list[Text] = field(default_factory=list)  # each row's card ids (maybe two parts)
    ids_missing: list[int] = field(default_factory=list)  # rows whose ids found no room

    def boxes(self) -> list[Rect]:
        """Everything the plan prints, as page rectangles (for tests and the overlay)."""
        out = [self.label.box] if self.label else []
        return out + ([self.bar] if self.bar else []) + [t.box for t in self.ids]


def art_rect(grid: Grid, filled: Sequence[tuple[int, int]], bleed: float | None = None) -> Rect:
    """The artwork of the cards in `filled`: their block and its bleed (the sheet's, or less
    when the layouts draw less: a token layout with no bleed leaves its sheet bleed blank)."""
    rects = [grid.trim_rect(c, r) for c, r in filled]
    x0, x1 = min(r.x for r in rects), max(r.x1 for r in rects)
    y0, y1 = min(r.y for r in rects), max(r.y1 for r in rects)
    b = grid.bleed if bleed is None else min(bleed, grid.bleed)
    return Rect(x0 - b, y0 - b, x1 - x0 + 2 * b, y1 - y0 + 2 * b)


@lru_cache(maxsize=64)
def _art_rect(grid: Grid, filled: tuple[tuple[int, int], ...], bleed: float | None) -> Rect:
    return art_rect(grid, filled, bleed)  # once per page shape


def _bands(grid: Grid, art: Rect, marks: Sequence[Segment], e: float,
           reach: float) -> list[Band]:
    """Margin bands in the order things are put in them: past the crop marks below and above
    (where the margin is that deep), then the rest of the margin below and above, then beside
    the artwork (sides never reach under or over it, so bands do not overlap)."""
    pw, ph = grid.paper
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


@lru_cache(maxsize=64)
def _bands_and_bar(grid: Grid, art: Rect, marks: tuple[Segment, ...], reach: float
                   ) -> tuple[tuple[tuple[str, Rect, tuple], ...], Rect | None, bool]:
    """The margin's bands with the scale bar placed, as (side, rect, taken) triples, the bar
    and whether it is turned: the same for every full sheet of a deck, so worked out once."""
    bar, turned = None, False
    for edge in PAPER_EDGES:
        bands = _bands(grid, art, marks, edge, reach)
        for band in bands:
            if band.depth < BAR_HEIGHT:
                continue
            start = band.take(BAR_LENGTH + 2 * MARK_CLEAR, anchor="end")
            if start is not None:
                bar = band.box(start + MARK_CLEAR, BAR_LENGTH, BAR_HEIGHT)
                turned = not band.along_x
                break
        if bar is not None:
            break
    return tuple((b.side, b.rect, tuple(b.taken)) for b in bands), bar, turned


def _band(side: str, pw: float, y_a: float, y_b: float) -> Band:
    return Band(side, Rect(PAPER_END, min(y_a, y_b), pw - 2 * PAPER_END, abs(y_b - y_a)))


def _text_depth(size: float) -> float:
    return size * 1.15


def place_text(bands: Sequence[Band], text: str, size: float, min_size: float,
               lo: float | None = None, hi: float | None = None, cut: bool = True,
               ) -> Text | None:
    """`text` at `size` in the first band with room for it, else shrunk down to `min_size`:
    below or above the cards before beside them (turned text is harder to read, and to find
    again in the PDF); cut short with an ellipsis only as a last resort."""
    usable = [b for b in bands if b.depth >= _text_depth(min_size)]
    ends = [b for b in usable if b.along_x]
    sides = [b for b in usable if not b.along_x]
    for group, shrink_ok, cut_ok in ((ends, False, False), (ends, True, False),
                                     (sides, False, False), (sides, True, False),
                                     (usable if cut else [], True, True)):
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


def row_ids(cards: Sequence[tuple[str, str]], name_decks: bool) -> list[str]:
    """A row's cards, (deck id, card id) left to right, as short items: repeats counted
    (`coin ×11`), the deck named where it changes when `name_decks` (a page of several decks)."""
    items: list[str] = []
    runs: list[list] = []  # [deck, card, count]
    for deck, card in cards:
        if runs and runs[-1][0] == deck and runs[-1][1] == card:
            runs[-1][2] += 1
        else:
            runs.append([deck, card, 1])
    last = None
    i = 0
    numbered = [_numbered(card) for _, card, _ in runs]
    while i < len(runs):
        deck, card, count = runs[i]
        name = f"{deck}/{card}" if name_decks and deck != last else card
        last = deck
        j = i  # citizen-red-1, -2, ... -5 (one of each) read 'citizen-red-1…5' (or 5…1)
        stem, num = numbered[i]
        step = 1
        if stem is not None and i + 1 < len(runs) and numbered[i + 1] == (stem, num - 1):
            step = -1  # a back page: the row mirrored
        while (count == 1 and stem is not None and j + 1 < len(runs)
               and runs[j + 1][0] == deck and runs[j + 1][2] == 1
               and numbered[j + 1] == (stem, num + step * (j + 1 - i))):
            j += 1
        if j > i + 1:
            items.append(f"{name}…{num + step * (j - i)}")
            i = j + 1
            continue
        items.append(name if count == 1 else f"{name} ×{count}")
        i += 1
    return items


def _numbered(card: str) -> tuple[str | None, int]:
    """('citizen-red-', 3) for 'citizen-red-3'; (None, 0) for an id without a number."""
    stem = card.rstrip("0123456789")
    if stem == card or not stem.endswith("-"):
        return None, 0
    return stem, int(card[len(stem):])


def _place_ids(sides: Sequence[Band], items: list[str], lo: float, hi: float) -> list[Text]:
    """A row's id items beside it, between its crop marks: as many as fit in the left margin,
    the rest in the right one (so they read in the cards' order), shrunk to ID_MIN; only
    what still does not fit is cut short."""
    out: list[Text] = []
    for k, band in enumerate(sides):
        if not items:
            break
        if band.depth < _text_depth(ID_MIN):
            continue
        last = k == len(sides) - 1
        size = min(ID_SIZE, band.depth / 1.15)
        room = max((s1 - s0 for s0, s1 in band.free(lo, hi)), default=0.0) - mm(0.5)
        if room < mm(5):
            continue
        for n in ([len(items)] if last else range(len(items), 0, -1)):
            text = " · ".join(items[:n])
            s = fit_width(text, FONT, size, room * 0.995, min_size=ID_MIN)
            fits = measure(text, FONT, s) <= room
            if fits or last:
                if not fits:  # the last resort: the rest of the row, cut short
                    text = ellipsise(text, FONT, s, room, min_cut=2)
                width = measure(text, FONT, s) + mm(0.5)
                start = band.take(width, lo, hi)
                if start is None:
                    break
                out.append(Text(text, s, band.box(start, width, _text_depth(s)), True))
                items = items[n:]
                break
    return out


def plan_margin(grid: Grid, filled: Sequence[tuple[int, int]], marks: Sequence[Segment],
                label: str, rows: Sequence[tuple[int, Sequence[tuple[str, str]]]] = (),
                art_bleed: float | None = None) -> MarginPlan:
    """Where the footer `label`, the scale bar and the card ids go on a page whose cards sit
    in `filled` and whose crop marks are `marks`; `rows` is (row, its cards left to right as
    (deck id, card id)), `art_bleed` how far past the trim the layouts draw.

    The bar comes first (it must print, at full length), at the right end of the first band
    deep and long enough for it; then the footer; then each row's ids beside that row."""
    plan = MarginPlan()
    if not filled:
        return plan
    art = _art_rect(grid, tuple(filled), art_bleed)
    # crop marks run from 1 to 6 mm past the sheet's bleed, whatever the layouts draw
    reach = grid.bleed - min(grid.bleed, grid.bleed if art_bleed is None else art_bleed) + (
        MARK_REACH + MARK_CLEAR)
    shape, plan.bar, plan.bar_turned = _bands_and_bar(grid, art, tuple(marks), reach)
    bands = [Band(side, rect, list(taken)) for side, rect, taken in shape]
    plan.label = place_text(bands, label, LABEL_SIZE, LABEL_MIN)
    sides = [b for side in ("left", "right") for b in bands if b.side == side]
    name_decks = len({deck for _, cards in rows for deck, _ in cards}) > 1
    first, last = (rows[0][0], rows[-1][0]) if rows else (None, None)
    for row, cards in rows:
        r = grid.trim_rect(0, row)
        items = row_ids(cards, name_decks)
        before = [list(b.taken) for b in sides]
        placed = _place_ids(sides, items, r.y + MARK_CLEAR, r.y1 - MARK_CLEAR)
        short = not placed or placed[-1].text.endswith(ELLIPSIS)
        if short and row in (first, last):  # above the top row or below the bottom one, whole
            ends = [b for b in bands if b.side == ("top" if row == first else "bottom")]
            ends.sort(key=lambda b: abs((b.rect.y if b.side == "top" else b.rect.y1)
                                        - (art.y1 if b.side == "top" else art.y)))
            t = place_text(ends, " · ".join(items), ID_SIZE, ID_MIN, cut=False)
            if t is not None:
                for band, taken in zip(sides, before, strict=True):
                    band.taken = taken
                placed = [t]
        plan.ids.extend(placed)
        if not placed:
            plan.ids_missing.append(row)
    return plan
