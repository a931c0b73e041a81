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
    backs = sorted((out / "fixture-cards-png" / "market").glob("card-?-back.png"))
    assert len(fronts) == 3 and len(backs) == 3  # one per distinct card, not per copy
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
