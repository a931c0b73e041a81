"""Icons: a raster file or a drawn shape, drawn once per canvas as a form and scaled where used.

Shapes are drawn, not typed, so a heart or a star needs no glyph in any font; the label of a
drawn icon is squeezed to its box by pnp.render.text. What an icon is (its file, shape, colours)
is read by pnp.templating.icons; this module only draws it.
"""

from __future__ import annotations

from dataclasses import fields

from pnp.render.layout.canvas import canvas_cache
from pnp.render.layout.images import image_size, print_image
from pnp.render.text import fit_width, measure
from pnp.templating.icons import IconDef


class Icon(IconDef):
    """A named icon the renderer draws in a square box: a raster file or a drawn shape, as
    pnp.templating.icons read it."""

    @classmethod
    def of(cls, definition: IconDef) -> Icon:
        return cls(**{f.name: getattr(definition, f.name) for f in fields(definition)})

    def draw(self, c, x: float, y: float, size: float) -> None:
        if self.file is not None:
            iw, ih = image_size(str(self.file))
            k = min(size / iw, size / ih)
            c.drawImage(print_image(self.file, iw, ih, iw * k, ih * k), x, y, size, size,
                        mask="auto", preserveAspectRatio=True, anchor="c")
            return
        draw_shape(c, self.shape or "circle", x, y, size, size, self.fill, self.stroke)
        if self.label:
            font = ICON_LABEL_FONT
            s = fit_width(self.label, font, size * 0.62, size * 0.8)
            w = measure(self.label, font, s)
            set_fill(c, self.label_color or (1, 1, 1))
            c.setFont(font, s)
            c.drawString(x + (size - w) / 2, y + size / 2 - s * 0.36, self.label)


SHAPES = ("circle", "square", "rounded", "diamond", "triangle", "hexagon", "star", "heart",
          "banner", "arrow", "pentagon", "shield")
#: the font of a drawn icon's label
ICON_LABEL_FONT = "Vera-Bold"


def shape_points(shape: str, x: float, y: float, w: float, h: float) -> list[tuple[float, float]]:
    """Polygon corners of a shape fitted in a box (for polygonal shapes)."""
    import math

    cx, cy = x + w / 2, y + h / 2
    if shape == "diamond":
        return [(cx, y + h), (x + w, cy), (cx, y), (x, cy)]
    if shape == "triangle":
        return [(cx, y + h), (x + w, y + h * 0.08), (x, y + h * 0.08)]
    if shape == "hexagon":
        return [(cx + w / 2 * math.cos(math.radians(a)), cy + h / 2 * math.sin(math.radians(a)))
                for a in range(0, 360, 60)]
    if shape == "banner":  # a hanging flag with a swallowtail
        return [(x + w * 0.18, y + h), (x + w * 0.82, y + h), (x + w * 0.82, y),
                (cx, y + h * 0.28), (x + w * 0.18, y)]
    if shape == "arrow":  # pointing right
        return [(x, y + h * 0.36), (x + w * 0.55, y + h * 0.36), (x + w * 0.55, y + h * 0.12),
                (x + w, cy), (x + w * 0.55, y + h * 0.88), (x + w * 0.55, y + h * 0.64),
                (x, y + h * 0.64)]
    if shape == "pentagon":
        return [(cx + w / 2 * math.cos(math.radians(90 + 72 * i)),
                 cy - h * 0.04 + h / 2 * math.sin(math.radians(90 + 72 * i))) for i in range(5)]
    if shape == "shield":
        return [(x + w * 0.08, y + h * 0.95), (x + w * 0.92, y + h * 0.95),
                (x + w * 0.92, y + h * 0.45), (cx, y + h * 0.03), (x + w * 0.08, y + h * 0.45)]
    if shape == "star":
        pts = []
        for i in range(10):
            r = 0.5 if i % 2 == 0 else 0.2
            a = math.radians(90 + 36 * i)
            pts.append((cx + w * r * math.cos(a), cy + h * r * math.sin(a) - h * 0.03))
        return pts
    return [(x, y), (x + w, y), (x + w, y + h), (x, y + h)]


def draw_shape(c, shape: str, x: float, y: float, w: float, h: float,
               fill: tuple | None, stroke: tuple | None, stroke_width: float | None = None) -> None:
    """Draw a named shape in a box; stroke width scales with the box unless given."""
    do_fill = fill is not None
    do_stroke = stroke is not None
    if not (do_fill or do_stroke):
        return
    if do_fill:
        set_fill(c, fill)
    if do_stroke:
        set_stroke(c, stroke)
        c.setLineWidth(stroke_width if stroke_width is not None else min(w, h) * 0.07)
    if shape == "circle":
        c.ellipse(x, y, x + w, y + h, stroke=int(do_stroke), fill=int(do_fill))
    elif shape == "rounded":
        c.roundRect(x, y, w, h, min(w, h) * 0.2, stroke=int(do_stroke), fill=int(do_fill))
    elif shape == "square":
        c.rect(x, y, w, h, stroke=int(do_stroke), fill=int(do_fill))
    elif shape == "heart":
        c.drawPath(_heart(c, x, y, w, h), stroke=int(do_stroke), fill=int(do_fill))
    else:
        p = c.beginPath()
        pts = shape_points(shape, x, y, w, h)
        p.moveTo(*pts[0])
        for pt in pts[1:]:
            p.lineTo(*pt)
        p.close()
        c.drawPath(p, stroke=int(do_stroke), fill=int(do_fill))


def _heart(c, x: float, y: float, w: float, h: float):
    """A heart fitted in a box: two lobes of Bézier curves meeting in a point at the bottom
    (drawn, so it needs no font glyph)."""
    cx = x + w / 2
    p = c.beginPath()
    p.moveTo(cx, y + h * 0.05)  # the point
    p.curveTo(x + w * 0.30, y + h * 0.30, x, y + h * 0.45, x + w * 0.02, y + h * 0.68)
    p.curveTo(x + w * 0.05, y + h * 0.92, x + w * 0.38, y + h * 1.00, cx, y + h * 0.76)
    p.curveTo(x + w * 0.62, y + h * 1.00, x + w * 0.95, y + h * 0.92, x + w * 0.98, y + h * 0.68)
    p.curveTo(x + w, y + h * 0.45, x + w * 0.70, y + h * 0.30, cx, y + h * 0.05)
    p.close()
    return p


def set_fill(c, rgb) -> None:
    c.setFillColorRGB(*rgb)


def set_stroke(c, rgb) -> None:
    c.setStrokeColorRGB(*rgb)


ICON_UNITS = 100.0  # icons are drawn once as a 100 × 100 form and scaled where used
#: room round the form for the outline: a stroke 7 units wide is centred on the shape's edge,
#: and a star's mitred tips reach 3.5 / sin 18° ≈ 11.3 units past its points
ICON_BLEED = 12.0


def icon_form(c, icon: Icon) -> str:
    """The form holding `icon` on this canvas, drawn on first use."""
    forms = canvas_cache(c, "_pnp_icons")
    name = forms.get(icon.name)
    if name is None:
        name = f"pnpicon{len(forms)}"
        c.beginForm(name, -ICON_BLEED, -ICON_BLEED, ICON_UNITS + ICON_BLEED,
                    ICON_UNITS + ICON_BLEED)
        icon.draw(c, 0, 0, ICON_UNITS)
        c.endForm()
        forms[icon.name] = name
    return name
