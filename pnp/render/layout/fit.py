"""Fit of what sits on a printed area: a box that declares `holds` must hold its occupants.

A layout's rect, rounded_rect or circle may say what players put on it (`holds: {deck:
titans-1}`, `holds: {deck: tokens, count: 5}`, `holds: {size: poker}`). Preflight compares
the occupants' printed size with the box, so a card spot smaller than its card, or a track
space smaller than its marker, stops the build with PNP-R042 at the element's line instead of
being found at the table.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

from pnp.diagnostics import ERROR, Diagnostic, Position
from pnp.render.geometry import GeometryError, card_size, parse_length

R_NO_FIT = "PNP-R042"  # a declared occupant does not fit the box that holds it
R_OCCUPANT = "PNP-R043"  # `holds` names an unknown deck, or a size that cannot be read
MM = 72 / 25.4
DEFAULT_GAP = 1.0 * MM  # room between occupants laid side by side


def occupant_size(holds: Mapping[str, Any], game: Any) -> tuple[float, float, str]:
    """(width, height, what) of one occupant in points; GeometryError when it cannot be read."""
    if "deck" in holds:
        deck = (getattr(game, "decks", None) or {}).get(str(holds["deck"]))
        if deck is None:
            known = ", ".join(sorted(getattr(game, "decks", None) or {})) or "none"
            raise GeometryError(f"unknown deck {holds['deck']!r} (decks: {known})")
        w, h = card_size(deck.size)
        return w, h, f"a '{deck.id}' card"
    if "size" in holds:
        w, h = card_size(holds["size"])
        return w, h, f"a {_mm(w)}×{_mm(h)} mm piece"
    raise GeometryError("`holds` needs `deck` or `size`")


def arrangement(n: int, w: float, h: float, box_w: float, box_h: float,
                gap: float) -> tuple[int, int] | None:
    """Columns and rows that lay `n` pieces of w×h in the box with `gap` between, or None."""
    for cols in range(1, n + 1):
        rows = math.ceil(n / cols)
        if cols * w + (cols - 1) * gap <= box_w + 0.01 and rows * h + (rows - 1) * gap <= box_h + 0.01:
            return cols, rows
    return None


def check_holds(element: Any, game: Any, layout_id: str) -> list[Diagnostic]:
    """PNP-R042/R043 for one element that declares `holds` (none when it fits or declares none)."""
    holds = getattr(element, "holds", None)
    if not holds:
        return []
    pos: Position | None = element.origin
    where = f"layout {layout_id!r} element '{element.id}'"
    try:
        w, h, what = occupant_size(holds, game)
        gap = parse_length(holds["gap"]) if "gap" in holds else DEFAULT_GAP
    except GeometryError as exc:
        return [Diagnostic.at(pos, ERROR, R_OCCUPANT, f"{where}: holds: {exc}",
                              "name a deck of this game, or give `size` (poker, or {width, height})")]
    box = element.static_box()
    if box is None:
        return [Diagnostic.at(pos, ERROR, R_OCCUPANT,
                              f"{where}: a box that holds pieces needs constant x, y, width "
                              "and height", "write lengths such as 20mm, not templates")]
    _, _, bw, bh = box
    n = int(holds.get("count", 1))
    if getattr(element, "kind", "") == "circle" and n > 1:
        return [Diagnostic.at(pos, ERROR, R_OCCUPANT, f"{where}: a round space holds one piece, "
                              f"not {n}", "use a rect or rounded_rect for an area of several")]
    if getattr(element, "kind", "") == "circle":
        # a round space: each occupant's outline must fit inside the circle's diameter
        room = min(bw, bh)
        fits = n == 1 and w <= room + 0.01 and h <= room + 0.01
        need = f"{_mm(max(w, h))} mm across"
    else:
        fits = arrangement(n, w, h, bw, bh, gap) is not None
        need = (f"{_mm(w)}×{_mm(h)} mm" if n == 1 else
                f"{n} × {_mm(w)}×{_mm(h)} mm with {_mm(gap)} mm between")
    if fits:
        return []
    count = what if n == 1 else f"{n} of {what.removeprefix('a ')}s"
    return [Diagnostic.at(
        pos, ERROR, R_NO_FIT,
        f"{where} is {_mm(bw)}×{_mm(bh)} mm but holds {count} ({need}): it does not fit",
        "enlarge the box (and the component it is on), or make the occupant smaller")]


def _mm(points: float) -> str:
    return f"{points / MM:.1f}".rstrip("0").rstrip(".")
