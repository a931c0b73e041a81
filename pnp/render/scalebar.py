"""A 50 mm scale bar: measured with a ruler, it shows whether a page printed at actual size."""

from __future__ import annotations

from pnp.render.geometry import mm

LENGTH = mm(50)


def draw_scale_bar(c, x: float, y: float, grey: float = 0.35) -> None:
    """A 50 mm bar from (x, y) to the right, 10 mm ticks, '50 mm' under its middle (about
    4 mm tall in all)."""
    c.saveState()
    c.setStrokeColorRGB(grey, grey, grey)
    c.setFillColorRGB(grey, grey, grey)
    c.setLineWidth(0.6)
    c.line(x, y + mm(2), x + LENGTH, y + mm(2))
    c.setLineWidth(0.4)
    for k in range(6):
        top = mm(3.2) if k in (0, 5) else mm(2.7)
        c.line(x + mm(10 * k), y + mm(1.4), x + mm(10 * k), y + top)
    c.setFont("Vera", 5)
    c.drawCentredString(x + LENGTH / 2, y, "50 mm")
    c.restoreState()
