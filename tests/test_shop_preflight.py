"""`pnp preflight`: each check of a shop folder, fed the broken file it exists to catch, and the
bundled games' shop folders passing it."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest
from click.testing import CliRunner
from PIL import Image

from pnp.render.shops import check, keyart
from pnp.render.shops.check import check_shop
from pnp.render.shops.profile import load_profile

pytest.importorskip("pypdfium2", reason="the shop preflight reads pages with pypdfium2")

BLEED = 9.0  # 1/8 in
POKER = (180.0, 252.0)  # 2.5 x 3.5 in
PAGE = (POKER[0] + 2 * BLEED, POKER[1] + 2 * BLEED)


RGB = {"colour": "rgb", "ink_limit": None, "pdfx": "none"}  # the checks of page layout alone


def profile(name: str = "dtc", **changes):
    """A bundled profile; DriveThruCards in RGB unless `changes` say otherwise (its colour
    checks have their own tests here and in test_shop_cmyk.py)."""
    from dataclasses import replace

    prof, diags = load_profile(name)
    assert prof is not None and not diags
    return replace(prof, **{**(RGB if name == "dtc" else {}), **changes})


def card_pdf(pages: list[dict], trim_at: tuple[float, float, float, float] | None = None,
             font: str = "Vera") -> bytes:
    """One card side a page; each page dict: fill (rgb|cmyk tuple), text and where, image."""
    from pnp.render.pdfwrite import new_canvas

    buf = io.BytesIO()
    c = new_canvas(buf, PAGE)
    for spec in pages:
        c.setPageSize(PAGE)
        c.setTrimBox(trim_at or (BLEED, BLEED, BLEED + POKER[0], BLEED + POKER[1]))
        c.setBleedBox((0, 0, *PAGE))
        fill = spec.get("fill", (0.2, 0.3, 0.4))
        if len(fill) == 4:
            c.setFillColorCMYK(*fill)
        else:
            c.setFillColorRGB(*fill)
        c.rect(0, 0, *PAGE, stroke=0, fill=1)
        if "text" in spec:
            c.setFillColorCMYK(0, 0, 0, 1) if len(fill) == 4 else c.setFillColorRGB(1, 1, 1)
            c.setFont(font, 10)
            c.drawString(*spec.get("at", (40, 130)), spec["text"])
        if "image" in spec:
            from reportlab.lib.utils import ImageReader

            px, inches = spec["image"]
            c.drawImage(ImageReader(Image.new("RGB", (px, px), "red")), 40, 40,
                        width=inches * 72, height=inches * 72)
        c.showPage()
    c.save()
    return buf.getvalue()


def shop_folder(tmp_path: Path, pdf: bytes, sides: list[str], kind: str = "cards") -> Path:
    folder = tmp_path / "shop-dtc"
    folder.mkdir(parents=True)
    (folder / "deck.pdf").write_bytes(pdf)
    entry = {"file": "deck.pdf", "kind": kind, "deck": "deck", "pages": len(sides),
             "sides": sides, "trim_pt": list(POKER)}
    (folder / "shop.json").write_text(json.dumps({"shop": "dtc", "files": [entry]}))
    return folder


BACK = {"fill": (0.4, 0.25, 0.2), "text": "BACK"}


def front(name: str) -> dict:
    return {"fill": (0.95, 0.95, 0.9), "text": name}


def codes(diags) -> list[str]:
    return [d.code for d in diags if d.is_error]


def test_a_good_back_first_deck_passes(tmp_path):
    pdf = card_pdf([BACK, front("one"), BACK, front("two")])
    assert check_shop(shop_folder(tmp_path, pdf, ["back", "front"] * 2), profile()) == []


def test_a_missing_bleed_edge_is_found(tmp_path):
    # the TrimBox touches the page's left edge: no bleed there
    pdf = card_pdf([BACK, front("one")], trim_at=(0, BLEED, POKER[0], BLEED + POKER[1]))
    diags = check_shop(shop_folder(tmp_path, pdf, ["back", "front"]), profile())
    assert check.R_BOXES in codes(diags)
    assert any("left 0.00 mm" in d.message and "page 1" in d.message for d in diags)


def test_a_150_dpi_image_is_found(tmp_path):
    pdf = card_pdf([BACK, {**front("one"), "image": (150, 1.0)}])  # 150 px over 1 inch
    diags = check_shop(shop_folder(tmp_path, pdf, ["back", "front"]), profile())
    found = [d for d in diags if d.code == check.R_DPI]
    assert found and "page 2, image 1" in found[0].message and "150 dpi" in found[0].message


def test_a_300_dpi_image_passes(tmp_path):
    pdf = card_pdf([BACK, {**front("one"), "image": (300, 1.0)}])
    assert check.R_DPI not in codes(check_shop(shop_folder(tmp_path, pdf, ["back", "front"]),
                                               profile()))


def test_an_rgb_object_in_a_cmyk_profile_is_found(tmp_path):
    cmyk = profile(colour="cmyk", ink_limit=300)  # CMYK without PDF/X: the colours alone
    good = card_pdf([{"fill": (0, 0, 0, 1), "text": "BACK"}, {"fill": (0, 0, 0.1, 0),
                                                              "text": "one"}])
    assert codes(check_shop(shop_folder(tmp_path / "a", good, ["back", "front"]), cmyk)) == []
    bad = card_pdf([{"fill": (0, 0, 0, 1), "text": "BACK"}, front("one")])  # RGB fill
    diags = check_shop(shop_folder(tmp_path / "b", bad, ["back", "front"]), cmyk)
    found = [d for d in diags if d.code == check.R_COLOUR]
    assert found and "page 2" in found[0].message and "RGB colour 0.95 0.95 0.9" in found[0].message


def test_ink_over_the_limit_is_found(tmp_path):
    cmyk = profile(colour="cmyk", ink_limit=240)
    pdf = card_pdf([{"fill": (1, 1, 1, 1), "text": "BACK"}, {"fill": (0, 0, 0, 0.2),
                                                             "text": "one"}])
    diags = check_shop(shop_folder(tmp_path, pdf, ["back", "front"]), cmyk)
    found = [d for d in diags if d.code == check.R_INK]
    assert found and "400% ink" in found[0].message and "page 1" in found[0].message


def test_text_in_the_bleed_is_an_error_and_near_the_cut_a_warning(tmp_path):
    pdf = card_pdf([BACK, {**front("one"), "text": "Overhang", "at": (3, 130)}])
    diags = check_shop(shop_folder(tmp_path / "a", pdf, ["back", "front"]), profile())
    found = [d for d in diags if d.code == check.R_TEXT]
    assert found and found[0].is_error and "'Overhang'" in found[0].message
    near = card_pdf([BACK, {**front("one"), "text": "Close", "at": (BLEED + 4, 130)}])
    diags = check_shop(shop_folder(tmp_path / "b", near, ["back", "front"]), profile())
    assert [(d.code, d.severity) for d in diags] == [(check.R_TEXT, "warning")]


def art_pdf(icons: list[tuple[float, float, float]], images: list[tuple] = (),
            in_form: tuple[float, float] | None = None) -> bytes:
    """A back and a front whose front places pnp icon forms (x, y, size in points from the
    page's corner) as the card renderer does, optionally inside a static form moved by
    `in_form`, and images (x, y, w, h)."""
    from reportlab.lib.utils import ImageReader

    from pnp.render.pdfops import place_form
    from pnp.render.pdfwrite import new_canvas

    buf = io.BytesIO()
    c = new_canvas(buf, PAGE)
    c.beginForm("pnpicon0", 0, 0, 100, 100)  # an icon is drawn once, in 100 units
    c.circle(50, 50, 45, stroke=0, fill=1)
    c.endForm()
    for side in ("back", "front"):
        c.setPageSize(PAGE)
        c.setTrimBox((BLEED, BLEED, BLEED + POKER[0], BLEED + POKER[1]))
        c.setFillColorRGB(0.9, 0.9, 0.85)
        c.rect(0, 0, *PAGE, stroke=0, fill=1)
        if side == "front":
            if in_form is not None:
                c.beginForm("pnpstatic0", 0, 0, *PAGE)
                for x, y, size in icons:
                    place_form(c, "pnpicon0", x, y, size / 100)
                c.endForm()
                place_form(c, "pnpstatic0", *in_form)
            else:
                for x, y, size in icons:
                    place_form(c, "pnpicon0", x, y, size / 100)
            for x, y, w, h in images:
                c.drawImage(ImageReader(Image.new("RGB", (1200, 1200), "red")), x, y, w, h)
        c.showPage()
    c.save()
    return buf.getvalue()


def key_art(tmp_path, pdf) -> list:
    diags = check_shop(shop_folder(tmp_path, pdf, ["back", "front"]), profile())
    return [d for d in diags if d.code == keyart.R_KEY_ART]


def test_key_art_inside_the_safe_zone_passes_and_a_full_bleed_background_is_not_key_art(
        tmp_path):
    middle = (80.0, 120.0, 30.0)  # far from every edge
    background = (0.0, 0.0, *PAGE)  # covers trim and bleed
    assert key_art(tmp_path / "a", art_pdf([middle], [background])) == []


def test_an_icon_near_the_cut_is_a_warning_and_past_the_trim_an_error(tmp_path):
    # DriveThruCards' safe zone is 1/8 in (9 pt): an icon 2 pt inside the left trim is in it
    near = key_art(tmp_path / "a", art_pdf([(80.0, 120.0, 30.0), (BLEED + 2, 120.0, 20.0)]))
    assert [(d.severity, d.code) for d in near] == [("warning", keyart.R_KEY_ART)]
    assert "page 2, icon 2 (7.1×7.1 mm)" in near[0].message
    assert "0.71 mm from the left cut" in near[0].message
    past = key_art(tmp_path / "b", art_pdf([(PAGE[0] - BLEED - 10, 120.0, 20.0)]))
    assert [d.severity for d in past] == ["error"]
    assert "page 2, icon 1" in past[0].message and "3.53 mm past the right trim" in past[0].message


def test_an_icon_inside_a_moved_form_and_an_image_are_found_where_they_print(tmp_path):
    # the icon sits at x 80 in its form, the form is placed 100 pt to the right: it prints at
    # 180 to 200, past the right trim (189)
    moved = key_art(tmp_path / "a", art_pdf([(80.0, 120.0, 20.0)], in_form=(100.0, 0.0)))
    assert [d.severity for d in moved] == ["error"] and "icon 1" in moved[0].message
    unmoved = key_art(tmp_path / "b", art_pdf([(80.0, 120.0, 20.0)], in_form=(0.0, 0.0)))
    assert unmoved == []
    banner = key_art(tmp_path / "c", art_pdf([], [(0.0, 200.0, PAGE[0], 70.0)]))  # not all
    assert [d.severity for d in banner] == ["error"]
    assert "page 2, image 1 (1200×1200 px" in banner[0].message


def test_fronts_first_in_a_back_first_shop_is_found(tmp_path):
    pdf = card_pdf([front("one"), BACK, front("two"), BACK])
    diags = check_shop(shop_folder(tmp_path / "a", pdf, ["front", "back"] * 2), profile())
    assert check.R_ORDER in codes(diags)
    # shop.json says back first, but the pages are fronts first: the deck's one back (the
    # image on three pages) is on pages 2, 4, 6, not 1, 3, 5
    swapped = card_pdf([front("one"), BACK, front("two"), BACK, front("three"), BACK])
    diags = check_shop(shop_folder(tmp_path / "b", swapped, ["back", "front"] * 3), profile())
    assert [d.message for d in diags if d.code == check.R_ORDER] == [
        "deck.pdf, page 1: a front where the deck's back belongs (DriveThruCards wants "
        "back-first)"]


def test_a_page_count_that_is_not_the_manifests_is_found(tmp_path):
    pdf = card_pdf([BACK, front("one"), BACK])
    diags = check_shop(shop_folder(tmp_path, pdf, ["back", "front"] * 2), profile())
    assert any(d.code == check.R_ORDER and "3 pages" in d.message for d in diags)


def test_a_font_that_is_not_embedded_is_found(tmp_path):
    pdf = card_pdf([BACK, front("one")], font="Helvetica")  # a base-14 font: not embedded
    diags = check_shop(shop_folder(tmp_path, pdf, ["back", "front"]), profile())
    assert any(d.code == check.R_FONT and "Helvetica" in d.message for d in diags)


def test_a_png_of_the_wrong_size_or_resolution_is_found(tmp_path):
    folder = tmp_path / "shop-tgc"
    (folder / "deck").mkdir(parents=True)
    Image.new("RGB", (825, 1125), "white").save(folder / "deck" / "good.png", dpi=(300, 300))
    Image.new("RGB", (750, 1050), "white").save(folder / "deck" / "small.png", dpi=(300, 300))
    Image.new("RGB", (825, 1125), "white").save(folder / "deck" / "low.png", dpi=(150, 150))
    entry = {"folder": "deck", "kind": "cards", "pixels": [825, 1125],
             "files": ["deck/good.png", "deck/small.png", "deck/low.png"]}
    (folder / "shop.json").write_text(json.dumps({"shop": "tgc", "files": [entry]}))
    diags = check_shop(folder, profile("tgc"))
    assert sorted((Path(d.file).name, d.code) for d in diags) == [
        ("low.png", check.R_DPI), ("small.png", check.R_PIXELS)]


def test_a_missing_file_and_a_folder_without_manifest_are_found(tmp_path):
    folder = shop_folder(tmp_path, card_pdf([BACK, front("one")]), ["back", "front"])
    (folder / "deck.pdf").unlink()
    assert codes(check_shop(folder, profile())) == [check.R_MANIFEST]
    assert codes(check_shop(tmp_path, profile())) == [check.R_MANIFEST]


def test_the_command_exits_1_on_a_broken_folder_and_0_on_a_good_one(tmp_path):
    from pnp.cli import main

    rgb_dtc = tmp_path / "rgb-dtc.yaml"  # a user's profile: DriveThruCards' layout in RGB
    rgb_dtc.write_text(Path(load_profile("dtc")[0].source).read_text().replace(
        "colour: cmyk\nink_limit: 240\npdfx: x-1a\n", "colour: rgb\n"))
    good = shop_folder(tmp_path / "good", card_pdf([BACK, front("one")]), ["back", "front"])
    bad = shop_folder(tmp_path / "bad", card_pdf([front("one"), BACK]), ["front", "back"])
    ok = CliRunner().invoke(main, ["preflight", str(good), "--shop", str(rgb_dtc)])
    assert ok.exit_code == 0, ok.output
    failed = CliRunner().invoke(main, ["preflight", str(bad), "--format", "json", "--shop",
                                       str(rgb_dtc)])
    assert failed.exit_code == 1
    doc = json.loads(failed.stdout)
    assert not doc["ok"] and doc["diagnostics"][0]["code"] == check.R_ORDER
    usage = CliRunner().invoke(main, ["preflight", str(tmp_path)])  # no shop.json, no --shop
    assert usage.exit_code == 2


@pytest.mark.parametrize("shop", ["dtc", "home"])  # tgc: tests/test_shop_profiles.py
def test_the_ancient_worlds_shop_folders_pass_their_preflight(game_defs, tmp_path, shop):
    """render_shop runs the preflight on what it wrote; the bundled profiles pass it."""
    from pnp.render.shops.deliver import render_shop

    paths, diags = render_shop(game_defs("the-ancient-world"), tmp_path / f"shop-{shop}",
                               profile(shop))
    assert paths and not [d for d in diags if d.code.startswith(("PNP-R18", "PNP-R19"))
                          and d.code != "PNP-R180"], diags


def test_build_shop_keeps_the_previous_kit_when_its_preflight_fails(ac, tmp_path, monkeypatch):
    """A shop file that comes out wrong (here fronts first for DriveThruCards) fails the build
    through its preflight, and nothing is swapped in."""
    from pnp.render.build import build_game
    from pnp.render.shops import deliver

    drawn = deliver.draw_print_shop
    monkeypatch.setattr(deliver, "draw_print_shop",
                        lambda c, copies, drawer, bleed, back_first: drawn(c, copies, drawer,
                                                                           bleed, False))
    kit = tmp_path / "ancient-civilizations"
    paths, diags = build_game(ac, kit, shop=profile("dtc"))
    assert not paths and any(d.code == check.R_ORDER for d in diags), diags
    assert not kit.exists()
