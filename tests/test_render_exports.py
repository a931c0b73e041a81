"""PNG export at print-shop pixel sizes and Tabletop Simulator deck sheets."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from PIL import Image

pytest.importorskip("pypdfium2", reason="PNG export rasterises with pypdfium2")

sys.path.insert(0, str(Path(__file__).parent / "fixtures" / "render"))
from support import make_game, poker_deck  # noqa: E402

from pnp.render.exports import TTS_MAX_WIDTH, tts_grid  # noqa: E402
from pnp.render.sheets import render_deck_sheets  # noqa: E402


@pytest.fixture(scope="module")
def exported(tmp_path_factory):
    out = tmp_path_factory.mktemp("exports")
    deck = poker_deck(3, count=2)  # 3 distinct cards, 6 copies
    paths, diags = render_deck_sheets(make_game([deck]), out_dir=out, png=True, tts=True)
    assert not diags, diags
    return out, paths


def test_poker_png_with_eighth_inch_bleed_is_825_by_1125(exported):
    out, paths = exported
    fronts = sorted((out / "fixture-cards-png" / "market").glob("card-?.png"))
    assert len(fronts) == 3  # one per distinct card, not per copy
    # every card has the same back: written once for the deck, not once a card
    assert not list((out / "fixture-cards-png" / "market").glob("card-?-back.png"))
    backs = [out / "fixture-cards-png" / "market" / "back.png"]
    for png in fronts + backs:
        with Image.open(png) as im:
            assert im.size == (825, 1125)
            assert im.info.get("dpi", (300, 300))[0] == pytest.approx(300, abs=1)
    with Image.open(fronts[0]) as im:  # the background reaches into the bleed
        assert im.getpixel((3, 3)) != (255, 255, 255)


def test_tts_sheet_has_a_hidden_cell_and_stays_under_4096_px(exported):
    out, _ = exported
    sheet = out / "fixture-cards-tts" / "market-1.png"
    back = out / "fixture-cards-tts" / "market-back.png"
    cols, rows = tts_grid(6)
    assert cols * rows >= 7 and cols <= 10 and rows <= 7
    with Image.open(sheet) as im, Image.open(back) as b:
        assert im.width <= TTS_MAX_WIDTH
        assert im.width == cols * b.width and im.height == pytest.approx(rows * b.height, abs=rows)
        # the last cell holds the back (dark), an unused cell in between is white
        last = im.getpixel((im.width - b.width // 2, im.height - b.height // 2))
        assert max(last) < 200


@pytest.mark.parametrize("n, expected_max", [(1, (2, 2)), (69, (10, 7)), (20, (10, 7))])
def test_tts_grid_limits(n, expected_max):
    cols, rows = tts_grid(n)
    assert 2 <= cols <= expected_max[0] and 2 <= rows <= expected_max[1]
    assert cols * rows >= n + 1
    with pytest.raises(ValueError):
        tts_grid(70)


def test_a_large_deck_is_split_over_several_tts_sheets(tmp_path):
    deck = poker_deck(75, back=None)
    paths, diags = render_deck_sheets(make_game([deck]), out_dir=tmp_path, tts=True)
    assert not diags
    sheets = sorted((tmp_path / "fixture-cards-tts").glob("market-*.png"))
    assert [p.name for p in sheets] == ["market-1.png", "market-2.png"]
    with Image.open(sheets[0]) as im:
        assert im.width <= TTS_MAX_WIDTH and im.height <= TTS_MAX_WIDTH
        assert im.width == 10 * (im.width // 10)


def _saved_object(folder: Path) -> dict:
    import json

    [path] = folder.glob("*.json")
    return json.loads(path.read_text(encoding="utf-8"))


def test_tts_saved_object_is_a_deck_that_matches_its_sheets(exported):
    """The structure TTS loads from Saves/Saved Objects: a DeckCustom whose CustomDeck grid is
    the sheet's, one Card a copy with a name, CardIDs in the sheet's cells, never the hidden
    cell (the last), and image URLs that point at the written sheets."""
    out, _ = exported
    folder = out / "fixture-cards-tts"
    doc = _saved_object(folder)
    [deck] = doc["ObjectStates"]
    assert deck["Name"] == "DeckCustom"
    [(key, custom)] = deck["CustomDeck"].items()
    cols, rows = custom["NumWidth"], custom["NumHeight"]
    assert (cols, rows) == tts_grid(6)
    with Image.open(folder / "market-1.png") as im:  # the grid divides the sheet into cells
        assert im.width % cols == 0 and im.height % rows == 0
    assert custom["FaceURL"] == (folder / "market-1.png").resolve().as_uri()
    assert custom["BackURL"] == (folder / "market-back.png").resolve().as_uri()
    cards = deck["ContainedObjects"]
    assert len(cards) == len(deck["DeckIDs"]) == 6
    assert [c["CardID"] for c in cards] == deck["DeckIDs"]
    for c in cards:
        assert c["Name"] == "Card" and c["Nickname"]
        assert c["CardID"] // 100 == int(key) and c["CardID"] % 100 < cols * rows - 1


def test_tts_sheets_split_over_keys_and_may_point_at_a_url(tmp_path):
    deck = poker_deck(80, count=1)  # 80 cards: two sheets of at most 69 faces
    paths, diags = render_deck_sheets(make_game([deck]), out_dir=tmp_path, tts=True,
                                      tts_url="https://example.org/game/")
    assert not diags, diags
    [deck_object] = _saved_object(tmp_path / "fixture-cards-tts")["ObjectStates"]
    assert sorted(deck_object["CustomDeck"]) == ["1", "2"]
    assert deck_object["CustomDeck"]["2"]["FaceURL"] == "https://example.org/game/market-2.png"
    ids = deck_object["DeckIDs"]
    assert len(ids) == len(set(ids)) == 80
    assert ids[69] == 200  # the 70th card is the first cell of the second sheet


def test_a_single_card_deck_is_a_custom_card(tmp_path):
    paths, diags = render_deck_sheets(make_game([poker_deck(1, count=1)]), out_dir=tmp_path,
                                      tts=True)
    [card] = _saved_object(tmp_path / "fixture-cards-tts")["ObjectStates"]
    assert card["Name"] == "CardCustom" and card["CardID"] == 100 and card["CustomDeck"]["1"]


def test_cards_with_their_own_backs_keep_one_back_each(tmp_path):
    """A back that shows the card's own name differs card to card: each keeps its back."""
    deck = poker_deck(2, back="poker-front")  # the front layout as back: differs per card
    paths, diags = render_deck_sheets(make_game([deck]), out_dir=tmp_path, png=True)
    assert not diags, diags
    folder = tmp_path / "fixture-cards-png" / "market"
    assert sorted(p.name for p in folder.glob("*-back.png")) == ["card-1-back.png",
                                                                  "card-2-back.png"]
    assert not (folder / "back.png").exists()


def test_pnp_build_takes_the_card_exports(tmp_path):
    """`pnp build --png --tts --print-shop` writes what `pnp render cards` would, beside the
    kit's deck files; the home files are the same as a plain build's."""
    from click.testing import CliRunner

    from pnp.cli import main

    plain, exported = tmp_path / "plain", tmp_path / "exported"
    for out, extra in ((plain, []), (exported, ["--png", "--tts", "--print-shop"])):
        result = CliRunner().invoke(main, ["build", "ancient-civilizations", "--out", str(out),
                                           *extra])
        assert result.exit_code == 0, result.output
    kit, more = plain / "ancient-civilizations", exported / "ancient-civilizations"
    assert (more / "cards-chart-cards-printshop.pdf").exists()
    assert (more / "cards-chart-cards-png" / "chart-cards" / "back.png").exists()
    assert (more / "cards-chart-cards-tts" / "cards-chart-cards.json").exists()
    for pdf in kit.glob("*.pdf"):  # the guide and print-all.pdf too: exports are not home files
        assert (more / pdf.name).read_bytes() == pdf.read_bytes(), pdf.name


@pytest.mark.slow
@pytest.mark.parametrize("game_id", ["ancient-civilizations", "the-ancient-world",
                                     "age-of-civilization"])
def test_every_bundled_game_exports_tts_objects_that_match_their_sheets(tmp_path, game_id):
    """Every deck's saved object parses; each CustomDeck's grid divides its sheet into whole
    cells; every card is named and sits in a cell of its sheet that is not the hidden one; and
    no sheet is over 4096 px."""
    import json
    from urllib.parse import unquote, urlparse

    from pnp.data.game import load_game
    from pnp.paths import CARDS
    from pnp.render.kinds import renderer

    game = load_game(CARDS / game_id).game
    paths, diags = renderer("cards").render(game, tmp_path, "a4", tts=True)
    assert not [d for d in diags if d.is_error]
    saves = sorted(tmp_path.glob("*-tts/*.json"))
    assert len(saves) == sum(1 for deck in game.decks.values() if deck.printed)
    for save in saves:
        for obj in json.loads(save.read_text(encoding="utf-8"))["ObjectStates"]:
            cards = obj.get("ContainedObjects", [obj])
            assert all(c["Nickname"] for c in cards), save
            for key, custom in obj["CustomDeck"].items():
                sheet = Path(unquote(urlparse(custom["FaceURL"]).path))
                with Image.open(sheet) as im:
                    assert im.width <= TTS_MAX_WIDTH and im.height <= TTS_MAX_WIDTH
                    assert im.width % custom["NumWidth"] == 0
                    assert im.height % custom["NumHeight"] == 0
                cells = custom["NumWidth"] * custom["NumHeight"]
                mine = [c["CardID"] for c in cards if c["CardID"] // 100 == int(key)]
                assert mine and all(i % 100 < cells - 1 for i in mine), save
