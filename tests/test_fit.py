"""What sits on a printed area must fit it: `holds` on a layout box is checked by preflight."""

from __future__ import annotations

import shutil
from pathlib import Path

from pnp.data.game import load_game
from pnp.paths import CARDS
from pnp.render.build import build_game
from pnp.render.layout.fit import arrangement
from pnp.render.preflight import preflight

MM = 72 / 25.4
LAYOUT = Path("layouts") / "cards.yaml"
TITAN_SPOT = ("{id: titan-spot, type: rounded_rect, x: 125mm, y: 6mm, width: 66mm, "
              "height: 91.5mm")


def _taw_copy(tmp_path: Path, old: str, new: str) -> Path:
    folder = tmp_path / "the-ancient-world"
    shutil.copytree(CARDS / "the-ancient-world", folder)
    path = folder / LAYOUT
    text = path.read_text(encoding="utf-8")
    assert old in text, "the layout this test edits has moved"
    path.write_text(text.replace(old, new, 1), encoding="utf-8")
    return folder


def _load(folder: Path):
    res = load_game(folder)
    assert res.game is not None, [d.format_text() for d in res.diagnostics]
    return res.game


def test_the_bundled_player_board_holds_a_titan_card_five_citizens_and_the_markers():
    game = _load(CARDS / "the-ancient-world")
    codes = {d.code for d in preflight(game)}
    assert "PNP-R042" not in codes and "PNP-R043" not in codes


def test_a_titan_spot_shrunk_back_to_36_by_50_mm_fails_the_build(tmp_path):
    folder = _taw_copy(tmp_path, TITAN_SPOT, TITAN_SPOT.replace("width: 66mm, height: 91.5mm",
                                                                "width: 36mm, height: 50mm"))
    game = _load(folder)
    found = [d for d in preflight(game) if d.code == "PNP-R042"]
    # the capital side and the city-state side (which extends it) both report it
    assert found and all("titan-spot" in d.message for d in found), found
    d = found[0]
    assert d.file.endswith("cards.yaml")
    line = (folder / LAYOUT).read_text(encoding="utf-8").splitlines()[d.line - 1]
    assert "id: titan-spot" in line and d.column > 0
    assert "36×50 mm" in d.message and "'titans-1' card" in d.message and d.hint
    out = tmp_path / "out"
    written, diags = build_game(game, out)
    assert not written and any(x.code == "PNP-R042" for x in diags)
    assert not (out / "cards-player-boards.pdf").exists()


def test_a_ready_area_for_five_citizens_that_holds_three_is_reported(tmp_path):
    old = "{id: ready-box, type: rounded_rect, x: 8mm, y: 28mm, width: 116mm"
    folder = _taw_copy(tmp_path, old, old.replace("116mm", "60mm"))
    found = [d for d in preflight(_load(folder)) if d.code == "PNP-R042"]
    assert any("ready-box" in d.message and "5 of" in d.message for d in found), found


def test_a_round_space_smaller_than_its_marker_is_reported(tmp_path):
    old = "{id: cap-4, type: rect, x: 30mm, y: 100mm, width: 9mm, height: 10mm"
    folder = _taw_copy(tmp_path, old, old.replace("width: 9mm, height: 10mm",
                                                  "width: 6mm, height: 10mm"))
    found = [d for d in preflight(_load(folder)) if d.code == "PNP-R042"]
    assert any("'cap-4'" in d.message for d in found), found


def test_holds_naming_an_unknown_deck_is_an_error_at_its_line(tmp_path):
    folder = _taw_copy(tmp_path, "holds: {deck: titans-1}", "holds: {deck: titanz}")
    found = [d for d in preflight(_load(folder)) if d.code == "PNP-R043"]
    assert found and "titanz" in found[0].message and "titans-1" in found[0].message


def test_arrangement_lays_pieces_in_rows_when_one_row_is_too_long():
    t = 18 * MM
    assert arrangement(5, t, t, 94 * MM, 18 * MM, 1 * MM) == (5, 1)
    assert arrangement(5, t, t, 60 * MM, 40 * MM, 1 * MM) == (3, 2)
    assert arrangement(5, t, t, 56 * MM, 18 * MM, 1 * MM) is None


def test_a_special_technology_covers_one_column_of_the_technology_card(tmp_path):
    game = _load(CARDS / "age-of-civilization")
    assert not [d for d in preflight(game) if d.code in ("PNP-R042", "PNP-R043")]
    # poker-size, as it was, it would cover the whole 59×92 mm card instead of one column
    folder = tmp_path / "aoc"
    shutil.copytree(CARDS / "age-of-civilization", folder)
    decks = folder / "deck.yaml"
    text = decks.read_text(encoding="utf-8")
    old = "size: {width: 17mm, height: 75mm}"
    assert old in text
    decks.write_text(text.replace(old, "size: poker", 1), encoding="utf-8")
    found = [d for d in preflight(_load(folder)) if d.code == "PNP-R042"]
    assert {m for d in found for m in ("slot-left", "slot-middle", "slot-right")
            if m in d.message} == {"slot-left", "slot-middle", "slot-right"}


def test_every_scoring_track_space_holds_a_score_star(tmp_path):
    folder = tmp_path / "aoc"
    shutil.copytree(CARDS / "age-of-civilization", folder)
    decks = folder / "deck.yaml"
    text = decks.read_text(encoding="utf-8")
    old = "size: {width: 10mm, height: 10mm}"
    assert old in text
    # an 18 mm star, the size of the other tokens, covers several spaces
    decks.write_text(text.replace(old, "size: {width: 18mm, height: 18mm}", 1), "utf-8")
    found = [d for d in preflight(_load(folder)) if d.code == "PNP-R042"]
    assert len([d for d in found if "'sp-" in d.message]) == 30
