"""Deterministic canvases and atomic PDF writes shared by every renderer.

Identical input must give byte-identical PDFs (so builds can be diffed and cached), and a build
that fails half-way must leave the previous file untouched (so a printer queue never gets half a
PDF). Every renderer creates its canvas and writes its file through here.
"""

from __future__ import annotations

import io
import os
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TypeVar

from reportlab import rl_config
from reportlab.pdfgen.canvas import Canvas

from pnp import __version__
from pnp.atomic import atomic_write_bytes
from pnp.diagnostics import ERROR, Diagnostic
from pnp.render.fonts import DEFAULT_FONT, ensure_font, ensure_fonts
from pnp.render.pdfops import seal_page

T = TypeVar("T")


def new_canvas(target, pagesize: tuple[float, float], title: str = "",
               all_fonts: bool = True) -> Canvas:
    """A canvas with a fixed date and ID (invariant), an embedded initial font, PrintScaling None.

    Each finished page is compressed at once (seal_page), so long documents stay small in memory.
    `all_fonts=False` registers only the initial font, for a drawer that reaches every face it
    uses through pnp.render.fonts (card sheets: their layouts resolve and measure each font).
    """
    if all_fonts:
        ensure_fonts()
    else:
        ensure_font(DEFAULT_FONT)
    c = Canvas(target, pagesize=pagesize, invariant=1, initialFontName=DEFAULT_FONT,
               initialFontSize=10)
    c.setPageCallBack(lambda _number: seal_page(c))
    c.setViewerPreference("PrintScaling", "None")
    c.setTitle(title or "pnp")
    c.setAuthor("pnp")
    c.setCreator(f"pnp {__version__}")
    c.setSubject("print-and-play components")
    return c


WRITE_FAILED = "PNP-R050"  # an output file could not be written


def write_outputs(outputs: Sequence[tuple[Path, bytes]], diags: list[Diagnostic]) -> list[Path]:
    """Write rendered files atomically; a file that cannot be written becomes a diagnostic."""
    written = []
    for path, data in outputs:
        try:
            written.append(atomic_write_bytes(path, data))
        except OSError as exc:
            diags.append(Diagnostic(ERROR, WRITE_FAILED,
                                    f"cannot write {path}: {exc.strerror or exc}", str(path),
                                    hint="check the folder exists and is writable"))
    return written


def pdf_bytes(draw: Callable[[Canvas], T], pagesize: tuple[float, float],
              title: str = "", all_fonts: bool = True) -> tuple[bytes, T]:
    """Run `draw` on a fresh deterministic canvas in memory; returns the PDF and draw's result
    (`all_fonts` as new_canvas)."""
    saved = rl_config.useA85
    rl_config.useA85 = 0  # binary streams: smaller files, and ASCII85 is slow pure Python
    try:
        c = new_canvas(io.BytesIO(), pagesize, title, all_fonts)
        result = draw(c)
        data = c.getpdfdata()  # what save() would write, without a second copy in a buffer
    finally:
        rl_config.useA85 = saved
    return data, result


def write_pdf(path: str | os.PathLike, draw: Callable[[Canvas], T],
              pagesize: tuple[float, float], title: str = "") -> T:
    """Render in memory, then replace `path` atomically; if `draw` raises, `path` is untouched."""
    data, result = pdf_bytes(draw, pagesize, title)
    atomic_write_bytes(path, data)
    return result


def write_component_pdf(path: Path, draw: Callable[[Canvas], object], pagesize: tuple[float, float],
              title: str) -> tuple[list[Path], list[Diagnostic]]:
    """Draw one PDF in memory and write it atomically: the shape of every one-file component."""
    data, _ = pdf_bytes(draw, pagesize, title)
    diags: list[Diagnostic] = []
    return write_outputs([(path, data)], diags), diags
