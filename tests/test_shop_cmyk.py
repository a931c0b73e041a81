"""CMYK and PDF/X-1a shop files: pnp's ICC profile, colour conversion with the ink limit, the
OutputIntent, flattening what PDF/X-1a forbids, and the preflight that checks all of it."""

from __future__ import annotations

import io
import shutil
import subprocess
from dataclasses import replace

import pytest
from PIL import Image, ImageCms

pikepdf = pytest.importorskip("pikepdf", reason="CMYK shop files are written with pikepdf")
pytest.importorskip("pypdfium2", reason="flattening and preflight read pages with pypdfium2")

from pnp.render.shops import check, icc  # noqa: E402
from pnp.render.shops.pdfx import convert_pdf, ink_limited, rgb_colour  # noqa: E402
from pnp.render.shops.profile import load_profile  # noqa: E402

PAGE = (198.0, 270.0)  # poker + 1/8 in bleed


def dtc():
    prof, diags = load_profile("dtc")
    assert prof is not None and not diags
    assert (prof.colour, prof.ink_limit, prof.pdfx) == ("cmyk", 240, "x-1a")
    return prof


def test_the_icc_profile_is_a_cmyk_printer_profile_littlecms_reads():
    data = icc.cmyk_profile(240)
    assert data == icc.cmyk_profile(240) and data[36:40] == b"acsp"
    assert (data[12:16], data[16:20], data[20:24]) == (b"prtr", b"CMYK", b"Lab ")
    prof = ImageCms.ImageCmsProfile(io.BytesIO(data))
    assert ImageCms.getProfileDescription(prof).strip() == "pnp generic CMYK, 240% total ink"
    to_cmyk = ImageCms.buildTransform(ImageCms.createProfile("sRGB"), prof, "RGB", "CMYK")
    white = ImageCms.applyTransform(Image.new("RGB", (1, 1), "white"), to_cmyk)
    black = ImageCms.applyTransform(Image.new("RGB", (1, 1), "black"), to_cmyk)
    assert white.getpixel((0, 0)) == (0, 0, 0, 0)
    assert sum(black.getpixel((0, 0))) <= 240 * 2.55 + 4  # the limit is in the profile


def test_ink_limit_takes_colour_out_of_cmy_and_keeps_black():
    c, m, y, k = ink_limited((1, 1, 1, 1), 240)  # 400 % in
    assert k == 1 and c + m + y == pytest.approx(1.4) and c == m == y
    assert ink_limited((0.5, 0.2, 0, 0.1), 240) == (0.5, 0.2, 0.0, 0.1)  # 80 %: unchanged


def test_greys_are_black_ink_only_and_colours_stay_within_the_limit():
    assert rgb_colour((0, 0, 0), 240) == (0, 0, 0, 1)
    assert rgb_colour((0.5, 0.5, 0.5), 240) == (0, 0, 0, 0.5)
    red = rgb_colour((1, 0, 0), 240)
    assert red[1] > 0.9 and red[2] > 0.9 and red[0] < 0.05 and red[3] == 0
    assert sum(rgb_colour((0.1, 0.05, 0.3), 240)) <= 2.4 + 1e-9


def rgb_pdf(image_mode: str | None = "RGB", text: str = "Aqueduct") -> bytes:
    """A card page in RGB: a dark background, a red box, grey text, and an image."""
    from reportlab.lib.utils import ImageReader

    from pnp.render.pdfwrite import new_canvas

    buf = io.BytesIO()
    c = new_canvas(buf, PAGE)
    c.setTrimBox((9, 9, 189, 261))
    c.setBleedBox((0, 0, *PAGE))
    c.setFillColorRGB(0.05, 0.05, 0.2)  # 'rich' dark blue: over 240 % in a plain conversion
    c.rect(0, 0, *PAGE, stroke=0, fill=1)
    c.setFillColorRGB(0.9, 0.1, 0.1)
    c.rect(40, 150, 100, 60, stroke=0, fill=1)
    c.setFillColorRGB(0.2, 0.2, 0.2)
    c.setFont("Vera", 10)
    c.drawString(40, 120, text)
    if image_mode:
        im = Image.new(image_mode, (150, 150), (20, 160, 60) + ((128,) if image_mode == "RGBA"
                                                               else ()))
        c.drawImage(ImageReader(im), 40, 30, width=36, height=36,  # 300 dpi as placed
                    mask="auto" if image_mode == "RGBA" else None)
    c.showPage()
    c.save()
    return buf.getvalue()


def operators(pdf) -> set[str]:
    found = set()
    for page in pdf.pages:
        found |= {str(op) for _, op in pikepdf.parse_content_stream(page)}
        for xobj in page.Resources.get("/XObject", {}).values():
            if xobj.get("/Subtype") == "/Form":
                found |= {str(op) for _, op in pikepdf.parse_content_stream(xobj)}
    return found


def test_a_converted_pdf_is_cmyk_pdfx_1a_with_its_output_intent(tmp_path):
    data, flattened = convert_pdf(rgb_pdf(), dtc(), "card")
    assert flattened == 0  # vectors and text stay vectors
    assert convert_pdf(rgb_pdf(), dtc(), "card")[0] == data  # deterministic
    with pikepdf.open(io.BytesIO(data)) as pdf:
        assert pdf.pdf_version == "1.4"
        ops = operators(pdf)
        assert {"k"} <= ops and not ops & {"rg", "RG", "sc", "scn"}
        assert str(pdf.trailer.Info.GTS_PDFXVersion) == "PDF/X-1a:2003"
        assert pdf.trailer.Info.Trapped == pikepdf.Name("/False")
        (intent,) = pdf.Root.OutputIntents
        assert intent.S == pikepdf.Name("/GTS_PDFX") and intent.DestOutputProfile.N == 4
        assert intent.DestOutputProfile.read_bytes() == icc.cmyk_profile(240)
        (image,) = [x for x in pdf.pages[0].Resources.XObject.values()
                    if x.get("/Subtype") == "/Image"]
        assert image.ColorSpace == pikepdf.Name("/DeviceCMYK")
        fills = [[float(v) for v in operands] for operands, op in
                 pikepdf.parse_content_stream(pdf.pages[0]) if str(op) == "k"]
        assert max(sum(f) for f in fills) <= 2.4 + 1e-6  # the dark blue was brought down
        assert [0, 0, 0, 0.8] in fills  # the grey text: black ink alone
    if shutil.which("qpdf"):
        (tmp_path / "card.pdf").write_bytes(data)
        run = subprocess.run(["qpdf", "--check", str(tmp_path / "card.pdf")],
                             capture_output=True)
        assert run.returncode == 0, run.stdout + run.stderr


def test_a_converted_page_still_looks_like_the_card():
    """Rendered back to RGB, the red box is red, the background dark and the green image
    green: the conversion keeps the colours a designer chose (within the press model)."""
    import pypdfium2 as pdfium

    data, _ = convert_pdf(rgb_pdf(), dtc(), "card")
    page = pdfium.PdfDocument(data)[0].render(scale=1).to_pil().convert("RGB")
    r, g, b = page.getpixel((90, int(PAGE[1] - 180)))  # the red box
    assert r > 150 and g < 90 and b < 90
    assert max(page.getpixel((5, 5))) < 90  # the dark background
    r, g, b = page.getpixel((58, int(PAGE[1] - 48)))  # the green image
    assert g > r and g > b


def test_transparency_is_flattened_to_a_cmyk_image_at_the_profiles_dpi():
    data, flattened = convert_pdf(rgb_pdf("RGBA"), dtc(), "card")
    assert flattened == 1
    with pikepdf.open(io.BytesIO(data)) as pdf:
        (image,) = pdf.pages[0].Resources.XObject.values()
        assert image.ColorSpace == pikepdf.Name("/DeviceCMYK") and "/SMask" not in image
        assert image.Width == round(PAGE[0] / 72 * 300)
        assert "/TrimBox" in pdf.pages[0].obj  # the cut is still marked


def shop_folder(tmp_path, data: bytes):
    import json

    folder = tmp_path / "shop-dtc"
    folder.mkdir(parents=True)
    (folder / "card.pdf").write_bytes(data)
    entry = {"file": "card.pdf", "kind": "cards", "deck": "d", "pages": 1, "sides": ["front"],
             "trim_pt": [180.0, 252.0]}
    (folder / "shop.json").write_text(json.dumps({"shop": "dtc", "files": [entry]}))
    return folder


def test_preflight_passes_the_converted_file_and_names_what_an_rgb_file_lacks(tmp_path):
    good = check.check_shop(shop_folder(tmp_path / "good", convert_pdf(rgb_pdf(), dtc())[0]),
                            dtc())
    assert [d for d in good if d.is_error] == []
    bad = check.check_shop(shop_folder(tmp_path / "bad", rgb_pdf()), dtc())
    found = {d.code for d in bad if d.is_error}
    assert {check.R_COLOUR, check.R_PDFX} <= found
    assert any("DEVICERGB image" in d.message for d in bad)  # the image, named
    assert any("OutputIntent" in d.message for d in bad)


def test_preflight_finds_an_image_over_the_ink_limit(tmp_path):
    data, _ = convert_pdf(rgb_pdf(), replace(dtc(), ink_limit=400), "card")  # no limit applied
    diags = check.check_shop(shop_folder(tmp_path, data), dtc())  # checked against 240 %
    assert any(d.code == check.R_INK for d in diags), diags


def test_a_cmyk_profile_refuses_images_and_names_a_file_it_cannot_convert(tmp_path):
    from pnp.render.shops.pdfx import R_PDFX, convert_files

    png, broken = tmp_path / "card.png", tmp_path / "broken.pdf"
    Image.new("RGB", (10, 10)).save(png)
    broken.write_bytes(b"%PDF-1.4 not really")
    diags = []
    convert_files([png, broken], dtc(), diags)
    assert [(d.code, d.message.split(":")[0]) for d in diags] == [
        (R_PDFX, "card.png"), (R_PDFX, "broken.pdf")]
