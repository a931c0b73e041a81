"""Value parsers for layout properties: colours (pnp.colors), lengths, text.

Each raises ValueError with a sentence a designer can act on; the caller turns it into a
diagnostic at the property's line (PNP-R004 lengths, PNP-R005 colours).
"""

from __future__ import annotations

from typing import Any

from pnp.colors import parse_color
from pnp.render.geometry import GeometryError, parse_length

__all__ = ["as_length", "as_text", "parse_color"]


def as_length(value: Any) -> float:
    try:
        return parse_length(value)
    except GeometryError as exc:
        raise ValueError(str(exc)) from None


def as_text(value: Any) -> str:
    return "" if value is None else str(value)
