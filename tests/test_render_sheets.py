"""Card sheets read back from the PDF: page sizes, crop marks, fonts, text, duplex, print shop."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pdfplumber
import pypdf
import pytest

sys.path.insert(0, str(Path(__file__).parent / "fixtures" / "render"))
from support import load_game, make_game, poker_deck  # noqa: E402

from pnp.render.pdfwrite import write_pdf  # noqa: E402
from pnp.render.sheets import render_calibration, render_deck_sheets  # noqa: E402

MM = 72 / 25.4
A4 = (210 * MM, 297 * MM)
LETTER = (612.0, 792.0)


def near(a: float, b: float, tol_mm: float = 0.1) -> bool:
    return abs(a - b) <= tol_mm * MM


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    """The fixture game on A4 with long-edge duplex and a print-shop file (rendered once)."""
    out = tmp_path_factory.mktemp("cards")
    progress = []
    paths, diags = render_deck_sheets(load_game(), out_dir=out, duplex="long", print_shop=True,
                                      progress=lambda done, total: progress.append((done, total)))
    assert not diags, diags
    return {p.name: p for p in paths}, progress


def crop_mark_lines(page) -> list[dict]:
    return [ln for ln in page.lines
            if abs(ln["linewidth"] - 0.3) < 0.01 and ln["stroking_color"] in ((0, 0, 0), [0, 0, 0], (0,), 0)]


def all_fonts(reader: pypdf.PdfReader) -> list:
    fonts, seen = [], set()

    def walk(resources):
        if resources is None:
            return
        resources = resources.get_object()
        for f in (resources.get("/Font") or {}).values():
            if f.idnum not in seen:
                seen.add(f.idnum)
                fonts.append(f.get_object())
        for x in (resources.get("/XObject") or {}).values():
            obj = x.get_object()
            if obj.get("/Subtype") == "/Form" and x.idnum not in seen:
                seen.add(x.idnum)
                walk(obj.get("/Resources"))

    for page in reader.pages:
        walk(page.get("/Resources"))
    return fonts


def test_home_sheets_are_a4_with_fronts_then_mirrored_backs(built):
    paths, _ = built
    reader = pypdf.PdfReader(paths["fixture-cards.pdf"])
    # market: 4 poker cards -> front + back page; events: 4 mini-euro cards, no back -> 1 page
    assert len(reader.pages) == 3
    for page in reader.pages:
        assert (float(page.mediabox.width), float(page.mediabox.height)) == pytest.approx(A4, abs=0.01)


def test_letter_paper(tmp_path):
    paths, diags = render_deck_sheets(make_game([poker_deck(9)]), paper="letter", out_dir=tmp_path)
    assert not diags
    page = pypdf.PdfReader(paths[0]).pages[0]
    assert (float(page.mediabox.width), float(page.mediabox.height)) == pytest.approx(LETTER)


def test_crop_marks_sit_on_the_card_pitch_in_the_margin(built):
    paths, _ = built
    with pdfplumber.open(paths["fixture-cards.pdf"]) as pdf:
        page = pdf.pages[0]
        marks = crop_mark_lines(page)
        # 3 x 3 poker on A4: block centred, pitch 63.5 x 88.9 mm, 3 mm bleed around the block;
        # this page holds 4 cards (two rows), so only the two rows' cut lines are marked
        x0, top0 = (210 - 3 * 63.5) / 2 * MM, (297 - 3 * 88.9) / 2 * MM
        xs = [x0 + i * 63.5 * MM for i in range(4)]
        tops = [top0 + j * 88.9 * MM for j in range(3)]
        vertical = [m for m in marks if abs(m["x0"] - m["x1"]) < 0.01]
        horizontal = [m for m in marks if abs(m["top"] - m["bottom"]) < 0.01]
        assert len(vertical) == 8 and len(horizontal) == 6
        for m in vertical:
            assert any(near(m["x0"], x) for x in xs)
            assert m["bottom"] <= top0 - 3 * MM or m["top"] >= top0 + 2 * 88.9 * MM + 3 * MM
        for m in horizontal:
            assert any(near(m["top"], t) for t in tops)
            assert m["x1"] <= x0 - 3 * MM or m["x0"] >= x0 + 3 * 63.5 * MM + 3 * MM
        for x in xs:  # every cut line is marked top and bottom
            assert sum(near(m["x0"], x) for m in vertical) == 2


def test_the_last_sheet_marks_only_the_cut_lines_of_its_cards(tmp_path):
    paths, diags = render_deck_sheets(make_game([poker_deck(11)]), paper="a4", out_dir=tmp_path)
    assert not diags
    with pdfplumber.open(paths[0]) as pdf:
        last = pdf.pages[-1]  # cards 10 and 11: the first two cells of the top row
        marks = crop_mark_lines(last)
        x0, top0 = (210 - 3 * 63.5) / 2 * MM, (297 - 3 * 88.9) / 2 * MM
        vertical = [m for m in marks if abs(m["x0"] - m["x1"]) < 0.01]
        horizontal = [m for m in marks if abs(m["top"] - m["bottom"]) < 0.01]
        assert sorted({round(m["x0"], 1) for m in vertical}) == [
            round(x0 + i * 63.5 * MM, 1) for i in range(3)]
        assert sorted({round(m["top"], 1) for m in horizontal}) == [
            round(top0 + j * 88.9 * MM, 1) for j in range(2)]
        # nothing marks the empty rows below: every vertical mark is above the second row
        assert all(m["top"] < top0 + 88.9 * MM + 10 * MM for m in vertical)


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_every_card_sheet_has_a_footer_and_a_scale_bar_no_crop_mark_crosses(tmp_path, paper):
    from dataclasses import replace

    from pnp.render.geometry import impose_grid, mm, parse_paper

    game = replace(make_game([poker_deck(4, back="poker-back")]),
                   name="A Game With A Rather Long Title For Its Footer")
    paths, diags = render_deck_sheets(game, paper=paper, out_dir=tmp_path, duplex="long")
    assert not diags
    grid = impose_grid(parse_paper(paper), (63.5 * MM, 88.9 * MM), mm(3), mm(3))
    art_x0, art_x1 = grid.x0 - grid.bleed, grid.x0 + 3 * 63.5 * MM + grid.bleed
    art_top = grid.y0 - grid.bleed  # from the top of the page: the top row's artwork

    def in_art(x0, x1, top, bottom):  # the first two rows hold the four cards
        return x1 > art_x0 and x0 < art_x1 and bottom > art_top and top < art_top + (
            2 * 88.9 * MM + 2 * grid.bleed)

    with pdfplumber.open(paths[0]) as pdf:
        for page in pdf.pages:  # a front page and its back page
            chars = [ch for ch in page.chars
                     if not in_art(ch["x0"], ch["x1"], ch["top"], ch["bottom"])]
            text = "".join(ch["text"] for ch in chars).replace(" ", "")
            assert "sheet1/1" in text and "50mm" in text, (paper, page.page_number, text)
            bars = [ln for ln in page.lines if abs(ln["linewidth"] - 0.6) < 0.01
                    and abs(max(ln["x1"] - ln["x0"], ln["bottom"] - ln["top"]) - 50 * MM) < 0.1]
            assert len(bars) == 1, (paper, page.page_number)
            bar = bars[0]
            assert not in_art(bar["x0"], bar["x1"], bar["top"], bar["bottom"])
            for m in crop_mark_lines(page):
                for ch in chars:
                    crosses = (m["x0"] <= ch["x1"] and m["x1"] >= ch["x0"]
                               and m["top"] <= ch["bottom"] and m["bottom"] >= ch["top"])
                    assert not crosses, (paper, page.page_number, m, ch["text"])
                assert not (m["x0"] <= bar["x1"] + 1 and m["x1"] >= bar["x0"] - 1
                            and m["top"] <= bar["bottom"] + 1 and m["bottom"] >= bar["top"] - 1)


def test_every_font_is_an_embedded_truetype(built):
    paths, _ = built
    for name in ("fixture-cards.pdf", "fixture-cards-printshop.pdf"):
        fonts = all_fonts(pypdf.PdfReader(paths[name]))
        assert fonts
        for font in fonts:
            descriptor = font["/FontDescriptor"].get_object()
            assert "/FontFile2" in descriptor, font["/BaseFont"]


def test_print_scaling_none_on_every_pdf(built, tmp_path):
    paths, _ = built
    cal, _ = render_calibration(tmp_path, "letter", "short")
    for path in [paths["fixture-cards.pdf"], paths["fixture-cards-printshop.pdf"], cal[0]]:
        prefs = pypdf.PdfReader(path).trailer["/Root"]["/ViewerPreferences"]
        assert prefs["/PrintScaling"] == "/None"


def test_card_text_is_on_the_page(built):
    paths, _ = built
    with pdfplumber.open(paths["fixture-cards.pdf"]) as pdf:
        front = pdf.pages[0].extract_text()
        back = pdf.pages[1].extract_text()
        events = pdf.pages[2].extract_text()
    for text in ("Farm", "Smithy", "Watchtower", "Building", "Look at the top card of any deck.",
                 "Eyes on the horizon."):
        assert text in front
    assert "Fixture Game" in back and "Market" in back
    assert "Drought" in events and events.count("Festival") == 3


def test_long_edge_back_of_the_first_card_is_in_the_last_column(tmp_path):
    deck = poker_deck(2, back="poker-front")  # backs show the card name: positions are readable
    paths, diags = render_deck_sheets(make_game([deck]), out_dir=tmp_path, duplex="long")
    assert not diags
    with pdfplumber.open(paths[0]) as pdf:
        x0 = (210 - 3 * 63.5) / 2 * MM

        def x_of(page, word):  # on a card (the margin beside each row names its cards too)
            return min(w["x0"] for w in page.extract_words() if w["text"] == word
                       and w["x0"] > x0)

        front, back = pdf.pages
        assert x0 < x_of(front, "card-1") < x0 + 63.5 * MM  # front: first column
        assert x0 + 2 * 63.5 * MM < x_of(back, "card-1") < x0 + 3 * 63.5 * MM  # back: last
        assert x0 + 63.5 * MM < x_of(back, "card-2") < x0 + 2 * 63.5 * MM


def test_duplex_offset_moves_the_back_page(tmp_path):
    deck = poker_deck(1, back="poker-front")
    plain, _ = render_deck_sheets(make_game([deck]), out_dir=tmp_path / "a", duplex="short")
    moved, _ = render_deck_sheets(make_game([deck]), out_dir=tmp_path / "b", duplex="short",
                                  offset=(2, -1.5))
    with pdfplumber.open(plain[0]) as a, pdfplumber.open(moved[0]) as b:
        wa = next(w for w in a.pages[1].extract_words() if w["text"] == "Card")
        wb = next(w for w in b.pages[1].extract_words() if w["text"] == "Card")
    assert near(wb["x0"] - wa["x0"], 2 * MM, 0.05)
    # y is upward on the printed back page; pdfplumber's `top` grows downward
    assert near(wb["top"] - wa["top"], 1.5 * MM, 0.05)


def test_several_card_sizes_each_on_their_own_pages(built):
    paths, _ = built
    with pdfplumber.open(paths["fixture-cards.pdf"]) as pdf:
        assert "Farm" not in pdf.pages[2].extract_text()
        assert "Drought" not in pdf.pages[0].extract_text()


def test_print_shop_pages_are_trim_plus_bleed_with_boxes(built):
    paths, _ = built
    reader = pypdf.PdfReader(paths["fixture-cards-printshop.pdf"])
    # market: 4 copies x (front + back); events: 4 fronts
    assert len(reader.pages) == 12
    b = 0.125 * 72
    poker, mini = (63.5 * MM, 88.9 * MM), (44 * MM, 68 * MM)
    for i, page in enumerate(reader.pages):
        w, h = poker if i < 8 else mini
        assert float(page.mediabox.width) == pytest.approx(w + 2 * b, abs=0.01)
        assert float(page.mediabox.height) == pytest.approx(h + 2 * b, abs=0.01)
        assert [float(v) for v in page.trimbox] == pytest.approx([b, b, b + w, b + h], abs=0.01)
        assert [float(v) for v in page.bleedbox] == pytest.approx([0, 0, w + 2 * b, h + 2 * b],
                                                                  abs=0.01)


def test_identical_input_gives_byte_identical_pdfs(tmp_path):
    for sub in ("one", "two"):
        render_deck_sheets(load_game(), out_dir=tmp_path / sub, duplex="short", print_shop=True)
    for name in ("fixture-cards.pdf", "fixture-cards-printshop.pdf"):
        assert (tmp_path / "one" / name).read_bytes() == (tmp_path / "two" / name).read_bytes()


def test_a_failing_render_leaves_the_previous_file_untouched(tmp_path):
    good, diags = render_deck_sheets(make_game([poker_deck(3)]), out_dir=tmp_path)
    assert not diags
    before = good[0].read_bytes()
    bad_deck = poker_deck(3, text="word " * 400)  # overflows the rules box
    paths, diags = render_deck_sheets(make_game([bad_deck]), out_dir=tmp_path)
    assert paths == [] and any(d.code == "PNP-R020" for d in diags)
    assert good[0].read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == [good[0].name]  # no temp files left


def test_an_exception_while_drawing_leaves_the_previous_file_untouched(tmp_path):
    target = tmp_path / "x.pdf"
    write_pdf(target, lambda c: c.drawString(10, 10, "old"), A4)
    before = target.read_bytes()

    def explode(c):
        c.drawString(10, 10, "new")
        raise RuntimeError("boom")

    with pytest.raises(RuntimeError):
        write_pdf(target, explode, A4)
    assert target.read_bytes() == before
    assert [p.name for p in tmp_path.iterdir()] == ["x.pdf"]


def test_progress_reaches_the_total(built):
    _, progress = built
    assert progress and progress[-1][0] == progress[-1][1]
    assert [d for d, _ in progress] == list(range(1, len(progress) + 1))


def test_unknown_deck_and_bad_options_are_diagnostics(tmp_path):
    game = make_game([poker_deck(1)])
    for kwargs, code in (({"deck_ids": ["nope"]}, "PNP-R051"), ({"paper": "b7"}, "PNP-R051"),
                         ({"duplex": "sideways"}, "PNP-R051"), ({"offset": ("x", 1)}, "PNP-R051")):
        paths, diags = render_deck_sheets(game, out_dir=tmp_path, **kwargs)
        assert paths == [] and diags and diags[0].code == code


def test_calibration_page_has_rulers_and_a_cross(tmp_path):
    paths, diags = render_calibration(tmp_path, "a4", "long")
    assert not diags
    with pdfplumber.open(paths[0]) as pdf:
        assert len(pdf.pages) == 2
        text = pdf.pages[0].extract_text()
        assert "X offset (mm)" in text and "Y offset (mm)" in text and "+5" in text
        thick = [ln for ln in pdf.pages[1].lines if ln["linewidth"] > 1]
        assert len(thick) == 2
        assert any(near(ln["x0"], 105 * MM) and near(ln["x1"], 105 * MM) for ln in thick)


@pytest.mark.skipif(shutil.which("qpdf") is None, reason="qpdf is not installed")
def test_qpdf_finds_no_structural_problem(built):
    paths, _ = built
    for path in paths.values():
        res = subprocess.run(["qpdf", "--check", str(path)], capture_output=True, text=True)
        assert res.returncode == 0, res.stdout + res.stderr


@pytest.mark.skipif(shutil.which("pdftoppm") is None, reason="pdftoppm (poppler-utils) is not installed")
def test_pdftoppm_rasterises_the_sheet(built, tmp_path):
    paths, _ = built
    res = subprocess.run(["pdftoppm", "-r", "20", "-png", "-f", "1", "-l", "1",
                          str(paths["fixture-cards.pdf"]), str(tmp_path / "p")],
                         capture_output=True, text=True)
    assert res.returncode == 0 and not res.stderr.strip(), res.stderr
    assert list(tmp_path.glob("p*.png"))
