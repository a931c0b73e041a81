"""Images on cards and icons: pixels downsampled to print (paths are kept inside the game
folder by pnp.templating.layout_files.safe_path).

An image with more pixels than its box needs at 300 dpi is embedded downsampled, so a full-size
photo does not make a PDF of tens of megabytes that prints no sharper.
"""

from __future__ import annotations

import math
from functools import lru_cache
from pathlib import Path

from pnp.templating.layout_files import RASTER_EXTENSIONS, safe_path  # noqa: F401 (re-exported)


@lru_cache(maxsize=1024)
def image_size(path: str) -> tuple[int, int]:
    """The image's size in pixels, read from its header. PIL opened by file name loads only
    the reader for that file's extension; reportlab hands PIL an anonymous buffer, which makes
    it import five readers first (about 30 ms of a small deck's run)."""
    from PIL import Image

    with Image.open(path) as im:
        return im.size


PRINT_DPI = 300  # what home printers and print shops resolve; more pixels only bloat the PDF


@lru_cache(maxsize=16)
def _downsampled(path: str, mtime_ns: int, size: tuple[int, int]):
    """The image at `path` resampled to `size` pixels (cached; mtime makes an edit count)."""
    from PIL import Image
    from reportlab.lib.utils import ImageReader

    with Image.open(path) as im:
        im.load()
        if im.mode not in ("RGB", "RGBA", "L", "LA"):
            im = im.convert("RGBA" if "transparency" in im.info or im.mode == "PA" else "RGB")
        return ImageReader(im.resize(size, Image.LANCZOS))


@lru_cache(maxsize=64)
def _as_is(path: str, mtime_ns: int):
    """The image at `path` as a reader (cached; mtime makes an edit count). reportlab names an
    image given as a reader after its pixels, and one given as a file name after that name: a
    name would put the game folder's absolute path into the PDF."""
    from reportlab.lib.utils import ImageReader

    if path.lower().endswith(".png"):  # decoded by PIL either way: open it by name (image_size)
        from PIL import Image

        im = Image.open(path)
        if not getattr(im, "is_animated", False):
            im.load()  # the pixels, read now: the file is closed
            im.fileName = path  # what reportlab's own reader would record
            return ImageReader(im)
        im.close()
    return ImageReader(path)  # a JPEG's bytes are embedded as they are, through this reader


def print_image(path: Path, iw: int, ih: int, w: float, h: float, dpi: int = PRINT_DPI):
    """What to embed for an iw × ih pixel image drawn w × h points: the file itself when it has
    no more pixels than `dpi` needs, else a copy downsampled to `dpi` (a 24-megapixel photo on
    a card is 53 MB of PDF as it is, well under 1 MB at 300 dpi)."""
    scale = max(w * dpi / 72 / iw, h * dpi / 72 / ih)
    if scale >= 0.9:
        return _as_is(str(path), path.stat().st_mtime_ns)
    size = (max(1, math.ceil(iw * scale)), max(1, math.ceil(ih * scale)))
    return _downsampled(str(path), path.stat().st_mtime_ns, size)
