"""The layout library of one game: shared templates/ first, the game's own layouts on top.

`extends` is followed here: an element with the same id overrides its parent's properties one
by one, `remove: true` drops it, new ids are appended. Compiled layouts are cached per card size.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import jinja2

from pnp import paths
from pnp.diagnostics import ERROR, WARNING, Diagnostic, Position
from pnp.render import fonts, pdfops
from pnp.render.geometry import GeometryError, card_size, parse_length, size_key
from pnp.render.layout.canvas import BoundedCache, canvas_cache
from pnp.render.layout.codes import (
    R_COLOR,
    R_DUPLICATE,
    R_EXTENDS,
    R_FONT,
    R_GLYPH,
    R_LENGTH,
    R_OUTSIDE_SAFE,
    R_SCHEMA,
    R_SIZE,
    R_SIZE_MISMATCH,
    R_UNKNOWN_LAYOUT,
    ElementError,
    shown_char,
)
from pnp.render.layout.dienet import R_DIE_NET, DieNetElement, NetError
from pnp.render.layout.elements import (
    ELEMENT_TYPES,
    DrawContext,
    Element,
    IconElement,
    TextElement,
    group_static,
)
from pnp.render.layout.icons import ICON_LABEL_FONT, Icon
from pnp.render.layout.templates import Prop, syntax_diagnostic
from pnp.render.layout.values import parse_color
from pnp.templating.icons import icon_entries, read_icon
from pnp.templating.layout_files import load_layout_file, safe_path, shared_documents


@dataclass
class CardLayout:
    """A compiled layout: draws one card face with its lower-left trim corner at (0, 0)."""

    id: str
    size: tuple[float, float]
    background: Prop | None
    elements: list[Element]
    origin: Position | None
    icons: Mapping[str, Icon]
    game_root: Path
    max_bleed: float = 9.0  # 1/8 in: how far art may extend past the trim
    _backgrounds: BoundedCache = field(default_factory=lambda: BoundedCache(256), repr=False,
                                       compare=False)  # (rgb, bleed) -> operators

    def draw(self, c, ctx: Mapping[str, Any], bleed: float,
             low_ink: bool = False) -> list[ElementError]:
        """Draw every element; errors are returned (one per failing element), drawing goes on.

        `low_ink` leaves out the background and the full-bleed boxes (the dark frames that
        use most ink), outlines the trim thinly instead and prints light text dark."""
        w, h = self.size
        bleed = min(bleed, self.max_bleed)
        dc = DrawContext(ctx, self.icons, self.game_root, bleed, w, h, low_ink,
                         self.text_on_fill() if low_ink else frozenset(),
                         canvas_cache(c, "_pnp_textops", bounded=True))
        errors: list[ElementError] = []
        if low_ink:
            pdfops.append_operators(c, f"q 0.6 0.6 0.6 RG 0.4 w 0 0 {w:.2f} {h:.2f} re S Q")
        if self.background is not None and not low_ink:
            try:
                bg = self.background.get(ctx, f"layout '{self.id}'")
            except ElementError as err:
                err.origin = err.origin or self.origin
                errors.append(err)
                bg = None
            if bg is not None:
                ops = self._backgrounds.get((bg, bleed))
                if ops is None:
                    ops = self._backgrounds[(bg, bleed)] = (
                        f"q {bg[0]:.3f} {bg[1]:.3f} {bg[2]:.3f} rg {-bleed:.2f} "
                        f"{-bleed:.2f} {w + 2 * bleed:.2f} {h + 2 * bleed:.2f} re f Q")
                pdfops.append_operators(c, ops)
        for el in self.elements:
            if low_ink and getattr(el, "bleed", False):
                continue
            try:
                if el.when is None or el.visible(dc):
                    el.draw(c, dc)
            except ElementError as err:
                err.origin = err.origin or getattr(el, "origin", None) or self.origin
                errors.append(err)
        return errors


    def text_on_fill(self) -> frozenset:
        """Text elements drawn on a filled shape that low ink keeps (their colour stays)."""
        cached = getattr(self, "_on_fill", None)
        if cached is not None:
            return cached
        flat = [inner for el in self.elements for inner in (getattr(el, "elements", None) or [el])]
        boxes, found = [], set()
        for el in flat:
            box = el.static_box() if hasattr(el, "static_box") else None
            if isinstance(el, TextElement):
                if box and any(b[0] <= box[0] + box[2] / 2 <= b[0] + b[2]
                               and b[1] <= box[1] + box[3] / 2 <= b[1] + b[3] for b in boxes):
                    found.add(id(el))
            elif box and not getattr(el, "bleed", False) and getattr(el, "fill", None) is not None \
                    and (not el.fill.is_const or el.fill.const is not None):
                boxes.append(box)
        self._on_fill = frozenset(found)
        return self._on_fill


@dataclass
class _Source:
    """One layout definition as written, with the document it came from."""

    id: str
    data: Mapping[str, Any]
    doc: Any
    path: tuple
    root: Path  # the folder its relative paths may not leave

    def pos(self, *sub) -> Position:
        return self.doc.pos(self.path + tuple(sub))


@dataclass
class LayoutLibrary:
    """Every layout and icon one game can use: shared templates/ first, the game's own on top."""

    game_root: Path
    sources: dict[str, _Source] = field(default_factory=dict)
    icons: dict[str, Icon] = field(default_factory=dict)
    _compiled: dict[tuple, tuple[CardLayout | None, list[Diagnostic]]] = field(
        default_factory=dict)

    def add_document(self, doc, root: Path, diags: list[Diagnostic]) -> None:
        data = doc.data if isinstance(doc.data, Mapping) else {}
        seen: set[str] = set()
        for name, spec in (data.get("fonts") or {}).items():
            font_path = safe_path(Path(doc.path).parent, str(spec.get("file", "")))
            if font_path is None or not font_path.is_file():
                diags.append(Diagnostic.at(doc.pos(("fonts", name)), ERROR, R_FONT,
                                           f"font {name!r}: file {spec.get('file')!r} not found "
                                           "inside the layout's folder"))
                continue
            try:
                fonts.register_ttf(name, font_path)
            except fonts.FontError as exc:
                diags.append(Diagnostic.at(doc.pos(("fonts", name)), ERROR, R_FONT, str(exc)))
        # read_icon is the one reader (the rulesheet's game_icons uses it too); one by one here
        # so a drawn label's glyph warning keeps its place before that icon's errors
        base = Path(doc.path).parent
        for name, spec, where in icon_entries(doc):
            if "file" not in spec:
                diags.extend(_label_glyphs(name, spec, where))
            icon = read_icon(name, spec, where, base, diags)
            if icon is not None:
                self.icons[name] = Icon.of(icon)
        for i, spec in enumerate(data.get("layouts") or []):
            lid = spec.get("id")
            if not isinstance(lid, str):
                continue
            if lid in seen:
                diags.append(Diagnostic.at(doc.pos(("layouts", i, "id")), ERROR, R_DUPLICATE,
                                           f"layout {lid!r} is defined twice in this file"))
                continue
            seen.add(lid)
            self.sources[lid] = _Source(lid, spec, doc, ("layouts", i), root)
        self._compiled.clear()

    def resolve(self, layout_id: str) -> tuple[dict, dict[str, Position], list[Diagnostic]]:
        """Follow `extends`: the merged layout data and where each element property came from."""
        chain: list[_Source] = []
        seen: set[str] = set()
        lid: str | None = layout_id
        diags: list[Diagnostic] = []
        while lid is not None:
            src = self.sources.get(lid)
            if src is None:
                where = chain[-1].pos("extends") if chain else None
                diags.append(Diagnostic.at(where, ERROR, R_EXTENDS if chain else R_UNKNOWN_LAYOUT,
                                           f"unknown layout {lid!r}",
                                           f"known layouts: {', '.join(sorted(self.sources))}"))
                return {}, {}, diags
            if lid in seen:
                diags.append(Diagnostic.at(src.pos("extends"), ERROR, R_EXTENDS,
                                           f"layout {layout_id!r} extends itself through {lid!r}"))
                return {}, {}, diags
            seen.add(lid)
            chain.append(src)
            lid = src.data.get("extends")
        merged: dict[str, Any] = {}
        elements: list[dict] = []
        origins: dict[str, Position] = {}
        for src in reversed(chain):
            for k, v in src.data.items():
                if k not in ("elements", "extends"):
                    merged[k] = v
                    origins[f"layout.{k}"] = src.pos(k)
            for i, el in enumerate(src.data.get("elements") or []):
                eid = el.get("id")
                pos = src.pos("elements", i)
                existing = next((e for e in elements if eid is not None and e.get("id") == eid),
                                None)
                if existing is not None:
                    if el.get("remove"):
                        elements.remove(existing)
                        continue
                    existing.update(el)
                    origins[f"el.{eid}"] = pos
                else:
                    elements.append(dict(el))
                    origins[f"el.{eid if eid is not None else f'#{len(elements) - 1}'}"] = pos
        merged["elements"] = elements
        merged["id"] = layout_id
        return merged, origins, diags

    def compile(self, layout_id: str, size: tuple[float, float]) -> tuple[
            CardLayout | None, list[Diagnostic]]:
        """A drawable layout for cards of `size` (cached), plus compile-time diagnostics."""
        key = (layout_id, size_key(size))
        if key not in self._compiled:
            self._compiled[key] = self._compile(layout_id, size)
        return self._compiled[key]

    def _compile(self, layout_id, size):
        data, origins, diags = self.resolve(layout_id)
        if not data:
            return None, diags
        src = self.sources[layout_id]
        w, h = size
        where = src.pos()
        if "size" in data:
            try:
                own = card_size(data["size"])
            except GeometryError as exc:
                diags.append(Diagnostic.at(origins.get("layout.size"), ERROR, R_SIZE, str(exc)))
            else:
                if size_key(own) != size_key(size):
                    diags.append(Diagnostic.at(
                        origins.get("layout.size"), WARNING, R_SIZE_MISMATCH,
                        f"layout {layout_id!r} is designed for {own[0] / 2.8346:.1f}×"
                        f"{own[1] / 2.8346:.1f} mm but used for {w / 2.8346:.1f}×"
                        f"{h / 2.8346:.1f} mm cards", "elements keep their positions"))
        background = None
        if data.get("background") is not None:
            try:
                background = Prop("background", data["background"], parse_color)
            except ValueError as exc:
                diags.append(Diagnostic.at(origins.get("layout.background"), ERROR, R_COLOR,
                                           str(exc)))
            except jinja2.TemplateSyntaxError as exc:
                diags.append(syntax_diagnostic(origins.get("layout.background"), "background", exc))
        max_bleed = 9.0
        if "bleed" in data:
            try:
                max_bleed = parse_length(data["bleed"])
            except GeometryError as exc:
                diags.append(Diagnostic.at(origins.get("layout.bleed"), ERROR, R_LENGTH, str(exc)))
        safe = None
        if "safe" in data:
            try:
                safe = parse_length(data["safe"])
            except GeometryError as exc:
                diags.append(Diagnostic.at(origins.get("layout.safe"), ERROR, R_LENGTH, str(exc)))
        elements: list[Element] = []
        for i, el in enumerate(data["elements"]):
            eid = str(el.get("id", f"#{i + 1}"))
            pos = origins.get(f"el.{el.get('id')}" if "id" in el else f"el.#{i}", where)
            cls = {**ELEMENT_TYPES, "die_net": DieNetElement}.get(el.get("type", ""))
            if cls is None:
                diags.append(Diagnostic.at(pos, ERROR, R_SCHEMA,
                                           f"element '{eid}': unknown type {el.get('type')!r}",
                                           f"use one of {', '.join(ELEMENT_TYPES)}, die_net"))
                continue
            try:
                element = cls(eid, el, pos, w, h)
            except jinja2.TemplateSyntaxError as exc:
                diags.append(syntax_diagnostic(pos, f"element '{eid}'", exc))
                continue
            except fonts.FontError as exc:
                diags.append(Diagnostic.at(pos, ERROR, R_FONT, f"element '{eid}': {exc}"))
                continue
            except NetError as exc:
                diags.append(Diagnostic.at(pos, ERROR, R_DIE_NET, f"element '{eid}': {exc}",
                                           "write the net as rows of '.' and the digits 0-5"))
                continue
            except (ValueError, GeometryError) as exc:
                code = R_COLOR if "colour" in str(exc) else R_LENGTH
                diags.append(Diagnostic.at(pos, ERROR, code, f"element '{eid}': {exc}"))
                continue
            if safe is not None and isinstance(element, TextElement | IconElement):
                box = element.static_box()
                if box and (box[0] < safe - 0.01 or box[1] < safe - 0.01
                            or box[0] + box[2] > w - safe + 0.01
                            or box[1] + box[3] > h - safe + 0.01):
                    diags.append(Diagnostic.at(
                        pos, WARNING, R_OUTSIDE_SAFE,
                        f"layout {layout_id!r} element '{eid}' reaches outside the "
                        f"{safe / 2.8346:.1f} mm safe area", "a cutting error may clip it"))
            elements.append(element)
        if any(d.severity == ERROR for d in diags):
            return None, diags
        return CardLayout(layout_id, size, background, group_static(elements, layout_id), where,
                          self.icons, self.game_root, max_bleed), diags


def _label_glyphs(name: str, spec: Mapping[str, Any], where: Position) -> list[Diagnostic]:
    """A warning when a drawn icon's label has a character its font cannot print."""
    missing = fonts.missing_glyphs(str(spec.get("label", "")), ICON_LABEL_FONT)
    if not missing:
        return []
    return [Diagnostic.at(
        where, WARNING, R_GLYPH, f"icon {name!r}: its label font {ICON_LABEL_FONT} has no "
        f"glyph for {', '.join(shown_char(ch) for ch in missing)}, which would print blank",
        "draw the symbol as a shape (circle, star, heart ...) or an image file instead")]


def load_library(game=None, extra_files: Sequence[Path] = (),
                 templates_dir: Path | None = None) -> tuple[LayoutLibrary, list[Diagnostic]]:
    """Shared layouts and icons from templates/, then the game's own layout documents on top."""
    templates_dir = templates_dir or paths.TEMPLATES
    game_root = Path(game.folder) if game is not None else templates_dir
    lib = LayoutLibrary(game_root=game_root)
    docs, diags = shared_documents(templates_dir)
    diags = list(diags)
    for doc in docs:
        lib.add_document(doc, templates_dir, diags)
    for doc in getattr(game, "layout_documents", ()) or ():
        lib.add_document(doc, game_root, diags)
    for f in extra_files:
        doc, d = load_layout_file(Path(f))
        diags.extend(d)
        if doc is not None:
            lib.add_document(doc, game_root, diags)
    return lib, diags
