"""Units, paper and card sizes, imposition, crop marks and duplex mirroring (pure arithmetic)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from pnp.render.geometry import (
    GeometryError,
    back_cell,
    back_to_front,
    calibration_label,
    card_size,
    crop_marks,
    impose_grid,
    parse_length,
    parse_paper,
)

MM = 72 / 25.4


def close(a: float, b: float, tol_mm: float = 0.01) -> bool:
    return abs(a - b) <= tol_mm * MM


@pytest.mark.parametrize("text, points", [
    ("63.5mm", 63.5 * MM), ("1in", 72), ("8pt", 8), ("2.5cm", 25 * MM), ("0.25in", 18),
    (" 3 mm ", 3 * MM), (".5in", 36), (0, 0),
])
def test_lengths_carry_their_unit(text, points):
    assert parse_length(text) == pytest.approx(points)


@pytest.mark.parametrize("bad", ["63.5", "12px", "mm", "", 5, "3 m m", None, True])
def test_a_length_without_a_known_unit_is_refused(bad):
    with pytest.raises(GeometryError):
        parse_length(bad)


def test_papers_by_name_and_custom():
    assert parse_paper("A4") == pytest.approx((210 * MM, 297 * MM))
    assert parse_paper("letter") == pytest.approx((612, 792))
    assert parse_paper("tabloid") == pytest.approx((792, 1224))
    assert parse_paper("a3") == pytest.approx((297 * MM, 420 * MM))
    assert parse_paper("a2") == pytest.approx((420 * MM, 594 * MM))
    assert parse_paper("210mmx297mm") == pytest.approx(parse_paper("a4"))
    with pytest.raises(GeometryError):
        parse_paper("b5")


@pytest.mark.parametrize("name, w, h", [
    ("poker", 63.5, 88.9), ("bridge", 57, 89), ("tarot", 70, 120), ("mini-euro", 44, 68),
    ("mini-american", 41, 63), ("euro", 59, 92), ("square", 70, 70),
])
def test_named_card_sizes(name, w, h):
    assert card_size(name) == pytest.approx((w * MM, h * MM))


def test_explicit_card_size_and_unknown_name():
    assert card_size({"width": "2.5in", "height": "3.5in"}) == pytest.approx((180, 252))
    with pytest.raises(GeometryError):
        card_size("jumbo")


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_three_by_three_poker_fits_a4_and_letter_centred(paper):
    pw, ph = parse_paper(paper)
    g = impose_grid((pw, ph), card_size("poker"))
    assert (g.cols, g.rows) == (3, 3)
    assert close(g.x0, (pw - 3 * 63.5 * MM) / 2) and close(g.y0, (ph - 3 * 88.9 * MM) / 2)
    # block + 3 mm bleed stays on the page
    assert g.x0 - 3 * MM >= 0 and g.y0 - 3 * MM >= 0


def test_a_card_larger_than_the_paper_is_refused():
    with pytest.raises(GeometryError):
        impose_grid(parse_paper("a4"), card_size({"width": "300mm", "height": "100mm"}))


def test_crop_marks_continue_cut_lines_outside_the_bleed():
    g = impose_grid(parse_paper("a4"), card_size("poker"))
    marks = crop_marks(g)
    assert len(marks) == 2 * (g.cols + 1) + 2 * (g.rows + 1)
    art = g.block.grow(g.bleed, g.bleed, g.bleed, g.bleed)
    xs = {round(g.x0 + i * 63.5 * MM, 3) for i in range(4)}
    for x1, y1, x2, y2 in marks:
        if x1 == x2:  # vertical: on a column cut line, above or below the artwork
            assert round(x1, 3) in xs
            assert max(y1, y2) <= art.y + 1e-6 or min(y1, y2) >= art.y1 - 1e-6
        else:
            assert max(x1, x2) <= art.x + 1e-6 or min(x1, x2) >= art.x1 - 1e-6
        assert 0 <= min(x1, x2) and max(x1, x2) <= g.paper[0]
        assert 0 <= min(y1, y2) and max(y1, y2) <= g.paper[1]


def test_bleed_only_around_the_block_and_next_to_empty_cells():
    g = impose_grid(parse_paper("a4"), card_size("poker"))
    centre = g.art_rect(1, 1)
    assert centre == g.trim_rect(1, 1)  # butted on all four sides: no bleed
    corner = g.art_rect(0, 0)
    assert close(corner.width, (63.5 + 3) * MM) and close(corner.height, (88.9 + 3) * MM)
    alone = g.art_rect(0, 1, filled=4)  # 4th card alone on the second row
    assert close(alone.width, (63.5 + 6) * MM) and close(alone.height, (88.9 + 3) * MM)


def test_duplex_long_edge_mirrors_columns_short_edge_rows():
    g = impose_grid(parse_paper("a4"), card_size("poker"))
    assert back_cell(g, 0, 0, "long") == (2, 0)
    assert back_cell(g, 2, 1, "long") == (0, 1)
    assert back_cell(g, 0, 0, "short") == (0, 2)
    assert back_cell(g, 1, 2, "short") == (1, 0)


@pytest.mark.parametrize("duplex", ["long", "short"])
def test_back_cards_land_behind_their_fronts(duplex):
    g = impose_grid(parse_paper("a4"), card_size("poker"))
    for col in range(3):
        for row in range(3):
            front = g.trim_rect(col, row)
            back = g.trim_rect(*back_cell(g, col, row, duplex))
            bx, by = back_to_front(back.x + back.width / 2, back.y + back.height / 2, g.paper,
                                   duplex)
            assert close(bx, front.x + front.width / 2) and close(by, front.y + front.height / 2)


@given(ex=st.floats(-8, 8), ey=st.floats(-8, 8), duplex=st.sampled_from(["long", "short"]))
def test_the_calibration_reading_is_the_offset_that_cancels_the_printer_error(ex, ey, duplex):
    """A printer shifting the back by (ex, ey) mm: the user reads the rulers where the back's
    cross shows through; entering those readings as the offset puts the cross on the centre."""
    paper = parse_paper("a4")
    cx, cy = paper[0] / 2, paper[1] / 2
    seen_x, _ = back_to_front(cx + ex * MM, cy, paper, duplex)      # vertical line
    _, seen_y = back_to_front(cx, cy + ey * MM, paper, duplex)      # horizontal line
    dx = calibration_label((seen_x - cx) / MM, "x", duplex)
    dy = calibration_label((seen_y - cy) / MM, "y", duplex)
    fx, fy = back_to_front(cx + (ex + dx) * MM, cy + (ey + dy) * MM, paper, duplex)
    assert close(fx, cx, 1e-6) and close(fy, cy, 1e-6)
