"""Embedded TrueType fonts and their glyph widths (pnp.render.text measures text with them).

Only TTF fonts are used: the 14 standard PDF fonts are not embedded, so a print shop or another
viewer may substitute them. reportlab ships Bitstream Vera, which is the default family.
"""

from __future__ import annotations

import os
from functools import lru_cache
from itertools import repeat
from pathlib import Path

import reportlab
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFError, TTFont

VERA_DIR = Path(reportlab.__file__).resolve().parent / "fonts"

#: registered name -> TTF file shipped with reportlab
VERA = {
    "Vera": "Vera.ttf",
    "Vera-Bold": "VeraBd.ttf",
    "Vera-Italic": "VeraIt.ttf",
    "Vera-BoldItalic": "VeraBI.ttf",
}

#: style words a layout may use instead of a font name
STYLES = {
    "regular": "Vera",
    "normal": "Vera",
    "bold": "Vera-Bold",
    "italic": "Vera-Italic",
    "bold-italic": "Vera-BoldItalic",
    "bolditalic": "Vera-BoldItalic",
}

DEFAULT_FONT = "Vera"


class FontError(ValueError):
    """A font that cannot be found or embedded; callers turn it into a Diagnostic."""


_registered: dict[str, str] = {}


def ensure_fonts() -> None:
    """Register the whole Vera family once per process, for code that names its faces
    directly (reportlab's canvas and platypus calls)."""
    for name in VERA:
        ensure_font(name)


def ensure_font(name: str) -> None:
    """Register one Vera face the first time it is needed (registering parses the TTF, about
    5 ms a face: a card deck in regular and bold need not parse the italics); other names
    are left alone. The family's bold and italic mapping (names only, which platypus reads
    for <b> and <i>) is set again after each: registering a face resets its own family's."""
    if name in _registered or name not in VERA:
        return
    pdfmetrics.registerFont(TTFont(name, str(VERA_DIR / VERA[name])))
    _registered[name] = str(VERA_DIR / VERA[name])
    pdfmetrics.registerFontFamily("Vera", normal="Vera", bold="Vera-Bold",
                                  italic="Vera-Italic", boldItalic="Vera-BoldItalic")


def register_ttf(name: str, path: str | os.PathLike) -> str:
    """Register a designer's TTF under `name` (idempotent); returns the name to draw with."""
    ensure_font(name)  # a Vera face's name is taken, whether drawn yet or not
    path = str(Path(path).resolve())
    if _registered.get(name) == path:
        return name
    if name in _registered:
        raise FontError(f"font name {name!r} is already used for {_registered[name]}")
    try:
        pdfmetrics.registerFont(TTFont(name, path))
    except (TTFError, OSError) as exc:
        raise FontError(f"cannot embed font {path}: {exc}") from exc
    _registered[name] = path
    _widths.cache_clear()
    _missing_glyphs.cache_clear()
    _has_ascii.cache_clear()
    return name


def resolve_font(name: str | None) -> str:
    """A style word or registered font name -> the registered name; FontError when unknown."""
    if not name:
        ensure_font(DEFAULT_FONT)
        return DEFAULT_FONT
    key = STYLES.get(name.strip().lower(), name)
    ensure_font(key)
    if key not in _registered:
        known = ", ".join(sorted(set(STYLES) | set(VERA) | set(_registered)))
        raise FontError(f"unknown font {name!r} (known: {known})")
    return key


@lru_cache(maxsize=64)
def _widths(font: str) -> tuple[dict[int, float], float]:
    ensure_font(font)  # so Vera can be measured before anything is drawn
    face = pdfmetrics.getFont(font).face
    return face.charWidths, face.defaultWidth


@lru_cache(maxsize=16384)
def text_width_1000(text: str, font: str) -> float:
    """Width of `text` at 1000 pt: cached per word, so each word is measured once per font.

    Only pnp.render.text calls this: it measures and fits all text (text.measure for points).
    """
    widths, default = _widths(font)
    return sum(map(widths.get, map(ord, text), repeat(default)))  # in order, as a loop would


def missing_glyphs(text: str, font: str) -> str:
    """The characters of `text` the font has no glyph for (each once, in order; spaces and
    line breaks never count): they would print as nothing or as an empty box."""
    if not text or (text.isascii() and _has_ascii(font)):  # the common case, not cached:
        return ""  # a deck of unique texts would only churn the cache
    return _missing_glyphs(text, font)


@lru_cache(maxsize=16384)
def _missing_glyphs(text: str, font: str) -> str:
    widths, _ = _widths(font)
    out = ""
    for ch in text:
        if ord(ch) not in widths and not ch.isspace() and ch not in out:
            out += ch
    return out


@lru_cache(maxsize=64)
def _has_ascii(font: str) -> bool:
    """Whether the font draws every printable ASCII character (then ASCII text needs no
    glyph check)."""
    widths, _ = _widths(font)
    return all(code in widths for code in range(0x21, 0x7F))


def ascent_descent(font: str) -> tuple[float, float]:
    """Ascent and (negative) descent per 1 pt of size, for vertical placement."""
    ensure_font(font)
    face = pdfmetrics.getFont(font).face
    return face.ascent / 1000.0, face.descent / 1000.0
