"""Screen images of a game's components for `pnp preview`, drawn by the same renderers as the kit.

Cards are one item each, drawn through the deck's layouts exactly as the PDF draws them and
keyed by what the drawing reads (the card's layout context and its layouts' resolved specs), so
a preview redraws a card only when its key changes. Every other kind of the component registry
(boards, record sheets, tokens, the rulesheet) is rendered as its kit renders it and shown page
by page. The renderer knows no rules and no web: this module returns images and diagnostics.
"""

from __future__ import annotations

import hashlib
import io
import json
import tempfile
import threading
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from pnp.diagnostics import Diagnostic, Position
from pnp.render.geometry import GeometryError, mm, parse_length, parse_paper
from pnp.render.kinds import in_kit, renderers
from pnp.render.pdfwrite import pdf_bytes
from pnp.render.sheets import Build, CardCopy, draw_print_shop, prepare_cards

__all__ = ["CARD_BLEED", "DEFAULT_SAFE", "PreviewItem", "card_items", "draw_card", "page_items",
           "rasterise"]

CARD_BLEED = 0.125 * 72  # the print-shop bleed: the image shows it, the page hides it until asked
DEFAULT_SAFE = mm(3)  # the safe margin shown when a layout declares none (the home bleed)


@dataclass
class PreviewItem:
    """One image on the preview page: a card, or one page of another kind's PDF."""

    id: str
    kind: str  # the registry's kind name: cards, board, record, tokens, rulesheet
    group: str  # the deck's name, or the file's name
    title: str
    text: str  # what the filter searches
    key: str  # a digest of what the drawing reads: the same key, the same image
    size: tuple[float, float]  # points: a card's trimmed size, or the page
    bleed: float = 0.0  # points of bleed around the trim in the image
    safe: float = 0.0  # the safe margin inside the trim, points
    origin: Position | None = None  # where it is written (a card's line or row)
    copy: CardCopy | None = field(default=None, repr=False)
    png: bytes | None = field(default=None, repr=False)  # a page's image, drawn with its kind

    def to_json(self) -> dict[str, Any]:
        return {"id": self.id, "kind": self.kind, "group": self.group, "title": self.title,
                "text": self.text, "key": self.key, "width": self.size[0],
                "height": self.size[1], "bleed": self.bleed, "safe": self.safe}


def card_items(game: Any, library: Any = None) -> tuple[list[PreviewItem], list[Diagnostic]]:
    """One item per card design of every printed deck (no drawing yet: keys only). `library`:
    the game's LayoutLibrary when no layout, icon or font changed since it was loaded."""
    from pnp.render.layout.library import load_library

    diags: list[Diagnostic] = []
    if library is None:
        library, diags = load_library(game)
    copies, more = prepare_cards(game, [d.id for d in game.decks.values() if d.printed], library)
    diags = [*diags, *(d for d in more if d not in diags)]
    specs: dict[str, str] = {}
    safe: dict[str, float] = {}
    items: list[PreviewItem] = []
    seen: set[tuple[str, str]] = set()
    for cp in copies:
        deck, card = cp.front.deck, cp.front.card
        if (deck.id, card.id) in seen:
            continue
        seen.add((deck.id, card.id))
        faces = [f for f in (cp.front, cp.back) if f is not None]
        for face in faces:
            if face.layout.id not in specs:
                spec = library.resolve(face.layout.id)[0]
                specs[face.layout.id] = json.dumps(spec, sort_keys=True, default=str)
                safe[face.layout.id] = _safe(spec)
        ctx = json.dumps(cp.front.ctx, sort_keys=True, default=_plain)
        icons = json.dumps(sorted((k, repr(v)) for k, v in cp.front.layout.icons.items()))
        digest = hashlib.sha1("\0".join([ctx, icons, *(specs[f.layout.id] for f in faces)])
                              .encode()).hexdigest()[:16]
        words = " ".join(str(_plain(v)) for v in card.fields.values())
        items.append(PreviewItem(f"card/{deck.id}/{card.id}", "cards", deck.name, card.name,
                                 f"{deck.id} {card.id} {card.name} {words}", digest, cp.size,
                                 CARD_BLEED, safe[cp.front.layout.id],
                                 card.origin, copy=cp))
    return items, diags


def _plain(value: Any) -> Any:
    """A parsed field value as the card prints it (an effect or condition as written)."""
    source = getattr(value, "source", None)
    if isinstance(source, str):
        return source
    return list(value) if isinstance(value, tuple) else str(value)


def _safe(spec: dict) -> float:
    try:
        return parse_length(spec["safe"]) if "safe" in spec else DEFAULT_SAFE
    except GeometryError:
        return DEFAULT_SAFE


def draw_card(item: PreviewItem, dpi: float) -> tuple[bytes, list[Diagnostic]]:
    """The card's front (with its bleed) as a PNG at `dpi`, and what drawing it reported."""
    build = Build()
    copy = CardCopy(item.copy.size, item.copy.front, None)
    pdf, _ = pdf_bytes(lambda c: draw_print_shop(c, [copy], build.drawer(c, [copy]), CARD_BLEED),
                       (100, 100), "preview")
    return rasterise(pdf, dpi)[0], list(build.diags)


#: what the preview asks a kind for, where its default output repeats itself on screen: the
#: plain record sheet (the fillable one looks the same), the whole board rather than its tiles
#: (when the board has a whole print; else the tiles)
PREVIEW_OPTIONS: dict[str, dict[str, Any]] = {"record": {"fillable": False},
                                              "board": {"tiled": False}}


def page_items(game: Any, kinds: Iterable[str], paper: str, dpi: float
               ) -> tuple[list[PreviewItem], list[Diagnostic]]:
    """Every page of what the registry's other kinds render for the game, as images."""
    items: list[PreviewItem] = []
    diags: list[Diagnostic] = []
    parse_paper(paper)
    for renderer in renderers():
        if (renderer.name not in kinds or renderer.name == "cards" or not in_kit(renderer)
                or not renderer.applies(game)):
            continue
        with tempfile.TemporaryDirectory(prefix="pnp-preview-") as tmp:
            options = PREVIEW_OPTIONS.get(renderer.name, {})
            paths, found = renderer.render(game, tmp, paper, **options)
            if options and not paths and not found:
                paths, found = renderer.render(game, tmp, paper)
            diags.extend(found)
            for path in sorted(p for p in paths if p.suffix == ".pdf"):
                data = path.read_bytes()
                digest = hashlib.sha1(data).hexdigest()[:16]
                for n, (png, size) in enumerate(zip(rasterise(data, dpi), _page_sizes(data),
                                                    strict=True), 1):
                    items.append(PreviewItem(f"{renderer.name}/{path.stem}/{n}", renderer.name,
                                             path.name, f"{path.stem}, page {n}",
                                             f"{renderer.name} {path.stem}", f"{digest}-{n}",
                                             size, png=png))
    return items, diags


def _page_sizes(pdf: bytes) -> list[tuple[float, float]]:
    import pypdfium2 as pdfium

    with _PDFIUM:
        doc = pdfium.PdfDocument(pdf)
        try:
            return [tuple(doc[i].get_size()) for i in range(len(doc))]
        finally:
            doc.close()


_PDFIUM = threading.Lock()  # pdfium is not thread-safe; the preview draws from worker threads


def rasterise(pdf: bytes, dpi: float) -> list[bytes]:
    """Each page of `pdf` as PNG bytes at `dpi`."""
    with _PDFIUM:
        return _rasterise(pdf, dpi)


def _rasterise(pdf: bytes, dpi: float) -> list[bytes]:
    import pypdfium2 as pdfium

    doc = pdfium.PdfDocument(pdf)
    out = []
    try:
        for i in range(len(doc)):
            page = doc[i]
            image = page.render(scale=dpi / 72).to_pil().convert("RGB")
            buf = io.BytesIO()
            image.save(buf, format="PNG", compress_level=1)  # speed over size: a local page
            out.append(buf.getvalue())
            page.close()
    finally:
        doc.close()
    return out
