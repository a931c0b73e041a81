"""CMYK and PDF/X-1a for shops that ask for them, made from the RGB PDFs the drawers write.

The drawers stay RGB (screens, PNGs and Tabletop Simulator want RGB); a shop file is rewritten
afterwards with pikepdf: each vector colour operator becomes its CMYK equivalent (the model of
pnp's ICC profile, icc.py, neutral greys as black ink only, total ink within the profile's
limit), each RGB image goes through Pillow's ImageCms with the same profile, and the file gets
the PDF/X-1a:2003 keys and an OutputIntent embedding that profile. Text and vectors stay
vectors. A page with what PDF/X-1a forbids or this rewrite does not read (transparency,
shadings, inline images, other colour spaces) is flattened instead: rasterised at the
profile's dpi and converted as one CMYK image.
"""

from __future__ import annotations

import io
import zlib
from collections.abc import Sequence
from pathlib import Path

from pnp.diagnostics import ERROR, INFO, Diagnostic
from pnp.render.shops import icc
from pnp.render.shops.profile import ShopProfile

R_PDFX = "PNP-R190"  # a PDF that cannot be made CMYK / PDF/X-1a (or, in preflight, is not)

PDFX_VERSION = "PDF/X-1a:2003"
REGISTRY = "http://www.color.org"


class Unsupported(Exception):
    """A page holds something the vector rewrite does not convert: flatten it."""


def ink_limited(cmyk: Sequence[float], limit: int | None) -> tuple[float, ...]:
    """C, M and Y scaled down so C+M+Y+K stays within `limit` % (black is kept)."""
    c, m, y, k = (min(1.0, max(0.0, float(v))) for v in cmyk)
    if limit and c + m + y + k > limit / 100 and c + m + y > 0:
        scale = max(0.0, limit / 100 - k) / (c + m + y)
        c, m, y = c * scale, m * scale, y * scale
    return (c, m, y, k)


def rgb_colour(rgb: Sequence[float], limit: int | None) -> tuple[float, ...]:
    """A vector colour in CMYK: a neutral grey is black ink alone (sharp text, no
    registration fringes), any other colour the profile's model."""
    r, g, b = (min(1.0, max(0.0, float(v))) for v in rgb)
    if abs(r - g) < 1e-6 and abs(g - b) < 1e-6:
        return (0.0, 0.0, 0.0, 1.0 - r)
    return ink_limited(icc.rgb_to_cmyk((r, g, b), limit or 400), limit)


def _fmt(values: Sequence[float]) -> list:
    """Four decimals, rounded down: a colour at the ink limit stays within it."""
    from decimal import ROUND_DOWN, Decimal

    return [Decimal(repr(float(v))).quantize(Decimal("0.0001"), rounding=ROUND_DOWN)
            for v in values]


class Converter:
    """Converts one document in place; `flattened` counts the pages rasterised."""

    def __init__(self, pdf, profile: ShopProfile, source: bytes):
        from PIL import ImageCms

        self.pdf, self.profile, self.source = pdf, profile, source
        self.limit = profile.ink_limit
        self.icc = icc.cmyk_profile(self.limit or 300)
        self.transform = ImageCms.buildTransform(
            ImageCms.createProfile("sRGB"), ImageCms.ImageCmsProfile(io.BytesIO(self.icc)),
            "RGB", "CMYK", renderingIntent=ImageCms.Intent.RELATIVE_COLORIMETRIC)
        self.done: set = set()
        self.flattened = 0

    # -- images ----------------------------------------------------------------------------

    def cmyk_image(self, image):
        """An RGB PIL image in CMYK through the ICC profile, ink-limited pixel by pixel."""
        from PIL import ImageCms, ImageMath

        out = ImageCms.applyTransform(image.convert("RGB"), self.transform)
        if not self.limit:
            return out
        c, m, y, k = (band.convert("F") for band in out.split())
        cmy = ImageMath.lambda_eval(lambda a: a["c"] + a["m"] + a["y"], c=c, m=m, y=y)
        room = ImageMath.lambda_eval(lambda a: a["max"](a["lim"] - a["k"], 0.0) / a["max"](
            a["cmy"], 0.001), k=k, cmy=cmy, lim=self.limit * 2.55)
        scale = ImageMath.lambda_eval(lambda a: a["min"](a["r"], 1.0), r=room)
        bands = [ImageMath.lambda_eval(lambda a: a["v"] * a["s"], v=v, s=scale).convert("L")
                 for v in (c, m, y)]
        from PIL import Image

        return Image.merge("CMYK", (*bands, k.convert("L")))

    def _image_stream(self, image) -> object:
        import pikepdf

        return pikepdf.Stream(self.pdf, zlib.compress(image.tobytes(), 6),
                              Type=pikepdf.Name.XObject, Subtype=pikepdf.Name.Image,
                              Width=image.width, Height=image.height,
                              ColorSpace=pikepdf.Name.DeviceCMYK, BitsPerComponent=8,
                              Filter=pikepdf.Name.FlateDecode)

    def convert_image(self, obj) -> None:
        import pikepdf

        if obj.get("/SMask") is not None or obj.get("/Mask") is not None:
            raise Unsupported("an image with transparency")
        space = obj.get("/ColorSpace")
        if space in (pikepdf.Name.DeviceCMYK, pikepdf.Name.DeviceGray):
            return
        image = pikepdf.PdfImage(obj).as_pil_image()
        if image.mode in ("L", "1"):
            return
        cmyk = self.cmyk_image(image)
        obj.write(zlib.compress(cmyk.tobytes(), 6), filter=pikepdf.Name.FlateDecode)
        obj.ColorSpace = pikepdf.Name.DeviceCMYK
        obj.BitsPerComponent = 8
        for key in ("/DecodeParms", "/Decode", "/Interpolate"):
            if key in obj:
                del obj[key]

    # -- content streams --------------------------------------------------------------------

    def convert_resources(self, resources) -> None:
        import pikepdf

        if resources is None:
            return
        for gs in (resources.get("/ExtGState") or {}).values():
            for key in ("/CA", "/ca"):
                if key in gs and float(gs[key]) < 1:
                    raise Unsupported("transparency (opacity below 1)")
            if "/SMask" in gs and gs.SMask != pikepdf.Name("/None"):
                raise Unsupported("a soft mask")
        if resources.get("/Shading") or resources.get("/Pattern"):
            raise Unsupported("a shading or pattern")
        for xobj in (resources.get("/XObject") or {}).values():
            key = xobj.objgen
            if key in self.done:
                continue
            self.done.add(key)
            if xobj.get("/Subtype") == pikepdf.Name.Image:
                self.convert_image(xobj)
            elif xobj.get("/Subtype") == pikepdf.Name.Form:
                if xobj.get("/Group") is not None:
                    raise Unsupported("a transparency group")
                self.convert_form(xobj)

    def convert_ops(self, ops) -> list:
        import pikepdf

        out = []
        stroke_rgb = fill_rgb = False
        for operands, op in ops:
            name = str(op)
            if name in ("rg", "RG"):
                cmyk = rgb_colour(operands, self.limit)
                out.append((_fmt(cmyk), pikepdf.Operator("k" if name == "rg" else "K")))
            elif name in ("k", "K"):
                out.append((_fmt(ink_limited(operands, self.limit)), op))
            elif name in ("g", "G"):
                out.append((operands, op))
            elif name in ("cs", "CS"):
                space = operands[0] if operands else None
                is_rgb = space == pikepdf.Name.DeviceRGB
                if name == "cs":
                    fill_rgb = is_rgb
                else:
                    stroke_rgb = is_rgb
                if is_rgb:
                    out.append(([pikepdf.Name.DeviceCMYK], op))
                elif space in (pikepdf.Name.DeviceCMYK, pikepdf.Name.DeviceGray):
                    out.append((operands, op))
                else:
                    raise Unsupported(f"colour space {space}")
            elif name in ("sc", "scn", "SC", "SCN"):
                rgb = fill_rgb if name in ("sc", "scn") else stroke_rgb
                if rgb:
                    out.append((_fmt(rgb_colour(operands, self.limit)), op))
                elif len(operands) == 4:
                    out.append((_fmt(ink_limited(operands, self.limit)), op))
                else:
                    out.append((operands, op))
            elif name in ("sh", "BI", "INLINE IMAGE", "d0", "d1"):
                raise Unsupported(f"operator {name}")
            else:
                out.append((operands, op))
        return out

    def convert_form(self, form) -> None:
        import pikepdf

        ops = self.convert_ops(pikepdf.parse_content_stream(form))
        self.convert_resources(form.get("/Resources"))
        form.write(pikepdf.unparse_content_stream(ops))

    def convert_page(self, index: int) -> None:
        import pikepdf

        page = self.pdf.pages[index]
        try:
            page.contents_coalesce()
            ops = self.convert_ops(pikepdf.parse_content_stream(page))
            self.convert_resources(page.obj.get("/Resources"))
            page.obj.Contents = self.pdf.make_stream(pikepdf.unparse_content_stream(ops))
        except Unsupported:
            self.flatten(index)
        if "/TrimBox" not in page.obj:  # a sheet is cut at its edge
            page.obj.TrimBox = page.obj.MediaBox
        if "/Group" in page.obj:
            del page.obj["/Group"]

    def flatten(self, index: int) -> None:
        """Replace the page by itself rasterised at the profile's dpi, in CMYK."""
        import pikepdf
        import pypdfium2 as pdfium

        page = self.pdf.pages[index]
        x0, y0, x1, y1 = (float(v) for v in page.obj.MediaBox)
        size = self.profile.page_pixels((x1 - x0, y1 - y0))
        doc = pdfium.PdfDocument(self.source)
        try:
            image = doc[index].render(scale=self.profile.dpi / 72).to_pil().convert("RGB")
        finally:
            doc.close()
        if image.size != size:  # pdfium rounds up: at most a pixel off
            image = image.resize(size)
        img = self._image_stream(self.cmyk_image(image))
        page.obj.Resources = pikepdf.Dictionary(XObject=pikepdf.Dictionary(Im0=img))
        page.obj.Contents = self.pdf.make_stream(
            f"q {x1 - x0:.4f} 0 0 {y1 - y0:.4f} {x0:.4f} {y0:.4f} cm /Im0 Do Q".encode())
        self.flattened += 1

    # -- the file -----------------------------------------------------------------------------

    def mark_pdfx(self, title: str) -> None:
        import pikepdf

        pdf = self.pdf
        profile = pdf.make_stream(self.icc, N=4, Alternate=pikepdf.Name.DeviceCMYK)
        desc = icc.description(self.limit or 300)
        pdf.Root.OutputIntents = pikepdf.Array([pikepdf.Dictionary(
            Type=pikepdf.Name.OutputIntent, S=pikepdf.Name.GTS_PDFX,
            OutputConditionIdentifier=pikepdf.String("Custom"),
            OutputCondition=pikepdf.String(desc), Info=pikepdf.String(desc),
            RegistryName=pikepdf.String(REGISTRY), DestOutputProfile=profile)])
        info = pdf.trailer.Info if "/Info" in pdf.trailer else pdf.make_indirect(
            pikepdf.Dictionary())
        info.GTS_PDFXVersion = pikepdf.String(PDFX_VERSION)
        info.Trapped = pikepdf.Name("/False")  # not trapped: the shop's RIP may trap
        info.Title = info.get("/Title") or pikepdf.String(title)
        pdf.trailer.Info = info
        for key in ("/Metadata",):
            if key in pdf.Root:
                del pdf.Root[key]


def convert_pdf(data: bytes, profile: ShopProfile, title: str = "") -> tuple[bytes, int]:
    """The RGB PDF `data` as a CMYK PDF (PDF/X-1a:2003 when the profile says so); returns the
    bytes and how many pages were flattened. The same input gives the same bytes."""
    import pikepdf

    with pikepdf.open(io.BytesIO(data)) as pdf:
        conv = Converter(pdf, profile, data)
        for i in range(len(pdf.pages)):
            conv.convert_page(i)
        if profile.pdfx == "x-1a":
            conv.mark_pdfx(title)
        out = io.BytesIO()
        pdf.save(out, deterministic_id=True, force_version="1.4", compress_streams=True,
                 object_stream_mode=pikepdf.ObjectStreamMode.disable,
                 stream_decode_level=pikepdf.StreamDecodeLevel.generalized)
    return out.getvalue(), conv.flattened


def convert_files(paths: Sequence[Path], profile: ShopProfile,
                  diags: list[Diagnostic]) -> None:
    """Every PDF among `paths` (written by the drawers, in RGB) rewritten in place for a CMYK
    profile; an image file is refused (a CMYK shop takes PDFs); a file that cannot be
    converted is an error naming it."""
    from pnp.atomic import atomic_write_bytes

    try:
        import pikepdf  # noqa: F401
    except ImportError:
        diags.append(Diagnostic(ERROR, R_PDFX, f"{profile.name} takes CMYK files, which need "
                                "pikepdf", hint="pip install pikepdf"))
        return
    for path in paths:
        if path.suffix != ".pdf":
            if path.suffix == ".png":
                diags.append(Diagnostic(ERROR, R_PDFX, f"{path.name}: a CMYK profile takes "
                                        "PDFs, not images", str(path),
                                        hint="set cards.format: pdf or sheets in the profile"))
            continue
        try:
            converted, flat = convert_pdf(path.read_bytes(), profile, path.stem)
            atomic_write_bytes(path, converted)
        except Exception as exc:  # pikepdf or Pillow refusing a file is a finding, not a crash
            diags.append(Diagnostic(ERROR, R_PDFX, f"{path.name}: cannot be made CMYK "
                                    f"({type(exc).__name__}: {exc})", str(path)))
            continue
        if flat:
            diags.append(Diagnostic(INFO, R_PDFX, f"{path.name}: {flat} page(s) flattened to "
                                    f"{profile.dpi} dpi CMYK images (transparency or shading)",
                                    str(path)))
