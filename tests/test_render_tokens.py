"""Token sheets: counters, markers and pawns per player colour, with cut lines."""

from __future__ import annotations

import pdfplumber
import pypdf
import pytest

from pnp.render.tokens import TokenGroup, render_tokens

MM = 72 / 25.4


def test_token_sheet_has_every_token_and_embedded_fonts(tmp_path):
    groups = [TokenGroup("Red pawn", "red", 4, "pawn", "14mm", "Red"),
              TokenGroup("Food", "yellow", 12, "circle", "16mm", "+1"),
              TokenGroup("Gold", "#b8860b", 5, "hexagon", "18mm", "5"),
              TokenGroup("Marker", "white", 6, "square", "12mm", "M")]
    progress = []
    paths, diags = render_tokens(groups, tmp_path / "tokens.pdf", title="Test tokens",
                                 progress=lambda d, t: progress.append((d, t)))
    assert not diags and paths == [tmp_path / "tokens.pdf"]
    assert progress[-1] == (27, 27)
    with pdfplumber.open(paths[0]) as pdf:
        text = pdf.pages[0].extract_text()
        page = pdf.pages[0]
        assert (page.width, page.height) == pytest.approx((210 * MM, 297 * MM), abs=0.01)
        assert text.count("+1") == 12 and text.count("Red") >= 4 and text.count("M") >= 6
        squares = [r for r in page.rects if abs(r["width"] - 12 * MM) < 0.1
                   and abs(r["height"] - 12 * MM) < 0.1 and r["stroke"]]
        assert len(squares) == 6  # each marker outlined with its cut line
    reader = pypdf.PdfReader(paths[0])
    for font in reader.pages[0]["/Resources"]["/Font"].values():
        assert "/FontFile2" in font.get_object()["/FontDescriptor"].get_object()


def test_many_tokens_flow_onto_more_pages(tmp_path):
    paths, diags = render_tokens([TokenGroup("Coin", "orange", 300, "circle", "15mm")],
                                 tmp_path / "t.pdf", paper="letter")
    assert not diags
    assert len(pypdf.PdfReader(paths[0]).pages) >= 2


@pytest.mark.parametrize("group, words", [
    (TokenGroup("X", "octarine", 1), "colour"),
    (TokenGroup("X", "red", 1, "blob"), "shape"),
    (TokenGroup("X", "red", 1, size="16"), "unit"),
    (TokenGroup("X", "red", 1, size="400mm"), "fit"),
    (TokenGroup("X", "red", -2), "count"),
])
def test_bad_groups_are_diagnostics_and_write_nothing(tmp_path, group, words):
    paths, diags = render_tokens([group], tmp_path / "t.pdf")
    assert paths == [] and not (tmp_path / "t.pdf").exists()
    assert diags[0].code == "PNP-R060" and words in diags[0].message
