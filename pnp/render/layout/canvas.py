"""Per-canvas caches of the card renderer: encoded text runs, forms already drawn.

Hot paths write PDF operators directly: reportlab's pure-Python number formatting and text
objects cost more than the card itself. Everything is wrapped in q/Q, so reportlab's own idea
of the graphics state stays true; 0.01 pt (0.0035 mm) precision is far below what prints.
"""

from __future__ import annotations

from pnp.render import pdfops


class BoundedCache(dict):
    """A cache of at most 2 × `maxsize` entries: memory stays flat however many unique
    cards there are (54,000 unique texts would otherwise keep 54,000 entries), while the
    repeats a deck has (the same title on every 54th card, one card printed many times) keep
    hitting. The dict itself is the newer half (so `get` is dict.get); when it is full it
    becomes the older half, and `recall` moves an entry found only there back to the newer
    one, so what is still used survives the turnover. Callers try `get`, then `recall`."""

    __slots__ = ("maxsize", "old")

    def __init__(self, maxsize: int = 1024):  # two halves: as many entries as one 2,048 cache
        super().__init__()
        self.maxsize = maxsize
        self.old: dict = {}

    def recall(self, key):
        """The entry from the older half (moved to the newer one), or None."""
        value = self.old.get(key)
        if value is not None:
            self[key] = value
        return value

    def __setitem__(self, key, value) -> None:
        if len(self) >= self.maxsize:
            self.old = dict(self)
            self.clear()
        super().__setitem__(key, value)


def canvas_cache(c, name: str, bounded: bool = False) -> dict:
    """A per-canvas cache; bounded for results that can be recomputed (never for form names)."""
    return pdfops.canvas_cache(c, name, BoundedCache if bounded else dict)


def encode_text(c, font_name: str, text: str) -> tuple[tuple[str, str], ...]:
    """(subset font resource, escaped string) runs for `text` (pdfops keeps a per-canvas,
    per-font table of encoded characters: no cache per text needed)."""
    return pdfops.text_runs(c, font_name, text)
