"""A card sheet's margin: the footer and the 50 mm scale bar find room on every page, and
nothing printed there meets a crop mark, the artwork or each other."""

from __future__ import annotations

import pytest

from pnp.data.game import load_game
from pnp.paths import CARDS
from pnp.render.geometry import Grid, Rect, back_cell, impose_grid, mm, parse_paper
from pnp.render.kinds import deck_files
from pnp.render.sheet_margin import MarginPlan, art_rect, plan_margin
from pnp.render.sheets import HOME_BLEED, HOME_MARGIN, cut_marks, prepare_cards, size_groups

LABEL = "The Ancient World · pnp 0.1.0 · data 1a2b3c4d · sheet 10/12 · backs (long-edge flip)"


def _meets(a: Rect, b: Rect, gap: float = 0.0) -> bool:
    return (a.x < b.x1 + gap and b.x < a.x1 + gap and a.y < b.y1 + gap and b.y < a.y1 + gap)


def _seg_rect(s) -> Rect:
    return Rect(min(s[0], s[2]), min(s[1], s[3]), abs(s[2] - s[0]), abs(s[3] - s[1]))


def check_plan(plan: MarginPlan, grid: Grid, filled, marks) -> None:
    pw, ph = grid.paper
    art = art_rect(grid, filled)
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
                yield grid, [(grid.cell(i), cp.cut) for i, cp in enumerate(chunk)]
                yield grid, [(back_cell(grid, *grid.cell(i), "long"), cp.cut)
                             for i, cp in enumerate(chunk)]


@pytest.mark.parametrize("paper", ["a4", "letter"])
@pytest.mark.parametrize("game_id", ["the-ancient-world", "age-of-civilization",
                                     "ancient-civilizations", "antike"])
def test_every_bundled_card_page_has_a_whole_footer_and_bar_clear_of_marks_and_art(game_id,
                                                                                   paper):
    game = load_game(CARDS / game_id).game
    pages = 0
    for pack in (False, True):
        for grid, cells in _pages(game, paper, pack):
            marks = cut_marks(grid, cells)
            filled = [cell for cell, _ in cells]
            check_plan(plan_margin(grid, filled, marks, LABEL), grid, filled, marks)
            pages += 1
    assert pages


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
