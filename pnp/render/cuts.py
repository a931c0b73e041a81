"""Die-cut outlines: a round token is cut on a circle, not on the square crop marks of a card.

A deck's `cut:` names each card's outline (one shape, or a card field naming it); the sheets
draw that outline thinly around the card and leave its square crop marks out. Resolved once per
card, so drawing costs one path per printed card.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from pnp.diagnostics import ERROR, Diagnostic
from pnp.render.geometry import GeometryError, Rect, parse_length
from pnp.render.layout.icons import SHAPES, draw_shape, shape_points
from pnp.render.pdfops import append_operators

R_CUT = "PNP-R049"  # a deck's cut: names a field its cards lack, a value that is no shape, ...

CUT_COLOUR = (0.15, 0.15, 0.15)  # the token sheets' cut line (pnp/render/tokens.py)
CUT_WIDTH = 0.3


@dataclass(frozen=True, slots=True)
class Cut:
    """A card's die-cut outline: a shape inset from its trim box."""

    shape: str
    inset: float = 0.0

    @property
    def square(self) -> bool:
        """Cut like a card, on the crop marks (a square piece is its whole trim box)."""
        return self.shape == "square"


def deck_cuts(deck: Any, size: tuple[float, float]) -> tuple[dict[str, Cut | None], list[Diagnostic]]:
    """Each card id -> its cut (None: the crop marks), and what is wrong with the deck's `cut:`."""
    spec = getattr(deck, "cut", None)
    out: dict[str, Cut | None] = {card.id: None for card in deck.cards}
    if spec is None:
        return out, []
    diags: list[Diagnostic] = []

    def bad(pos, msg: str, hint: str) -> None:
        diags.append(Diagnostic.at(pos, ERROR, R_CUT, f"deck '{deck.id}': {msg}", hint))

    if isinstance(spec, str):
        spec = {"shape": spec}
    if not isinstance(spec, Mapping):
        return out, diags  # the schema reports it
    inset = 0.0
    if "inset" in spec:
        try:
            inset = parse_length(spec["inset"])
        except GeometryError as exc:
            bad(deck.origin, f"cut inset: {exc}", "write e.g. inset: 1mm")
            return out, diags
        if not 0 <= 2 * inset < min(size):
            bad(deck.origin, f"cut inset {spec['inset']} leaves no card to cut",
                "the inset must be less than half the card's width and height")
            return out, diags
    field = spec.get("field")
    for card in deck.cards:
        shape = spec.get("shape") if field is None else card.fields.get(field)
        if field is not None and shape is None:
            bad(card.origin, f"card '{card.id}' has no field '{field}', which cut: reads",
                f"give every card a '{field}' (or a default), or write cut: {{shape: circle}}")
            continue
        if shape not in SHAPES:
            pos = (getattr(card, "field_origins", None) or {}).get(field) or card.origin
            bad(pos, f"card '{card.id}': cut shape {shape!r} is not a shape",
                f"use one of {', '.join(SHAPES)}")
            continue
        cut = Cut(str(shape), inset)
        out[card.id] = None if cut.square else cut
    return out, diags


KAPPA = 0.5523  # a quarter circle as one Bézier curve


def _outline_ops(shape: str, x: float, y: float, w: float, h: float) -> str | None:
    """Raw path operators of a circle or a polygon shape (None: draw it through the canvas)."""
    if shape == "circle":
        rx, ry, cx, cy = w / 2, h / 2, x + w / 2, y + h / 2
        kx, ky = rx * KAPPA, ry * KAPPA
        return (f"{cx + rx:.2f} {cy:.2f} m "
                f"{cx + rx:.2f} {cy + ky:.2f} {cx + kx:.2f} {cy + ry:.2f} {cx:.2f} {cy + ry:.2f} c "
                f"{cx - kx:.2f} {cy + ry:.2f} {cx - rx:.2f} {cy + ky:.2f} {cx - rx:.2f} {cy:.2f} c "
                f"{cx - rx:.2f} {cy - ky:.2f} {cx - kx:.2f} {cy - ry:.2f} {cx:.2f} {cy - ry:.2f} c "
                f"{cx + kx:.2f} {cy - ry:.2f} {cx + rx:.2f} {cy - ky:.2f} {cx + rx:.2f} {cy:.2f} c h")
    if shape in ("rounded", "heart"):
        return None
    pts = shape_points(shape, x, y, w, h)
    return " ".join(f"{px:.2f} {py:.2f} {'m' if k == 0 else 'l'}"
                    for k, (px, py) in enumerate(pts)) + " h"


def draw_cut_outlines(c, trims: list[tuple[Rect, Cut]]) -> None:
    """A thin dark outline of each card's cut shape, on the card (inset from its trim box):
    circles and polygons as raw path operators in one stroke, other shapes through the
    canvas (a token sheet has a few hundred)."""
    if not trims:
        return
    ops, rest = [], []
    for r, cut in trims:
        i = cut.inset
        box = (r.x + i, r.y + i, r.width - 2 * i, r.height - 2 * i)
        path = _outline_ops(cut.shape, *box)
        if path is None:
            rest.append((cut.shape, box))
        else:
            ops.append(path)
    g = CUT_COLOUR
    if ops:
        append_operators(c, f"q {g[0]} {g[1]} {g[2]} RG {CUT_WIDTH} w []0 d " + " ".join(ops)
                         + " S Q")
    if rest:
        c.saveState()
        c.setDash()
        for shape, box in rest:
            draw_shape(c, shape, *box, None, CUT_COLOUR, CUT_WIDTH)
        c.restoreState()
