"""Card-face layouts: YAML + sandboxed jinja2 compiled once, then drawn for each card.

A layout is a list of elements positioned from the card's top-left trim corner. Every string is a
jinja2 template rendered in a sandbox with StrictUndefined against `card`, `deck` and `game`, so a
typo in a field name is a Diagnostic naming the card, never a blank on the printed sheet. Text
shrinks to fit its box (pnp.render.text); inline `{icon}` markers draw icons at text size.

The package is split by job, normalisation below drawing. What layouts share with the
rulesheet is pnp.templating, below both: the jinja2 sandbox, layout files and their schema check,
the `{icon}` marker and the icon definitions.

- `templates`: jinja2 compilation, the card/deck/game scopes, properties (`Prop`)
- `values`: value parsers (lengths, text; colours are pnp.colors)
- `codes`: diagnostic codes and `ElementError`
- `images`: downsampling images to print resolution
- `icons`: drawing icons (as pnp.templating.icons reads them) and shapes
- `canvas`: per-canvas caches (encoded text, forms)
- `elements`: the element classes, each drawn for one card
- `library`: the layouts of one game, `extends`, compiled `CardLayout`s

The names below are re-exported so `from pnp.render.layout import X` keeps working; new code
imports from the module that owns the name.
"""

from pnp.render.layout.canvas import BoundedCache, canvas_cache, encode_text
from pnp.render.layout.codes import (
    R_COLOR,
    R_DUPLICATE,
    R_EXTENDS,
    R_FONT,
    R_GLYPH,
    R_IMAGE_ESCAPES,
    R_IMAGE_FORMAT,
    R_LENGTH,
    R_MISSING_IMAGE,
    R_OUTSIDE_SAFE,
    R_OVERFLOW,
    R_SANDBOX,
    R_SCHEMA,
    R_SIZE,
    R_SIZE_MISMATCH,
    R_TEMPLATE_ERROR,
    R_TEMPLATE_LIMIT,
    R_TEMPLATE_SYNTAX,
    R_UNDEFINED,
    R_UNKNOWN_ICON,
    R_UNKNOWN_LAYOUT,
    ElementError,
)
from pnp.render.layout.elements import (
    ELEMENT_TYPES,
    DrawContext,
    Element,
    TextElement,
)
from pnp.render.layout.icons import (
    ICON_LABEL_FONT,
    SHAPES,
    Icon,
    draw_shape,
    icon_form,
    shape_points,
)
from pnp.render.layout.images import PRINT_DPI, print_image, safe_path
from pnp.render.layout.library import CardLayout, LayoutLibrary, load_library
from pnp.render.layout.templates import (
    ENV,
    Prop,
    _compile,
    compile_condition,
    is_template,
    render_template,
)
from pnp.render.layout.values import parse_color
from pnp.templating.layout_files import LAYOUT_SCHEMA, load_layout_file, validate_layout_document

__all__ = [
    "BoundedCache", "canvas_cache", "encode_text",
    "R_COLOR", "R_DUPLICATE", "R_EXTENDS", "R_FONT", "R_GLYPH", "R_IMAGE_ESCAPES",
    "R_IMAGE_FORMAT", "R_LENGTH", "R_MISSING_IMAGE", "R_OUTSIDE_SAFE", "R_OVERFLOW", "R_SANDBOX",
    "R_SCHEMA", "R_SIZE", "R_SIZE_MISMATCH", "R_TEMPLATE_ERROR", "R_TEMPLATE_LIMIT",
    "R_TEMPLATE_SYNTAX", "R_UNDEFINED", "R_UNKNOWN_ICON", "R_UNKNOWN_LAYOUT", "ElementError",
    "ELEMENT_TYPES", "DrawContext", "Element", "TextElement",
    "LAYOUT_SCHEMA", "load_layout_file", "validate_layout_document",
    "ICON_LABEL_FONT", "SHAPES", "Icon", "draw_shape", "icon_form", "shape_points",
    "PRINT_DPI", "print_image", "safe_path",
    "CardLayout", "LayoutLibrary", "load_library",
    "ENV", "Prop", "_compile", "compile_condition", "is_template", "render_template",
    "parse_color",
]
