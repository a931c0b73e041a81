"""Text fitting as a reader of the printed page sees it: lines stay inside their box, words stay
whole (unless asked), text shrinks in the steps asked for and no further, and what does not fit
says so or ends in an ellipsis. Widths are checked against reportlab's own stringWidth."""

from __future__ import annotations

import pytest
from reportlab.pdfbase.pdfmetrics import stringWidth

from pnp.render import fonts
from pnp.render.text import (
    ICON_EM,
    ellipsise,
    fit,
    fit_together,
    fit_width,
    fit_words,
    measure,
    one_line,
    words,
    wrap,
)

MM = 72 / 25.4
SENTENCE = "Gain two coins and draw a card, then discard a card of your choice."


@pytest.fixture(autouse=True, scope="module")
def vera():
    fonts.ensure_fonts()


def reportlab_width(text: str, font: str, size: float) -> float:
    return stringWidth(text, font, size)


@pytest.mark.parametrize("font", ["Vera", "Vera-Bold", "Vera-Italic", "Vera-BoldItalic"])
@pytest.mark.parametrize("text", ["Culture +3", "WWWWW iiiii", "Ægypt — Ürük", ""])
def test_measure_matches_reportlabs_string_width(text, font):
    assert measure(text, font, 9.5) == pytest.approx(reportlab_width(text, font, 9.5), abs=1e-9)


def test_a_bold_word_is_wider_than_the_same_word_regular():
    assert measure("Pharaoh", "Vera-Bold", 10) > measure("Pharaoh", "Vera", 10)


# ------------------------------------------------------------------------------ wrapping


def test_wrapped_lines_stay_inside_the_box_and_keep_every_word_in_order():
    lines = wrap(SENTENCE, "Vera", 9, 30 * MM)
    assert len(lines) >= 3
    assert all(reportlab_width(line, "Vera", 9) <= 30 * MM + 1e-6 for line in lines)
    assert " ".join(lines).split() == SENTENCE.split()


def test_a_line_takes_as_many_words_as_fit():
    lines = wrap(SENTENCE, "Vera", 9, 30 * MM)
    for line, following in zip(lines, lines[1:], strict=False):
        longer = f"{line} {following.split()[0]}"
        assert reportlab_width(longer, "Vera", 9) > 30 * MM


def test_a_newline_starts_a_new_line_unless_paragraphs_are_off():
    assert wrap("Setup\nDeal five cards", "Vera", 9, 100 * MM) == ["Setup", "Deal five cards"]
    assert wrap("Setup\nDeal five cards", "Vera", 9, 100 * MM, paragraphs=False) == [
        "Setup Deal five cards"]


def test_empty_text_has_no_lines_to_fit_and_one_empty_line_to_wrap():
    fitted = fit("", "Vera", 20 * MM, 10 * MM, size=9)
    assert fitted.lines == () and fitted.fits and fitted.height == 0
    assert fit("   ", "Vera", 20 * MM, size=9).lines == ()
    assert wrap("", "Vera", 9, 20 * MM) == [""]


def test_an_amount_stays_with_its_stat():
    ws = words("Gain Culture +3 and Food -1", "Vera", keep_amounts=True)
    assert [w.text for w in ws] == ["Gain", "Culture +3", "and", "Food -1"]
    narrow = measure("Gain Culture", "Vera", 8)  # 'Culture' would fit after 'Gain'; '+3' not
    fitted = fit_words(ws, narrow, size=8, space_font="Vera")
    assert fitted.strings()[0] == "Gain" and fitted.strings()[1].startswith("Culture +3")


def test_mixed_fonts_are_measured_each_in_its_own_font():
    ws = words("Famine:", "Vera-Bold") + words("lose two food", "Vera")
    fitted = fit_words(ws, 200 * MM, size=8, space_font="Vera")
    expected = (reportlab_width("Famine:", "Vera-Bold", 8) + reportlab_width("lose two food", "Vera", 8)
                + reportlab_width(" ", "Vera", 8))
    assert fitted.widths == (pytest.approx(expected),)


# ------------------------------------------------------------------------------ shrinking


def test_card_text_shrinks_until_it_fits_width_and_height():
    w, h = 40 * MM, 12 * MM
    fitted = fit(SENTENCE, "Vera", w, h, size=12.0, min_size=6.0)
    assert fitted.fits and 6.0 <= fitted.size < 12.0
    assert len(fitted.lines) >= 2 and max(fitted.widths) <= w + 0.01
    assert len(fitted.lines) * fitted.size * 1.2 <= h + 0.01
    assert " ".join(fitted.strings()).split() == SENTENCE.split()


def test_text_shrinks_in_quarter_points_to_the_largest_size_that_fits():
    w, h = 40 * MM, 10 * MM
    fitted = fit(SENTENCE, "Vera", w, h, size=12.0, min_size=6.0)
    quarter_points = [12.0 - 0.25 * k for k in range(25)]
    largest = next(s for s in quarter_points if fit(SENTENCE, "Vera", w, h, size=s).fits)
    assert fitted.size == largest == 7.75


def test_text_that_fits_keeps_its_size():
    assert fit("Hi", "Vera", 40 * MM, 12 * MM, size=12.0, min_size=6.0).size == 12.0


def test_other_steps_and_a_line_limit():
    """Tile notes: each sentence on its own line, 6.5 pt, else 6 pt, in at most two lines."""
    first, second = "Cut off the left margin on the solid line.", "Glue goes here."
    width = measure(first, "Vera", 6.25)  # one line at 6 pt, two at 6.5 pt
    fitted = fit(f"{first}\n{second}", "Vera", width, size=6.5, min_size=6.0, step=0.5,
                 max_lines=2)
    assert fitted.size == 6.0 and fitted.strings() == [first, second] and fitted.fits
    tighter = fit(f"{first}\n{second}", "Vera", width / 2, size=6.5, min_size=6.0, step=0.5,
                  max_lines=2)
    assert tighter.size == 6.0 and tighter.too_tall and len(tighter.lines) > 2


def test_text_too_long_for_its_box_at_min_size_is_reported_not_squeezed_further():
    fitted = fit(SENTENCE * 3, "Vera", 20 * MM, 8 * MM, size=10, min_size=7)
    assert fitted.size == 7 and fitted.overflow and fitted.too_tall and not fitted.fits


def test_a_word_longer_than_the_box_overflows_on_its_own_line():
    fitted = fit("a Constantinopolitan b", "Vera", 15 * MM, 30 * MM, size=9, min_size=6)
    assert fitted.too_wide and fitted.size == 6
    assert "Constantinopolitan" in fitted.strings()


def test_a_word_longer_than_the_line_can_be_split_between_characters():
    width = 15 * MM
    lines = wrap("see Constantinopolitanisation here", "Vera", 9, width, split_long_words=True)
    assert all(reportlab_width(line, "Vera", 9) <= width + 1e-6 for line in lines)
    assert "".join(lines).replace(" ", "") == "seeConstantinopolitanisationhere"
    assert len(lines) >= 3


def test_no_wrap_keeps_a_paragraph_on_one_line_and_shrinks_it():
    fitted = fit("Great Library of Alexandria", "Vera-Bold", 30 * MM, 10 * MM, size=14,
                 min_size=4, wrap=False)
    assert len(fitted.lines) == 1 and fitted.fits and fitted.size < 14
    assert fitted.widths[0] <= 30 * MM + 1e-6


def test_blocks_shrink_together_to_the_first_sizes_that_fit():
    name, note = words("The Oracle", "Vera-Bold"), words("roll twice, keep the better", "Vera")
    sizes = [(7.5, 6.5), (7.25, 6.25), (7.0, 6.0)]

    def stacked(blocks):
        return sum(b.height for b in blocks)

    height = (7.25 + 6.25) * 1.16  # one line each: room at the middle sizes, not the first
    (n, e), ok = fit_together((name, note), sizes, 60 * MM, height, space_font="Vera",
                              leading=1.16, stack_height=stacked)
    assert ok and (n.size, e.size) == (7.25, 6.25)
    _, ok = fit_together((name, note), sizes, 60 * MM, 5, space_font="Vera", leading=1.16,
                         stack_height=stacked)
    assert not ok


# ------------------------------------------------------------------------------ one line


def test_a_title_too_wide_for_one_line_shrinks_just_enough():
    width = 50 * MM
    size = fit_width("The Ancient World: Second Edition", "Vera-Bold", 18, width)
    assert size < 18
    assert reportlab_width("The Ancient World: Second Edition", "Vera-Bold", size) == \
        pytest.approx(width)


def test_a_one_line_title_stops_shrinking_at_its_floor():
    assert fit_width("The Ancient World: Second Edition", "Vera-Bold", 18, 10 * MM,
                     min_size=10) == 10
    assert fit_width("Short", "Vera-Bold", 18, 100 * MM, min_size=10) == 18


def test_a_label_that_fits_is_left_alone():
    assert ellipsise("Seat 1", "Vera", 8, 30 * MM) == "Seat 1"


def test_a_label_too_long_ends_in_an_ellipsis_and_fits():
    label = "checks-every-phase, 4 players, greedy"
    short = ellipsise(label, "Vera", 8, 30 * MM)
    assert short.endswith("…") and label.startswith(short[:-1])
    assert reportlab_width(short, "Vera", 8) <= 30 * MM
    longer = label[:len(short)] + "…"  # one more character would not fit
    assert reportlab_width(longer, "Vera", 8) > 30 * MM


def test_an_ellipsis_can_be_asked_to_take_the_place_of_two_characters_or_more():
    """With Vera's '…' (wider than any letter) one character can never make room for it, so
    here the ellipsis is a narrow '.'."""
    label = "Sheet 12 WW"
    width = reportlab_width(label[:-1] + ".", "Vera", 6)  # room for all but the last W
    assert ellipsise(label, "Vera", 6, width, ellipsis=".") == "Sheet 12 W."
    assert ellipsise(label, "Vera", 6, width, ellipsis=".", min_cut=2) == "Sheet 12 ."


def test_when_nothing_fits_only_the_ellipsis_is_left():
    assert ellipsise("Mesopotamia", "Vera", 8, 1) == "…"


# ------------------------------------------------------------------------------ icons


def test_an_inline_icon_is_one_em_wide_and_drawn_as_an_icon():
    plain = fit("Gain 3", "Vera", 100 * MM, size=10, icons=True)
    with_icon = fit("Gain 3{coin}", "Vera", 100 * MM, size=10, icons=True)
    assert with_icon.widths[0] - plain.widths[0] == pytest.approx(10 * ICON_EM)
    assert with_icon.pieces() == ((("t", "Gain 3"), ("i", "coin")),)
    assert fit("{coin}", "Vera", 100 * MM, size=10).pieces() == ((("t", "{coin}"),),)


def test_the_height_of_a_block_is_its_lines_at_their_leading():
    fitted = fit(SENTENCE, "Vera", 30 * MM, size=9, leading=1.25)
    assert fitted.height == pytest.approx(len(fitted.lines) * 9 * 1.25)
    assert not fitted.too_tall  # no height given: any number of lines fits


ONE_LINE_CASES = [
    ("A", 180.0, 34.2, 28.0), ("of Spades", 180.0, 15.0, 12.0), ("Joker", 180.0, 34.2, 28.0),
    ("Gain two  coins\tand draw", 400.0, 20.0, 10.0),  # runs of whitespace become one space
    ("Gain two coins and draw a card", 60.0, 200.0, 10.0),  # too wide: wraps instead
    ("Gain two coins", 400.0, 11.0, 10.0),  # one line at 1.2 × 10 pt needs 12 pt of height
    ("Gain {coin} now", 400.0, 20.0, 10.0),  # an icon: fit draws it
    ("first\nsecond", 400.0, 40.0, 10.0),  # a second paragraph
    ("   ", 400.0, 40.0, 10.0),
]


@pytest.mark.parametrize("text,width,height,size", ONE_LINE_CASES)
def test_one_line_is_fit_for_a_line_that_fits_and_nothing_otherwise(text, width, height, size):
    fitted = fit(text, "Vera", width, height, size=size, min_size=size / 2, icons=True)
    one = one_line(text, "Vera", width, height, size)
    plain = "{" not in text and len(fitted.lines) == 1 and fitted.size == size and fitted.fits
    if not plain:
        assert one is None
        return
    assert one == (fitted.pieces()[0][0][1], fitted.widths[0])  # the same string, the same float


def test_one_line_takes_the_same_words_as_fit_at_the_edge_of_the_box():
    """A line exactly as wide as its box fits (within fit's slack), a hair narrower box not."""
    text = "Seven words make a line that ends here"
    w = measure(text, "Vera-Bold", 9.0)
    assert one_line(text, "Vera-Bold", w, 20.0, 9.0) == (text, w)
    narrower = fit(text, "Vera-Bold", w - 0.01, 20.0, size=9.0, min_size=6.0, icons=True)
    assert narrower.size < 9.0 or len(narrower.lines) > 1
    assert one_line(text, "Vera-Bold", w - 0.01, 20.0, 9.0) is None
