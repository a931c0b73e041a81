"""`pnp render board --board ID` and `pnp render record --sheet ID` draw the one named; a name
the game does not have, or a paper no one can read, stops the render with a diagnostic that
lists what there is, and nothing is written (pnp/render/kinds.py paper_and_items)."""

from __future__ import annotations

import pytest

from pnp.render.boards import R_BOARD, render_board
from pnp.render.records import R_RECORD, render_record_sheets

KINDS = {
    "board": (render_board, "board_id", R_BOARD, "main-board", "boards: main-board"),
    "record sheet": (render_record_sheets, "sheet_id", R_RECORD, "record-page",
                     "record sheets: record-page"),
}


@pytest.mark.parametrize("noun", KINDS)
def test_a_name_the_game_does_not_have_lists_the_ones_it_has(ac, tmp_path, noun):
    render, option, code, _, hint = KINDS[noun]
    paths, diags = render(ac, tmp_path, "a4", **{option: "nowhere"})
    assert paths == [] and list(tmp_path.iterdir()) == []
    assert [(d.code, d.message, d.hint) for d in diags] == [
        (code, f"game 'ancient-civilizations' has no {noun} 'nowhere'", hint)]


@pytest.mark.parametrize("noun", KINDS)
def test_a_paper_no_one_can_read_stops_the_render(ac, tmp_path, noun):
    render, option, code, known, _ = KINDS[noun]
    paths, diags = render(ac, tmp_path, "napkin", **{option: known})
    assert paths == [] and list(tmp_path.iterdir()) == []
    assert [d.code for d in diags] == [code] and "unknown paper 'napkin'" in diags[0].message


@pytest.mark.parametrize("noun", KINDS)
def test_the_one_named_is_drawn(ac, tmp_path, noun):
    render, option, _, known, _ = KINDS[noun]
    paths, diags = render(ac, tmp_path, "a4", **{option: known})
    assert not [d for d in diags if d.severity == "error"] and paths
    assert all(p.exists() for p in paths)
