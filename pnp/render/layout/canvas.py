"""Per-canvas caches of the card renderer: encoded text runs, forms already drawn.

Hot paths write PDF operators directly: reportlab's pure-Python number formatting and text
objects cost more than the card itself. Everything is wrapped in q/Q, so reportlab's own idea
of the graphics state stays true; 0.01 pt (0.0035 mm) precision is far below what prints.
"""

from __future__ import annotations

from pnp.memo import BoundedCache
from pnp.render import pdfops


def canvas_cache(c, name: str, bounded: bool = False) -> dict:
    """A per-canvas cache; bounded for results that can be recomputed (never for form names)."""
    return pdfops.canvas_cache(c, name, BoundedCache if bounded else dict)


def encode_text(c, font_name: str, text: str) -> tuple[tuple[str, str], ...]:
    """(subset font resource, escaped string) runs for `text` (pdfops keeps a per-canvas,
    per-font table of encoded characters: no cache per text needed)."""
    return pdfops.text_runs(c, font_name, text)
