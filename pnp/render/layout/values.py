"""Value parsers for layout properties: colours, lengths, text.

Each raises ValueError with a sentence a designer can act on; the caller turns it into a
diagnostic at the property's line (PNP-R004 lengths, PNP-R005 colours).
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from reportlab.lib import colors as rl_colors

from pnp.render.geometry import GeometryError, parse_length


@lru_cache(maxsize=1024)
def parse_color(value: Any) -> tuple[float, float, float] | None:
    """'#rgb', '#rrggbb', a reportlab colour name, or none/transparent -> RGB 0..1 or None."""
    if value is None:
        return None
    if not isinstance(value, str):
        raise ValueError(f"{value!r} is not a colour")
    v = value.strip().lower()
    if v in ("", "none", "transparent"):
        return None
    if v.startswith("#") and len(v) in (4, 7) and all(c in "0123456789abcdef" for c in v[1:]):
        h = v[1:] if len(v) == 7 else "".join(c * 2 for c in v[1:])
        return (int(h[0:2], 16) / 255, int(h[2:4], 16) / 255, int(h[4:6], 16) / 255)
    named = rl_colors.getAllNamedColors().get(v.replace(" ", "").replace("-", ""))
    if named is not None:
        return (named.red, named.green, named.blue)
    raise ValueError(f"unknown colour {value!r} (use #rrggbb or a name like 'white')")


def as_length(value: Any) -> float:
    try:
        return parse_length(value)
    except GeometryError as exc:
        raise ValueError(str(exc)) from None


def as_text(value: Any) -> str:
    return "" if value is None else str(value)
