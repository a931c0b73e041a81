"""Round tokens on card sheets are cut on circles: a deck's `cut:` replaces its square crop marks
with a die-cut outline of each piece's own shape."""

from __future__ import annotations

import shutil
import sys
from dataclasses import replace
from pathlib import Path

import pdfplumber

sys.path.insert(0, str(Path(__file__).parent / "fixtures" / "render"))
from support import make_game, poker_deck  # noqa: E402

from pnp.data.game import load_game  # noqa: E402
from pnp.paths import CARDS  # noqa: E402
from pnp.render.build import build_game  # noqa: E402
from pnp.render.cuts import R_CUT, Cut, deck_cuts  # noqa: E402
from pnp.render.geometry import card_size, impose_grid, mm, parse_paper  # noqa: E402
from pnp.render.preflight import preflight  # noqa: E402
from pnp.render.sheets import cut_marks, render_deck_sheets  # noqa: E402

MM = 72 / 25.4


def _marks(page) -> list[dict]:
    return [ln for ln in page.lines if abs(ln["linewidth"] - 0.3) < 0.01]


def _cut_curves(page) -> list[dict]:
    return [cv for cv in page.curves if abs(cv["linewidth"] - 0.3) < 0.01]


def test_round_cards_get_a_circle_each_and_no_square_crop_marks(tmp_path):
    deck = replace(poker_deck(4), cut="circle")
    paths, diags = render_deck_sheets(make_game([deck]), paper="a4", out_dir=tmp_path,
                                      duplex="long")
    assert not diags
    with pdfplumber.open(paths[0]) as pdf:
        for page in pdf.pages:  # the fronts and the backs
            assert not _marks(page), page.page_number
            circles = _cut_curves(page)
            assert len(circles) == 4, page.page_number
            for cv in circles:  # each circle is the card's trim box: 63.5 x 88.9 mm
                assert abs(cv["x1"] - cv["x0"] - 63.5 * MM) < 0.5
                assert abs(cv["bottom"] - cv["top"] - 88.9 * MM) < 0.5
    # the same deck without cut: crop marks, no circles
    paths, _ = render_deck_sheets(make_game([poker_deck(4)]), paper="a4", out_dir=tmp_path / "sq")
    with pdfplumber.open(paths[0]) as pdf:
        assert _marks(pdf.pages[0]) and not _cut_curves(pdf.pages[0])


def test_an_inset_cut_runs_inside_the_trim_box(tmp_path):
    deck = replace(poker_deck(1), cut={"shape": "circle", "inset": "5mm"})
    paths, diags = render_deck_sheets(make_game([deck]), paper="a4", out_dir=tmp_path)
    assert not diags
    with pdfplumber.open(paths[0]) as pdf:
        (cv,) = _cut_curves(pdf.pages[0])
        assert abs(cv["x1"] - cv["x0"] - 53.5 * MM) < 0.5


def test_a_page_of_round_and_square_pieces_marks_the_square_ones_outside_the_block():
    grid = impose_grid(parse_paper("a4"), (mm(18), mm(18)), mm(3), mm(3))
    circle = Cut("circle", mm(1))
    # row 0: circles; row 1: two squares then circles
    cells = [((c, 0), circle) for c in range(grid.cols)]
    cells += [((0, 1), None), ((1, 1), None)] + [((c, 1), circle) for c in range(2, grid.cols)]
    segs = cut_marks(grid, cells)
    block_top = grid.trim_rect(0, 0).y1
    block_bottom = grid.trim_rect(0, 1).y
    assert segs
    for x1, y1, x2, y2 in segs:
        if x1 == x2:  # vertical: only the squares' three cut lines, above or below the block
            assert round(x1, 3) in {round(grid.x0 + k * mm(18), 3) for k in range(3)}
            assert min(y1, y2) >= block_top + grid.bleed or max(y1, y2) <= block_bottom - grid.bleed
        else:  # horizontal: only the square row's two cut lines, beside the block
            assert round(y1, 3) in {round(block_bottom, 3), round(block_bottom + mm(18), 3)}
            assert max(x1, x2) <= grid.x0 - grid.bleed or min(x1, x2) >= (
                grid.x0 + grid.cols * mm(18) + grid.bleed)
    assert cut_marks(grid, [((0, 0), circle)]) == []


def test_a_cut_field_gives_each_card_its_own_shape_and_square_means_the_crop_marks():
    game = load_game(CARDS / "age-of-civilization").game
    deck = game.decks["tokens"]
    cuts, diags = deck_cuts(deck, card_size(deck.size))
    assert not diags
    assert cuts["coin"] == Cut("circle", mm(1))
    assert cuts["starter"].shape == "hexagon"
    assert cuts["technology-token"] is None  # square pieces are cut on the crop marks
    taw = load_game(CARDS / "the-ancient-world").game.decks["tokens"]
    cuts, _ = deck_cuts(taw, card_size(taw.size))
    assert cuts["coin"].shape == "circle" and cuts["first-player"].shape == "shield"
    assert cuts["citizen-red-1"].shape == "rounded"


def test_bad_cuts_are_reported_at_the_card():
    base = poker_deck(2)
    size = card_size("poker")
    _, diags = deck_cuts(replace(base, cut={"field": "shape"}), size)
    assert [d.code for d in diags] == [R_CUT, R_CUT] and "no field 'shape'" in diags[0].message
    assert diags[0].line == 10  # the first card's line
    _, diags = deck_cuts(replace(base, cut={"field": "type"}), size)  # 'Building' is no shape
    assert diags and "'Building' is not a shape" in diags[0].message and diags[0].hint
    _, diags = deck_cuts(replace(base, cut={"shape": "circle", "inset": "40mm"}), size)
    assert diags and "leaves no card" in diags[0].message


def test_a_token_deck_whose_cut_names_a_missing_field_fails_the_build(tmp_path):
    folder = tmp_path / "the-ancient-world"
    shutil.copytree(CARDS / "the-ancient-world", folder)
    path = folder / "decks.yaml"
    text = path.read_text(encoding="utf-8")
    old = "cut: {field: shape, inset: 1mm}"
    assert old in text
    path.write_text(text.replace(old, "cut: {field: form, inset: 1mm}"), encoding="utf-8")
    game = load_game(folder).game
    found = [d for d in preflight(game) if d.code == R_CUT]
    assert found and "'form'" in found[0].message and found[0].file.endswith("decks.yaml")
    written, diags = build_game(game, tmp_path / "out")
    assert not written and any(d.code == R_CUT for d in diags)


def test_the_schema_refuses_an_unknown_cut_shape(tmp_path):
    folder = tmp_path / "age-of-civilization"
    shutil.copytree(CARDS / "age-of-civilization", folder)
    path = folder / "deck.yaml"
    text = path.read_text(encoding="utf-8")
    path.write_text(text.replace("cut: {field: shape, inset: 1mm}", "cut: oval"), encoding="utf-8")
    res = load_game(folder)
    assert any(d.code.startswith("PNP-S") and d.file.endswith("deck.yaml")
               for d in res.diagnostics), [d.format_text() for d in res.diagnostics]
