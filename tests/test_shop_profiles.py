"""Shop profiles: bundled and user profiles load, bad ones are diagnostics at their line, and
`pnp build --shop` writes what each profile asks for into the kit's shop-<id>/ folder."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner
from pypdf import PdfReader

from pnp.render.shops.deliver import render_shop, sort_decks
from pnp.render.shops.profile import R_PROFILE, bundled_names, load_profile

POKER_TGC, POKER_MPC = (825, 1125), (822, 1122)


def profile(name: str):
    prof, diags = load_profile(name)
    assert prof is not None and not diags, diags
    return prof


def test_every_bundled_profile_loads_clean():
    assert bundled_names() == ["dtc", "home", "mpc", "tgc"]
    for name in bundled_names():
        profile(name)


def test_shop_pixel_sizes_are_the_shops_templates():
    from pnp.render.geometry import card_size

    poker = card_size("poker")
    assert profile("tgc").pixel_size(poker) == POKER_TGC  # 2.5 x 3.5 in + 1/8 in bleed
    assert profile("mpc").pixel_size(poker) == POKER_MPC  # 0.12 in bleed
    assert profile("dtc").order == "back-first"


def write(tmp_path: Path, text: str) -> str:
    path = tmp_path / "myshop.yaml"
    path.write_text(text, encoding="utf-8")
    return str(path)


GOOD = """\
id: myshop
name: My shop
bleed: 3mm
cards:
  format: pdf
"""


def test_a_user_profile_file_loads(tmp_path):
    prof, diags = load_profile(write(tmp_path, GOOD))
    assert not diags and prof.id == "myshop" and prof.cards_format == "pdf"
    assert prof.bleed == pytest.approx(3 * 72 / 25.4)


@pytest.mark.parametrize("text, code, line, column", [
    (GOOD + "colour: cmyk-ish\n", "PNP-S005", 6, 9),  # not an allowed value
    (GOOD + "bleeed: 3mm\n", "PNP-S002", 6, 1),  # a misspelt key
    (GOOD.replace("bleed: 3mm", "bleed: 3"), "PNP-S004", 3, 8),  # a length without its unit
    (GOOD + "ink_limit: 240\n", R_PROFILE, 6, 1),  # an ink limit for RGB files
    (GOOD + "paper: a9000\n", R_PROFILE, 6, 8),  # an unknown paper
    (GOOD + "dpi: 300\n  pixels: {poker: [825, 1125]}\n", "PNP-Y", 0, 0),  # bad YAML
    (GOOD.replace("format: pdf", "format: png\n  pixels: {poker: [800, 1125]}"),
     R_PROFILE, 6, 19),  # 1/8 in bleed at 300 dpi is 825 px wide, not 800
])
def test_a_bad_profile_is_a_diagnostic_at_its_line(tmp_path, text, code, line, column):
    prof, diags = load_profile(write(tmp_path, text))
    assert prof is None
    errors = [d for d in diags if d.is_error]
    assert errors and errors[0].code.startswith(code), errors
    assert errors[0].file.endswith("myshop.yaml")
    if line:
        assert (errors[0].line, errors[0].column) == (line, column), errors


def test_an_unknown_shop_names_the_bundled_ones():
    prof, diags = load_profile("drivethru")
    assert prof is None and diags[0].code == R_PROFILE
    assert "dtc, home, mpc, tgc" in diags[0].hint


@pytest.fixture(scope="module")
def taw(game_defs):
    return game_defs("the-ancient-world")


def test_decks_are_sorted_into_cards_tokens_and_large_pieces(taw):
    tgc = sort_decks(taw, profile("tgc"))
    assert {d.id for d in tgc["tokens"]} == {"tokens", "markers"}  # 18 mm and 8 mm
    assert "player-boards" in {d.id for d in tgc["large"]}  # 196 x 130 mm: not a card
    assert "empire-a" in {d.id for d in tgc["cards"]} and not tgc["skipped"]
    dtc = sort_decks(taw, profile("dtc"))  # DriveThruCards prints cards only
    assert {d.id for d in dtc["skipped"]} >= {"tokens", "player-boards"}


@pytest.fixture(scope="module")
def dtc_folder(taw, tmp_path_factory):
    out = tmp_path_factory.mktemp("dtc") / "shop-dtc"
    paths, diags = render_shop(taw, out, profile("dtc"))
    assert not [d for d in diags if d.is_error], diags
    assert all(p.is_relative_to(out) for p in paths)
    return out, diags


def test_dtc_gets_one_pdf_a_deck_back_before_front_with_bleed(dtc_folder, taw):
    out, _ = dtc_folder
    deck = taw.decks["starting-empire"]  # 2 cards x 4 copies, one shared back
    reader = PdfReader(out / "starting-empire.pdf")
    assert len(reader.pages) == 2 * sum(c.count for c in deck.cards) == 16
    bleed = 0.125 * 72
    for page in reader.pages:
        trim, media = page.trimbox, page.mediabox
        assert float(trim.left) == pytest.approx(bleed) and float(trim.bottom) == pytest.approx(
            bleed)
        assert float(media.width) == pytest.approx(float(trim.width) + 2 * bleed)
        assert float(trim.width) == pytest.approx(63.5 / 25.4 * 72, abs=0.01)
    texts = [page.extract_text() for page in reader.pages[:4]]
    names = {c.name for c in deck.cards}
    # page 1 is a back (no card name), page 2 that card's front (its name)
    assert not any(n in texts[0] for n in names) and any(n in texts[1] for n in names)
    assert texts[0] == texts[2]  # the shared back again on page 3
    entry = next(e for e in json.loads((out / "shop.json").read_text())["files"]
                 if e["deck"] == "starting-empire")
    assert entry["sides"][:4] == ["back", "front", "back", "front"]


def test_dtc_files_are_cmyk_pdfx_1a_with_an_output_intent(dtc_folder):
    pikepdf = pytest.importorskip("pikepdf")
    out, _ = dtc_folder
    for path in sorted(out.glob("*.pdf")):
        with pikepdf.open(path) as pdf:
            assert pdf.pdf_version == "1.4"
            assert str(pdf.trailer.Info.GTS_PDFXVersion) == "PDF/X-1a:2003"
            assert pdf.Root.OutputIntents[0].DestOutputProfile.N == 4
            streams = [page for page in pdf.pages[:4]] + [
                x for page in pdf.pages[:4] for x in page.Resources.get("/XObject", {}).values()
                if x.get("/Subtype") == "/Form"]  # repeated faces are forms
            ops = {str(op) for st in streams for _, op in pikepdf.parse_content_stream(st)}
            assert "k" in ops and not ops & {"rg", "RG"}, path.name


def test_what_a_shop_does_not_take_is_a_warning_naming_the_deck(dtc_folder):
    out, diags = dtc_folder
    skipped = {d.message.split("'")[1] for d in diags if d.code == R_PROFILE}
    assert {"tokens", "player-boards"} <= skipped
    assert not (out / "tokens.pdf").exists()
    assert set(json.loads((out / "shop.json").read_text())["not_delivered"]) == skipped


@pytest.fixture(scope="module")
def tgc_folder(taw, tmp_path_factory):
    pytest.importorskip("pypdfium2", reason="PNG export rasterises with pypdfium2")
    out = tmp_path_factory.mktemp("tgc") / "shop-tgc"
    paths, diags = render_shop(taw, out, profile("tgc"))
    assert not [d for d in diags if d.is_error], diags
    return out


def test_tgc_gets_825_by_1125_pngs_a_poker_card_and_one_shared_back(tgc_folder, taw):
    from PIL import Image

    folder = tgc_folder / "starting-empire"
    names = sorted(p.name for p in folder.iterdir())
    assert names == sorted([f"{c.id}.png" for c in taw.decks["starting-empire"].cards]
                           + ["back.png"])
    for png in folder.iterdir():
        with Image.open(png) as im:
            assert im.size == POKER_TGC and im.mode == "RGB"
    entry = next(e for e in json.loads((tgc_folder / "shop.json").read_text())["files"]
                 if e["deck"] == "starting-empire")
    assert entry["counts"] == {c.id: c.count for c in taw.decks["starting-empire"].cards}


def test_tgc_tokens_come_as_sheets_not_one_token_a_page(tgc_folder, taw):
    from PIL import Image

    tokens = sum(c.count for c in taw.decks["tokens"].cards)
    sheets = sorted(tgc_folder.glob("tokens-tokens-*.png"))
    assert tokens > 100 and len(sheets) <= 4  # fronts and their backs, a handful of sheets
    with Image.open(sheets[0]) as im:
        assert im.size == (2550, 3300)  # US letter at 300 dpi


def test_tgc_lists_the_dice_to_buy(tgc_folder, taw):
    dice = json.loads((tgc_folder / "shop.json").read_text())["dice"]
    assert [d["id"] for d in dice] == list(taw.dice)
    assert dice[0]["faces"] == [str(f) for f in next(iter(taw.dice.values())).faces]


def test_pnp_build_shop_writes_only_inside_the_kit_and_keeps_the_home_files(tmp_path):
    """`pnp build --shop mpc` adds shop-mpc/ beside the home files, which stay byte-identical
    to a plain build's; a bad --shop stops before anything is written."""
    from pnp.cli import main

    plain, shop = tmp_path / "plain", tmp_path / "shop"
    for out, extra in ((plain, []), (shop, ["--shop", "mpc"])):
        result = CliRunner().invoke(main, ["build", "ancient-civilizations", "--out", str(out),
                                           *extra])
        assert result.exit_code == 0, result.output
    kit, more = plain / "ancient-civilizations", shop / "ancient-civilizations"
    assert sorted(p.name for p in more.iterdir()) == sorted(
        [p.name for p in kit.iterdir()] + ["shop-mpc"])
    for pdf in kit.glob("*.pdf"):
        assert (more / pdf.name).read_bytes() == pdf.read_bytes(), pdf.name
    assert (more / "shop-mpc" / "shop.json").exists()
    bad = CliRunner().invoke(main, ["build", "ancient-civilizations", "--out",
                                    str(tmp_path / "bad"), "--shop", "nowhere"])
    assert bad.exit_code != 0 and R_PROFILE in bad.output
    assert not (tmp_path / "bad").exists()


def test_a_png_shop_gets_pawn_sheets_and_the_board_as_pngs(ac, tmp_path):
    """The Game Crafter takes images: Ancient Civilizations' pawn sheets (the token sheet
    renderer, with cut lines) and its board's whole print come as PNG pages, no PDF."""
    pytest.importorskip("pypdfium2", reason="PNG export rasterises with pypdfium2")
    from PIL import Image

    out = tmp_path / "shop-tgc"
    paths, diags = render_shop(ac, out, profile("tgc"))
    assert not [d for d in diags if d.is_error], diags
    assert not list(out.rglob("*.pdf"))
    sheets = sorted(out.glob("tokens-*.png"))
    assert len(sheets) == 2  # 6 players x 12 pawns and the counters on letter
    with Image.open(sheets[0]) as im:
        assert im.size == (2550, 3300)
    with Image.open(out / "board-a2-1.png") as im:
        assert im.size == (4961, 7016)  # A2 at 300 dpi
    kinds = {e["kind"] for e in json.loads((out / "shop.json").read_text())["files"]}
    assert {"pawn-sheets", "board", "cards"} <= kinds
