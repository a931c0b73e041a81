"""Diagnostic codes of card layouts, and the error one element raises for one card.

Every module of the layout package reports through these, so a code means one thing wherever it
is raised (docs/rendering.md lists them).
"""

from __future__ import annotations

from pnp.diagnostics import ERROR, Position
from pnp.templating.codes import (  # noqa: F401 (reported while reading layout files, icons)
    R_COLOR,
    R_IMAGE_ESCAPES,
    R_IMAGE_FORMAT,
    R_MISSING_IMAGE,
    R_SCHEMA,
)

# Diagnostic codes owned by the renderer (docs/rendering.md lists them); the codes of reading
# layout files and icons are pnp.templating.codes', imported above.
R_UNKNOWN_LAYOUT = "PNP-R002"  # deck names a layout that no file defines
R_EXTENDS = "PNP-R003"  # extends an unknown layout, or a cycle
R_LENGTH = "PNP-R004"  # a length without a unit, or unparsable
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
R_SIZE = "PNP-R040"  # unknown card size or paper, card does not fit
R_SIZE_MISMATCH = "PNP-R041"  # warning: layout designed for another card size


class ElementError(Exception):
    """One element could not be drawn for one card; becomes a Diagnostic naming the card."""

    def __init__(self, code: str, message: str, hint: str = "", field: str | None = None,
                 severity: str = ERROR, origin: Position | None = None):
        super().__init__(message)
        self.code, self.message, self.hint, self.field, self.severity = (
            code, message, hint, field, severity)
        self.origin = origin  # the layout line of the failing element (set when drawing)


def shown_char(ch: str) -> str:
    return f"'{ch}' (U+{ord(ch):04X})"
