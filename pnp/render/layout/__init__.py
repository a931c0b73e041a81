"""Card-face layouts: YAML + sandboxed jinja2 compiled once, then drawn for each card.

A layout is a list of elements positioned from the card's top-left trim corner. Every string is a
jinja2 template rendered in a sandbox with StrictUndefined against `card`, `deck` and `game`, so a
typo in a field name is a Diagnostic naming the card, never a blank on the printed sheet. Text
shrinks to fit its box; inline `{icon}` markers draw icons at text size.
"""

from __future__ import annotations

import json
import math
import os
import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any

import jinja2
import jinja2.nodes as jnodes
from jinja2.sandbox import SecurityError
from reportlab.lib import colors as rl_colors

from pnp import paths
from pnp.diagnostics import ERROR, WARNING, Diagnostic, Position
from pnp.render import fonts, pdfops
from pnp.render.geometry import GeometryError, card_size, parse_length, size_key
from pnp.render.pdfops import place_form
from pnp.render.sandbox import TemplateLimit, budget, render_limited, sandboxed_environment

# Diagnostic codes owned by the renderer (docs/rendering.md lists them).
R_SCHEMA = "PNP-R001"  # layout file does not match schemas/layout.schema.json
R_UNKNOWN_LAYOUT = "PNP-R002"  # deck names a layout that no file defines
R_EXTENDS = "PNP-R003"  # extends an unknown layout, or a cycle
R_LENGTH = "PNP-R004"  # a length without a unit, or unparsable
R_COLOR = "PNP-R005"  # an unknown colour
R_FONT = "PNP-R006"  # unknown or unembeddable font
R_DUPLICATE = "PNP-R007"  # the same layout or icon id twice in one scope
R_TEMPLATE_SYNTAX = "PNP-R010"
R_UNDEFINED = "PNP-R011"
R_SANDBOX = "PNP-R012"
R_TEMPLATE_ERROR = "PNP-R013"
R_TEMPLATE_LIMIT = "PNP-R014"  # a template loops, runs or writes past the sandbox's limits
R_OVERFLOW = "PNP-R020"
R_UNKNOWN_ICON = "PNP-R021"
R_OUTSIDE_SAFE = "PNP-R022"  # warning: text or icon box outside the safe area
R_GLYPH = "PNP-R023"  # warning: a character the font has no glyph for (prints blank)
R_MISSING_IMAGE = "PNP-R030"
R_IMAGE_ESCAPES = "PNP-R031"
R_IMAGE_FORMAT = "PNP-R032"
R_SIZE = "PNP-R040"  # unknown card size or paper, card does not fit
R_SIZE_MISMATCH = "PNP-R041"  # warning: layout designed for another card size

LAYOUT_SCHEMA = "layout.schema.json"
ICON_MARK = re.compile(r"\{([A-Za-z0-9_][A-Za-z0-9_-]*)\}")
_TEMPLATE_MARKS = ("{{", "{%", "{#")
RASTER_EXTENSIONS = {".png", ".jpg", ".jpeg"}


# ---------------------------------------------------------------------------------------------
# documents: loaded by pnp.data.loader (positions kept), checked against layout.schema.json


def load_layout_file(path: Path):
    """Load one layout YAML file -> (Document | None, diagnostics), schema-checked."""
    from pnp.data.loader import load_file

    doc, diags = load_file(path)
    if doc is None:
        return None, diags
    return doc, diags + validate_layout_document(doc)


@lru_cache(maxsize=1)
def _layout_validator():
    import jsonschema

    schema = json.loads((paths.SCHEMAS / LAYOUT_SCHEMA).read_text(encoding="utf-8"))
    return jsonschema.Draft202012Validator(schema)


def validate_layout_document(doc) -> list[Diagnostic]:
    """Schema-check a layout document: pnp.data.schema when the file names its schema (as
    `pnp validate` does), else this schema directly, so a file without the line is checked too."""
    from pnp.data.schema import validate_document

    if getattr(doc, "kind", None) == "layout":
        return list(validate_document(doc))
    out = []
    for err in sorted(_layout_validator().iter_errors(doc.data), key=lambda e: list(e.absolute_path)):
        where = "/".join(str(p) for p in err.absolute_path) or "(top level)"
        out.append(Diagnostic.at(doc.pos(tuple(err.absolute_path)), ERROR, R_SCHEMA,
                                 f"{where}: {err.message}",
                                 "see schemas/layout.schema.json and docs/rendering.md"))
    return out


# ---------------------------------------------------------------------------------------------
# jinja2


ENV = sandboxed_environment(keep_trailing_newline=False)


def is_template(value: Any) -> bool:
    return isinstance(value, str) and any(m in value for m in _TEMPLATE_MARKS)


def _fields_used(ast: jnodes.Template) -> tuple[str, ...]:
    """Card fields a template reads (card.x, card['x']): named in overflow diagnostics."""
    found: list[str] = []
    for n in ast.find_all(jnodes.Getattr):
        if isinstance(n.node, jnodes.Name) and n.node.name == "card" and n.attr not in found:
            found.append(n.attr)
    for n in ast.find_all(jnodes.Getitem):
        if (isinstance(n.node, jnodes.Name) and n.node.name == "card"
                and isinstance(n.arg, jnodes.Const) and str(n.arg.value) not in found):
            found.append(str(n.arg.value))
    return tuple(found)


_LOOKUP = re.compile(
    r"^\{\{\s*(card|deck|game)\.([A-Za-z_][A-Za-z0-9_]*)\s*"
    r"(?:\|\s*default\(\s*(?:'([^'\\]*)'|\"([^\"\\]*)\")\s*\)\s*)?\}\}$")
_DEFINED = re.compile(r"^\s*(card|deck|game)\.([A-Za-z_][A-Za-z0-9_]*)\s+is\s+(not\s+)?defined\s*$")


class _Lookup:
    """`{{ card.x }}` or `{{ card.x | default('y') }}` without a jinja2 context per render.

    The commonest templates by far; same output and same UndefinedError as jinja2 itself.
    """

    __slots__ = ("scope", "key", "default")

    def __init__(self, scope: str, key: str, default: str | None):
        self.scope, self.key, self.default = scope, key, default

    def render(self, ctx: Mapping[str, Any]) -> str:
        value = ctx[self.scope].get(self.key, _MISSING)
        if value is _MISSING:
            if self.default is not None:
                return self.default
            raise jinja2.UndefinedError(f"'dict object' has no attribute '{self.key}'")
        return value if isinstance(value, str) else str(value)


_MISSING = object()
_SCOPES = ("card", "deck", "game")


def _scope_refs(ast: jnodes.Template) -> tuple[tuple[str, str], ...] | None:
    """Every (scope, key) a template reads when it only reads `scope.key` / `scope['key']`;
    None when it uses a scope as a whole (then its output cannot be memoised by those keys)."""
    refs: list[tuple[str, str]] = []
    covered = 0
    for n in ast.find_all((jnodes.Getattr, jnodes.Getitem)):
        if isinstance(n.node, jnodes.Name) and n.node.name in _SCOPES:
            if isinstance(n, jnodes.Getattr):
                key = n.attr
            elif isinstance(n.arg, jnodes.Const) and isinstance(n.arg.value, str):
                key = n.arg.value
            else:
                return None
            covered += 1
            if (n.node.name, key) not in refs:
                refs.append((n.node.name, key))
    names = sum(1 for n in ast.find_all(jnodes.Name) if n.name in _SCOPES)
    return tuple(refs) if names == covered else None


class _Memo:
    """A jinja2 template whose output is remembered per value of the keys it reads."""

    __slots__ = ("template", "refs", "cache")

    def __init__(self, template: jinja2.Template, refs: tuple[tuple[str, str], ...]):
        self.template, self.refs, self.cache = template, refs, {}

    def render(self, ctx: Mapping[str, Any]) -> str:
        key = tuple(ctx[scope].get(k, _MISSING) for scope, k in self.refs)
        try:
            out = self.cache.get(key)
        except TypeError:  # a list or dict value: not hashable, render every time
            return render_limited(self.template, ctx)
        if out is None:
            out = render_limited(self.template, ctx)
            if len(self.cache) > 1024:
                self.cache.clear()
            self.cache[key] = out
        return out


@lru_cache(maxsize=4096)
def _compile(source: str) -> tuple[Any, tuple[str, ...]]:
    """A template (or a fast lookup with identical behaviour) and the card fields it reads."""
    ast = ENV.parse(source)
    fields = _fields_used(ast)
    m = _LOOKUP.match(source.strip())
    if m:
        default = m.group(3) if m.group(3) is not None else m.group(4)
        return _Lookup(m.group(1), m.group(2), default), fields
    template = ENV.from_string(source)
    refs = _scope_refs(ast)
    return (_Memo(template, refs) if refs is not None else template), fields


def compile_condition(source: str) -> Callable[..., Any]:
    """A `when:` expression; `card.x is defined` is answered without jinja2."""
    m = _DEFINED.match(source)
    if m:
        scope, key, negate = m.group(1), m.group(2), bool(m.group(3))
        return lambda **ctx: (key in ctx[scope]) != negate
    expression = ENV.compile_expression(source)

    failed: list[str] = []

    def limited(**ctx):
        if failed:  # it hit a limit once: the next card would wait as long
            raise TemplateLimit(failed[0])
        try:
            with budget():
                return expression(**ctx)
        except TemplateLimit as exc:
            failed.append(str(exc))
            raise

    return limited


class ElementError(Exception):
    """One element could not be drawn for one card; becomes a Diagnostic naming the card."""

    def __init__(self, code: str, message: str, hint: str = "", field: str | None = None,
                 severity: str = ERROR, origin: Position | None = None):
        super().__init__(message)
        self.code, self.message, self.hint, self.field, self.severity = (
            code, message, hint, field, severity)
        self.origin = origin  # the layout line of the failing element (set when drawing)


#: templates that hit a sandbox limit (by id, with the template itself to keep the id taken)
_OVER_LIMIT: dict[int, tuple[Any, str]] = {}


def render_template(template: Any, ctx: Mapping[str, Any], what: str,
                    fields: tuple[str, ...] = ()) -> str:
    """Render one compiled template, turning every user error into an ElementError."""
    first = fields[0] if fields else None
    over = _OVER_LIMIT.get(id(template))
    try:
        if over is not None and over[0] is template:
            raise TemplateLimit(over[1])  # it failed once: the next card would wait as long
        if isinstance(template, jinja2.Template):
            return render_limited(template, ctx)
        return template.render(ctx)
    except TemplateLimit as exc:
        _OVER_LIMIT[id(template)] = (template, str(exc))
        raise ElementError(R_TEMPLATE_LIMIT, f"{what}: {exc}",
                           "a card template should read and format card values: keep loops "
                           "short and values small", first) from None
    except jinja2.UndefinedError as exc:
        missing = re.search(r"has no attribute '([^']+)'", str(exc))
        name = missing.group(1) if missing else first
        raise ElementError(R_UNDEFINED, f"{what}: {exc.message}",
                           "add the field to the card (or the deck's defaults), or guard it "
                           "with {% if card.FIELD is defined %}", name) from None
    except SecurityError as exc:
        raise ElementError(R_SANDBOX, f"{what}: not allowed in a layout template: {exc}",
                           "templates may only read card, deck and game values", first) from None
    except jinja2.TemplateError as exc:
        raise ElementError(R_TEMPLATE_ERROR, f"{what}: {exc}", "", first) from None
    except Exception as exc:  # a user template may raise anything (1/0, int('x'), ...)
        raise ElementError(R_TEMPLATE_ERROR, f"{what}: {type(exc).__name__}: {exc}", "",
                           first) from None


class Prop:
    """A property that is either constant (parsed once) or a template (rendered per card)."""

    __slots__ = ("const", "template", "parse", "fields", "name", "is_const")

    def __init__(self, name: str, value: Any, parse: Callable[[Any], Any]):
        self.name = name
        self.parse = parse
        self.template = None
        self.fields: tuple[str, ...] = ()
        if is_template(value):
            self.template, self.fields = _compile(value)
            self.const = None
            self.is_const = False
        else:
            self.const = parse(value)  # may raise ValueError: reported at compile time
            self.is_const = True

    def get(self, ctx: Mapping[str, Any], what: str) -> Any:
        if self.is_const:
            return self.const
        text = render_template(self.template, ctx, f"{what} {self.name}", self.fields)
        try:
            return self.parse(text)
        except ValueError as exc:
            code = R_COLOR if self.parse is parse_color else R_LENGTH
            raise ElementError(code, f"{what} {self.name}: {exc}", "",
                               self.fields[0] if self.fields else None) from None


# ---------------------------------------------------------------------------------------------
# value parsers


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


def _length(value: Any) -> float:
    try:
        return parse_length(value)
    except GeometryError as exc:
        raise ValueError(str(exc)) from None


def _text(value: Any) -> str:
    return "" if value is None else str(value)


def _number(value: Any) -> float:
    try:
        return float(value)
    except (TypeError, ValueError):
        raise ValueError(f"{value!r} is not a number") from None


# ---------------------------------------------------------------------------------------------
# icons


@dataclass(frozen=True)
class Icon:
    """A named icon: a raster file or a drawn shape; drawn in a square box."""

    name: str
    file: Path | None = None
    shape: str | None = None
    fill: tuple[float, float, float] | None = (0, 0, 0)
    stroke: tuple[float, float, float] | None = None
    label: str = ""
    label_color: tuple[float, float, float] | None = (1, 1, 1)
    origin: Position | None = None

    def draw(self, c, x: float, y: float, size: float) -> None:
        if self.file is not None:
            iw, ih = _image_size(str(self.file))
            k = min(size / iw, size / ih)
            c.drawImage(print_image(self.file, iw, ih, iw * k, ih * k), x, y, size, size,
                        mask="auto", preserveAspectRatio=True, anchor="c")
            return
        draw_shape(c, self.shape or "circle", x, y, size, size, self.fill, self.stroke)
        if self.label:
            font = ICON_LABEL_FONT
            s = size * 0.62
            w = fonts.string_width(self.label, font, s)
            if w > size * 0.8:
                s *= size * 0.8 / w
                w = size * 0.8
            _set_fill(c, self.label_color or (1, 1, 1))
            c.setFont(font, s)
            c.drawString(x + (size - w) / 2, y + size / 2 - s * 0.36, self.label)


SHAPES = ("circle", "square", "rounded", "diamond", "triangle", "hexagon", "star", "heart")
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
        _set_fill(c, fill)
    if do_stroke:
        _set_stroke(c, stroke)
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


def _set_fill(c, rgb) -> None:
    c.setFillColorRGB(*rgb)


def _set_stroke(c, rgb) -> None:
    c.setStrokeColorRGB(*rgb)


# Hot paths write PDF operators directly: reportlab's pure-Python number formatting and text
# objects cost more than the card itself. Everything is wrapped in q/Q, so reportlab's own idea
# of the graphics state stays true; 0.01 pt (0.0035 mm) precision is far below what prints.


class BoundedCache(dict):
    """A dict that empties itself when full: memory stays flat however many unique cards there
    are (54,000 unique texts would otherwise keep 54,000 entries), while the repeats a deck has
    (the same text on many cards, one card printed many times) still hit."""

    __slots__ = ("maxsize",)

    def __init__(self, maxsize: int = 2048):
        super().__init__()
        self.maxsize = maxsize

    def __setitem__(self, key, value) -> None:
        if len(self) >= self.maxsize:
            self.clear()
        super().__setitem__(key, value)


def _canvas_cache(c, name: str, bounded: bool = False) -> dict:
    """A per-canvas cache; bounded for results that can be recomputed (never for form names)."""
    return pdfops.canvas_cache(c, name, BoundedCache if bounded else dict)


def encode_text(c, font_name: str, text: str) -> tuple[tuple[str, str], ...]:
    """(subset font resource, escaped string) runs for `text`, cached per canvas and font."""
    cache = _canvas_cache(c, "_pnp_text", bounded=True)
    key = (font_name, text)
    runs = cache.get(key)
    if runs is None:
        runs = cache[key] = pdfops.text_runs(c, font_name, text)
    return runs


ICON_UNITS = 100.0  # icons are drawn once as a 100 × 100 form and scaled where used


def icon_form(c, icon: Icon) -> str:
    """The form holding `icon` on this canvas, drawn on first use."""
    forms = _canvas_cache(c, "_pnp_icons")
    name = forms.get(icon.name)
    if name is None:
        name = f"pnpicon{len(forms)}"
        c.beginForm(name, 0, 0, ICON_UNITS, ICON_UNITS)
        icon.draw(c, 0, 0, ICON_UNITS)
        c.endForm()
        forms[icon.name] = name
    return name


# ---------------------------------------------------------------------------------------------
# text fitting


@dataclass(frozen=True)
class TextFit:
    size: float
    lines: tuple[tuple[tuple[str, str], ...], ...]  # each line: pieces ('t', text) / ('i', icon)
    widths: tuple[float, ...]  # line widths at `size`
    fits: bool


def _pieces(word: str) -> list[tuple[str, str]]:
    out: list[tuple[str, str]] = []
    pos = 0
    for m in ICON_MARK.finditer(word):
        if m.start() > pos:
            out.append(("t", word[pos:m.start()]))
        out.append(("i", m.group(1)))
        pos = m.end()
    if pos < len(word):
        out.append(("t", word[pos:]))
    return out


ICON_EM = 1.08  # an inline icon is one em wide plus a little air


@lru_cache(maxsize=2048)
def fit_text(text: str, font: str, size: float, min_size: float, width: float, height: float,
             leading: float, wrap: bool) -> TextFit:
    """Largest size (0.25 pt steps) at which the words wrap inside width × height.

    Cached on all inputs: a card printed many times, or the same text on many cards, is laid out
    once; each word is measured once per font (fonts.text_width_1000).
    """
    space = fonts.text_width_1000(" ", font)
    paragraphs = []
    for para in text.split("\n"):
        words = []
        for w in para.split():
            pieces = _pieces(w) if "{" in w else [("t", w)]
            w1000 = sum(fonts.text_width_1000(v, font) if k == "t" else 1000 * ICON_EM
                        for k, v in pieces)
            words.append((pieces, w1000))
        paragraphs.append(words)

    def layout(s: float):
        limit = width * 1000.0 / s + 1e-6
        lines, widths = [], []
        for words in paragraphs:
            if not words:
                lines.append(())
                widths.append(0.0)
                continue
            cur: list = []
            cur_w = 0.0
            for pieces, w in words:
                if cur and wrap and cur_w + space + w > limit:
                    lines.append(tuple(cur))
                    widths.append(cur_w)
                    cur, cur_w = [], 0.0
                if cur:
                    cur.append(("t", " "))
                    cur_w += space
                cur.extend(pieces)
                cur_w += w
            lines.append(tuple(cur))
            widths.append(cur_w)
        ok = max(widths, default=0.0) <= limit and len(lines) * s * leading <= height + 0.01
        return ok, lines, widths

    s = size
    while True:
        ok, lines, widths = layout(s)
        if ok or s <= min_size + 1e-9:
            merged = tuple(_merge_text(line) for line in lines)
            return TextFit(s, merged, tuple(w * s / 1000.0 for w in widths), ok)
        s = max(min_size, s - 0.25 if s - 0.25 >= min_size else min_size)


def _merge_text(line: Iterable[tuple[str, str]]) -> tuple[tuple[str, str], ...]:
    out: list[tuple[str, str]] = []
    for kind, value in line:
        if kind == "t" and out and out[-1][0] == "t":
            out[-1] = ("t", out[-1][1] + value)
        else:
            out.append((kind, value))
    return tuple(out)


# ---------------------------------------------------------------------------------------------
# elements


@dataclass
class DrawContext:
    """What an element needs besides the canvas: the card's jinja context and where files live."""

    ctx: Mapping[str, Any]
    icons: Mapping[str, Icon]
    game_root: Path
    bleed: float
    card_w: float
    card_h: float


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
            self.when_fields = _fields_used(ENV.parse("{{ " + src.strip().removeprefix("{{")
                                                      .removesuffix("}}") + " }}"))

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
        self.x = Prop("x", data.get("x", 0), _length)
        self.y = Prop("y", data.get("y", 0), _length)
        self.width = Prop("width", data.get("width", f"{card_w}pt"), _length)
        self.height = Prop("height", data.get("height", f"{card_h}pt"), _length)
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
        self.stroke_width = Prop("stroke_width", data.get("stroke_width", "0.5pt"), _length)
        self.radius = Prop("radius", data.get("radius", "3mm"), _length)

    def draw(self, c, dc):
        x, y, w, h = self.box(dc)
        fill = self.fill.get(dc.ctx, self.what)
        stroke = self.stroke.get(dc.ctx, self.what)
        if fill is None and stroke is None:
            return
        if self.kind == "rect" and stroke is None:  # the common case, as raw operators
            pdfops.append_operators(c, f"q {fill[0]:.3f} {fill[1]:.3f} {fill[2]:.3f} rg "
                                       f"{x:.2f} {y:.2f} {w:.2f} {h:.2f} re f Q")
            return
        if fill is not None:
            _set_fill(c, fill)
        if stroke is not None:
            _set_stroke(c, stroke)
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
        self.pts = [Prop(k, data.get(k, 0), _length) for k in ("x", "y", "x2", "y2")]
        self.stroke = Prop("stroke", data.get("stroke", "black"), parse_color)
        self.stroke_width = Prop("stroke_width", data.get("stroke_width", "0.5pt"), _length)
        self.dash = [parse_length(d) for d in data.get("dash", [])]

    def draw(self, c, dc):
        x1, y1, x2, y2 = (p.get(dc.ctx, self.what) for p in self.pts)
        stroke = self.stroke.get(dc.ctx, self.what)
        if stroke is None:
            return
        _set_stroke(c, stroke)
        c.setLineWidth(self.stroke_width.get(dc.ctx, self.what))
        if self.dash:
            c.setDash(self.dash)
        c.line(x1, self.card_h - y1, x2, self.card_h - y2)
        if self.dash:
            c.setDash()


class TextElement(BoxElement):
    kind = "text"

    def __init__(self, eid, data, origin, card_w, card_h):
        super().__init__(eid, data, origin, card_w, card_h)
        self.text = Prop("text", data.get("text", ""), _text)
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

    def draw(self, c, dc):
        text = self.text.get(dc.ctx, self.what)
        if not text.strip():
            return
        box = self.box(dc)
        color = self.color.get(dc.ctx, self.what)
        if color is None:
            return
        # the same text in the same box gives the same operators: cached per canvas
        cache = _canvas_cache(c, "_pnp_textops", bounded=True)
        key = (self, text, box, color)
        done = cache.get(key)
        if done is None:
            done = cache[key] = self._operators(c, dc, text, box, color)
        ops, icons = done
        pdfops.append_operators(c, ops)
        for name, ix, iy, scale in icons:
            place_form(c, name, ix, iy, scale)
        missing = fonts.missing_glyphs(text, self.font)
        if missing:  # drawn all the same; reported once per card face
            raise ElementError(
                R_GLYPH, f"{self.what}: font {self.font} has no glyph for "
                f"{', '.join(_shown_char(ch) for ch in missing)}, which would print blank",
                "use a font that has it (font: path/to/font.ttf), a {icon}, or other characters",
                self.text.fields[0] if self.text.fields else None, severity=WARNING)

    def _operators(self, c, dc, text, box, color):
        """The text as PDF operators plus the icon forms to place: (ops, [(form, x, y, scale)])."""
        x, y, w, h = box
        fit = fit_text(text, self.font, self.size, self.min_size, w, h, self.leading, self.wrap)
        if not fit.fits:
            field = self.text.fields[0] if self.text.fields else None
            raise ElementError(
                R_OVERFLOW,
                f"{self.what}: text{f' of field {field!r}' if field else ''} does not fit its "
                f"{w / 2.8346:.1f}×{h / 2.8346:.1f} mm box even at {self.min_size:g} pt "
                f"(“{text[:40]}{'…' if len(text) > 40 else ''}”)",
                "shorten the text, enlarge the box, or lower min_size", field)
        for line in fit.lines:
            for kind, name in line:
                if kind == "i" and name not in dc.icons:
                    raise ElementError(R_UNKNOWN_ICON, f"{self.what}: unknown icon {{{name}}}",
                                       f"known icons: {', '.join(sorted(dc.icons)) or 'none'}",
                                       self.text.fields[0] if self.text.fields else None)
        s = fit.size
        step = s * self.leading
        n = len(fit.lines)
        block = (n - 1) * step + s * (self.ascent - self.descent)
        if self.valign == "middle":
            top = y + h / 2 + block / 2
        elif self.valign == "bottom":
            top = y + block
        else:
            top = y + h
        base = top - s * self.ascent
        ops = [f"q {color[0]:.3f} {color[1]:.3f} {color[2]:.3f} rg BT"]
        size_txt = f"{s:.2f}"
        current = None
        icons_to_draw = []
        for line, lw in zip(fit.lines, fit.widths, strict=True):
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
                    for subset, chunk in encode_text(c, self.font, value):
                        if subset != current:
                            ops.append(f"{subset} {size_txt} Tf")
                            current = subset
                        ops.append(f"({chunk}) Tj")
                    if len(line) > 1:
                        cx += fonts.string_width(value, self.font, s)
                else:
                    icons_to_draw.append((dc.icons[value], cx + s * (ICON_EM - 1) / 2,
                                          base - s * 0.14))
                    cx += s * ICON_EM
            base -= step
        ops.append("ET Q")
        return " ".join(ops), [(icon_form(c, icon), ix, iy, s / ICON_UNITS)
                               for icon, ix, iy in icons_to_draw]


def safe_path(root: Path, relative: str) -> Path | None:
    """`relative` resolved under `root`, or None when it escapes (.., absolute, symlink out)."""
    if not relative or os.path.isabs(relative) or relative.startswith("~"):
        return None
    target = (root / relative).resolve()
    try:
        target.relative_to(root.resolve())
    except ValueError:
        return None
    return target


@lru_cache(maxsize=1024)
def _image_size(path: str) -> tuple[int, int]:
    from reportlab.lib.utils import ImageReader

    return ImageReader(path).getSize()


PRINT_DPI = 300  # what home printers and print shops resolve; more pixels only bloat the PDF


@lru_cache(maxsize=16)
def _downsampled(path: str, mtime_ns: int, size: tuple[int, int]):
    """The image at `path` resampled to `size` pixels (cached; mtime makes an edit count)."""
    from PIL import Image
    from reportlab.lib.utils import ImageReader

    with Image.open(path) as im:
        im.load()
        if im.mode not in ("RGB", "RGBA", "L", "LA"):
            im = im.convert("RGBA" if "transparency" in im.info or im.mode == "PA" else "RGB")
        return ImageReader(im.resize(size, Image.LANCZOS))


def print_image(path: Path, iw: int, ih: int, w: float, h: float, dpi: int = PRINT_DPI):
    """What to embed for an iw × ih pixel image drawn w × h points: the file itself when it has
    no more pixels than `dpi` needs, else a copy downsampled to `dpi` (a 24-megapixel photo on
    a card is 53 MB of PDF as it is, well under 1 MB at 300 dpi)."""
    scale = max(w * dpi / 72 / iw, h * dpi / 72 / ih)
    if scale >= 0.9:
        return str(path)
    size = (max(1, math.ceil(iw * scale)), max(1, math.ceil(ih * scale)))
    return _downsampled(str(path), path.stat().st_mtime_ns, size)


class ImageElement(BoxElement):
    kind = "image"

    def __init__(self, eid, data, origin, card_w, card_h):
        super().__init__(eid, data, origin, card_w, card_h)
        self.file = Prop("file", data.get("file", ""), _text)
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
            iw, ih = _image_size(str(path))
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
        self.icon = Prop("icon", data.get("icon", ""), _text)

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
        forms = _canvas_cache(c, "_pnp_static")
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


# ---------------------------------------------------------------------------------------------
# layouts


@dataclass
class CardLayout:
    """A compiled layout: draws one card face with its lower-left trim corner at (0, 0)."""

    id: str
    size: tuple[float, float]
    background: Prop | None
    elements: list[Element]
    origin: Position | None
    icons: Mapping[str, Icon]
    game_root: Path
    max_bleed: float = 9.0  # 1/8 in: how far art may extend past the trim

    def draw(self, c, ctx: Mapping[str, Any], bleed: float) -> list[ElementError]:
        """Draw every element; errors are returned (one per failing element), drawing goes on."""
        w, h = self.size
        bleed = min(bleed, self.max_bleed)
        dc = DrawContext(ctx, self.icons, self.game_root, bleed, w, h)
        errors: list[ElementError] = []
        if self.background is not None:
            try:
                bg = self.background.get(ctx, f"layout '{self.id}'")
            except ElementError as err:
                err.origin = err.origin or self.origin
                errors.append(err)
                bg = None
            if bg is not None:
                pdfops.append_operators(
                    c, f"q {bg[0]:.3f} {bg[1]:.3f} {bg[2]:.3f} rg {-bleed:.2f} "
                    f"{-bleed:.2f} {w + 2 * bleed:.2f} {h + 2 * bleed:.2f} re f Q")
        for el in self.elements:
            try:
                if el.visible(dc):
                    el.draw(c, dc)
            except ElementError as err:
                err.origin = err.origin or getattr(el, "origin", None) or self.origin
                errors.append(err)
        return errors


@dataclass
class _Source:
    """One layout definition as written, with the document it came from."""

    id: str
    data: Mapping[str, Any]
    doc: Any
    path: tuple
    root: Path  # the folder its relative paths may not leave

    def pos(self, *sub) -> Position:
        return self.doc.pos(self.path + tuple(sub))


@dataclass
class LayoutLibrary:
    """Every layout and icon one game can use: shared templates/ first, the game's own on top."""

    game_root: Path
    sources: dict[str, _Source] = field(default_factory=dict)
    icons: dict[str, Icon] = field(default_factory=dict)
    _compiled: dict[tuple, tuple[CardLayout | None, list[Diagnostic]]] = field(
        default_factory=dict)

    def add_document(self, doc, root: Path, diags: list[Diagnostic]) -> None:
        data = doc.data if isinstance(doc.data, Mapping) else {}
        seen: set[str] = set()
        for name, spec in (data.get("fonts") or {}).items():
            font_path = safe_path(Path(doc.path).parent, str(spec.get("file", "")))
            if font_path is None or not font_path.is_file():
                diags.append(Diagnostic.at(doc.pos(("fonts", name)), ERROR, R_FONT,
                                           f"font {name!r}: file {spec.get('file')!r} not found "
                                           "inside the layout's folder"))
                continue
            try:
                fonts.register_ttf(name, font_path)
            except fonts.FontError as exc:
                diags.append(Diagnostic.at(doc.pos(("fonts", name)), ERROR, R_FONT, str(exc)))
        for name, spec in (data.get("icons") or {}).items():
            icon = self._icon(name, spec, doc, Path(doc.path).parent, diags)
            if icon is not None:
                self.icons[name] = icon
        for i, spec in enumerate(data.get("layouts") or []):
            lid = spec.get("id")
            if not isinstance(lid, str):
                continue
            if lid in seen:
                diags.append(Diagnostic.at(doc.pos(("layouts", i, "id")), ERROR, R_DUPLICATE,
                                           f"layout {lid!r} is defined twice in this file"))
                continue
            seen.add(lid)
            self.sources[lid] = _Source(lid, spec, doc, ("layouts", i), root)
        self._compiled.clear()

    def _icon(self, name, spec, doc, base: Path, diags) -> Icon | None:
        where = doc.pos(("icons", name))
        if "file" in spec:
            path = safe_path(base, str(spec["file"]))
            if path is None:
                diags.append(Diagnostic.at(where, ERROR, R_IMAGE_ESCAPES,
                                           f"icon {name!r}: path {spec['file']!r} leaves {base}"))
                return None
            if path.suffix.lower() not in RASTER_EXTENSIONS:
                diags.append(Diagnostic.at(where, ERROR, R_IMAGE_FORMAT,
                                           f"icon {name!r}: {spec['file']!r} is not PNG or JPG",
                                           "SVG needs svglib, which is not installed"))
                return None
            if not path.is_file():
                diags.append(Diagnostic.at(where, ERROR, R_MISSING_IMAGE,
                                           f"icon {name!r}: file {spec['file']!r} not found"))
                return None
            return Icon(name, file=path, origin=where)
        label = str(spec.get("label", ""))
        missing = fonts.missing_glyphs(label, ICON_LABEL_FONT)
        if missing:
            diags.append(Diagnostic.at(
                where, WARNING, R_GLYPH, f"icon {name!r}: its label font {ICON_LABEL_FONT} has no "
                f"glyph for {', '.join(_shown_char(ch) for ch in missing)}, which would print blank",
                "draw the symbol as a shape (circle, star, heart ...) or an image file instead"))
        try:
            return Icon(name, shape=spec.get("shape", "circle"),
                        fill=parse_color(spec.get("fill", "black")),
                        stroke=parse_color(spec.get("stroke")),
                        label=str(spec.get("label", "")),
                        label_color=parse_color(spec.get("label_color", "white")), origin=where)
        except ValueError as exc:
            diags.append(Diagnostic.at(where, ERROR, R_COLOR, f"icon {name!r}: {exc}"))
            return None

    def resolve(self, layout_id: str) -> tuple[dict, dict[str, Position], list[Diagnostic]]:
        """Follow `extends`: the merged layout data and where each element property came from."""
        chain: list[_Source] = []
        seen: set[str] = set()
        lid: str | None = layout_id
        diags: list[Diagnostic] = []
        while lid is not None:
            src = self.sources.get(lid)
            if src is None:
                where = chain[-1].pos("extends") if chain else None
                diags.append(Diagnostic.at(where, ERROR, R_EXTENDS if chain else R_UNKNOWN_LAYOUT,
                                           f"unknown layout {lid!r}",
                                           f"known layouts: {', '.join(sorted(self.sources))}"))
                return {}, {}, diags
            if lid in seen:
                diags.append(Diagnostic.at(src.pos("extends"), ERROR, R_EXTENDS,
                                           f"layout {layout_id!r} extends itself through {lid!r}"))
                return {}, {}, diags
            seen.add(lid)
            chain.append(src)
            lid = src.data.get("extends")
        merged: dict[str, Any] = {}
        elements: list[dict] = []
        origins: dict[str, Position] = {}
        for src in reversed(chain):
            for k, v in src.data.items():
                if k not in ("elements", "extends"):
                    merged[k] = v
                    origins[f"layout.{k}"] = src.pos(k)
            for i, el in enumerate(src.data.get("elements") or []):
                eid = el.get("id")
                pos = src.pos("elements", i)
                existing = next((e for e in elements if eid is not None and e.get("id") == eid),
                                None)
                if existing is not None:
                    if el.get("remove"):
                        elements.remove(existing)
                        continue
                    existing.update(el)
                    origins[f"el.{eid}"] = pos
                else:
                    elements.append(dict(el))
                    origins[f"el.{eid if eid is not None else f'#{len(elements) - 1}'}"] = pos
        merged["elements"] = elements
        merged["id"] = layout_id
        return merged, origins, diags

    def compile(self, layout_id: str, size: tuple[float, float]) -> tuple[
            CardLayout | None, list[Diagnostic]]:
        """A drawable layout for cards of `size` (cached), plus compile-time diagnostics."""
        key = (layout_id, size_key(size))
        if key not in self._compiled:
            self._compiled[key] = self._compile(layout_id, size)
        return self._compiled[key]

    def _compile(self, layout_id, size):
        data, origins, diags = self.resolve(layout_id)
        if not data:
            return None, diags
        src = self.sources[layout_id]
        w, h = size
        where = src.pos()
        if "size" in data:
            try:
                own = card_size(data["size"])
            except GeometryError as exc:
                diags.append(Diagnostic.at(origins.get("layout.size"), ERROR, R_SIZE, str(exc)))
            else:
                if size_key(own) != size_key(size):
                    diags.append(Diagnostic.at(
                        origins.get("layout.size"), WARNING, R_SIZE_MISMATCH,
                        f"layout {layout_id!r} is designed for {own[0] / 2.8346:.1f}×"
                        f"{own[1] / 2.8346:.1f} mm but used for {w / 2.8346:.1f}×"
                        f"{h / 2.8346:.1f} mm cards", "elements keep their positions"))
        background = None
        if data.get("background") is not None:
            try:
                background = Prop("background", data["background"], parse_color)
            except ValueError as exc:
                diags.append(Diagnostic.at(origins.get("layout.background"), ERROR, R_COLOR,
                                           str(exc)))
            except jinja2.TemplateSyntaxError as exc:
                diags.append(_syntax_diag(origins.get("layout.background"), "background", exc))
        max_bleed = 9.0
        if "bleed" in data:
            try:
                max_bleed = parse_length(data["bleed"])
            except GeometryError as exc:
                diags.append(Diagnostic.at(origins.get("layout.bleed"), ERROR, R_LENGTH, str(exc)))
        safe = None
        if "safe" in data:
            try:
                safe = parse_length(data["safe"])
            except GeometryError as exc:
                diags.append(Diagnostic.at(origins.get("layout.safe"), ERROR, R_LENGTH, str(exc)))
        elements: list[Element] = []
        for i, el in enumerate(data["elements"]):
            eid = str(el.get("id", f"#{i + 1}"))
            pos = origins.get(f"el.{el.get('id')}" if "id" in el else f"el.#{i}", where)
            cls = ELEMENT_TYPES.get(el.get("type", ""))
            if cls is None:
                diags.append(Diagnostic.at(pos, ERROR, R_SCHEMA,
                                           f"element '{eid}': unknown type {el.get('type')!r}",
                                           f"use one of {', '.join(ELEMENT_TYPES)}"))
                continue
            try:
                element = cls(eid, el, pos, w, h)
            except jinja2.TemplateSyntaxError as exc:
                diags.append(_syntax_diag(pos, f"element '{eid}'", exc))
                continue
            except fonts.FontError as exc:
                diags.append(Diagnostic.at(pos, ERROR, R_FONT, f"element '{eid}': {exc}"))
                continue
            except (ValueError, GeometryError) as exc:
                code = R_COLOR if "colour" in str(exc) else R_LENGTH
                diags.append(Diagnostic.at(pos, ERROR, code, f"element '{eid}': {exc}"))
                continue
            if safe is not None and isinstance(element, TextElement | IconElement):
                box = element.static_box()
                if box and (box[0] < safe - 0.01 or box[1] < safe - 0.01
                            or box[0] + box[2] > w - safe + 0.01
                            or box[1] + box[3] > h - safe + 0.01):
                    diags.append(Diagnostic.at(
                        pos, WARNING, R_OUTSIDE_SAFE,
                        f"layout {layout_id!r} element '{eid}' reaches outside the "
                        f"{safe / 2.8346:.1f} mm safe area", "a cutting error may clip it"))
            elements.append(element)
        if any(d.severity == ERROR for d in diags):
            return None, diags
        return CardLayout(layout_id, size, background, group_static(elements, layout_id), where,
                          self.icons, self.game_root, max_bleed), diags


def _shown_char(ch: str) -> str:
    return f"'{ch}' (U+{ord(ch):04X})"


def _syntax_diag(pos: Position | None, what: str, exc: jinja2.TemplateSyntaxError) -> Diagnostic:
    return Diagnostic.at(pos, ERROR, R_TEMPLATE_SYNTAX,
                         f"{what}: template syntax error: {exc.message}",
                         "jinja2 syntax: {{ card.field }}, {% if ... %}...{% endif %}")


_shared_cache: dict[tuple, tuple[list, list[Diagnostic]]] = {}


def _shared_documents(folder: Path) -> tuple[list, list[Diagnostic]]:
    """templates/*.yaml, loaded and checked once per process (keyed by their mtimes)."""
    files = sorted(folder.glob("*.yaml")) if folder.is_dir() else []
    key = (str(folder),) + tuple((f.name, f.stat().st_mtime_ns) for f in files)
    if key not in _shared_cache:
        docs, diags = [], []
        for f in files:
            doc, d = load_layout_file(f)
            diags.extend(d)
            if doc is not None:
                docs.append(doc)
        _shared_cache.clear()
        _shared_cache[key] = (docs, diags)
    return _shared_cache[key]


def load_library(game=None, extra_files: Sequence[Path] = (),
                 templates_dir: Path | None = None) -> tuple[LayoutLibrary, list[Diagnostic]]:
    """Shared layouts and icons from templates/, then the game's own layout documents on top."""
    templates_dir = templates_dir or paths.TEMPLATES
    game_root = Path(game.folder) if game is not None else templates_dir
    lib = LayoutLibrary(game_root=game_root)
    docs, diags = _shared_documents(templates_dir)
    diags = list(diags)
    for doc in docs:
        lib.add_document(doc, templates_dir, diags)
    for doc in getattr(game, "layout_documents", ()) or ():
        lib.add_document(doc, game_root, diags)
    for f in extra_files:
        doc, d = load_layout_file(Path(f))
        diags.extend(d)
        if doc is not None:
            lib.add_document(doc, game_root, diags)
    return lib, diags
