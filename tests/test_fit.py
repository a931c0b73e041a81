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


# --- the fit overlay: fit checked by drawing, not only by size ---------------------------------

def _player_board_holdings(game):
    from pnp.render.layout.library import load_library
    from pnp.render.overlay import holdings
    from pnp.render.sheets import card_context

    library, _ = load_library(game)
    deck = game.decks["player-boards"]
    layout, _ = library.compile(deck.front, (196 * MM, 130 * MM))
    return {hd.element: hd for hd in holdings(layout, game,
                                              card_context(game, deck, deck.cards[0]))}


def test_the_overlay_draws_a_shrunk_titan_spot_red_with_its_overhang(tmp_path):
    import pdfplumber

    from pnp.render.overlay import OVERHANG, render_overlay

    folder = _taw_copy(tmp_path, TITAN_SPOT, TITAN_SPOT.replace("width: 66mm, height: 91.5mm",
                                                                "width: 36mm, height: 50mm"))
    game = _load(folder)
    spot = _player_board_holdings(game)["titan-spot"]
    assert not spot.fits
    ow, oh = spot.overhang()  # a 63.5 x 88.9 mm card on a 36 x 50 mm spot
    assert abs(ow / MM - 27.5) < 0.05 and abs(oh / MM - 38.9) < 0.05
    written, diags = render_overlay(game, tmp_path / "overlay")
    assert written and not diags
    with pdfplumber.open(written[0]) as pdf:
        page = pdf.pages[0]
        text = " ".join((page.extract_text() or "").split())
        red = [r for r in page.rects + page.curves
               if tuple(round(v, 2) for v in (r.get("stroking_color") or ())) == OVERHANG]
    assert "'titan-spot' 36.0×50.0 mm holds 1 × a 'titans-1' card: DOES NOT FIT: overhangs " \
           "27.5 mm across, 38.9 mm down" in text, text
    assert "41 of 42 boxes hold their pieces" in text
    # the spot and the card drawn on it, in red
    assert len(red) >= 2 and any(abs(r["width"] - 63.5 * MM) < 0.5 for r in red)


def test_the_bundled_overlays_show_every_box_holding_its_pieces(tmp_path):
    import pdfplumber

    from pnp.render.overlay import render_overlay

    for name, faces in (("the-ancient-world", 5), ("age-of-civilization", 2)):
        written, diags = render_overlay(_load(CARDS / name), tmp_path / name)
        assert written and not diags
        with pdfplumber.open(written[0]) as pdf:
            texts = [" ".join((p.extract_text() or "").split()) for p in pdf.pages]
        assert len(texts) == faces, name  # one page per face (and per set of boxes shown)
        for text in texts:
            assert "DOES NOT FIT" not in text and "boxes hold their pieces." in text
            assert "50 mm" in text
    taw = _player_board_holdings(_load(CARDS / "the-ancient-world"))
    assert taw["titan-spot"].fits and len(taw["ready-box"].pieces) == 5


def test_what_the_overlay_draws_agrees_with_the_size_check(tmp_path):
    """Each drawn verdict is preflight's: a box drawn red is exactly a box PNP-R042 names."""
    from pnp.render.layout.fit import check_holds
    from pnp.render.layout.library import load_library
    from pnp.render.overlay import holdings

    old = "{id: ready-box, type: rounded_rect, x: 8mm, y: 28mm, width: 116mm"
    folder = _taw_copy(tmp_path, old, old.replace("116mm", "60mm"))
    for game in (_load(folder), _load(CARDS / "age-of-civilization")):
        library, _ = load_library(game)
        for deck in game.decks.values():
            for layout_id in filter(None, (deck.front, deck.back)):
                from pnp.render.geometry import card_size

                layout, _ = library.compile(layout_id, card_size(deck.size))
                drawn = {hd.element: hd.fits for hd in holdings(layout, game)}
                for el in layout.elements:
                    for inner in getattr(el, "elements", None) or [el]:
                        if inner.id in drawn:
                            assert drawn[inner.id] == (not check_holds(inner, game, layout.id))
    assert not _player_board_holdings(_load(folder))["ready-box"].fits


def test_a_build_leaves_the_overlay_out_of_the_kit(tmp_path):
    written, diags = build_game(_load(CARDS / "age-of-civilization"), tmp_path / "kit")
    assert written and "fit-overlay.pdf" not in {p.name for p in written}
    assert not (tmp_path / "kit" / "fit-overlay.pdf").exists()
