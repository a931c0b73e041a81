"""Record sheets read back: printable and fillable, on A4 and Letter."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pdfplumber
import pytest
from pypdf import PdfReader

from pnp.data.model import RecordField, RecordSheet
from pnp.render import records
from pnp.render.geometry import mm, parse_paper
from pnp.render.records import impose, render_record_sheets

TOL = 0.05
GRID_STATS = 13  # rows of the Ancient Civilizations turn grid
TURNS = 30  # a whole pencil game


@pytest.fixture(scope="module")
def out(tmp_path_factory, ac) -> dict[str, Path]:
    folders = {}
    for paper in ("a4", "letter"):
        folder = tmp_path_factory.mktemp(f"record-{paper}")
        paths, diags = render_record_sheets(ac, folder, paper)
        assert not diags
        assert [p.name for p in paths] == ["record-page.pdf", "record-page-fillable.pdf"]
        folders[paper] = folder
    return folders


@pytest.mark.parametrize("paper", ["a4", "letter"])
@pytest.mark.parametrize("name", ["record-page.pdf", "record-page-fillable.pdf"])
def test_one_page_of_the_chosen_paper(out, paper, name):
    pages = PdfReader(out[paper] / name).pages
    assert len(pages) == 1
    w, h = float(pages[0].mediabox.width), float(pages[0].mediabox.height)
    pw, ph = parse_paper(paper)
    assert {round(w, 1), round(h, 1)} == {round(pw, 1), round(ph, 1)}


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_fields_are_labelled_in_the_order_written(out, ac, paper):
    """Read top to bottom, left to right, the labels come in the record sheet's order."""
    sheet = ac.record_sheets["record-page"]
    with pdfplumber.open(out[paper] / "record-page.pdf") as pdf:
        page = pdf.pages[0]
        places = []
        for f in sheet.fields:
            hits = page.search(f.label, regex=False, case=True)
            assert hits, f.label
            top = min(hits, key=lambda h: (h["top"], h["x0"]))  # the grid repeats some names
            places.append((round(top["top"]), top["x0"], f.label))
    assert [p[2] for p in sorted(places)] == [f.label for f in sheet.fields]


def test_the_wonders_check_list_names_every_wonder(out, ac):
    text = PdfReader(out["a4"] / "record-page.pdf").pages[0].extract_text()
    assert "Wonders owned" in text
    wonders = [s.name for s in ac.tracks["wonders"].spaces if not s.start]
    assert len(wonders) == 12
    for name in wonders:
        assert name in text


def test_the_turn_grid_has_a_row_per_stat_and_a_column_per_turn(out, ac):
    text = PdfReader(out["a4"] / "record-page.pdf").pages[0].extract_text()
    for sid in ac.record_sheets["record-page"].turn_grid_stats:
        assert ac.stats[sid].name in text
    for turn in range(1, TURNS + 1):
        assert str(turn) in text


def fields(path: Path) -> dict:
    return PdfReader(path).get_fields() or {}


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_fillable_has_a_uniquely_named_field_per_box_and_cell(out, ac, paper):
    path = out[paper] / "record-page-fillable.pdf"
    sheet = ac.record_sheets["record-page"]
    found = fields(path)
    annots = PdfReader(path).pages[0]["/Annots"]
    assert len(found) == len(annots)  # names are unique: no two widgets share a field
    text = {n for n, f in found.items() if f.get("/FT") == "/Tx"}
    checks = {n for n, f in found.items() if f.get("/FT") == "/Btn"}
    expected_text = {f.id for f in sheet.fields} | {
        f"{sid}-turn-{t:02d}" for sid in sheet.turn_grid_stats for t in range(1, TURNS + 1)}
    assert text == expected_text
    assert len(text) == 17 + GRID_STATS * TURNS
    assert checks == {f"wonders-owned-{s.id}" for s in ac.tracks["wonders"].spaces if not s.start}


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_grid_cells_are_big_enough_for_pencil(out, paper):
    """Every turn cell is at least 7 × 5 mm (the fields sit 0.8 pt inside their cells)."""
    for name, f in fields(out[paper] / "record-page-fillable.pdf").items():
        if "-turn-" not in name:
            continue
        x0, y0, x1, y1 = (float(v) for v in f.indirect_reference.get_object()["/Rect"])
        assert x1 - x0 + 1.6 >= mm(7) - TOL and y1 - y0 + 1.6 >= mm(5) - TOL, name


def all_fonts(reader: PdfReader) -> list:
    found = []
    for page in reader.pages:
        found += [f.get_object() for f in page["/Resources"]["/Font"].values()]
        for annot in page.get("/Annots", []):
            ap = annot.get_object().get("/AP")
            if ap is None:
                continue
            normal = ap["/N"].get_object()
            streams = [normal] if "/Resources" in normal else [v.get_object()
                                                               for v in normal.values()]
            for s in streams:
                found += [f.get_object() for f in
                          (s.get("/Resources") or {}).get("/Font", {}).values()]
    form = reader.trailer["/Root"].get("/AcroForm")
    if form is not None:
        found += [f.get_object() for f in form["/DR"]["/Font"].values()]
    return found


@pytest.mark.parametrize("name", ["record-page.pdf", "record-page-fillable.pdf"])
def test_every_font_is_embedded_even_the_form_font(out, name):
    found = all_fonts(PdfReader(out["a4"] / name))
    assert found
    for font in found:
        assert "/FontFile2" in font["/FontDescriptor"], font.get("/BaseFont")


def test_the_whole_game_sheet_needs_a_page_of_its_own(ac):
    """30 turns × 13 stats at 7 × 5 mm do not fit half a page: one sheet per A4 or Letter."""
    for paper in ("a4", "letter"):
        imp = impose(ac, ac.record_sheets["record-page"], parse_paper(paper))
        assert imp is not None and imp.per_page == 1
        lay = imp.layouts[0]
        assert lay.cell_w >= mm(7) - TOL and lay.row_h >= mm(5) - TOL


def test_a_short_sheet_prints_two_or_more_to_a_page(ac, tmp_path):
    short = RecordSheet("tally", "Tally", (RecordField("name", "Name", "text"),
                                           RecordField("score", "Score", "number")),
                        turn_grid_turns=10, turn_grid_stats=("victory-points", "gold"))
    game = replace(ac, record_sheets={"tally": short})
    imp = impose(game, short, parse_paper("a4"))
    assert imp is not None and imp.per_page >= 2
    paths, diags = render_record_sheets(game, tmp_path, "a4")
    assert not diags
    with pdfplumber.open(tmp_path / "tally.pdf") as pdf:
        assert len(pdf.pages[0].search("Tally")) == imp.per_page
    # the fillable copy is one sheet, so its field names stay unique
    assert len(fields(tmp_path / "tally-fillable.pdf")) == 2 + 2 * 10


def test_a_sheet_too_big_for_the_paper_is_a_diagnostic(ac, tmp_path):
    huge = replace(ac.record_sheets["record-page"], turn_grid_turns=400)
    game = replace(ac, record_sheets={"record-page": huge})
    paths, diags = render_record_sheets(game, tmp_path, "a4")
    assert paths == [] and diags[0].is_error and "record-page" in diags[0].message
    assert list(tmp_path.iterdir()) == []


def test_identical_input_gives_identical_bytes(out, ac, tmp_path):
    render_record_sheets(ac, tmp_path, "a4")
    for name in ("record-page.pdf", "record-page-fillable.pdf"):
        assert (tmp_path / name).read_bytes() == (out["a4"] / name).read_bytes()


def test_a_failed_render_leaves_the_previous_file(ac, tmp_path, monkeypatch):
    render_record_sheets(ac, tmp_path, "a4")
    before = {p.name: p.read_bytes() for p in tmp_path.iterdir()}

    def broken(*args, **kwargs):
        raise RuntimeError("drawing failed half-way")

    monkeypatch.setattr(records, "draw_sheet", broken)
    with pytest.raises(RuntimeError):
        render_record_sheets(ac, tmp_path, "a4")
    assert {p.name: p.read_bytes() for p in tmp_path.iterdir()} == before


def test_nothing_on_the_sheet_is_below_6pt(out):
    with pdfplumber.open(out["a4"] / "record-page.pdf") as pdf:
        chars = pdf.pages[0].chars
    assert min(ch["size"] for ch in chars) >= 6.0
    labels = [ch for ch in chars if ch["fontname"].endswith("Bold")]
    assert min(ch["size"] for ch in labels) >= 7.0  # field, list and grid labels
