"""Layouts: every user error is a Diagnostic naming the card; text fits; schemas; extends."""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

import jsonschema
import pytest

sys.path.insert(0, str(Path(__file__).parent / "fixtures" / "render"))
from support import GAME, Card, Deck, GameDef  # noqa: E402

from pnp import paths  # noqa: E402
from pnp.diagnostics import Position  # noqa: E402
from pnp.render.geometry import card_size  # noqa: E402
from pnp.render.layout import load_layout_file, load_library  # noqa: E402
from pnp.render.sheets import render_deck_sheets  # noqa: E402

SCHEMA_LINE = "# yaml-language-server: $schema=../schemas/layout.schema.json\n"
CARD_LINE, FIELD_LINE = 12, 14


def game_with(tmp_path: Path, elements: str, fields: dict | None = None) -> GameDef:
    """A one-card game whose front layout has the given elements (YAML, indented 6)."""
    folder = tmp_path / "game"
    (folder / "art").mkdir(parents=True)
    (folder / "art" / "ok.png").write_bytes((GAME / "art" / "red.png").read_bytes())
    (folder / "layouts.yaml").write_text(
        SCHEMA_LINE + "layouts:\n  - id: test-front\n    size: poker\n    elements:\n" + elements)
    doc, diags = load_layout_file(folder / "layouts.yaml")
    assert doc is not None and not diags, diags
    deck_file = str(folder / "decks.yaml")
    fields = {"name": "Hero", **(fields or {})}
    card = Card("hero", "Hero", 1, fields, Position(deck_file, CARD_LINE, 9),
                {k: Position(deck_file, FIELD_LINE, 17) for k in fields})
    deck = Deck("heroes", "Heroes", "poker", "test-front", None, (card,), False,
                Position(deck_file, 3, 5))
    return GameDef("t", "Test", folder, {"heroes": deck}, (doc,))


def errors_of(tmp_path, elements, fields=None):
    paths_, diags = render_deck_sheets(game_with(tmp_path, elements, fields), out_dir=tmp_path / "o")
    assert paths_ == []  # a build with errors writes nothing
    errs = [d for d in diags if d.is_error]
    assert errs
    return errs


def text_el(text: str, extra: str = "") -> str:
    return (f"      - {{id: t, type: text, text: {json.dumps(text)}, x: 5mm, y: 5mm, "
            f"width: 50mm, height: 10mm{extra}}}\n")


def test_unknown_field_names_deck_card_and_field(tmp_path):
    (d,) = errors_of(tmp_path, text_el("{{ card.power }}"))
    assert d.code == "PNP-R011"
    assert "deck 'heroes'" in d.message and "card 'hero'" in d.message and "power" in d.message
    assert (d.file, d.line) == (str(tmp_path / "game" / "decks.yaml"), CARD_LINE)


def test_unknown_inline_icon(tmp_path):
    (d,) = errors_of(tmp_path, text_el("Pay 2 {gem}"))
    assert d.code == "PNP-R021" and "card 'hero'" in d.message and "gem" in d.message


def test_unknown_icon_element(tmp_path):
    el = "      - {id: i, type: icon, icon: '{{ card.symbol }}', x: 5mm, y: 5mm, width: 8mm, height: 8mm}\n"
    (d,) = errors_of(tmp_path, el, {"symbol": "gem"})
    assert d.code == "PNP-R021" and "card 'hero'" in d.message
    assert d.line == FIELD_LINE  # points at the field holding the bad name


def test_overflowing_text_names_the_field_and_its_position(tmp_path):
    (d,) = errors_of(tmp_path, text_el("{{ card.text }}", ", min_size: 7pt"),
                     {"text": "Far too many words for a small box. " * 12})
    assert d.code == "PNP-R020"
    assert "deck 'heroes'" in d.message and "card 'hero'" in d.message and "'text'" in d.message
    assert d.line == FIELD_LINE


def image_el(path: str) -> str:
    return (f"      - {{id: art, type: image, file: {json.dumps(path)}, x: 0, y: 0, "
            f"width: 20mm, height: 20mm}}\n")


def test_missing_image(tmp_path):
    (d,) = errors_of(tmp_path, image_el("art/{{ card.id }}.png"))
    assert d.code == "PNP-R030" and "card 'hero'" in d.message and "hero.png" in d.message


@pytest.mark.parametrize("path", ["../../outside.png", "/etc/passwd.png", "art/../../x.png"])
def test_image_path_may_not_leave_the_game_folder(tmp_path, path):
    (tmp_path / "outside.png").write_bytes(b"")
    (d,) = errors_of(tmp_path, image_el(path))
    assert d.code == "PNP-R031" and "card 'hero'" in d.message


def test_svg_needs_svglib(tmp_path):
    (tmp_path / "game").mkdir()
    (tmp_path / "game" / "a.svg").write_text("<svg/>")
    (d,) = errors_of(tmp_path, image_el("a.svg"))
    assert d.code == "PNP-R032" and "svglib" in d.hint


def test_template_syntax_error_names_the_layout_deck_and_card(tmp_path):
    (d,) = errors_of(tmp_path, text_el("{{ card.name "))
    assert d.code == "PNP-R010"
    assert "deck 'heroes'" in d.message and "card 'hero'" in d.message
    assert d.file == str(tmp_path / "game" / "layouts.yaml")


@pytest.mark.parametrize("source", ["{{ card.__class__.__mro__ }}",
                                    "{{ ''.__class__.__base__.__subclasses__() }}",
                                    "{{ card.items.__globals__ }}"])
def test_sandbox_violations_are_diagnostics(tmp_path, source):
    (d,) = errors_of(tmp_path, text_el(source))
    assert d.code in ("PNP-R012", "PNP-R011") and "card 'hero'" in d.message
    if "__subclasses__" in source:
        assert d.code == "PNP-R012"


def test_runtime_template_error(tmp_path):
    (d,) = errors_of(tmp_path, text_el("{{ 1 / 0 }}"))
    assert d.code == "PNP-R013" and "card 'hero'" in d.message


def test_unknown_layout_in_a_deck(tmp_path):
    game = game_with(tmp_path, text_el("x"))
    deck = game.decks["heroes"]
    bad = Deck(deck.id, deck.name, deck.size, "no-such-layout", None, deck.cards, False,
               deck.origin)
    _, diags = render_deck_sheets(GameDef("t", "T", game.folder, {"heroes": bad},
                                          game.layout_documents), out_dir=tmp_path)
    assert [d.code for d in diags] == ["PNP-R002"] and diags[0].line == 3


def test_extends_overrides_and_removes_elements_by_id(tmp_path):
    folder = tmp_path
    (folder / "l.yaml").write_text(SCHEMA_LINE + """layouts:
  - id: red-front
    extends: poker-front
    background: "#aa0000"
    elements:
      - {id: title, color: "#ffffff", size: 14pt}
      - {id: flavor, remove: true}
      - {id: stamp, type: text, text: "NEW", x: 40mm, y: 70mm, width: 20mm, height: 5mm}
""")
    lib, diags = load_library(None, extra_files=[folder / "l.yaml"])
    assert not diags
    data, _, d = lib.resolve("red-front")
    assert not d
    ids = [e.get("id") for e in data["elements"]]
    assert "flavor" not in ids and ids[-1] == "stamp" and ids[0] == "panel"
    title = next(e for e in data["elements"] if e.get("id") == "title")
    assert title["color"] == "#ffffff" and title["size"] == "14pt" and title["font"] == "bold"
    assert data["background"] == "#aa0000"
    layout, d = lib.compile("red-front", card_size("poker"))
    assert layout is not None and not d


def test_extends_cycle_is_reported(tmp_path):
    (tmp_path / "l.yaml").write_text(SCHEMA_LINE + """layouts:
  - {id: a, extends: b}
  - {id: b, extends: a}
""")
    lib, _ = load_library(None, extra_files=[tmp_path / "l.yaml"])
    _, _, diags = lib.resolve("a")
    assert diags and diags[0].code == "PNP-R003"


def test_a_layout_for_another_size_warns(tmp_path):
    lib, _ = load_library()
    layout, diags = lib.compile("poker-front", card_size("tarot"))
    assert layout is not None and [d.code for d in diags] == ["PNP-R041"]


def test_shipped_templates_validate_against_the_layout_schema():
    schema = json.loads((paths.SCHEMAS / "layout.schema.json").read_text())
    validator = jsonschema.Draft202012Validator(schema)
    files = sorted(paths.TEMPLATES.glob("*.yaml"))
    assert {f.name for f in files} >= {"cards.yaml", "icons.yaml"}
    for f in files:
        doc, diags = load_layout_file(f)
        assert doc is not None and not diags, diags
        assert not list(validator.iter_errors(doc.data))
    lib, diags = load_library()
    assert not diags
    assert {"poker-front", "poker-back"} <= set(lib.sources)
    assert {"coin", "food", "sword"} <= set(lib.icons)
    for icon in ("coin", "food", "sword"):
        assert lib.icons[icon].file.is_file()


def test_the_fixture_decks_validate_against_the_deck_schema():
    import yaml

    schema = json.loads((paths.SCHEMAS / "deck.schema.json").read_text())
    data = yaml.safe_load((GAME / "decks.yaml").read_text())
    assert not list(jsonschema.Draft202012Validator(schema).iter_errors(data))
    data["decks"][0]["cards"][0]["feilds"] = {}
    assert list(jsonschema.Draft202012Validator(schema).iter_errors(data))


def test_a_typo_in_a_layout_is_a_schema_error(tmp_path):
    (tmp_path / "l.yaml").write_text(SCHEMA_LINE + """layouts:
  - id: x
    elements:
      - {id: t, type: text, text: hi, fnot: bold}
      - {id: r, type: rect, fill: red, radius: 2mm, text: no}
      - {id: s, type: text, text: hi, size: 12}
""")
    doc, diags = load_layout_file(tmp_path / "l.yaml")
    assert len(diags) >= 3 and {d.line for d in diags} == {5, 6, 7}


@pytest.mark.parametrize("schema_name", ["layout.schema.json", "deck.schema.json"])
def test_every_schema_property_has_a_description(schema_name):
    schema = json.loads((paths.SCHEMAS / schema_name).read_text())
    missing = []

    def walk(node, where):
        if isinstance(node, dict):
            for name, sub in (node.get("properties") or {}).items():
                if not isinstance(sub, dict) or "description" not in sub:
                    missing.append(f"{where}/{name}")
            for k, v in node.items():
                if k != "if":  # conditions test a property, they do not define one
                    walk(v, f"{where}/{k}")
        elif isinstance(node, list):
            for i, v in enumerate(node):
                walk(v, f"{where}/{i}")

    walk(schema, "")
    assert not missing


@pytest.mark.parametrize("fit", ["contain", "cover", "stretch"])
def test_a_photo_is_embedded_at_print_resolution_not_full_size(tmp_path, fit):
    import random

    from PIL import Image
    from pypdf import PdfReader

    rng = random.Random(1)  # noise: a photo-like image that does not compress
    photo = Image.frombytes("RGB", (3000, 2000), rng.randbytes(18_000_000))
    game = game_with(tmp_path, f"      - {{id: art, type: image, file: art/photo.png, x: 0, y: 0, "
                               f"width: 50.8mm, height: 33.87mm, fit: {fit}}}\n")
    photo.save(game.folder / "art" / "photo.png")
    paths_, diags = render_deck_sheets(game, out_dir=tmp_path / "o")
    assert paths_ and not [d for d in diags if d.is_error], diags
    (image,) = PdfReader(paths_[0]).pages[0].images
    # 50.8 mm = 2 in: 600 pixels at 300 dpi (the 3000-pixel original would be 18 MB raw)
    assert 590 <= image.image.width <= 610, image.image.size
    assert paths_[0].stat().st_size < 2_000_000


def test_the_heart_icon_is_drawn_not_a_missing_glyph(tmp_path):
    """The shared heart icon is a drawn shape: Vera has no '♥' glyph, so a label would print
    nothing. The card's page must carry the heart's curves in the icon's red."""
    import pypdf

    el = "      - {id: i, type: icon, icon: heart, x: 5mm, y: 5mm, width: 12mm, height: 12mm}\n"
    paths_, diags = render_deck_sheets(game_with(tmp_path, el), out_dir=tmp_path / "o")
    assert paths_ and not [d for d in diags if d.is_error], diags
    def streams(holder) -> str:  # cards and icons are drawn once each, as forms
        xobjects = holder.get("/Resources", {}).get("/XObject", {})
        return "".join(x.get_object().get_data().decode("latin-1") + streams(x.get_object())
                       for name, x in xobjects.items()
                       if "pnpScaleBar" not in name)  # the margin's bar, with its '50 mm

    page = streams(pypdf.PdfReader(paths_[0]).pages[0])
    assert ".776471 .156863 .156863 rg" in page  # #c62828
    assert len(re.findall(r"\d c\b", page)) >= 4  # its Bézier lobes
    assert "BT" not in page  # no text at all: nothing left to a font that lacks the glyph


def test_a_character_the_font_lacks_is_a_warning_naming_card_and_character(tmp_path):
    """Vera has no '♥': the card still prints, but the designer hears it would print blank,
    at the card's field, with the code point."""
    paths_, diags = render_deck_sheets(game_with(tmp_path, text_el("{{ card.cost }}"),
                                                 {"cost": "Pay 1 \u2665"}),
                                       out_dir=tmp_path / "o")
    assert paths_  # a warning writes the kit
    (d,) = [d for d in diags if d.code == "PNP-R023"]
    assert d.severity == "warning" and "card 'hero'" in d.message and "U+2665" in d.message
    assert d.line == FIELD_LINE
    _, clean = render_deck_sheets(game_with(tmp_path / "b", text_el("Pay 1 gold, ×2 é")),
                                  out_dir=tmp_path / "o2")
    assert not [d for d in clean if d.code == "PNP-R023"]


def test_an_icon_label_the_font_lacks_is_a_warning(tmp_path):
    (tmp_path / "icons.yaml").write_text(
        SCHEMA_LINE + "icons:\n  luck: {shape: circle, fill: green, label: \"\u2663\"}\n"
        "  ok: {shape: circle, fill: green, label: VP}\n")
    _, diags = load_library(None, extra_files=[tmp_path / "icons.yaml"])
    found = [d for d in diags if d.code == "PNP-R023"]
    assert len(found) == 1 and "luck" in found[0].message and "U+2663" in found[0].message


@pytest.mark.parametrize("picture", ["ok.png", "photo.jpg"])
def test_a_card_with_a_picture_prints_the_same_bytes_wherever_the_game_folder_lies(tmp_path,
                                                                                  picture):
    """reportlab names an image it is given by file name after that name, so the absolute path
    of the game folder used to end up in the PDF (two folders, two different files)."""
    from PIL import Image

    pdfs = []
    for where in ("here", "somewhere/else/entirely"):
        game = game_with(tmp_path / where, f"      - {{id: art, type: image, file: art/{picture}, "
                                           "x: 0, y: 0, width: 20mm, height: 20mm}\n")
        if picture.endswith(".jpg"):
            Image.new("RGB", (40, 40), (200, 40, 40)).save(game.folder / "art" / picture)
        paths_, diags = render_deck_sheets(game, out_dir=tmp_path / where / "o")
        assert paths_ and not [d for d in diags if d.is_error], diags
        pdfs.append(paths_[0].read_bytes())
    assert pdfs[0] == pdfs[1]
