"""What pnp.render.pdfops relies on in reportlab, checked against the installed release.

pdfops is the one module that uses reportlab's private internals. When a reportlab release
renames or reshapes one of them, a test here names the assumption that broke, before a kit
comes out different or a build crashes.
"""

from __future__ import annotations

import io
import re
import tomllib
from pathlib import Path

import pypdf
import reportlab
from reportlab.pdfbase import pdfdoc
from reportlab.pdfgen.canvas import Canvas

from pnp.render import fonts, pdfops
from pnp.render.pdfwrite import new_canvas, pdf_bytes

ROOT = Path(__file__).resolve().parents[1]


def page_stream(data: bytes, index: int = 0) -> str:
    page = pypdf.PdfReader(io.BytesIO(data)).pages[index]
    return page.get_contents().get_data().decode("latin-1")


def draw_sample(c: Canvas) -> None:
    """A background, a form placed twice its size, and a line of text, all through pdfops."""
    pdfops.append_operators(c, "q 1 0 0 rg 10 20 30 40 re f Q")
    c.beginForm("dot", 0, 0, 10, 10)
    c.circle(5, 5, 4, stroke=0, fill=1)
    c.endForm()
    pdfops.place_form(c, "dot", 50, 60, 2)
    (subset, chunk), = pdfops.text_runs(c, fonts.DEFAULT_FONT, "a(b)")
    pdfops.append_operators(c, f"BT {subset} 10 Tf 1 0 0 1 5.00 5.00 Tm ({chunk}) Tj ET")
    c.showPage()


# ---------------------------------------------------------------------------------------------
# the attributes, with the types pdfops uses


def test_the_canvas_keeps_its_page_operators_in_a_list():
    c = Canvas(io.BytesIO())
    assert isinstance(c._code, list)
    assert isinstance(c._formsinuse, list)
    assert callable(c._escape)
    assert callable(c._doc.getXObjectName) and callable(c._doc.Reference)
    assert isinstance(c._doc.Pages.pages, list)


def test_a_canvas_takes_attributes_of_its_own():
    """canvas_cache keeps pnp's per-PDF caches in the canvas's instance dict."""
    c, other = Canvas(io.BytesIO()), Canvas(io.BytesIO())
    assert isinstance(c.__dict__, dict)
    cache = pdfops.canvas_cache(c, "_pnp_contract", dict)
    cache["k"] = 1
    assert pdfops.canvas_cache(c, "_pnp_contract", dict) is cache
    assert pdfops.canvas_cache(other, "_pnp_contract", dict) == {}


def test_pdf_strings_are_escaped_by_the_canvas():
    c = Canvas(io.BytesIO())
    assert c._escape("a(b)\\c") == "a\\(b\\)\\\\c"


def test_a_truetype_font_splits_text_into_named_subsets():
    c = new_canvas(io.BytesIO(), (200, 200))  # Vera is its first font: /F1
    assert pdfops.text_runs(c, fonts.DEFAULT_FONT, "a(b)") == (("/F1+0", "a\\(b\\)"),)
    # a character outside ASCII is a byte of the same subset, escaped as octal
    (subset, chunk), = pdfops.text_runs(c, fonts.DEFAULT_FONT, "é")
    assert subset == "/F1+0" and re.fullmatch(r"\\[0-7]{3}", chunk)


def test_reportlab_has_the_stream_classes_seal_page_builds_on():
    assert issubclass(pdfops._SealedStream, pdfdoc.PDFStream)
    assert pdfdoc.PDFZCompress.pdfname == "FlateDecode"
    stream = pdfdoc.PDFStream(content=b"x")
    assert isinstance(stream.dictionary, pdfdoc.PDFDictionary)
    assert stream.content == b"x"


def test_the_acroform_has_the_font_hooks_pdfops_replaces():
    af = Canvas(io.BytesIO()).acroForm
    assert callable(af.makeFont) and callable(af.getRefStr)
    assert isinstance(af.fonts, dict)


# ---------------------------------------------------------------------------------------------
# behaviour: a tiny canvas drawn through pdfops


def test_operators_land_on_the_page_in_order_as_lines():
    data, _ = pdf_bytes(draw_sample, (200, 200))
    assert ("\nq 1 0 0 rg 10 20 30 40 re f Q\n"
            "q 2.00000 0 0 2.00000 50.00 60.00 cm /FormXob.dot Do Q\n"
            "BT /F1+0 10 Tf 1 0 0 1 5.00 5.00 Tm (a\\(b\\)) Tj ET\n") in page_stream(data)


def test_a_placed_form_is_in_the_page_resources_and_an_unmarked_one_is_not():
    data, _ = pdf_bytes(draw_sample, (200, 200))
    page = pypdf.PdfReader(io.BytesIO(data)).pages[0]
    assert list(page["/Resources"]["/XObject"]) == ["/FormXob.dot"]

    def unmarked(c):
        c.beginForm("dot", 0, 0, 10, 10)
        c.endForm()
        pdfops.append_operators(c, f"/{c._doc.getXObjectName('dot')} Do")
        c.showPage()

    page = pypdf.PdfReader(io.BytesIO(pdf_bytes(unmarked, (200, 200))[0])).pages[0]
    assert "/XObject" not in page["/Resources"]


def test_discarded_operators_never_reach_the_page():
    def draw(c):
        pdfops.append_operators(c, "0 0 m 9 9 l S")
        pdfops.discard_operators(c)
        pdfops.append_operators(c, "1 1 m 8 8 l S")
        c.showPage()

    stream = page_stream(pdf_bytes(draw, (100, 100))[0])
    assert "1 1 m 8 8 l S" in stream and "0 0 m 9 9 l S" not in stream


def test_sealed_pages_give_the_bytes_reportlab_would_write():
    def two_pages(c):
        draw_sample(c)
        c.setFont(fonts.DEFAULT_FONT, 12)
        c.drawString(20, 20, "second page")
        c.showPage()

    sealed, _ = pdf_bytes(two_pages, (200, 200))

    def unsealed(c):
        c.setPageCallBack(None)  # reportlab compresses every page at save, as it does alone
        two_pages(c)

    assert pdf_bytes(unsealed, (200, 200))[0] == sealed


def test_a_sealed_page_gives_up_its_text():
    def draw(c):
        draw_sample(c)
        return c._doc.Pages.pages[-1]

    page = pdf_bytes(draw, (200, 200))[1]  # sealed as the page ended (binary streams)
    assert page.stream is None
    assert isinstance(page.Contents, pdfops._SealedStream)
    assert page.Contents.content == b""  # and its bytes once the file was written


def test_form_fields_type_in_the_embedded_truetype_font():
    fonts.ensure_fonts()
    ttf = (fonts.VERA_DIR / fonts.VERA[fonts.DEFAULT_FONT]).read_bytes()

    def draw(c):
        pdfops.use_truetype_form_font(c, fonts.DEFAULT_FONT, ttf, "PnpContract")
        c.acroForm.textfield(name="f", x=10, y=10, width=100, height=20, borderWidth=0,
                             fillColor=None, borderColor=None, textColor=None,
                             fontName="PnpContract", fontSize=10)
        c.showPage()

    reader = pypdf.PdfReader(io.BytesIO(pdf_bytes(draw, (200, 200))[0]))
    form = reader.trailer["/Root"]["/AcroForm"]
    field = form["/Fields"][0].get_object()
    assert "/PnpContract 10 Tf" in field["/DA"]
    font = form["/DR"]["/Font"]["/PnpContract"].get_object()
    assert font["/Subtype"] == "/TrueType" and font["/Encoding"] == "/WinAnsiEncoding"
    assert font["/FontDescriptor"]["/FontFile2"].get_data() == ttf


# ---------------------------------------------------------------------------------------------
# the pin


def test_the_installed_reportlab_is_within_the_pinned_range():
    """The contract above was checked for the pinned range; a release past it must come with
    these tests run and the pin moved."""
    from packaging.requirements import Requirement

    deps = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["dependencies"]
    (req,) = [Requirement(d) for d in deps if Requirement(d).name == "reportlab"]
    assert req.specifier.contains(reportlab.Version)
    assert any(s.operator == "<" for s in req.specifier), "reportlab needs an upper pin"
