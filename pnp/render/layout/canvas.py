"""Per-canvas caches of the card renderer: encoded text runs, forms already drawn.

Hot paths write PDF operators directly: reportlab's pure-Python number formatting and text
objects cost more than the card itself. Everything is wrapped in q/Q, so reportlab's own idea
of the graphics state stays true; 0.01 pt (0.0035 mm) precision is far below what prints.
"""

from __future__ import annotations

from pnp.render import pdfops


class BoundedCache:
    """A cache of at most about 2 × `maxsize` entries: memory stays flat however many unique
    cards there are (54,000 unique texts would otherwise keep 54,000 entries), while the
    repeats a deck has (the same title on every 54th card, one card printed many times) keep
    hitting. When the newer half is full it becomes the older half; an entry found only in the
    older half moves back to the newer one, so what is still used survives the turnover."""

    __slots__ = ("maxsize", "new", "old")

    def __init__(self, maxsize: int = 2048):
        self.maxsize = maxsize
        self.new: dict = {}
        self.old: dict = {}

    def get(self, key, default=None):
        value = self.new.get(key, _ABSENT)
        if value is _ABSENT:
            value = self.old.get(key, _ABSENT)
            if value is _ABSENT:
                return default
            self[key] = value
        return value

    def __setitem__(self, key, value) -> None:
        if len(self.new) >= self.maxsize:
            self.old = self.new
            self.new = {}
        self.new[key] = value

    def __len__(self) -> int:
        return len(self.new) + sum(1 for k in self.old if k not in self.new)


_ABSENT = object()


def canvas_cache(c, name: str, bounded: bool = False) -> dict:
    """A per-canvas cache; bounded for results that can be recomputed (never for form names)."""
    return pdfops.canvas_cache(c, name, BoundedCache if bounded else dict)


def encode_text(c, font_name: str, text: str) -> tuple[tuple[str, str], ...]:
    """(subset font resource, escaped string) runs for `text` (pdfops keeps a per-canvas,
    per-font table of encoded characters: no cache per text needed)."""
    return pdfops.text_runs(c, font_name, text)
