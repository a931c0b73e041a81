"""Inline icons as data: the one `{name}` marker, and the icons a game defines, read once.

Icons come from the shared layout files (templates/icons.yaml) and then the game's own layout
files, a later definition replacing an earlier one of the same name. `read_icon` is the one
reader of a definition: the renderer turns each `IconDef` into an icon it draws
(pnp.render.layout.icons.Icon), and the rulesheet checks its `{name}`s against `game_icons`
and paints the same definitions, so a card and a rulesheet always know the same icons.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pnp import paths
from pnp.colors import parse_color
from pnp.diagnostics import ERROR, Diagnostic, Position
from pnp.templating.codes import R_COLOR, R_IMAGE_ESCAPES, R_IMAGE_FORMAT, R_MISSING_IMAGE
from pnp.templating.layout_files import RASTER_EXTENSIONS, safe_path, shared_documents

#: an inline icon in card text, board text or a rulesheet: `{coin}`
ICON_MARK = re.compile(r"\{([A-Za-z0-9_][A-Za-z0-9_-]*)\}")


@dataclass(frozen=True)
class IconDef:
    """A named icon as a layout file defines it: a raster file or a drawn shape (RGB 0..1)."""

    name: str
    file: Path | None = None
    shape: str | None = None
    fill: tuple[float, float, float] | None = (0, 0, 0)
    stroke: tuple[float, float, float] | None = None
    label: str = ""
    label_color: tuple[float, float, float] | None = (1, 1, 1)
    origin: Position | None = None
    meaning: str = ""  # what the symbol stands for, in players' words (the symbol key prints it)


def icon_entries(doc) -> Iterator[tuple[str, Mapping[str, Any], Position]]:
    """Each entry under a layout document's `icons:`: name, definition, where it is written."""
    data = doc.data if isinstance(doc.data, Mapping) else {}
    for name, spec in (data.get("icons") or {}).items():
        yield name, spec, doc.pos(("icons", name))


def read_icon(name: str, spec: Mapping[str, Any], where: Position | None, base: Path,
              diags: list[Diagnostic]) -> IconDef | None:
    """One icon definition, its file relative to `base` (the layout file's folder); None, with
    a diagnostic, when its file leaves that folder, is not PNG/JPG or is missing, or a colour
    is unknown."""
    if "file" in spec:
        path = safe_path(base, str(spec["file"]))
        if path is None:
            diags.append(Diagnostic.at(where, ERROR, R_IMAGE_ESCAPES,
                                       f"icon {name!r}: path {spec['file']!r} leaves {base}"))
            return None
        if path.suffix.lower() not in RASTER_EXTENSIONS:
            diags.append(Diagnostic.at(where, ERROR, R_IMAGE_FORMAT,
                                       f"icon {name!r}: {spec['file']!r} is not PNG or JPG",
                                       "SVG needs svglib, which is not installed"))
            return None
        if not path.is_file():
            diags.append(Diagnostic.at(where, ERROR, R_MISSING_IMAGE,
                                       f"icon {name!r}: file {spec['file']!r} not found"))
            return None
        return IconDef(name, file=path, origin=where, meaning=str(spec.get("meaning", "")))
    try:
        return IconDef(name, shape=spec.get("shape", "circle"),
                       fill=parse_color(spec.get("fill", "black")),
                       stroke=parse_color(spec.get("stroke")),
                       label=str(spec.get("label", "")),
                       label_color=parse_color(spec.get("label_color", "white")), origin=where,
                       meaning=str(spec.get("meaning", "")))
    except ValueError as exc:
        diags.append(Diagnostic.at(where, ERROR, R_COLOR, f"icon {name!r}: {exc}"))
        return None


def read_icons(doc, diags: list[Diagnostic]) -> dict[str, IconDef]:
    """The icons one layout document defines that can be used."""
    base = Path(doc.path).parent
    icons = {}
    for name, spec, where in icon_entries(doc):
        icon = read_icon(name, spec, where, base, diags)
        if icon is not None:
            icons[name] = icon
    return icons


def game_icons(game: Any = None, templates_dir: Path | None = None,
               ) -> tuple[dict[str, IconDef], list[Diagnostic]]:
    """Every icon `game` can use: the shared layout files' first, then its own layout files'
    (the same the renderer draws); with the diagnostics of reading them."""
    docs, diags = shared_documents(templates_dir or paths.TEMPLATES)
    diags = list(diags)
    icons: dict[str, IconDef] = {}
    for doc in [*docs, *(getattr(game, "layout_documents", ()) or ())]:
        icons.update(read_icons(doc, diags))
    return icons, diags


def game_symbols(game: Any) -> tuple[list[IconDef], list[Diagnostic]]:
    """The symbols a game explains: the icons its own layout files define with a `meaning`, in
    the order they are written (the symbol key and the rulesheet's glossary list these)."""
    diags: list[Diagnostic] = []
    icons: dict[str, IconDef] = {}
    for doc in getattr(game, "layout_documents", ()) or ():
        icons.update(read_icons(doc, diags))
    return [icon for icon in icons.values() if icon.meaning], diags
