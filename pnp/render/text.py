"""Text fitting for card layouts: wrap at word boundaries, shrink until the box holds it.

Inline `{icon}` marks count one em wide. Moved here from the layout module so that text is
fitted in one place.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from functools import lru_cache

from pnp.render import fonts

ICON_MARK = re.compile(r"\{([A-Za-z0-9_][A-Za-z0-9_-]*)\}")



@dataclass(frozen=True)
class TextFit:
    size: float
    lines: tuple[tuple[tuple[str, str], ...], ...]  # each line: pieces ('t', text) / ('i', icon)
    widths: tuple[float, ...]  # line widths at `size`
    fits: bool


def _pieces(word: str) -> list[tuple[str, str]]:
    out: list[tuple[str, str]] = []
    pos = 0
    for m in ICON_MARK.finditer(word):
        if m.start() > pos:
            out.append(("t", word[pos:m.start()]))
        out.append(("i", m.group(1)))
        pos = m.end()
    if pos < len(word):
        out.append(("t", word[pos:]))
    return out


ICON_EM = 1.08  # an inline icon is one em wide plus a little air


@lru_cache(maxsize=2048)
def fit_text(text: str, font: str, size: float, min_size: float, width: float, height: float,
             leading: float, wrap: bool) -> TextFit:
    """Largest size (0.25 pt steps) at which the words wrap inside width × height.

    Cached on all inputs: a card printed many times, or the same text on many cards, is laid out
    once; each word is measured once per font (fonts.text_width_1000).
    """
    space = fonts.text_width_1000(" ", font)
    paragraphs = []
    for para in text.split("\n"):
        words = []
        for w in para.split():
            pieces = _pieces(w) if "{" in w else [("t", w)]
            w1000 = sum(fonts.text_width_1000(v, font) if k == "t" else 1000 * ICON_EM
                        for k, v in pieces)
            words.append((pieces, w1000))
        paragraphs.append(words)

    def layout(s: float):
        limit = width * 1000.0 / s + 1e-6
        lines, widths = [], []
        for words in paragraphs:
            if not words:
                lines.append(())
                widths.append(0.0)
                continue
            cur: list = []
            cur_w = 0.0
            for pieces, w in words:
                if cur and wrap and cur_w + space + w > limit:
                    lines.append(tuple(cur))
                    widths.append(cur_w)
                    cur, cur_w = [], 0.0
                if cur:
                    cur.append(("t", " "))
                    cur_w += space
                cur.extend(pieces)
                cur_w += w
            lines.append(tuple(cur))
            widths.append(cur_w)
        ok = max(widths, default=0.0) <= limit and len(lines) * s * leading <= height + 0.01
        return ok, lines, widths

    s = size
    while True:
        ok, lines, widths = layout(s)
        if ok or s <= min_size + 1e-9:
            merged = tuple(_merge_text(line) for line in lines)
            return TextFit(s, merged, tuple(w * s / 1000.0 for w in widths), ok)
        s = max(min_size, s - 0.25 if s - 0.25 >= min_size else min_size)


def _merge_text(line: Iterable[tuple[str, str]]) -> tuple[tuple[str, str], ...]:
    out: list[tuple[str, str]] = []
    for kind, value in line:
        if kind == "t" and out and out[-1][0] == "t":
            out[-1] = ("t", out[-1][1] + value)
        else:
            out.append((kind, value))
    return tuple(out)
