"""Text fitting: the one place pnp measures, wraps, shrinks and ellipsises text.

Card layouts, boards, tiled pages, tokens, card sheets, record sheets and the PDF reports all fit
text through these functions, so a rule such as "shrink in 0.25 pt steps down to min_size" has
one home and one test file (tests/test_text.py). Where callers fit text differently (the shrink
step, the smallest size, how many characters an ellipsis replaces, long words split or not),
the difference is a parameter here, not a second implementation. Flowing text in the rulesheet
stays with platypus, which wraps its own paragraphs.

Widths come from the embedded fonts' advance widths (pnp.render.fonts): a word is measured once
per font at 1000 pt and scaled, so wrapping at ten sizes measures nothing ten times.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import NamedTuple

from pnp.render import fonts
from pnp.templating.icons import ICON_MARK

ICON_EM = 1.08  # an inline icon is one em wide plus a little air
ELLIPSIS = "…"
#: how far (in 1000-pt units) a line may pass its box and still fit: float noise, not ink
SLACK_1000 = 1e-6
#: how far (in points) a block may pass its box's height and still fit
HEIGHT_SLACK = 0.01


def measure(text: str, font: str, size: float) -> float:
    """The advance width of `text` set in `font` at `size` pt, in points (reportlab's
    stringWidth, from the same glyph widths, cached per word)."""
    return fonts.text_width_1000(text, font) * size / 1000.0


def fit_width(text: str, font: str, size: float, width: float, min_size: float = 0.0) -> float:
    """The size at which `text` fits `width` on one line: `size` when it already does, else
    scaled down in proportion, never below `min_size` (then it is still too wide)."""
    w = measure(text, font, size)
    if w <= width:
        return size
    return max(min_size, size * width / w)


def ellipsise(text: str, font: str, size: float, width: float, *, ellipsis: str = ELLIPSIS,
              min_cut: int = 1) -> str:
    """`text` when it fits `width`, else its longest start that fits with `ellipsis` after it,
    dropping at least `min_cut` characters; the ellipsis alone when nothing fits."""
    if measure(text, font, size) <= width:
        return text
    for n in range(max(0, len(text) - min_cut), 0, -1):
        short = text[:n] + ellipsis
        if measure(short, font, size) <= width:
            return short
    return ellipsis


# ---------------------------------------------------------------------------------------------
# words


class Word(NamedTuple):
    """One unbreakable run of text in one font, measured at 1000 pt."""

    text: str  # as written, icon marks included: "{coin}3"
    font: str
    width: float  # at 1000 pt; an inline icon counts ICON_EM em
    pieces: tuple[tuple[str, str], ...]  # what is drawn: ('t', text) and ('i', icon name)


@lru_cache(maxsize=2048)
def word(text: str, font: str, icons: bool = False) -> Word:
    """`text` as one word; with `icons`, `{name}` marks are icons one ICON_EM wide (cached:
    a deck repeats its words)."""
    if not (icons and "{" in text):
        return Word(text, font, fonts.text_width_1000(text, font), (("t", text),))
    pieces: list[tuple[str, str]] = []
    pos = 0
    for m in ICON_MARK.finditer(text):
        if m.start() > pos:
            pieces.append(("t", text[pos:m.start()]))
        pieces.append(("i", m.group(1)))
        pos = m.end()
    if pos < len(text):
        pieces.append(("t", text[pos:]))
    width = sum(fonts.text_width_1000(v, font) if k == "t" else 1000 * ICON_EM
                for k, v in pieces)
    return Word(text, font, width, tuple(pieces))


def words(text: str, font: str, *, icons: bool = False,
          keep_amounts: bool = False) -> tuple[Word, ...]:
    """The words of `text` (split at any whitespace). With `keep_amounts` a signed amount stays
    with the word before it, so 'Culture +3' never breaks before '+3'."""
    if not keep_amounts:
        return tuple([word(w, font, icons) for w in str(text).split()])
    out: list[str] = []
    for w in str(text).split():
        if out and w[:1] in "+-\u2212" and len(w) > 1:
            out[-1] = f"{out[-1]} {w}"
        else:
            out.append(w)
    return tuple([word(w, font, icons) for w in out])


# ---------------------------------------------------------------------------------------------
# blocks: greedy wrapping, shrinking to fit


@dataclass(frozen=True)
class FittedText:
    """Text wrapped at one size, and whether it fits its box there."""

    size: float
    lines: tuple[tuple[Word, ...], ...]
    widths: tuple[float, ...]  # each line's width at `size`, in points
    too_wide: bool  # a word is wider than the box even at `size`
    too_tall: bool  # more lines than the box's height (or max_lines) holds
    leading: float = 1.2  # line pitch as a multiple of `size`

    @property
    def overflow(self) -> bool:
        return self.too_wide or self.too_tall

    @property
    def fits(self) -> bool:
        return not (self.too_wide or self.too_tall)

    @property
    def height(self) -> float:
        """The height of the lines, at `leading` times the size each (0 with no lines)."""
        return len(self.lines) * self.size * self.leading if self.lines else 0.0

    def strings(self) -> list[str]:
        """Each line as plain text, words joined by one space."""
        return [" ".join(w.text for w in line) for line in self.lines]

    def pieces(self) -> tuple[tuple[tuple[str, str], ...], ...]:
        """Each line as what to draw: ('t', text) runs (spaces included) and ('i', icon)."""
        out = []
        for line in self.lines:
            merged: list[tuple[str, str]] = []
            run: list[str] = []  # the text run being built, in parts
            for i, w in enumerate(line):
                if i:
                    run.append(" ")
                parts = w.pieces
                if len(parts) == 1 and parts[0][0] == "t":  # a plain word
                    run.append(parts[0][1])
                    continue
                for kind, value in parts:
                    if kind == "t":
                        run.append(value)
                        continue
                    if run:
                        merged.append(("t", "".join(run)))
                        run = []
                    merged.append((kind, value))
            if run:
                merged.append(("t", "".join(run)))
            out.append(tuple(merged))
        return tuple(out)


@lru_cache(maxsize=2048)
def fit(text: str, font: str, width: float, height: float = math.inf, *, size: float,
        min_size: float | None = None, step: float = 0.25, leading: float = 1.2,
        wrap: bool = True, max_lines: int | None = None, icons: bool = False,
        paragraphs: bool = True, split_long_words: bool = False) -> FittedText:
    """The largest size, from `size` down in `step`s to `min_size` (default: `size`, no
    shrinking), at which `text` wraps inside width × height (and into `max_lines`).

    A newline starts a new line when `paragraphs` is on (an empty paragraph is an empty line);
    `wrap=False` keeps each paragraph on one line; `split_long_words` breaks a word wider than
    the box between characters instead of letting it overflow. Below `min_size` nothing shrinks:
    the result at `min_size` comes back with `overflow` set. Cached on all inputs: a card printed
    many times, or the same text on many cards, is laid out once.
    """
    parts = text.split("\n") if paragraphs else [text]
    paras = tuple(words(p, font, icons=icons) for p in parts)
    if not any(paras):
        paras = ()
    return _fit(paras, font, width, height, size, size if min_size is None else min_size, step,
                leading, wrap, max_lines, split_long_words)


def one_line(text: str, font: str, width: float, height: float, size: float,
             leading: float = 1.2) -> tuple[str, float] | None:
    """(the line drawn, its width in points) when `text` (icon marks counted as text: none
    may be present) sets on one line at `size` inside width × height, else None: what
    `fit(text, font, width, height, size=size, leading=leading, icons=True)` gives such a
    text, with the same arithmetic, without wrapping and shrinking machinery (a card's
    title or short label is the commonest text and mostly fits)."""
    if "\n" in text or "{" in text:
        return None
    ws = text.split()
    if not ws or 1 * size * leading > height + HEIGHT_SLACK:
        return None
    measure_1000 = fonts.text_width_1000
    total = measure_1000(ws[0], font)
    if len(ws) > 1:
        space = measure_1000(" ", font)
        for w in ws[1:]:
            total = total + space + measure_1000(w, font)  # as _break adds them
    if total > width * 1000.0 / size + SLACK_1000:
        return None
    return " ".join(ws), total * size / 1000.0


def fit_words(ws: Sequence[Word], width: float, height: float = math.inf, *, size: float,
              min_size: float | None = None, space_font: str, step: float = 0.25,
              leading: float = 1.2) -> FittedText:
    """`fit` for words already made (mixed fonts: a bold label before plain text), as one
    paragraph; the space between words is measured in `space_font`."""
    paras = (tuple(ws),) if ws else ()
    return _fit(paras, space_font, width, height, size, size if min_size is None else min_size,
                step, leading, True, None, False)


def wrap(text: str, font: str, size: float, width: float, *, split_long_words: bool = False,
         paragraphs: bool = True) -> list[str]:
    """`text` wrapped at `size` into lines no wider than `width` (a word wider than that
    overflows on its own line, or is split with `split_long_words`); at least one line, so an
    empty text still takes a line's room."""
    fitted = fit(text, font, width, size=size, split_long_words=split_long_words,
                 paragraphs=paragraphs)
    return fitted.strings() or [""]


def fit_together(blocks: Sequence[Sequence[Word]], sizes: Sequence[Sequence[float]],
                 width: float, height: float, *, space_font: str, leading: float,
                 stack_height: Callable[[Sequence[FittedText]], float]
                 ) -> tuple[list[FittedText], bool]:
    """Several blocks shrunk in step: the first row of `sizes` (one size per block) at which
    every block fits `width` and `stack_height` of them fits `height`, and True; else the blocks
    at the last row, and False."""
    fitted: list[FittedText] = []
    for row in sizes:
        fitted = [fit_words(ws, width, size=s, space_font=space_font, leading=leading)
                  for ws, s in zip(blocks, row, strict=True)]
        if all(f.fits for f in fitted) and stack_height(fitted) <= height + HEIGHT_SLACK:
            return fitted, True
    return fitted, False


def _fit(paras: tuple[tuple[Word, ...], ...], space_font: str, width: float, height: float,
         size: float, min_size: float, step: float, leading: float, wrap: bool,
         max_lines: int | None, split: bool) -> FittedText:
    space = fonts.text_width_1000(" ", space_font)
    s = size
    while True:
        limit = width * 1000.0 / s + SLACK_1000
        lines, widths = _break(paras, space, limit, wrap, split)
        too_wide = max(widths, default=0.0) > limit
        too_tall = (len(lines) * s * leading > height + HEIGHT_SLACK
                    or (max_lines is not None and len(lines) > max_lines))
        if not (too_wide or too_tall) or s <= min_size + 1e-9:
            return FittedText(s, tuple(lines), tuple(w * s / 1000.0 for w in widths), too_wide,
                              too_tall, leading)
        s = max(min_size, s - step if s - step >= min_size else min_size)


def _break(paras, space: float, limit: float, wrap: bool, split: bool):
    """Greedy lines: each word goes on the current line unless the line would pass `limit`
    (1000-pt units at the size being tried)."""
    lines: list[tuple[Word, ...]] = []
    widths: list[float] = []
    for para in paras:
        if not para:
            lines.append(())
            widths.append(0.0)
            continue
        cur: list[Word] = []
        cur_w = 0.0
        for w in para:
            ww = w[2]  # its width
            if cur and wrap and cur_w + space + ww > limit:
                lines.append(tuple(cur))
                widths.append(cur_w)
                cur, cur_w = [], 0.0
            if split and wrap and ww > limit and len(w.pieces) == 1:
                w = _split(w, limit, lines, widths)
                if not w.text:
                    continue
                ww = w.width
            if cur:
                cur_w += space
            cur.append(w)
            cur_w += ww
        if cur:
            lines.append(tuple(cur))
            widths.append(cur_w)
    return lines, widths


def _split(w: Word, limit: float, lines: list, widths: list) -> Word:
    """Lines of the longest starts of `w` that fit (at least one character each); returns the
    rest, which fits."""
    text = w.text
    while fonts.text_width_1000(text, w.font) > limit:
        cut = len(text)
        while cut > 1 and fonts.text_width_1000(text[:cut], w.font) > limit:
            cut -= 1
        chunk = word(text[:cut], w.font)
        lines.append((chunk,))
        widths.append(chunk.width)
        text = text[cut:]
    return word(text, w.font)
