"""Preflight: key art inside the safe zone.

Key art, in pnp's card layouts, is every icon element (drawn as one of pnp's icon forms,
`pnpicon<n>`) and every image element, except an image that covers the whole trim: that one
is a full-bleed background, meant to run past the cut. The check reads the written PDF (page
content and the forms it places, to any depth, with their transforms), not the layouts, so it
sees what the shop will print: an icon's box or an image reaching past the trim is cut off
(error), one within the profile's `safe` distance of the trim may be clipped when the cutting
drifts (warning), as text is (PNP-R188).
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

from pnp.diagnostics import ERROR, WARNING, Diagnostic

R_KEY_ART = "PNP-R191"  # an icon or image (not a full-bleed background) past the trim or in the safe margin
ICON_FORM = "pnpicon"  # the name pnp gives an icon's form (pnp.render.layout.icons.icon_form)
TOLERANCE = 0.25  # points, as for text
MAX_DEPTH = 8  # forms inside forms

Matrix = tuple[float, float, float, float, float, float]
IDENTITY: Matrix = (1.0, 0.0, 0.0, 1.0, 0.0, 0.0)


def _mul(m: Matrix, n: Matrix) -> Matrix:
    """m then n (PDF order: a point is transformed by m, then by n)."""
    a, b, c, d, e, f = m
    a2, b2, c2, d2, e2, f2 = n
    return (a * a2 + b * c2, a * b2 + b * d2, c * a2 + d * c2, c * b2 + d * d2,
            e * a2 + f * c2 + e2, e * b2 + f * d2 + f2)


def _bounds(m: Matrix, box: tuple[float, float, float, float]) -> tuple[float, float, float, float]:
    x0, y0, x1, y1 = box
    pts = [(x * m[0] + y * m[2] + m[4], x * m[1] + y * m[3] + m[5])
           for x, y in ((x0, y0), (x1, y0), (x0, y1), (x1, y1))]
    xs, ys = [p[0] for p in pts], [p[1] for p in pts]
    return min(xs), min(ys), max(xs), max(ys)


def placed_art(page: Any) -> Iterator[tuple[str, str, tuple[float, float, float, float]]]:
    """(kind, detail, bounds in page space) of every icon form and image the page places."""
    import pikepdf

    def walk(stream: Any, resources: Any, ctm: Matrix, depth: int):
        stack: list[Matrix] = []
        for operands, op in pikepdf.parse_content_stream(stream, "q Q cm Do"):
            name = str(op)
            if name == "q":
                stack.append(ctm)
            elif name == "Q":
                ctm = stack.pop() if stack else ctm
            elif name == "cm" and len(operands) == 6:
                ctm = _mul(tuple(float(v) for v in operands), ctm)  # type: ignore[arg-type]
            elif name == "Do" and operands:
                xobjects = resources.get("/XObject") if resources is not None else None
                xo = xobjects.get(operands[0]) if xobjects is not None else None
                if xo is None:
                    continue
                subtype = str(xo.get("/Subtype", ""))
                if subtype == "/Image":
                    w, h = int(xo.get("/Width", 0)), int(xo.get("/Height", 0))
                    yield "image", f"{w}×{h} px", _bounds(ctm, (0.0, 0.0, 1.0, 1.0))
                elif subtype == "/Form" and depth < MAX_DEPTH:
                    matrix = tuple(float(v) for v in xo.get("/Matrix", IDENTITY))
                    inner = _mul(matrix, ctm)  # type: ignore[arg-type]
                    if ICON_FORM in str(operands[0]):
                        bbox = tuple(float(v) for v in xo.get("/BBox", (0, 0, 0, 0)))
                        yield "icon", "", _bounds(inner, bbox)  # type: ignore[arg-type]
                    else:
                        yield from walk(xo, xo.get("/Resources", resources), inner, depth + 1)

    yield from walk(page, page.obj.get("/Resources"), IDENTITY, 0)


def check_key_art(path: Path, safe: float) -> list[Diagnostic]:
    """Every icon and image of every page (all card pages: one card side a page) kept `safe`
    points inside its TrimBox; a full-bleed image is background, not key art."""
    import pikepdf

    out: list[Diagnostic] = []
    with pikepdf.open(path) as pdf:
        for n, page in enumerate(pdf.pages, start=1):
            trim = tuple(float(v) for v in page.obj.get("/TrimBox", page.mediabox))
            counts = {"icon": 0, "image": 0}
            for kind, detail, (x0, y0, x1, y1) in placed_art(page):
                counts[kind] += 1
                if (x0 <= trim[0] + TOLERANCE and y0 <= trim[1] + TOLERANCE
                        and x1 >= trim[2] - TOLERANCE and y1 >= trim[3] - TOLERANCE):
                    continue  # covers the whole card: a full-bleed background
                insets = {"left": x0 - trim[0], "bottom": y0 - trim[1],
                          "right": trim[2] - x1, "top": trim[3] - y1}
                edge = min(insets, key=insets.__getitem__)
                inset = insets[edge]
                if inset >= safe - TOLERANCE:
                    continue
                size = f"{(x1 - x0) / 72 * 25.4:.1f}×{(y1 - y0) / 72 * 25.4:.1f} mm"
                what = (f"{path.name}, page {n}, {kind} {counts[kind]} "
                        f"({', '.join(filter(None, (detail, size)))})")
                if inset < -TOLERANCE:
                    out.append(Diagnostic(ERROR, R_KEY_ART, f"{what}: reaches "
                                          f"{-inset / 72 * 25.4:.2f} mm past the {edge} trim "
                                          "(it is cut off)", str(path),
                                          hint="move it inside the card's safe zone, or make "
                                               "a background image cover the whole card"))
                else:
                    out.append(Diagnostic(WARNING, R_KEY_ART, f"{what}: "
                                          f"{inset / 72 * 25.4:.2f} mm from the {edge} cut, "
                                          f"inside the {safe / 72 * 25.4:.2f} mm safe margin",
                                          str(path), hint="cutting drifts: keep key art further "
                                                          "in"))
    return out
