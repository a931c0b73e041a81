"""A 50 mm scale bar: measured with a ruler, it shows whether a page printed at actual size."""

from __future__ import annotations

from pnp.render import pdfops
from pnp.render.geometry import Rect, mm

LENGTH = mm(50)
HEIGHT = mm(3.8)  # the bar, its ticks and '50 mm' under it
BELOW = mm(0.5)  # how far '50 mm' reaches below the y the bar is drawn at


def draw_scale_bar(c, x: float, y: float, grey: float = 0.35, size: float = 5) -> None:
    """A 50 mm bar from (x, y) to the right, 10 mm ticks, '50 mm' (`size` pt) under its
    middle (about 4 mm tall in all)."""
    c.saveState()
    c.setStrokeColorRGB(grey, grey, grey)
    c.setFillColorRGB(grey, grey, grey)
    c.setLineWidth(0.6)
    c.line(x, y + mm(2), x + LENGTH, y + mm(2))
    c.setLineWidth(0.4)
    for k in range(6):
        top = mm(3.2) if k in (0, 5) else mm(2.7)
        c.line(x + mm(10 * k), y + mm(1.4), x + mm(10 * k), y + top)
    c.setFont("Vera", size)
    c.drawCentredString(x + LENGTH / 2, y, "50 mm")
    c.restoreState()


def _bar_form(c) -> str:
    """The bar (6 pt caption) as a form XObject drawn once per canvas: every page places it."""
    forms = pdfops.canvas_cache(c, "_pnp_scalebar", dict)
    name = forms.get("bar")
    if name is None:
        name = forms["bar"] = "pnpScaleBar"
        c.beginForm(name, 0, -BELOW, LENGTH, HEIGHT - BELOW)
        draw_scale_bar(c, 0, 0, size=6)
        c.endForm()
    return name


def draw_scale_bar_in(c, box: Rect, turned: bool = False) -> None:
    """The bar inside `box` (LENGTH by HEIGHT, or HEIGHT by LENGTH when `turned`: then it reads
    from the top down, its ticks towards the right), its caption at 6 pt like the smallest
    text of boards and record sheets."""
    name = _bar_form(c)
    if not turned:
        pdfops.place_form(c, name, box.x, box.y + BELOW)
        return
    c.saveState()
    c.translate(box.x + BELOW, box.y1)
    c.rotate(-90)
    pdfops.place_form(c, name, 0, 0)
    c.restoreState()
