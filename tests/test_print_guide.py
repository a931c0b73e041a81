"""Each kit says how to print it: a guide, print-all, version stamps, gutterfold and low ink."""

from __future__ import annotations

import shutil

import pdfplumber
import pytest
from pypdf import PdfReader

from pnp.data.game import load_game
from pnp.paths import CARDS
from pnp.render.build import build_game
from pnp.render.guide import GUIDE, PRINT_ALL, kit_stamp

GAMES = ["the-ancient-world", "age-of-civilization", "ancient-civilizations"]


def _game(name, variant=None, folder=None):
    res = load_game(folder or CARDS / name, variant)
    assert res.ok, [d.format_text() for d in res.diagnostics]
    return res.game


def _text(path):
    with pdfplumber.open(path) as pdf:
        return " ".join(" ".join((p.extract_text() or "").split()) for p in pdf.pages)


@pytest.fixture(scope="module")
def taw_kit(tmp_path_factory):
    out = tmp_path_factory.mktemp("kit") / "taw"
    written, diags = build_game(_game("the-ancient-world"), out)
    assert written and not [d for d in diags if d.is_error]
    return out


def test_the_guide_names_every_file_of_the_kit_with_its_pages(taw_kit):
    text = _text(taw_kit / GUIDE)
    files = sorted(p.name for p in taw_kit.glob("*.pdf") if p.name not in (GUIDE, PRINT_ALL))
    for name in files:
        assert name in text, name
    assert "50 mm" in text and "actual size / 100 %" in text and "card stock" in text
    assert "fold on the dashed lines" in text  # the damage-die nets


def test_print_all_is_the_guide_and_every_home_file_in_one(taw_kit):
    home = [p for p in taw_kit.glob("*.pdf") if p.name not in (GUIDE, PRINT_ALL)]
    expected = len(PdfReader(taw_kit / GUIDE).pages) + sum(len(PdfReader(p).pages) for p in home)
    assert len(PdfReader(taw_kit / PRINT_ALL).pages) == expected


def test_print_all_is_byte_identical_when_built_again(taw_kit, tmp_path):
    written, _ = build_game(_game("the-ancient-world"), tmp_path / "again")
    assert written
    assert (tmp_path / "again" / PRINT_ALL).read_bytes() == (taw_kit / PRINT_ALL).read_bytes()


def test_card_sheets_carry_the_version_stamp(taw_kit):
    stamp = kit_stamp(_game("the-ancient-world"))
    assert stamp.startswith("pnp ") and "data " in stamp
    with pdfplumber.open(taw_kit / "cards-empire-a.pdf") as pdf:
        assert stamp in " ".join((pdf.pages[0].extract_text() or "").split())


def test_the_stamp_follows_the_data_not_the_folder(tmp_path):
    folder = tmp_path / "elsewhere" / "the-ancient-world"
    shutil.copytree(CARDS / "the-ancient-world", folder)
    assert kit_stamp(_game("x", folder=folder)) == kit_stamp(_game("the-ancient-world"))
    decks = folder / "decks.yaml"
    decks.write_text(decks.read_text("utf-8").replace("cost_coins: 4, banners: [blue], food: 1",
                                                      "cost_coins: 5, banners: [blue], food: 1",
                                                      1), "utf-8")
    assert kit_stamp(_game("x", folder=folder)) != kit_stamp(_game("the-ancient-world"))


@pytest.mark.parametrize("name", GAMES)
def test_gutterfold_and_low_ink_kits_build_for_every_game(name, tmp_path):
    game = _game(name)
    written, diags = build_game(game, tmp_path / name, gutterfold=True, low_ink=True)
    assert written and not [d for d in diags if d.is_error]
    guide = _text(tmp_path / name / GUIDE)
    if game.decks:
        assert "--gutterfold" in guide and "(fold)" in guide
        card = next(p for p in written if p.name.startswith("cards-"))
        assert "gutterfold" in _text(card)


def test_the_first_edition_prints_its_own_kit(tmp_path):
    game = _game("the-ancient-world", "first-edition")
    written, diags = build_game(game, tmp_path / "first")
    assert written and not [d for d in diags if d.is_error]
    guide = _text(tmp_path / "first" / GUIDE)
    assert "Empire A: 45 pieces" in guide and "Empire B: 47 pieces" in guide
    assert "Districts: 10 pieces" in guide and "cards-empire-c.pdf" not in guide
    assert "variant first-edition" in guide
    assert "rulesheet-first-edition.pdf" in {p.name for p in written}
    base_tokens = sum(c.count for c in _game("the-ancient-world").decks["tokens"].cards)
    first_tokens = sum(c.count for c in game.decks["tokens"].cards)
    assert base_tokens - first_tokens == 40  # no ambrosia pieces


def _face_ops(layout_id, low_ink):
    """The page operators of one TAW military card back drawn alone."""
    from pnp.render.layout import load_library
    from pnp.render.pdfwrite import pdf_bytes
    from pnp.render.sheets import card_context

    game = _game("the-ancient-world")
    library, _ = load_library(game)
    deck = game.decks["military"]
    from pnp.render.geometry import card_size

    layout, _ = library.compile(layout_id, card_size(deck.size))

    def draw(c):
        c.translate(20, 20)
        assert layout.draw(c, card_context(game, deck, deck.cards[0]), 9.0, low_ink) == []
        c.showPage()

    data, _ = pdf_bytes(draw, (300, 400))
    from io import BytesIO

    page = PdfReader(BytesIO(data)).pages[0]
    ops = page.get_contents().get_data().decode("latin-1")
    for xo in (page["/Resources"].get("/XObject") or {}).values():
        ops += xo.get_object().get_data().decode("latin-1")
    return ops


def test_low_ink_drops_the_dark_frame_and_prints_light_text_dark():
    frame = "0.557 0.169 0.133 rg"  # the military back's #8e2b22
    cream = "0.984 0.973 0.945 rg"  # its word MILITARY in #fbf8f1
    full = _face_ops("taw-military-back", False)
    assert frame in full and cream in full
    low = _face_ops("taw-military-back", True)
    assert frame not in low and cream not in low and "0.110 0.150 0.200 rg" in low


def test_low_ink_keeps_light_text_on_a_shape_it_still_draws():
    # the titan's white defence number sits on its dark ring, which low ink keeps
    from pnp.render.geometry import card_size
    from pnp.render.layout import load_library

    game = _game("the-ancient-world")
    library, _ = load_library(game)
    layout, _ = library.compile("taw-titan-front", card_size("poker"))
    flat = [i for e in layout.elements for i in (getattr(e, "elements", None) or [e])]
    on_fill = layout.text_on_fill()
    ids = {e.id for e in flat if id(e) in on_fill}
    assert {"defence", "damage-label"} <= ids
    back, _ = library.compile("taw-military-back", card_size("poker"))
    flat = [i for e in back.elements for i in (getattr(e, "elements", None) or [e])]
    assert "word" not in {e.id for e in flat if id(e) in back.text_on_fill()}


def test_pack_puts_decks_of_one_size_on_shared_sheets(tmp_path):
    game = _game("the-ancient-world")
    written, diags = build_game(game, tmp_path / "packed", pack=True)
    assert written and not [d for d in diags if d.is_error]
    poker = [d for d in game.decks.values() if d.printed and d.size == "poker"]
    cards = sum(c.count for d in poker for c in d.cards)
    alone = sum(-(-sum(c.count for c in d.cards) // 9) for d in poker)  # 9 poker cards a sheet
    assert (cards, alone) == (181, 25)  # the count: 25 sheets one deck a file
    pages = len(PdfReader(tmp_path / "packed" / "cards-poker.pdf").pages)
    assert pages == 2 * -(-cards // 9) == 42  # 21 sheets, each with its page of backs
    guide = _text(tmp_path / "packed" / GUIDE)
    assert "cards-poker.pdf" in guide and "181 pieces of 64×89 mm" in guide
    assert not (tmp_path / "packed" / "cards-empire-a.pdf").exists()


def _pages_without_scale_bar(folder) -> list[str]:
    missing = []
    for path in sorted(folder.glob("*.pdf")):
        if path.name == PRINT_ALL:  # the others joined
            continue
        for i, page in enumerate(PdfReader(path).pages, 1):
            if "50 mm" not in (page.extract_text() or ""):
                missing.append(f"{path.name} p.{i}")
    return missing


def test_every_page_of_the_kit_carries_the_50_mm_scale_bar(taw_kit):
    assert _pages_without_scale_bar(taw_kit) == []


@pytest.mark.parametrize("name", ["age-of-civilization", "ancient-civilizations", "antike"])
def test_every_page_of_the_other_kits_carries_it_too(name, tmp_path):
    """Card sheets, the tiled board and its whole print, the record page (and its fillable
    copy), tokens, the guide's every page, the rulesheet and the symbol key; Antike's map tiles and
    its whole A2 map."""
    written, diags = build_game(_game(name), tmp_path / name)
    assert written and not [d for d in diags if d.is_error]
    assert _pages_without_scale_bar(tmp_path / name) == []
