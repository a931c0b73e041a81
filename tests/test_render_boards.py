"""The Ancient Civilizations board, read back from its PDFs: whole on A2, tiled on A4 and Letter."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pdfplumber
import pytest
from pypdf import PdfReader
from pypdf.generic import ContentStream

from pnp.render import boards
from pnp.render.boards import render_board
from pnp.render.geometry import mm, parse_paper
from pnp.render.tiling import OVERLAP, plan_tiles, registration_points

A2 = (mm(420), mm(594))
A4 = (mm(210), mm(297))
LETTER = (8.5 * 72, 11 * 72)
TOL = 0.05  # points


@pytest.fixture(scope="module")
def out(tmp_path_factory, ac) -> Path:
    folder = tmp_path_factory.mktemp("board")
    for paper in ("a4", "letter"):
        paths, diags = render_board(ac, folder, paper)
        assert not [d for d in diags if d.is_error], diags
        assert {p.name for p in paths} == {f"board-{paper}-tiled.pdf", "board-a2.pdf"}
    return folder


@pytest.fixture(scope="module")
def a2_text(out) -> str:
    return flat(PdfReader(out / "board-a2.pdf").pages[0].extract_text())


def flat(text: str) -> str:
    return re.sub(r"\s+", " ", text)


def page_size(page) -> tuple[float, float]:
    box = page.mediabox
    return (float(box.width), float(box.height))


def same_size(a, b) -> bool:
    return abs(a[0] - b[0]) < TOL and abs(a[1] - b[1]) < TOL


def test_whole_board_is_one_a2_page(out):
    pages = PdfReader(out / "board-a2.pdf").pages
    assert len(pages) == 1
    assert same_size(page_size(pages[0]), A2)


@pytest.mark.parametrize("paper, size", [("a4", A4), ("letter", LETTER)])
def test_tiles_are_home_paper_pages(out, paper, size):
    pages = PdfReader(out / f"board-{paper}-tiled.pdf").pages
    assert 2 <= len(pages) <= 9
    for page in pages:
        w, h = page_size(page)
        assert same_size((w, h), size) or same_size((h, w), size)


def test_every_space_name_and_note_is_printed(a2_text, ac):
    text = a2_text
    for track in ac.tracks.values():
        assert flat(track.name) in text
        for space in track.spaces:
            assert flat(space.name) in text, space.name
            assert flat(space.label) in text, (space.name, space.label)


def test_every_chart_and_table_result_is_printed(a2_text, ac):
    text = a2_text
    for chart_id in ("city", "conquest", "defeat", "conversion", "civil-war"):
        chart = ac.charts[chart_id]
        assert chart.name in text
        for row in chart.rows:
            body = row.text or row.effect.source
            assert flat(body) in text, (chart_id, row.roll_label)
            if row.label:
                assert row.label in text
    assert "Purchase List" in text
    for stat in ("Food +1", "Resources +1", "Military +1", "Culture +1", "Stability +1"):
        assert stat in text


def test_earthquake_footnote_is_printed_with_its_track(a2_text):
    text = a2_text
    assert "Infra -1D6 (*)" in text
    assert "(*) Earthquake: On a roll of 1 it is a Volcano: also lose 1D6 Pop." in text


def test_start_spaces_are_marked(a2_text, ac):
    text = a2_text
    assert text.count("START") == len(ac.tracks)  # one per track, loop or path
    assert text.count("END") == 1  # the Pre-History path's last space


def test_text_is_legible_at_print_size(out):
    """Space names are 7 pt or more, notes 6 pt or more: nothing on the board is smaller."""
    with pdfplumber.open(out / "board-a2.pdf") as pdf:
        sizes = {round(ch["size"], 2) for ch in pdf.pages[0].chars}
    assert min(sizes) >= 6.0


def fonts_of(resources) -> list:
    """Every font dictionary reachable from a resource dictionary, through form XObjects."""
    found = []
    resources = resources.get_object() if resources is not None else {}
    for font in (resources.get("/Font") or {}).values():
        found.append(font.get_object())
    for xobj in (resources.get("/XObject") or {}).values():
        xobj = xobj.get_object()
        if xobj.get("/Subtype") == "/Form":
            found += fonts_of(xobj.get("/Resources"))
    return found


@pytest.mark.parametrize("name", ["board-a2.pdf", "board-a4-tiled.pdf", "board-letter-tiled.pdf"])
def test_every_font_is_embedded(out, name):
    reader = PdfReader(out / name)
    fonts = [f for page in reader.pages for f in fonts_of(page.get("/Resources"))]
    assert fonts
    for font in fonts:
        assert "/FontFile2" in font["/FontDescriptor"], font.get("/BaseFont")


def tile_windows(path: Path) -> tuple[tuple[float, float], list[tuple[float, float, float, float]]]:
    """The board's size (its form's BBox) and each page's window onto it, from the page's
    clip rectangle and the translation applied before the board is drawn."""
    reader = PdfReader(path)
    windows = []
    size = None
    for page in reader.pages:
        ops = ContentStream(page.get_contents(), reader).operations
        clip = None
        for i, (args, op) in enumerate(ops):
            if op == b"re" and clip is None:
                clip = [float(v) for v in args]
            if op == b"Do":
                tx, ty = (float(v) for v in ops[i - 1][0][4:6])
                assert ops[i - 1][1] == b"cm"
                form = page["/Resources"]["/XObject"][args[0]].get_object()
                size = tuple(float(v) for v in form["/BBox"][2:])
                x, y, w, h = clip
                windows.append((x - tx, y - ty, w, h))
                break
    assert size is not None
    return size, windows


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_tiles_cover_the_board_with_a_10mm_overlap(out, paper):
    (bw, bh), windows = tile_windows(out / f"board-{paper}-tiled.pdf")
    xs = sorted({round(x, 2) for x, _, _, _ in windows})
    ys = sorted({round(y, 2) for _, y, _, _ in windows})
    assert len(xs) * len(ys) == len(windows)
    w, h = windows[0][2], windows[0][3]
    # neighbouring columns and rows share exactly 10 mm
    for a, b in zip(xs, xs[1:], strict=False):
        assert abs((a + w) - b - mm(10)) < TOL
    for a, b in zip(ys, ys[1:], strict=False):
        assert abs((a + h) - b - mm(10)) < TOL
    # and together they cover the whole board
    assert min(xs) <= TOL and max(xs) + w >= bw - TOL
    assert min(ys) <= TOL and max(ys) + h >= bh - TOL


def test_tiles_are_labelled_with_their_place_and_gluing(out):
    reader = PdfReader(out / "board-a4-tiled.pdf")
    (bw, bh), windows = tile_windows(out / "board-a4-tiled.pdf")
    plan = plan_tiles((bw, bh), A4)
    assert plan.pages == len(reader.pages)
    for page, tile in zip(reader.pages, plan.tiles, strict=True):
        with_margins = flat(page.extract_text())
        assert tile.name in with_margins
        assert f"row {tile.name[0]} of {plan.rows}, column {tile.col + 1} of {plan.cols}" \
            in with_margins
        if tile.row or tile.col:
            assert "Cut off the" in with_margins
        else:
            assert "Start here" in with_margins


def test_registration_marks_sit_on_every_seam_inside_the_overlap():
    """Two crosshairs per shared edge, on the seam, which both neighbouring pages show."""
    plan = plan_tiles((mm(400), mm(520)), A4)
    marks = registration_points(plan)
    seams = (plan.cols - 1) * plan.rows + (plan.rows - 1) * plan.cols
    assert len(marks) == 2 * seams
    for t in plan.tiles:
        for d_row, d_col in ((0, 1), (1, 0)):
            n = plan.neighbour(t, d_row, d_col)
            if n is None:
                continue
            both = [(x, y) for x, y in marks
                    if all(w.x - TOL <= x <= w.x1 + TOL and w.y - TOL <= y <= w.y1 + TOL
                           for w in (t.window, n.window))]
            assert len(both) >= 2, (t.name, n.name)
    assert OVERLAP == mm(10)


def test_identical_input_gives_identical_bytes(out, ac, tmp_path):
    render_board(ac, tmp_path, "a4")
    for name in ("board-a4-tiled.pdf", "board-a2.pdf"):
        assert (tmp_path / name).read_bytes() == (out / name).read_bytes()


def test_a_failed_render_leaves_the_previous_file(ac, tmp_path, monkeypatch):
    render_board(ac, tmp_path, "a4")
    before = {p.name: p.read_bytes() for p in tmp_path.iterdir()}

    def broken(*args, **kwargs):
        raise RuntimeError("drawing failed half-way")

    monkeypatch.setattr(boards, "draw_board", broken)
    with pytest.raises(RuntimeError):
        render_board(ac, tmp_path, "a4")
    after = {p.name: p.read_bytes() for p in tmp_path.iterdir()}
    assert after == before  # same files, same bytes, no temporary files left behind


def test_a_bad_paper_is_a_diagnostic_and_writes_nothing(ac, tmp_path):
    paths, diags = render_board(ac, tmp_path, "a9")
    assert paths == [] and diags and diags[0].is_error
    assert list(tmp_path.iterdir()) == []


@pytest.mark.skipif(shutil.which("pdftoppm") is None, reason="pdftoppm (poppler-utils) is not "
                    "installed: the raster check of the A2 page needs it")
def test_nothing_is_cut_off_the_a2_page(out, tmp_path):
    """At 20 dpi the 10 mm margin round the A2 board is blank paper on every side, but for the
    50 mm scale bar at its bottom right (10 to 60 mm from the right edge)."""
    from PIL import Image

    subprocess.run(["pdftoppm", "-r", "20", "-png", "-singlefile", str(out / "board-a2.pdf"),
                    str(tmp_path / "a2")], check=True)
    img = Image.open(tmp_path / "a2.png").convert("L")
    w, h = img.size
    edge = max(1, round(20 * 8 / 25.4))  # 8 mm in pixels
    bar = (w - round(20 * 61 / 25.4), w - round(20 * 9 / 25.4))
    for box in ((0, 0, w, edge), (0, h - edge, bar[0], h), (bar[1], h - edge, w, h),
                (0, 0, edge, h), (w - edge, 0, w, h)):
        assert img.crop(box).getextrema()[0] >= 250, box
    assert img.crop((bar[0], h - edge, bar[1], h)).getextrema()[0] < 200  # the bar
    assert img.crop((edge, edge, w - edge, h - edge)).getextrema()[0] < 100  # the board is there


def test_a_note_too_long_for_its_space_is_a_warning_naming_it(ac, tmp_path):
    from dataclasses import replace

    leader = ac.tracks["leader"]
    long_note = "Roll again and again " * 20
    spaces = tuple(replace(s, text=long_note) if s.name == "Genius" else s
                   for s in leader.spaces)
    game = replace(ac, tracks={**ac.tracks, "leader": replace(leader, spaces=spaces)})
    paths, diags = render_board(game, tmp_path, "a4", tiled=False)
    assert [p.name for p in paths] == ["board-a2.pdf"]  # a warning still prints the board
    warned = [d for d in diags if d.code == boards.R_BOARD_TEXT]
    assert warned and "Genius" in warned[0].message and not warned[0].is_error
    assert warned[0].file.endswith("tracks.yaml") and warned[0].line > 0


def _starter(tmp_path: Path, spaces: int | None = None, whole_paper: str | None = None):
    """The `pnp new` game, with a loop of `spaces` spaces and/or a whole_paper on its board."""
    from pnp.data.game import load_game
    from pnp.scaffold import scaffold

    folder = tmp_path / "starter"
    scaffold(folder)
    if spaces:
        tracks = folder / "tracks.yaml"
        head = tracks.read_text().split("    spaces:\n")[0]
        rows = ["      - {name: Start, start: true}"] + [
            f"      - {{name: Space {i}, effect: \"F+1\"}}" for i in range(1, spaces)]
        tracks.write_text(head + "    spaces:\n" + "\n".join(rows) + "\n")
    if whole_paper:
        board = folder / "board.yaml"
        board.write_text(board.read_text().replace(
            "    name: The Road\n", f"    name: The Road\n    whole_paper: {whole_paper}\n"))
    result = load_game(folder)
    assert result.ok, result.diagnostics
    return result.game


def test_a_50_space_loop_keeps_legible_boxes_in_a_taller_ring(tmp_path):
    game = _starter(tmp_path, spaces=50)
    layout, _, _ = boards.plan_board(game, game.boards["road-board"])
    ((loop, rect),) = layout.placed
    top, side, bottom = loop.sides(rect.width)
    assert top + bottom + 2 * side == 50
    assert min(r.width for r in loop.box_rects(rect)) >= mm(14) - 0.01
    paths, diags = render_board(game, tmp_path / "out", "a4")
    assert paths and not [d for d in diags if d.code == boards.R_BOARD_TEXT], diags
    words = []
    with pdfplumber.open(paths[0]) as pdf:
        for page in pdf.pages:
            words += [w["text"] for w in page.extract_words()]
    assert all(str(n) in words for n in range(1, 50))  # every space number reads on its own


def test_a_wide_short_board_gets_a_landscape_whole_sheet(tmp_path):
    game = _starter(tmp_path, whole_paper="a3")
    paths, diags = render_board(game, tmp_path / "out", "a4")
    assert not [d for d in diags if d.is_error]
    (whole,) = [p for p in paths if p.name == "board-a3.pdf"]
    w, h = page_size(PdfReader(whole).pages[0])
    assert w > h  # landscape: the board's band does not sit in half an empty portrait page


@pytest.mark.parametrize("paper, size", [("20mmx20mm", "0%"), ("150mmx60mm", "39%"),
                                         ("30mmx2000mm", "10%")])
def test_a_whole_paper_far_smaller_than_the_board_is_an_error_at_its_line(tmp_path, paper, size):
    """20 mm square paper (0% of the board), paper too short for it (39%), or a 30 mm strip
    (1:1 only with its boxes squeezed to nothing, so across it at 10%): below half size nothing
    on the board can be read, so it is an error, not a warning."""
    game = _starter(tmp_path, whole_paper=paper)
    plan, diags = boards.check_board(game, game.boards["road-board"], parse_paper("a4"))
    assert plan is None
    (err,) = diags
    assert err.is_error and err.code == boards.R_BOARD and f"print at {size} " in err.message
    assert err.file.endswith("board.yaml") and (err.line, err.column) == (5, 18)  # the value
    assert "larger whole_paper" in err.hint


def test_a_board_scaled_to_three_quarters_is_a_warning_and_still_prints(tmp_path):
    game = _starter(tmp_path, whole_paper="100mmx100mm")
    paths, diags = render_board(game, tmp_path / "out", "a4")
    assert [d.code for d in diags if not d.is_error] == [boards.R_BOARD_SCALED]
    assert "78%" in diags[0].message and not [d for d in diags if d.is_error]
    assert paths


def test_validate_and_build_both_fail_on_a_board_too_small_for_its_paper(tmp_path):
    from click.testing import CliRunner

    from pnp.cli import main

    _starter(tmp_path, whole_paper="20mmx20mm")
    game = tmp_path / "starter"
    validate = CliRunner().invoke(main, ["validate", str(game)])
    assert validate.exit_code == 1 and "error PNP-R070" in validate.output
    assert "board.yaml:5:18" in validate.output
    build = CliRunner().invoke(main, ["build", str(game), "--out", str(tmp_path / "out")])
    assert build.exit_code == 1 and "error PNP-R070" in build.output
    assert not (tmp_path / "out").exists()


def test_a_board_squeezed_narrower_than_its_items_counts_as_scaled(tmp_path, monkeypatch):
    """A 1:1 print 40 mm wide squeezes a loop that needs 112 mm to 27%: as unreadable as a
    print scaled to 27%, so check_board refuses it whatever orientation the plan chose."""
    game = _starter(tmp_path, whole_paper="60mmx1000mm")
    board = game.boards["road-board"]
    narrow = boards.layout_board(game, board, mm(40))
    assert boards.width_fit(narrow) == pytest.approx((40 - 10) / 112)
    monkeypatch.setattr(boards, "plan_board", lambda g, b: (narrow, (mm(60), mm(1000)), 1.0))
    plan, diags = boards.check_board(game, board, parse_paper("a4"))
    assert plan is None and [d.code for d in diags if d.is_error] == [boards.R_BOARD]
    assert "print at 27% " in diags[0].message
