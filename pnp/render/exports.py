"""Raster exports: per-card PNGs at print-shop pixel sizes and Tabletop Simulator deck sheets.

Cards are drawn through the same layouts as the PDFs into an in-memory PDF, then rasterised with
pypdfium2, so a PNG never differs from the printed card.
"""

from __future__ import annotations

import io
import math
from collections.abc import Sequence
from pathlib import Path

from pnp.diagnostics import ERROR, Diagnostic
from pnp.render import tts
from pnp.render.geometry import Rect
from pnp.render.pdfwrite import pdf_bytes
from pnp.render.sheets import PRINT_SHOP_BLEED, Build, CardCopy, draw_print_shop

R_RASTER = "PNP-R045"  # raster export impossible (pypdfium2 missing)

PNG_DPI = 300
TTS_MAX_COLS, TTS_MAX_ROWS, TTS_MAX_WIDTH = 10, 7, 4096
TTS_MAX_CELL_WIDTH = 512  # a few cards need no 4096 px sheet


def pixel_size(points: tuple[float, float], dpi: int = PNG_DPI) -> tuple[int, int]:
    """Exact pixel size of a page at `dpi` (poker + 1/8 in bleed at 300 dpi: 825 × 1125)."""
    return (round(points[0] * dpi / 72), round(points[1] * dpi / 72))


def rasterise(pdf: bytes, sizes: Sequence[tuple[int, int]], dpi: int = PNG_DPI) -> list[bytes]:
    """Render each page of `pdf` to PNG bytes of exactly the given pixel size, marked `dpi`."""
    import pypdfium2 as pdfium
    from PIL import Image

    doc = pdfium.PdfDocument(pdf)
    out = []
    try:
        for i, (pw, ph) in enumerate(sizes):
            page = doc[i]
            w, h = page.get_size()
            scale = min(pw / w, ph / h) * (1 - 1e-9)  # pdfium rounds up: stay just under
            img = page.render(scale=scale).to_pil().convert("RGB")
            if img.size != (pw, ph):  # at most a pixel off: pad with the edge colour
                canvas = Image.new("RGB", (pw, ph), img.getpixel((img.width - 1, img.height - 1)))
                canvas.paste(img, (0, 0))
                img = canvas
            buf = io.BytesIO()
            img.save(buf, format="PNG", dpi=(dpi, dpi))
            out.append(buf.getvalue())
            page.close()
    finally:
        doc.close()
    return out


def _need_pdfium(diags: list[Diagnostic]) -> bool:
    try:
        import pypdfium2  # noqa: F401
    except ImportError:
        diags.append(Diagnostic(ERROR, R_RASTER, "PNG and Tabletop Simulator export need "
                                "pypdfium2, which is not installed", hint="pip install pypdfium2"))
        return False
    return True


def card_pngs(copies: Sequence[CardCopy], folder: Path, build: Build,
              diags: list[Diagnostic], bleed: float = PRINT_SHOP_BLEED,
              dpi: int = PNG_DPI) -> list[tuple[Path, bytes]]:
    """`<folder>/<deck>/<card>.png`, trim + bleed at `dpi`, one per distinct card, and the
    deck's `back.png` (or `<card>-back.png` each, when the backs differ)."""
    if not copies or not _need_pdfium(diags):
        return []
    pdf, _ = pdf_bytes(lambda c: draw_print_shop(c, copies, build.drawer(c, copies), bleed),
                       (100, 100), "cards")
    names, sizes = [], []
    for cp in copies:
        page = (cp.size[0] + 2 * bleed, cp.size[1] + 2 * bleed)
        for face, suffix in ((cp.front, ""), (cp.back, "-back")):
            if face is not None:
                names.append(folder / face.deck.id / f"{face.card.id}{suffix}.png")
                sizes.append(pixel_size(page, dpi))
    return _shared_backs(list(zip(names, rasterise(pdf, sizes, dpi), strict=True)))


def _shared_backs(pngs: list[tuple[Path, bytes]]) -> list[tuple[Path, bytes]]:
    """A deck whose cards all have the same back gets one `back.png`, not one a card (what a
    print shop or a virtual table takes); a deck with different backs keeps `<card>-back.png`."""
    backs: dict[Path, set[bytes]] = {}
    for path, png in pngs:
        if path.stem.endswith("-back"):
            backs.setdefault(path.parent, set()).add(png)
    shared = {folder: next(iter(images)) for folder, images in backs.items() if len(images) == 1}
    out = [(path, png) for path, png in pngs
           if not (path.stem.endswith("-back") and path.parent in shared)]
    out += [(folder / "back.png", png) for folder, png in shared.items()]
    return out


def tts_grid(n_cards: int) -> tuple[int, int]:
    """Columns and rows for n faces plus the hidden-card cell (TTS: at least 2×2, at most 10×7)."""
    cells = n_cards + 1
    if cells > TTS_MAX_COLS * TTS_MAX_ROWS:
        raise ValueError(f"{n_cards} cards do not fit one 10×7 sheet")
    cols = max(2, min(TTS_MAX_COLS, math.ceil(math.sqrt(cells * 1.4))))
    rows = max(2, math.ceil(cells / cols))
    while rows > TTS_MAX_ROWS:
        cols += 1
        rows = math.ceil(cells / cols)
    return cols, rows


def tts_face_count(copies: Sequence[CardCopy]) -> int:
    """How many faces tts_sheets draws (for the progress total)."""
    per_sheet = TTS_MAX_COLS * TTS_MAX_ROWS - 1
    by_deck: dict[str, list[CardCopy]] = {}
    for cp in copies:
        by_deck.setdefault(cp.front.deck.id, []).append(cp)
    total = 0
    for deck_copies in by_deck.values():
        sheets = math.ceil(len(deck_copies) / per_sheet)
        has_back = deck_copies[0].back is not None
        total += len(deck_copies) + (sheets + 1 if has_back else 0)
    return total


def tts_sheets(copies: Sequence[CardCopy], folder: Path, build: Build,
               diags: list[Diagnostic], game_name: str = "cards",
               base_url: str | None = None) -> list[tuple[Path, bytes]]:
    """Per deck: `<deck>-<n>.png` sheets (≤ 69 faces, last cell the hidden face, at most
    4096 px each way) and `<deck>-back.png`; and `<folder name>.json`, a Tabletop Simulator
    saved object of every deck (pnp/render/tts.py) that loads those images."""
    if not copies or not _need_pdfium(diags):
        return []
    saved: list[tuple[str, list[tts.Sheet], Path | None]] = []
    by_deck: dict[str, list[CardCopy]] = {}
    for cp in copies:
        by_deck.setdefault(cp.front.deck.id, []).append(cp)
    out: list[tuple[Path, bytes]] = []
    per_sheet = TTS_MAX_COLS * TTS_MAX_ROWS - 1
    for deck_id, deck_copies in by_deck.items():
        w, h = deck_copies[0].size
        chunks = [deck_copies[i:i + per_sheet] for i in range(0, len(deck_copies), per_sheet)]
        layouts = [tts_grid(len(ch)) for ch in chunks]
        max_rows = max(rows for _, rows in layouts)
        cell_w = min(TTS_MAX_CELL_WIDTH, TTS_MAX_WIDTH // max(cols for cols, _ in layouts),
                     int(TTS_MAX_WIDTH / max_rows * w / h))  # keep the height within 4096 too
        cell_h = round(cell_w * h / w)
        hidden = deck_copies[0].back

        def draw(c, chunks=chunks, layouts=layouts, hidden=hidden, w=w, h=h):
            drawer = build.drawer(c, [cp for ch in chunks for cp in ch])
            for chunk, (cols, rows) in zip(chunks, layouts, strict=True):
                c.setPageSize((cols * w, rows * h))
                cells = [cp.front for cp in chunk]
                for i, face in enumerate(cells):
                    x, y = (i % cols) * w, (rows - 1 - i // cols) * h
                    drawer.place(face, x, y, Rect(x, y, w, h), 0.0)
                x, y = (cols - 1) * w, 0.0  # last cell: what TTS shows for a hidden card
                if hidden is not None:
                    drawer.place(hidden, x, y, Rect(x, y, w, h), 0.0)
                else:
                    c.setFillColorRGB(0.35, 0.35, 0.38)
                    c.rect(x, y, w, h, stroke=0, fill=1)
                c.showPage()
            if hidden is not None:
                c.setPageSize((w, h))
                drawer.place(hidden, 0, 0, Rect(0, 0, w, h), 0.0)
                c.showPage()

        pdf, _ = pdf_bytes(draw, (w, h), f"{deck_id} for Tabletop Simulator")
        sizes = [(cols * cell_w, rows * cell_h) for cols, rows in layouts]
        names = [folder / f"{deck_id}-{i + 1}.png" for i in range(len(chunks))]
        saved.append((deck_copies[0].front.deck.name,
                      [tts.Sheet(name, cols, rows, [cp.front.card for cp in chunk])
                       for name, chunk, (cols, rows) in zip(names, chunks, layouts, strict=True)],
                      folder / f"{deck_id}-back.png" if hidden is not None else None))
        if hidden is not None:
            sizes.append((cell_w, cell_h))
            names.append(folder / f"{deck_id}-back.png")
        out.extend(zip(names, rasterise(pdf, sizes), strict=True))
    name = folder.name.removesuffix("-tts")
    out.append((folder / f"{name}.json", tts.saved_object(game_name, saved, base_url)))
    return out
