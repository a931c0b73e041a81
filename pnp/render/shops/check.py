"""Shop preflight: check a built shop folder against its profile, file by file and page by page.

`pnp preflight FOLDER --shop NAME` and `pnp build --shop` (before the kit is swapped in) run
it. It reads what was written, not what pnp meant to write: page and box sizes, bleed on every
edge, page counts and order, image resolution, PNG pixel sizes, fonts embedded, text and key
art (icons, images other than a full-bleed background: pnp.render.shops.keyart) outside the
trim or in the safe margin, colour spaces and total ink. `shop.json` says what each file
should hold. Each failure is a Diagnostic naming the file, the page and the object.
(The data checks `pnp validate` runs are pnp/render/preflight.py; this is about files.)
"""

from __future__ import annotations

import hashlib
import json
from collections import Counter
from pathlib import Path
from typing import Any

from pnp.diagnostics import ERROR, WARNING, Diagnostic
from pnp.render.shops.keyart import check_key_art
from pnp.render.shops.profile import ShopProfile

R_MANIFEST = "PNP-R181"  # no shop.json, or a file it lists is missing or unreadable
R_BOXES = "PNP-R182"  # page size, TrimBox/BleedBox, or bleed missing on an edge
R_ORDER = "PNP-R183"  # page count or page order is not what the shop expects
R_DPI = "PNP-R184"  # an image below the profile's resolution
R_PIXELS = "PNP-R185"  # a PNG of the wrong pixel size, mode or resolution
R_COLOUR = "PNP-R186"  # an RGB (or other non-CMYK) object in a CMYK profile
R_INK = "PNP-R187"  # total ink above the profile's limit
R_TEXT = "PNP-R188"  # text beyond the trim (error) or in the safe margin (warning)
R_FONT = "PNP-R189"  # a font that is not embedded
R_PDFX = "PNP-R190"  # not the PDF/X the profile asks for (version, keys, OutputIntent, boxes)

TOLERANCE = 0.05  # points: boxes are written to 1/100 pt
TEXT_TOLERANCE = 0.25  # points: a glyph's box may reach a hair past its layout box
MAX_PER_FILE = 5  # diagnostics of one check and one file: the rest are counted


def check_shop(folder: str | Path, profile: ShopProfile) -> list[Diagnostic]:
    """Every problem in the shop folder for this profile (empty when it is ready to upload)."""
    folder = Path(folder)
    manifest = folder / "shop.json"
    try:
        doc = json.loads(manifest.read_text(encoding="utf-8"))
        entries = list(doc["files"])
    except (OSError, ValueError, KeyError, TypeError) as exc:
        return [Diagnostic(ERROR, R_MANIFEST, f"{manifest}: not a shop folder pnp wrote "
                           f"({type(exc).__name__})", str(manifest),
                           hint="point pnp preflight at OUT/GAME/shop-<id>/ from "
                                "`pnp build GAME --shop ID`")]
    diags: list[Diagnostic] = []
    for entry in entries:
        for rel in _files(entry):
            path = folder / rel
            if not path.is_file():
                diags.append(Diagnostic(ERROR, R_MANIFEST, f"{rel}: listed in shop.json but "
                                        "missing", str(path), hint="build it again"))
            elif path.suffix == ".png":
                diags.extend(check_png(path, profile, entry))
            else:
                diags.extend(check_pdf(path, profile, entry))
    return diags


def _files(entry: dict[str, Any]) -> list[str]:
    if "file" in entry:
        return [entry["file"]]
    return list(entry.get("files", []))


def _capped(items: list[Diagnostic]) -> list[Diagnostic]:
    """At most MAX_PER_FILE of each code: a deck with one bad layout does not print 80 lines."""
    out: list[Diagnostic] = []
    by_code: dict[str, int] = {}
    for d in items:
        by_code[d.code] = by_code.get(d.code, 0) + 1
        if by_code[d.code] <= MAX_PER_FILE:
            out.append(d)
    for code, n in by_code.items():
        if n > MAX_PER_FILE:
            first = next(d for d in items if d.code == code)
            out.append(Diagnostic(first.severity, code, f"... and {n - MAX_PER_FILE} more like "
                                  "it in this file", first.file))
    return out


# ---------------------------------------------------------------------------------------------
# PNGs


def check_png(path: Path, profile: ShopProfile, entry: dict[str, Any]) -> list[Diagnostic]:
    """Pixel size (the shop's template), RGB mode, and the resolution it is marked with."""
    from PIL import Image

    out: list[Diagnostic] = []
    try:
        with Image.open(path) as im:
            size, mode, dpi = im.size, im.mode, im.info.get("dpi", (0, 0))
    except OSError as exc:
        return [Diagnostic(ERROR, R_MANIFEST, f"{path.name}: not a readable image ({exc})",
                           str(path))]
    want = entry.get("pixels")
    if want and tuple(size) != tuple(want):
        out.append(Diagnostic(ERROR, R_PIXELS, f"{path.name}: {size[0]}×{size[1]} px, the shop "
                              f"takes {want[0]}×{want[1]} px (trim and bleed at "
                              f"{profile.dpi} dpi)", str(path),
                              hint="build it again with this shop profile"))
    if mode not in ("RGB", "RGBA", "L") or (profile.colour == "cmyk" and mode != "CMYK"):
        out.append(Diagnostic(ERROR, R_PIXELS, f"{path.name}: image mode {mode} is not what "
                              f"a {profile.colour.upper()} profile takes", str(path)))
    if round(float(dpi[0])) < profile.dpi:
        out.append(Diagnostic(ERROR, R_DPI, f"{path.name}: marked {float(dpi[0]):.0f} dpi, the "
                              f"shop asks for {profile.dpi}", str(path),
                              hint="render it at the profile's dpi"))
    return out


# ---------------------------------------------------------------------------------------------
# PDFs


def check_pdf(path: Path, profile: ShopProfile, entry: dict[str, Any]) -> list[Diagnostic]:
    """Every check that applies to this file: card pages get boxes, bleed, order and text
    position; every PDF gets fonts, image resolution, colour space and ink."""
    import pypdfium2 as pdfium
    from pypdf import PdfReader

    try:
        reader = PdfReader(path)
        pages = list(reader.pages)
        doc = pdfium.PdfDocument(str(path))
    except Exception as exc:  # a broken file is a finding, not a crash
        return [Diagnostic(ERROR, R_MANIFEST, f"{path.name}: not a readable PDF ({exc})",
                           str(path))]
    out: list[Diagnostic] = []
    try:
        card_pages = entry.get("kind") in ("cards", "large")
        if card_pages:
            out += _check_boxes(path, pages, profile, entry)
            out += _check_order(path, doc, profile, entry)
            out += _check_text(path, doc, profile)
            out += check_key_art(path, profile.safe)
        out += _check_fonts(path, reader)
        out += _check_images(path, doc, profile)
        if profile.colour == "cmyk":
            out += _check_colours(path, pages, profile)
        if profile.pdfx == "x-1a":
            out += check_pdfx(path, reader)
    finally:
        doc.close()
    return _capped(out)


def check_pdfx(path: Path, reader: Any) -> list[Diagnostic]:
    """PDF/X-1a:2003: PDF 1.4 at most, the version and Trapped keys, a GTS_PDFX OutputIntent
    with a CMYK profile, a TrimBox (or ArtBox) on every page, no transparency."""
    out: list[Diagnostic] = []

    def bad(message: str, hint: str = "") -> None:
        out.append(Diagnostic(ERROR, R_PDFX, f"{path.name}: {message}", str(path), hint=hint))

    version = reader.pdf_header.removeprefix("%PDF-")
    if version > "1.4":
        bad(f"PDF {version}, PDF/X-1a:2003 is PDF 1.4 at most")
    info = reader.trailer.get("/Info")
    info = info.get_object() if info is not None else {}
    if not str(info.get("/GTS_PDFXVersion", "")).startswith("PDF/X-1a"):
        bad("no GTS_PDFXVersion PDF/X-1a key", "build it with a profile that has pdfx: x-1a")
    if str(info.get("/Trapped", "")) not in ("/True", "/False"):
        bad("Trapped is neither True nor False")
    intents = reader.trailer["/Root"].get("/OutputIntents") or []
    pdfx = [i.get_object() for i in intents if i.get_object().get("/S") == "/GTS_PDFX"]
    if not pdfx:
        bad("no PDF/X OutputIntent (the press condition the colours were made for)")
    else:
        dest = pdfx[0].get("/DestOutputProfile")
        if dest is None or dest.get_object().get("/N") != 4:
            bad("the OutputIntent has no CMYK output profile")
    for n, page in enumerate(reader.pages, start=1):
        if "/TrimBox" not in page and "/ArtBox" not in page:
            bad(f"page {n} has neither TrimBox nor ArtBox")
        resources = page.get("/Resources")
        states = (resources.get_object().get("/ExtGState") or {}) if resources else {}
        for state in states.values():
            state = state.get_object()
            if any(float(state.get(k, 1)) < 1 for k in ("/CA", "/ca")) or str(
                    state.get("/SMask", "/None")) != "/None":
                bad(f"page {n} uses transparency, which PDF/X-1a forbids")
                break
    return out


def _box(page: Any, name: str) -> tuple[float, float, float, float] | None:
    box = page.get(name)
    if box is None:
        return None
    return tuple(float(v) for v in box)  # type: ignore[return-value]


def _check_boxes(path: Path, pages: list, profile: ShopProfile, entry) -> list[Diagnostic]:
    """The page is trim + bleed, the TrimBox marks the cut and art reaches bleed on each edge."""
    out: list[Diagnostic] = []
    trim_want = entry.get("trim_pt")
    for n, page in enumerate(pages, start=1):
        media = tuple(float(v) for v in page.mediabox)
        trim = _box(page, "/TrimBox")
        where = f"{path.name}, page {n}"
        if trim is None:
            out.append(Diagnostic(ERROR, R_BOXES, f"{where}: no TrimBox (the shop cannot tell "
                                  "where to cut)", str(path)))
            continue
        tw, th = trim[2] - trim[0], trim[3] - trim[1]
        if trim_want and (abs(tw - trim_want[0]) > TOLERANCE
                          or abs(th - trim_want[1]) > TOLERANCE):
            out.append(Diagnostic(ERROR, R_BOXES, f"{where}: trim {tw:.2f}×{th:.2f} pt, the "
                                  f"deck is {trim_want[0]}×{trim_want[1]} pt", str(path)))
        edges = {"left": trim[0] - media[0], "bottom": trim[1] - media[1],
                 "right": media[2] - trim[2], "top": media[3] - trim[3]}
        short = [f"{edge} {got / 72 * 25.4:.2f} mm" for edge, got in edges.items()
                 if got < profile.bleed - TOLERANCE]
        if short:
            out.append(Diagnostic(ERROR, R_BOXES, f"{where}: bleed missing or short on "
                                  f"{', '.join(short)} (the shop asks for "
                                  f"{profile.bleed / 72 * 25.4:.2f} mm on every edge)",
                                  str(path), hint="art must reach past the trim on all four "
                                                  "edges: build it with the shop's bleed"))
        elif any(got > profile.bleed + TOLERANCE for got in edges.values()):
            out.append(Diagnostic(ERROR, R_BOXES, f"{where}: page is larger than trim + "
                                  "bleed (the shop would print the extra)", str(path)))
    return out


def _fingerprint(doc: Any, index: int) -> str:
    """A small rendering of a page, hashed: equal for pages that look the same."""
    image = doc[index].render(scale=0.08).to_pil().convert("L")
    return hashlib.sha256(image.tobytes()).hexdigest()


def _check_order(path: Path, doc: Any, profile: ShopProfile, entry) -> list[Diagnostic]:
    """The page count shop.json gives, and backs where the profile wants them: with a shared
    back, every page where a back belongs shows that same image, and no front does."""
    n = len(doc)
    out: list[Diagnostic] = []
    if "pages" in entry and entry["pages"] != n:
        out.append(Diagnostic(ERROR, R_ORDER, f"{path.name}: {n} pages, shop.json lists "
                              f"{entry['pages']}", str(path), hint="build it again"))
        return out
    sides = entry.get("sides") or []
    if entry.get("kind") != "cards" or len(sides) != n or "back" not in sides:
        return out
    want_first = "back" if profile.order == "back-first" else "front"
    if sides[0] != want_first:
        out.append(Diagnostic(ERROR, R_ORDER, f"{path.name}: page 1 is a {sides[0]}, "
                              f"{profile.name} wants each card's {want_first} first",
                              str(path)))
        return out
    backs = [i for i, s in enumerate(sides) if s == "back"]
    prints = [_fingerprint(doc, i) for i in range(n)]
    ranked = Counter(prints).most_common(2)
    shared, count = ranked[0]
    if count < 2 or count != len(backs) or (len(ranked) > 1 and ranked[1][1] == count):
        return out  # no one back shared by the deck: the order cannot be told from the pages
    wrong = sorted({i for i, p in enumerate(prints) if p == shared} ^ set(backs))
    if wrong:
        i = wrong[0]
        what = "the deck's back where a front belongs" if sides[i] == "front" else \
            "a front where the deck's back belongs"
        out.append(Diagnostic(ERROR, R_ORDER, f"{path.name}, page {i + 1}: {what} "
                              f"({profile.name} wants {profile.order})", str(path)))
    return out


def _check_text(path: Path, doc: Any, profile: ShopProfile) -> list[Diagnostic]:
    """No glyph beyond the trim (it would be cut off); none inside the safe margin (a warning:
    cutting drifts)."""
    out: list[Diagnostic] = []
    for n in range(len(doc)):
        page = doc[n]
        trim = page.get_trimbox()
        text = page.get_textpage()
        worst: tuple[str, str] | None = None
        for i in range(text.count_chars()):
            ch = text.get_text_range(i, 1)
            if not ch.strip():
                continue
            left, bottom, right, top = text.get_charbox(i)
            inset = min(left - trim[0], bottom - trim[1], trim[2] - right, trim[3] - top)
            if inset < -TEXT_TOLERANCE:
                worst = ("bleed", _word(text, i))
                break
            if inset < profile.safe - TEXT_TOLERANCE and worst is None:
                worst = ("safe", _word(text, i))
        if worst is not None:
            zone, word = worst
            if zone == "bleed":
                out.append(Diagnostic(ERROR, R_TEXT, f"{path.name}, page {n + 1}: text "
                                      f"{word!r} reaches past the trim into the bleed", str(path),
                                      hint="move it inside the card's safe zone"))
            else:
                out.append(Diagnostic(WARNING, R_TEXT, f"{path.name}, page {n + 1}: text "
                                      f"{word!r} is within {profile.safe / 72 * 25.4:.2f} mm of "
                                      "the cut (the safe zone)", str(path),
                                      hint="cutting drifts: keep text further in"))
    return out


def _word(text: Any, i: int) -> str:
    start = max(0, i - 8)
    return text.get_text_range(start, min(16, text.count_chars() - start)).strip()


def _check_fonts(path: Path, reader: Any) -> list[Diagnostic]:
    """Every font a page (or a form on it) uses carries its font program."""
    out: list[Diagnostic] = []
    seen: set[str] = set()
    for n, page in enumerate(reader.pages, start=1):
        for name, font in _fonts(page.get("/Resources")):
            if font.get("/Subtype") == "/Type3" or name in seen:
                continue
            desc = font.get("/FontDescriptor")
            if font.get("/Subtype") == "/Type0":
                kids = font.get("/DescendantFonts") or []
                desc = kids[0].get_object().get("/FontDescriptor") if kids else None
            desc = desc.get_object() if desc is not None else None
            if desc is None or not any(k in desc for k in ("/FontFile", "/FontFile2",
                                                           "/FontFile3")):
                seen.add(name)
                out.append(Diagnostic(ERROR, R_FONT, f"{path.name}, page {n}: font "
                                      f"{font.get('/BaseFont', name)} is not embedded",
                                      str(path), hint="shops print only embedded fonts"))
    return out


def _fonts(resources: Any, depth: int = 0):
    """(name, font dict) of a resource dictionary and the forms it holds."""
    if resources is None or depth > 8:
        return
    resources = resources.get_object()
    for name, ref in (resources.get("/Font") or {}).items():
        yield name, ref.get_object()
    for ref in (resources.get("/XObject") or {}).values():
        xobj = ref.get_object()
        if xobj.get("/Subtype") == "/Form":
            yield from _fonts(xobj.get("/Resources"), depth + 1)


def _check_images(path: Path, doc: Any, profile: ShopProfile) -> list[Diagnostic]:
    """Every placed image at the profile's resolution or more, in CMYK for a CMYK profile."""
    import pypdfium2.raw as pdfium_c

    colour_names = {getattr(pdfium_c, k): k.removeprefix("FPDF_COLORSPACE_")
                    for k in dir(pdfium_c) if k.startswith("FPDF_COLORSPACE_")}
    out: list[Diagnostic] = []
    for n in range(len(doc)):
        for k, obj in enumerate(doc[n].get_objects(filter=[pdfium_c.FPDF_PAGEOBJ_IMAGE],
                                                   max_depth=8), start=1):
            meta = obj.get_metadata()
            dpi = min(meta.horizontal_dpi, meta.vertical_dpi)
            where = f"{path.name}, page {n + 1}, image {k} ({meta.width}×{meta.height} px)"
            if dpi + 0.5 < profile.dpi:
                out.append(Diagnostic(ERROR, R_DPI, f"{where}: {dpi:.0f} dpi as placed, the "
                                      f"shop asks for {profile.dpi}", str(path),
                                      hint="use a larger image or print it smaller"))
            space = colour_names.get(meta.colorspace, "UNKNOWN")
            if profile.colour == "cmyk" and space not in ("DEVICECMYK", "DEVICEGRAY"):
                out.append(Diagnostic(ERROR, R_COLOUR, f"{where}: {space} image in a CMYK "
                                      "file", str(path), hint="convert it to CMYK"))
    return out


# colour operators: (operands, colour space they set)
_RGB_OPS = {b"rg", b"RG"}
_CMYK_OPS = {b"k", b"K"}


def _check_colours(path: Path, pages: list, profile: ShopProfile) -> list[Diagnostic]:
    """Vector colours of a CMYK file: no RGB operators or colour spaces, total ink within the
    limit; images are checked in _check_images and their ink here."""
    from pypdf.generic import ContentStream

    out: list[Diagnostic] = []
    limit = profile.ink_limit
    for n, page in enumerate(pages, start=1):
        streams = [("page", page.get_contents())]
        streams += [(f"form {name}", xobj) for name, xobj in _forms(page.get("/Resources"))]
        for label, stream in streams:
            if stream is None:
                continue
            try:
                ops = ContentStream(stream, page.pdf).operations
            except Exception:  # an unparsable stream is reported as such
                out.append(Diagnostic(ERROR, R_COLOUR, f"{path.name}, page {n}, {label}: "
                                      "content cannot be read", str(path)))
                continue
            for operands, op in ops:
                where = f"{path.name}, page {n}, {label}"
                if op in _RGB_OPS or (op in (b"cs", b"CS") and operands
                                      and str(operands[0]) == "/DeviceRGB"):
                    shown = " ".join(f"{float(v):g}" for v in operands if _number(v))
                    out.append(Diagnostic(ERROR, R_COLOUR, f"{where}: RGB colour "
                                          f"{shown or operands} in a CMYK file", str(path),
                                          hint="build it with the CMYK profile's conversion"))
                elif op in _CMYK_OPS and limit and len(operands) == 4:
                    ink = sum(float(v) for v in operands) * 100
                    if ink > limit + 0.5:
                        out.append(Diagnostic(ERROR, R_INK, f"{where}: CMYK colour with "
                                              f"{ink:.0f}% ink, the limit is {limit}%",
                                              str(path), hint="lighten the colour"))
        out += _image_ink(path, n, page, limit)
    return out


def _number(v: Any) -> bool:
    try:
        float(v)
    except (TypeError, ValueError):
        return False
    return True


def _forms(resources: Any, depth: int = 0):
    if resources is None or depth > 8:
        return
    for name, ref in ((resources.get_object().get("/XObject")) or {}).items():
        xobj = ref.get_object()
        if xobj.get("/Subtype") == "/Form":
            yield name, xobj
            yield from _forms(xobj.get("/Resources"), depth + 1)


def _image_ink(path: Path, n: int, page: Any, limit: int | None) -> list[Diagnostic]:
    """The darkest pixel of each CMYK image against the ink limit."""
    from PIL import ImageMath

    if not limit:
        return []
    out: list[Diagnostic] = []
    try:
        images = list(page.images)
    except Exception:
        return out
    for k, image in enumerate(images, start=1):
        try:
            im = image.image
        except Exception:
            continue
        if im is None or im.mode != "CMYK":
            continue
        c, m, y, kk = (band.convert("I") for band in im.split())
        total = ImageMath.lambda_eval(lambda a: a["c"] + a["m"] + a["y"] + a["k"],
                                      c=c, m=m, y=y, k=kk)
        worst = total.getextrema()[1] * 100 / 255
        if worst > limit + 1:
            out.append(Diagnostic(ERROR, R_INK, f"{path.name}, page {n}, image {k}: up to "
                                  f"{worst:.0f}% ink, the limit is {limit}%", str(path),
                                  hint="convert it with the profile's ink limit"))
    return out
