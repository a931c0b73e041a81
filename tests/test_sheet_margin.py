"""A card sheet's margin: the footer, the 50 mm scale bar and each row's card ids find room on
every page, and nothing printed there meets a crop mark, the artwork or each other."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from pnp.data.game import load_game
from pnp.paths import CARDS
from pnp.render.geometry import Grid, Rect, back_cell, impose_grid, mm, parse_paper
from pnp.render.kinds import deck_files
from pnp.render.sheet_margin import MarginPlan, art_rect, plan_margin, row_ids
from pnp.render.sheets import (
    HOME_BLEED,
    HOME_MARGIN,
    cut_marks,
    page_bleed,
    page_rows,
    prepare_cards,
    render_deck_sheets,
    size_groups,
)

sys.path.insert(0, str(Path(__file__).parent / "fixtures" / "render"))

LABEL = "The Ancient World · pnp 0.1.0 · data 1a2b3c4d · sheet 10/12 · backs (long-edge flip)"


def _meets(a: Rect, b: Rect, gap: float = 0.0) -> bool:
    return (a.x < b.x1 + gap and b.x < a.x1 + gap and a.y < b.y1 + gap and b.y < a.y1 + gap)


def _seg_rect(s) -> Rect:
    return Rect(min(s[0], s[2]), min(s[1], s[3]), abs(s[2] - s[0]), abs(s[3] - s[1]))


def check_plan(plan: MarginPlan, grid: Grid, filled, marks, art_bleed=None) -> None:
    pw, ph = grid.paper
    art = art_rect(grid, filled, art_bleed)
    assert plan.bar is not None, "no room for the scale bar"
    w, h = (plan.bar.height, plan.bar.width) if plan.bar_turned else (plan.bar.width,
                                                                        plan.bar.height)
    assert abs(w - mm(50)) < 1e-6  # full length, never shortened
    assert plan.label is not None and plan.label.text == LABEL  # whole, never cut short
    boxes = plan.boxes()
    for i, box in enumerate(boxes):
        assert box.x >= mm(1.2) and box.y >= mm(1.2) and box.x1 <= pw - mm(1.2) and (
            box.y1 <= ph - mm(1.2)), box
        assert not _meets(box, art), (box, art)
        for s in marks:
            assert not _meets(box, _seg_rect(s), mm(0.5)), (box, s)
        for other in boxes[i + 1:]:
            assert not _meets(box, other), (box, other)


def _pages(game, paper: str, pack: bool):
    ps = parse_paper(paper)
    for _stem, decks in deck_files(game, pack).items():
        copies, _ = prepare_cards(game, [d.id for d in decks])
        for group in size_groups(copies):
            grid = impose_grid(ps, group[0].size, HOME_BLEED, HOME_MARGIN)
            for start in range(0, len(group), grid.per_page):
                chunk = group[start:start + grid.per_page]
                yield grid, [(grid.cell(i), cp) for i, cp in enumerate(chunk)]
                yield grid, [(back_cell(grid, *grid.cell(i), "long"), cp)
                             for i, cp in enumerate(chunk)]


@pytest.mark.parametrize("paper", ["a4", "letter"])
@pytest.mark.parametrize("game_id", ["the-ancient-world", "age-of-civilization",
                                     "ancient-civilizations", "antike"])
def test_every_bundled_card_page_has_a_whole_footer_bar_and_ids_clear_of_marks_and_art(
        game_id, paper):
    game = load_game(CARDS / game_id).game
    pages = cut_rows = 0
    for pack in (False, True):
        for grid, cells in _pages(game, paper, pack):
            marks = cut_marks(grid, [(cell, cp.cut) for cell, cp in cells])
            filled = [cell for cell, _ in cells]
            plan = plan_margin(grid, filled, marks, LABEL, page_rows(cells), page_bleed(cells))
            check_plan(plan, grid, filled, marks, page_bleed(cells))
            assert plan.ids_missing == [], (pack, grid.card, plan.ids_missing)
            short = [t.text for t in plan.ids if t.text.endswith("…")]
            if grid.card[1] >= mm(25):  # a card's row has room for its ids, whole
                assert short == [], (pack, grid.card, short)
            cut_rows += len(short)
            pages += 1
    assert pages
    # only rows of 18 mm tokens that mix three or more kinds are cut short
    assert cut_rows <= 8, cut_rows


def test_a_row_of_cards_reads_as_its_ids_repeats_counted_and_runs_joined():
    row = [("tokens", "coin")] * 4 + [("tokens", "coin-5")] * 7
    assert row_ids(row, False) == ["coin ×4", "coin-5 ×7"]
    row = [("tokens", f"citizen-red-{i}") for i in range(1, 6)] + [("tokens", "first-player")]
    assert row_ids(row, False) == ["citizen-red-1…5", "first-player"]
    assert row_ids(list(reversed(row)), False) == ["first-player", "citizen-red-5…1"]
    assert row_ids([("a", "x"), ("a", "y"), ("b", "z")], True) == ["a/x", "y", "b/z"]


def test_the_ids_of_each_row_print_beside_it(tmp_path):
    """A4, nine poker cards: three rows, each row's three card ids in the left margin."""
    import pdfplumber
    from support import make_game, poker_deck

    paths, diags = render_deck_sheets(make_game([poker_deck(9)]), paper="a4",
                                      out_dir=tmp_path)
    assert not diags
    with pdfplumber.open(paths[0]) as pdf:
        page = pdf.pages[0]
        text = " ".join((page.extract_text() or "").split())
        grid = impose_grid(parse_paper("a4"), (mm(63.5), mm(88.9)), HOME_BLEED, HOME_MARGIN)
        left = [ch for ch in page.chars if ch["x1"] < grid.x0 - grid.bleed]
    for k in range(3):  # numbered ids in a row read as a run
        assert f"card-{3 * k + 1}…{3 * k + 3}" in text, text
    assert "deck market" in text  # the footer names the deck
    # every id character stands beside the artwork, in the left margin
    assert len([ch for ch in left if ch["text"] not in " ·"]) >= 3 * len("card-1…3")


def test_the_bar_steps_round_a_crop_mark_in_its_way():
    grid = impose_grid(parse_paper("a4"), (mm(63.5), mm(88.9)), HOME_BLEED, HOME_MARGIN)
    filled = [grid.cell(i) for i in range(9)]
    marks = cut_marks(grid, [(cell, None) for cell in filled])
    plan = plan_margin(grid, filled, marks, LABEL)
    check_plan(plan, grid, filled, marks)
    # a mark through the middle of where the bar went moves it (checked: clear of it)
    b = plan.bar
    extra = (b.x + b.width / 2, b.y - mm(1), b.x + b.width / 2, b.y1 + mm(1))
    moved = plan_margin(grid, filled, marks + [extra], LABEL)
    assert moved.bar != b
    check_plan(moved, grid, filled, marks + [extra])


def test_a_page_with_no_margin_has_no_room_for_the_bar():
    """The checks above can fail: a grid whose margin is under 4 mm all round places nothing."""
    grid = impose_grid((mm(70), mm(95)), (mm(63.5), mm(88.9)), mm(1), mm(1))
    plan = plan_margin(grid, [(0, 0)], [], LABEL)
    assert plan.bar is None
    with pytest.raises(AssertionError):
        check_plan(plan, grid, [(0, 0)], [])
