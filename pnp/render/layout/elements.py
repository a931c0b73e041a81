"""Layout elements: text, shapes, lines, images and icons, each drawn for one card.

An element's properties are constants or templates (pnp.render.layout.templates); geometry is in
points with y measured up from the trim's bottom. Elements that read no card data are grouped and
drawn once per PDF as a form (StaticRun). Text is fitted by pnp.render.text.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import jinja2
from jinja2.sandbox import SecurityError

from pnp.diagnostics import WARNING, Position
from pnp.memo import BoundedCache, BoundedMemo
from pnp.render import fonts, pdfops
from pnp.render.geometry import parse_length
from pnp.render.layout.canvas import canvas_cache
from pnp.render.layout.codes import (
    R_GLYPH,
    R_IMAGE_ESCAPES,
    R_IMAGE_FORMAT,
    R_MISSING_IMAGE,
    R_OVERFLOW,
    R_SANDBOX,
    R_TEMPLATE_ERROR,
    R_TEMPLATE_LIMIT,
    R_UNDEFINED,
    R_UNKNOWN_ICON,
    ElementError,
    shown_char,
)
from pnp.render.layout.icons import ICON_UNITS, Icon, icon_form, set_fill, set_stroke
from pnp.render.layout.images import RASTER_EXTENSIONS, image_size, print_image, safe_path
from pnp.render.layout.templates import Prop, compile_condition, condition_fields
from pnp.render.layout.values import as_length, as_text, parse_color
from pnp.render.pdfops import place_form
from pnp.render.text import ICON_EM, fit, measure, one_line
from pnp.templating.sandbox import TemplateLimit

LOW_INK_TEXT = (0.11, 0.15, 0.2)
#: one-line texts' fixed operators kept per text element (boxes and colours it is drawn in)
ONE_LINE_HEADS = 64


@dataclass
class DrawContext:
    """What an element needs besides the canvas: the card's jinja context and where files live."""

    ctx: Mapping[str, Any]
    icons: Mapping[str, Icon]
    game_root: Path
    bleed: float
    card_w: float
    card_h: float
    low_ink: bool = False  # a low-ink print: no dark frame behind light text
    on_fill: frozenset = frozenset()  # ids of text elements that sit on a filled shape
    textops: Any = None  # the canvas's cache of text operators (found once per card, not per text)


class Element:
    """Base for drawable elements; geometry in points, y measured up from the trim's bottom."""

    kind = "element"

    def __init__(self, eid: str, data: Mapping[str, Any], origin: Position,
                 card_w: float, card_h: float):
        self.id = eid
        self.origin = origin
        self.what = f"element '{eid}'"
        self.when = None
        if "when" in data:
            src = str(data["when"])
            self.when = compile_condition(src.strip().removeprefix("{{").removesuffix("}}"))
            self.when_fields = condition_fields("{{ " + src.strip().removeprefix("{{")
                                                .removesuffix("}}") + " }}")

    def visible(self, dc: DrawContext) -> bool:
        if self.when is None:
            return True
        try:
            return bool(self.when(**dc.ctx))
        except jinja2.UndefinedError as exc:
            raise ElementError(R_UNDEFINED, f"{self.what} when: {exc.message}",
                               "guard with 'card.FIELD is defined'",
                               self.when_fields[0] if self.when_fields else None) from None
        except TemplateLimit as exc:
            raise ElementError(R_TEMPLATE_LIMIT, f"{self.what} when: {exc}") from None
        except SecurityError as exc:
            raise ElementError(R_SANDBOX, f"{self.what} when: not allowed: {exc}") from None
        except Exception as exc:
            raise ElementError(R_TEMPLATE_ERROR, f"{self.what} when: {exc}") from None

    def draw(self, c, dc: DrawContext) -> None:  # pragma: no cover - abstract
        raise NotImplementedError


class BoxElement(Element):
    def __init__(self, eid, data, origin, card_w, card_h):
        super().__init__(eid, data, origin, card_w, card_h)
        self.x = Prop("x", data.get("x", 0), as_length)
        self.y = Prop("y", data.get("y", 0), as_length)
        self.width = Prop("width", data.get("width", f"{card_w}pt"), as_length)
        self.height = Prop("height", data.get("height", f"{card_h}pt"), as_length)
        self.bleed = bool(data.get("bleed", False))
        self.card_h = card_h
        self.card_w = card_w
        self._const_box = all(p.is_const for p in (self.x, self.y, self.width, self.height))
        self._boxes: dict[float, tuple[float, float, float, float]] = {}

    def box(self, dc: DrawContext) -> tuple[float, float, float, float]:
        """(x, y, w, h) in PDF orientation; a `bleed: true` box grows past the trim edges it touches."""
        cached = self._boxes.get(dc.bleed)
        if cached is not None:
            return cached
        box = self._box(dc)
        if self._const_box:
            self._boxes[dc.bleed] = box
        return box

    def _box(self, dc: DrawContext) -> tuple[float, float, float, float]:
        x, y = self.x.get(dc.ctx, self.what), self.y.get(dc.ctx, self.what)
        w, h = self.width.get(dc.ctx, self.what), self.height.get(dc.ctx, self.what)
        py = self.card_h - y - h
        if self.bleed and dc.bleed:
            b, eps = dc.bleed, 0.01
            left = b if x <= eps else 0.0
            right = b if x + w >= self.card_w - eps else 0.0
            bottom = b if py <= eps else 0.0
            top = b if y <= eps else 0.0
            return (x - left, py - bottom, w + left + right, h + bottom + top)
        return (x, py, w, h)

    def static_box(self) -> tuple[float, float, float, float] | None:
        if all(p.is_const for p in (self.x, self.y, self.width, self.height)):
            return (self.x.const, self.y.const, self.width.const, self.height.const)
        return None


class ShapeElement(BoxElement):
    def __init__(self, eid, data, origin, card_w, card_h):
        super().__init__(eid, data, origin, card_w, card_h)
        self.kind = data["type"]
        self.fill = Prop("fill", data.get("fill"), parse_color)
        self.stroke = Prop("stroke", data.get("stroke"), parse_color)
        self.stroke_width = Prop("stroke_width", data.get("stroke_width", "0.5pt"), as_length)
        self.radius = Prop("radius", data.get("radius", "3mm"), as_length)
        self.holds = data.get("holds")  # what players put here; checked by layout.fit
        self._rects = BoundedCache(256)  # a filled rect's operators per colour and box

    def draw(self, c, dc):
        x, y, w, h = self.box(dc)
        fill = self.fill.get(dc.ctx, self.what)
        stroke = self.stroke.get(dc.ctx, self.what)
        if fill is None and stroke is None:
            return
        if self.kind == "rect" and stroke is None:  # the common case, as raw operators
            ops = self._rects.get((fill, x, y, w, h))
            if ops is None:
                ops = self._rects[(fill, x, y, w, h)] = (
                    f"q {fill[0]:.3f} {fill[1]:.3f} {fill[2]:.3f} rg "
                    f"{x:.2f} {y:.2f} {w:.2f} {h:.2f} re f Q")
            pdfops.append_operators(c, ops)
            return
        if fill is not None:
            set_fill(c, fill)
        if stroke is not None:
            set_stroke(c, stroke)
            c.setLineWidth(self.stroke_width.get(dc.ctx, self.what))
        s, f = int(stroke is not None), int(fill is not None)
        if self.kind == "rect":
            c.rect(x, y, w, h, stroke=s, fill=f)
        elif self.kind == "rounded_rect":
            c.roundRect(x, y, w, h, self.radius.get(dc.ctx, self.what), stroke=s, fill=f)
        else:  # circle (an ellipse when the box is not square)
            c.ellipse(x, y, x + w, y + h, stroke=s, fill=f)


class LineElement(Element):
    kind = "line"

    def __init__(self, eid, data, origin, card_w, card_h):
        super().__init__(eid, data, origin, card_w, card_h)
        self.card_h = card_h
        self.pts = [Prop(k, data.get(k, 0), as_length) for k in ("x", "y", "x2", "y2")]
        self.stroke = Prop("stroke", data.get("stroke", "black"), parse_color)
        self.stroke_width = Prop("stroke_width", data.get("stroke_width", "0.5pt"), as_length)
        self.dash = [parse_length(d) for d in data.get("dash", [])]
        self.arrow = data.get("arrow", "none")  # an arrowhead at the end, the start or both

    def draw(self, c, dc):
        x1, y1, x2, y2 = (p.get(dc.ctx, self.what) for p in self.pts)
        stroke = self.stroke.get(dc.ctx, self.what)
        if stroke is None:
            return
        set_stroke(c, stroke)
        width = self.stroke_width.get(dc.ctx, self.what)
        c.setLineWidth(width)
        if self.dash:
            c.setDash(self.dash)
        c.line(x1, self.card_h - y1, x2, self.card_h - y2)
        if self.dash:
            c.setDash()
        heads = {"end": [(x1, y1, x2, y2)], "start": [(x2, y2, x1, y1)],
                 "both": [(x1, y1, x2, y2), (x2, y2, x1, y1)]}.get(self.arrow, [])
        for ax, ay, bx, by in heads:
            _arrowhead(c, stroke, ax, self.card_h - ay, bx, self.card_h - by, width)


def _arrowhead(c, rgb, ax: float, ay: float, bx: float, by: float, width: float) -> None:
    """A filled arrowhead with its tip at (bx, by), pointing from (ax, ay)."""
    import math

    length = math.hypot(bx - ax, by - ay)
    if length <= 0:
        return
    ux, uy = (bx - ax) / length, (by - ay) / length
    size = max(4 * width, 3.5)
    back_x, back_y = bx - ux * size, by - uy * size
    half = size * 0.45
    set_fill(c, rgb)
    p = c.beginPath()
    p.moveTo(bx, by)
    p.lineTo(back_x - uy * half, back_y + ux * half)
    p.lineTo(back_x + uy * half, back_y - ux * half)
    p.close()
    c.drawPath(p, stroke=0, fill=1)


class TextElement(BoxElement):
    kind = "text"

    def __init__(self, eid, data, origin, card_w, card_h):
        super().__init__(eid, data, origin, card_w, card_h)
        self.text = Prop("text", data.get("text", ""), as_text)
        self.font = fonts.resolve_font(data.get("font"))
        self.size = parse_length(data.get("size", "10pt"))
        self.min_size = parse_length(data["min_size"]) if "min_size" in data else min(
            self.size, parse_length("6pt"))
        self.color = Prop("color", data.get("color", "black"), parse_color)
        self.align = data.get("align", "left")
        self.valign = data.get("valign", "top")
        self.leading = float(data.get("leading", 1.2))
        self.wrap = bool(data.get("wrap", True))
        self.ascent, self.descent = fonts.ascent_descent(self.font)
        #: a one-line text's fixed operators, by box and colour
        self._heads: BoundedMemo[tuple, tuple[str, str, str]] = BoundedMemo(ONE_LINE_HEADS)

    def draw(self, c, dc):
        text = self.text.get(dc.ctx, self.what)
        if not text or text.isspace():
            return
        box = self._boxes.get(dc.bleed) or self.box(dc)
        color = self.color.const if self.color.is_const else self.color.get(dc.ctx, self.what)
        if color is None:
            return
        if dc.low_ink and id(self) not in dc.on_fill and \
                0.2126 * color[0] + 0.7152 * color[1] + 0.0722 * color[2] > 0.75:
            color = LOW_INK_TEXT  # light text was meant for the dark frame low ink leaves out
        # the same text in the same box gives the same operators: cached per canvas
        cache = dc.textops
        if cache is None:
            cache = canvas_cache(c, "_pnp_textops", bounded=True)
        key = (self, text, box, color)
        done = cache.get(key) or cache.recall(key)
        if done is None:
            ops, icons = self._operators(c, dc, text, box, color)
            if icons:  # the text and its icons' placements, one a line as separate calls write
                ops = "\n".join([ops] + [pdfops.form_operators(c, *icon) for icon in icons])
            done = cache[key] = (ops, tuple(icon[0] for icon in icons),
                                 fonts.missing_glyphs(text, self.font))
        ops, forms, missing = done
        pdfops.append_with_forms(c, ops, forms)
        if missing:  # drawn all the same; reported once per card face
            raise ElementError(
                R_GLYPH, f"{self.what}: font {self.font} has no glyph for "
                f"{', '.join(shown_char(ch) for ch in missing)}, which would print blank",
                "use a font that has it (font: path/to/font.ttf), a {icon}, or other characters",
                self.text.fields[0] if self.text.fields else None, severity=WARNING)

    def _first_base(self, y: float, h: float, s: float, n: int) -> float:
        """The first line's baseline for `n` lines at size `s` in a box from y to y + h."""
        block = (n - 1) * (s * self.leading) + s * (self.ascent - self.descent)  # n - 1 line steps and a line
        if self.valign == "middle":
            top = y + h / 2 + block / 2
        elif self.valign == "bottom":
            top = y + block
        else:
            top = y + h
        return top - s * self.ascent

    def _operators(self, c, dc, text, box, color):
        """The text as PDF operators plus the icon forms to place: (ops, [(form, x, y, scale)])."""
        x, y, w, h = box
        one = one_line(text, self.font, w, h, self.size, self.leading)
        if one is not None:  # fits on one line at full size: what fit would give, sooner
            runs = pdfops.text_encoder(c, self.font).runs(one[0])
            if len(runs) == 1:  # in one font subset: the operators below, in one go
                lw = one[1]
                lx = (x + (w - lw) / 2 if self.align == "center"
                      else x + w - lw if self.align == "right" else x)
                head = self._heads.get((box, color))
                if head is None:  # all but the line's x, formatted once per box and colour
                    s = self.size
                    head = self._heads.put((box, color), (
                        f"q {color[0]:.3f} {color[1]:.3f} {color[2]:.3f} rg BT 1 0 0 1 ",
                        f" {self._first_base(y, h, s, 1):.2f} Tm ", f" {s:.2f} Tf ("))
                return f"{head[0]}{lx:.2f}{head[1]}{runs[0][0]}{head[2]}{runs[0][1]}) Tj ET Q", []
            s, lines, widths = self.size, ((("t", one[0]),),), (one[1],)
        else:
            fitted = fit(text, self.font, w, h, size=self.size, min_size=self.min_size,
                         leading=self.leading, wrap=self.wrap, icons=True)
            if fitted.overflow:
                field = self.text.fields[0] if self.text.fields else None
                raise ElementError(
                    R_OVERFLOW,
                    f"{self.what}: text{f' of field {field!r}' if field else ''} does not fit "
                    f"its {w / 2.8346:.1f}×{h / 2.8346:.1f} mm box even at {self.min_size:g} pt "
                    f"(“{text[:40]}{'…' if len(text) > 40 else ''}”)",
                    "shorten the text, enlarge the box, or lower min_size", field)
            lines = fitted.pieces()
            for line in lines:
                for kind, name in line:
                    if kind == "i" and name not in dc.icons:
                        raise ElementError(R_UNKNOWN_ICON,
                                           f"{self.what}: unknown icon {{{name}}}",
                                           f"known icons: {', '.join(sorted(dc.icons)) or 'none'}",
                                           self.text.fields[0] if self.text.fields else None)
            s, widths = fitted.size, fitted.widths
        step = s * self.leading
        base = self._first_base(y, h, s, len(lines))
        ops = [f"q {color[0]:.3f} {color[1]:.3f} {color[2]:.3f} rg BT"]
        size_txt = f"{s:.2f}"
        current = None
        icons_to_draw = []
        runs = pdfops.text_encoder(c, self.font).runs
        for line, lw in zip(lines, widths, strict=True):
            if self.align == "center":
                lx = x + (w - lw) / 2
            elif self.align == "right":
                lx = x + w - lw
            else:
                lx = x
            cx = lx
            for kind, value in line:
                if kind == "t":
                    ops.append(f"1 0 0 1 {cx:.2f} {base:.2f} Tm")
                    for subset, chunk in runs(value):
                        if subset != current:
                            ops.append(f"{subset} {size_txt} Tf")
                            current = subset
                        ops.append(f"({chunk}) Tj")
                    if len(line) > 1:
                        cx += measure(value, self.font, s)
                else:
                    icons_to_draw.append((dc.icons[value], cx + s * (ICON_EM - 1) / 2,
                                          base - s * 0.14))
                    cx += s * ICON_EM
            base -= step
        ops.append("ET Q")
        return " ".join(ops), [(icon_form(c, icon), ix, iy, s / ICON_UNITS)
                               for icon, ix, iy in icons_to_draw]


class ImageElement(BoxElement):
    kind = "image"

    def __init__(self, eid, data, origin, card_w, card_h):
        super().__init__(eid, data, origin, card_w, card_h)
        self.file = Prop("file", data.get("file", ""), as_text)
        self.fit = data.get("fit", "contain")

    def resolve(self, dc: DrawContext) -> Path:
        rel = self.file.get(dc.ctx, self.what).strip()
        field = self.file.fields[0] if self.file.fields else None
        path = safe_path(dc.game_root, rel)
        if path is None:
            raise ElementError(R_IMAGE_ESCAPES,
                               f"{self.what}: image path {rel!r} leaves the game folder",
                               "use a path relative to the game folder, without '..'", field)
        if path.suffix.lower() not in RASTER_EXTENSIONS:
            raise ElementError(R_IMAGE_FORMAT,
                               f"{self.what}: {rel!r} is not a PNG or JPG image",
                               "SVG needs svglib, which is not installed: export the SVG as PNG",
                               field)
        if not path.is_file():
            raise ElementError(R_MISSING_IMAGE, f"{self.what}: image {rel!r} not found",
                               f"looked for {path}", field)
        return path

    def draw(self, c, dc):
        path = self.resolve(dc)
        x, y, w, h = self.box(dc)
        try:
            iw, ih = image_size(str(path))
        except Exception as exc:  # PIL raises many kinds for a broken file
            raise ElementError(R_IMAGE_FORMAT, f"{self.what}: cannot read image {path.name}: {exc}",
                               "", self.file.fields[0] if self.file.fields else None) from None
        if self.fit == "stretch":
            c.drawImage(print_image(path, iw, ih, w, h), x, y, w, h, mask="auto")
        elif self.fit == "cover":
            scale = max(w / iw, h / ih)
            dw, dh = iw * scale, ih * scale
            c.saveState()
            p = c.beginPath()
            p.rect(x, y, w, h)
            c.clipPath(p, stroke=0, fill=0)
            c.drawImage(print_image(path, iw, ih, dw, dh), x + (w - dw) / 2, y + (h - dh) / 2,
                        dw, dh, mask="auto")
            c.restoreState()
        else:
            scale = min(w / iw, h / ih)
            c.drawImage(print_image(path, iw, ih, iw * scale, ih * scale), x, y, w, h,
                        mask="auto", preserveAspectRatio=True, anchor="c")


class IconElement(BoxElement):
    kind = "icon"

    def __init__(self, eid, data, origin, card_w, card_h):
        super().__init__(eid, data, origin, card_w, card_h)
        self.icon = Prop("icon", data.get("icon", ""), as_text)

    def draw(self, c, dc):
        name = self.icon.get(dc.ctx, self.what).strip()
        if not name:
            return
        icon = dc.icons.get(name)
        if icon is None:
            raise ElementError(R_UNKNOWN_ICON, f"{self.what}: unknown icon {name!r}",
                               f"known icons: {', '.join(sorted(dc.icons)) or 'none'}",
                               self.icon.fields[0] if self.icon.fields else None)
        x, y, w, h = self.box(dc)
        s = min(w, h)
        place_form(c, icon_form(c, icon), x + (w - s) / 2, y + (h - s) / 2, s / ICON_UNITS)


class StaticRun(Element):
    """Consecutive elements that read no card data: drawn once per canvas as a form."""

    kind = "static"

    def __init__(self, elements: list[Element], key: str):
        self.elements = elements
        self.key = key
        self.when = None
        self.what = "elements " + ", ".join(f"'{e.id}'" for e in elements)

    def draw(self, c, dc):
        forms = canvas_cache(c, "_pnp_static")
        key = (self.key, round(dc.bleed, 3))
        name = forms.get(key)
        if name is None:
            name = f"pnpstatic{len(forms)}"
            b = dc.bleed
            c.beginForm(name, -b, -b, dc.card_w + b, dc.card_h + b)
            errors = []
            for el in self.elements:
                try:
                    el.draw(c, dc)
                except ElementError as err:
                    err.origin = err.origin or el.origin
                    errors.append(err)
            c.endForm()
            forms[key] = name
            if errors:  # reported with the first card that uses the layout
                place_form(c, name, 0, 0)
                raise errors[0]
        place_form(c, name, 0, 0)


def is_static(el: Element) -> bool:
    """True when drawing `el` reads nothing from the card, deck or game."""
    if el.when is not None:
        return False
    props = [v for v in vars(el).values() if isinstance(v, Prop)]
    props += [p for v in vars(el).values() if isinstance(v, list) for p in v if isinstance(p, Prop)]
    return all(p.is_const for p in props)


def group_static(elements: list[Element], layout_id: str) -> list[Element]:
    """Replace each run of static elements by one StaticRun (drawing order is kept)."""
    out: list[Element] = []
    run: list[Element] = []
    for el in elements + [None]:
        if el is not None and is_static(el):
            run.append(el)
            continue
        if run:
            out.append(StaticRun(run, f"{layout_id}#{len(out)}") if len(run) > 0 else run[0])
            run = []
        if el is not None:
            out.append(el)
    return out


ELEMENT_TYPES: dict[str, type[Element]] = {
    "text": TextElement,
    "rect": ShapeElement,
    "rounded_rect": ShapeElement,
    "circle": ShapeElement,
    "line": LineElement,
    "image": ImageElement,
    "icon": IconElement,
}
