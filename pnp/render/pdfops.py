"""The only module that reaches into reportlab's private internals.

pnp writes some PDF operators and objects itself, for speed (raw `re f` for a card's background,
forms placed without three list appends, text encoded through a per-font table of characters)
and for what reportlab cannot do (page streams compressed as soon as a page ends, form fields
typed in an embedded TrueType font). Those paths
use attributes reportlab does not promise to keep (`Canvas._code`, `_doc`, `_escape`,
`_formsinuse`, `PDFStream`, the AcroForm's font hooks). Every such use lives here, behind a
named function, so a reportlab release that changes one breaks one file and
`tests/test_pdfops_contract.py` says which assumption failed. Nothing else in pnp touches these
names (`tests/test_pdfops_contract.py` checks the sources).
"""

from __future__ import annotations

import zlib
from collections.abc import Callable
from typing import TypeVar

from reportlab import rl_config
from reportlab.pdfbase import pdfdoc, pdfmetrics
from reportlab.pdfgen.canvas import Canvas

T = TypeVar("T")

# the private names this module relies on; the contract test checks each, and the source test
# keeps every other module away from them
PRIVATE_NAMES = frozenset({"_code", "_doc", "_escape", "_formsinuse", "__dict__", "PDFStream",
                           "makeFont", "getRefStr"})


# ---------------------------------------------------------------------------------------------
# the page's operator list


def append_operators(c: Canvas, ops: str) -> None:
    """Add raw PDF operators to the current page (or form) as one line, as reportlab's own
    drawing calls do; the caller balances its q/Q."""
    c._code.append(ops)


def discard_operators(c: Canvas) -> None:
    """Forget everything drawn on the current page so far (a measuring canvas keeps no
    drawing); fonts and forms already registered stay registered."""
    c._code = []


# ---------------------------------------------------------------------------------------------
# per-canvas state


def canvas_cache(c: Canvas, name: str, make: Callable[[], T]) -> T:
    """The object stored on this canvas under `name`, made by `make()` on first use: caches
    that live and die with one PDF (form names, encoded text)."""
    store = c.__dict__
    value = store.get(name)
    if value is None:
        value = store[name] = make()
    return value


# ---------------------------------------------------------------------------------------------
# text and forms


def text_runs(c: Canvas, font_name: str, text: str) -> tuple[tuple[str, str], ...]:
    """`text` as (font resource name, escaped PDF string) runs, one per font subset it uses,
    ready for `/F 10 Tf (string) Tj`; the subsets are registered on this canvas's document."""
    return text_encoder(c, font_name).runs(text)


def text_encoder(c: Canvas, font_name: str) -> TextEncoder:
    """The canvas's encoder for `font_name` (made on first use): `runs(text)` is text_runs."""
    encoders = canvas_cache(c, "_pnp_encoders", dict)
    encoder = encoders.get(font_name)
    if encoder is None:
        encoder = encoders[font_name] = TextEncoder(c, font_name)
    return encoder


class TextEncoder:
    """One font's text on one canvas as subset runs, without reportlab's per-character loop.

    reportlab's `splitString` gives each new character the next code of the font's subsets and
    escapes the bytes in pure Python, character by character, for every string drawn. Here each
    character goes through `splitString` once, alone and in the order it first appears (so the
    codes, and the PDF, are exactly those reportlab would assign), and its escaped code in the
    first subset is kept in a table: a text whose characters all have one is a single
    `str.translate`. Anything else (a character in a later subset) is left to reportlab."""

    __slots__ = ("font", "doc", "escape", "table", "known", "others", "first")

    def __init__(self, c: Canvas, font_name: str):
        self.font = pdfmetrics.getFont(font_name)
        self.doc = c._doc
        self.escape = c._escape
        self.table: dict[int, str] = {}  # character -> its escaped code in subset 0
        self.known: set[str] = set()  # the characters in `table`
        self.others: set[str] = set()  # characters reportlab put in a later subset
        self.first: str | None = None  # the resource name of subset 0

    def runs(self, text: str) -> tuple[tuple[str, str], ...]:
        if not text:
            return ()
        known = self.known
        if not known.issuperset(text):
            self._learn(text)
            if not known.issuperset(text):
                doc = self.doc
                return tuple((self.font.getSubsetInternalName(subset, doc), self.escape(chunk))
                             for subset, chunk in self.font.splitString(text, doc))
        if self.first is None:
            self.first = self.font.getSubsetInternalName(0, self.doc)
        return ((self.first, text.translate(self.table)),)

    def _learn(self, text: str) -> None:
        """Assign codes to the characters of `text` not seen yet, in the order they appear."""
        for ch in text:
            if ch in self.known or ch in self.others:
                continue
            ((subset, code),) = self.font.splitString(ch, self.doc)
            if subset == 0:
                self.table[ord(ch)] = self.escape(code)
                self.known.add(ch)
            else:
                self.others.add(ch)


def place_form(c: Canvas, name: str, x: float, y: float, scale: float = 1.0) -> None:
    """Draw the form XObject `name` with its origin at (x, y), scaled, and mark it used on this
    page (reportlab writes only the forms a page marks into its resources). Each name is
    marked once: the resources keep one entry per name in the order names first appear, so
    repeats (a page places the same icon and static forms dozens of times) only cost
    reportlab time when the page ends."""
    c._code.append(form_operators(c, name, x, y, scale))
    used = c._formsinuse
    if name not in used:
        used.append(name)


def form_operators(c: Canvas, name: str, x: float, y: float, scale: float = 1.0) -> str:
    """The operators place_form writes, to keep and write later with append_with_forms."""
    return f"q {scale:.5f} 0 0 {scale:.5f} {x:.2f} {y:.2f} cm /{c._doc.getXObjectName(name)} Do Q"


def append_with_forms(c: Canvas, ops: str, forms: tuple[str, ...]) -> None:
    """Operators kept from earlier (form_operators among them, one a line) and the forms they
    place, marked used in the same order: the page gets the bytes separate calls would give."""
    c._code.append(ops)
    used = c._formsinuse
    for name in forms:
        if name not in used:
            used.append(name)


# ---------------------------------------------------------------------------------------------
# page streams compressed when the page ends


class _SealedStream(pdfdoc.PDFStream):
    """A page stream compressed in advance; its bytes are dropped once written into the file."""

    def format(self, document):
        out = super().format(document)
        self.content = b""  # the file holds them now: one copy at save time, not two
        return out


def seal_page(c: Canvas) -> None:
    """Compress the page just finished now rather than at save, and drop its text.

    reportlab keeps every page's operators as one uncompressed string until `save`, so memory
    grows with the page count (about 1.3 KB per card); compressed it is a tenth of that. The
    stream gets the same FlateDecode bytes and dictionary reportlab would write, so the PDF is
    byte-identical.
    """
    page = c._doc.Pages.pages[-1]
    stream = page.stream
    if not stream or page.Contents or not page.compression or rl_config.useA85:
        return
    data = stream.encode("utf8") if isinstance(stream, str) else stream
    s = _SealedStream(content=zlib.compress(data))
    s.dictionary["Filter"] = pdfdoc.PDFArray([pdfdoc.PDFName(pdfdoc.PDFZCompress.pdfname)])
    s.__Comment__ = "page stream"
    page.Contents = s
    page.stream = None


# ---------------------------------------------------------------------------------------------
# form fields typed in an embedded TrueType font


def use_truetype_form_font(c: Canvas, font_name: str, font_file: bytes, resource: str) -> None:
    """Make this canvas's AcroForm fields use the registered TrueType font `font_name`,
    embedded whole (`font_file`, its .ttf bytes) once as FontFile2, under the resource name
    `resource`.

    reportlab's form fields only know the 14 standard PDF fonts, which are never embedded;
    the font is written with WinAnsi encoding, so any typed Latin-1 text shows.
    """
    af = c.acroForm
    doc = c._doc
    face = pdfmetrics.getFont(font_name).face
    state: dict[str, str] = {}

    def make_font(_name):
        if "ref" not in state:
            stream = pdfdoc.PDFStream(content=font_file)
            stream.dictionary["Length1"] = len(font_file)
            if doc.compression:
                stream.filters = [pdfdoc.PDFZCompress]
            file_ref = doc.Reference(stream, f"pnpFormFontFile:{font_name}")
            base = face.name.decode("latin-1") if isinstance(face.name, bytes) else face.name
            desc = pdfdoc.PDFDictionary({
                "Type": pdfdoc.PDFName("FontDescriptor"), "FontName": pdfdoc.PDFName(base),
                "Flags": 32, "FontBBox": pdfdoc.PDFArray([round(v) for v in face.bbox]),
                "ItalicAngle": face.italicAngle, "Ascent": round(face.ascent),
                "Descent": round(face.descent), "CapHeight": round(face.capHeight),
                "StemV": face.stemV, "FontFile2": file_ref,
                "MissingWidth": round(face.defaultWidth)})
            widths = []
            for code in range(32, 256):
                try:
                    ch = bytes([code]).decode("cp1252")
                except UnicodeDecodeError:
                    widths.append(0)
                    continue
                widths.append(round(face.charWidths.get(ord(ch), face.defaultWidth)))
            font_dict = pdfdoc.PDFDictionary({
                "Type": pdfdoc.PDFName("Font"), "Subtype": pdfdoc.PDFName("TrueType"),
                "BaseFont": pdfdoc.PDFName(base), "FirstChar": 32, "LastChar": 255,
                "Widths": pdfdoc.PDFArray(widths),
                "Encoding": pdfdoc.PDFName("WinAnsiEncoding"),
                "FontDescriptor": doc.Reference(desc, f"pnpFormFontDescriptor:{font_name}")})
            state["ref"] = af.getRefStr(font_dict)
        af.fonts[resource] = state["ref"]
        return state["ref"], resource

    af.makeFont = make_font

