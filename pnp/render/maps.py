"""A map board (components.yaml `map:`) drawn as a map: each node's area, the borders between
them, city sites with their resource, names and a legend; tiled over home pages and whole on
the map's large paper; and the pieces that stand on it as a token sheet.

The data gives only node centres, so each node's area is its Voronoi cell (the points nearer to
its centre than to any other), clipped to the map's frame: every place gets a region, and
regions that touch look like neighbours. What is adjacent is the data's edges, drawn as lines
between centres in one style per edge kind, so the print never claims a border the rules lack.
The renderer knows no rules: piece limits are printed as data, in the legend.
"""

from __future__ import annotations

import math
import os
from dataclasses import dataclass, replace
from pathlib import Path

from pnp.data.model import GameDef, GameMap
from pnp.diagnostics import ERROR, WARNING, Diagnostic, has_errors
from pnp.paper import LARGE_PAPERS, file_part
from pnp.render import tiling
from pnp.render.geometry import GeometryError, Rect, mm, parse_paper, to_mm
from pnp.render.pdfwrite import pdf_bytes, write_outputs
from pnp.render.scalebar import HEIGHT, LENGTH, draw_scale_bar_in
from pnp.render.text import fit_width, measure

R_MAP = "PNP-R100"  # a map that cannot be drawn on this paper (unknown whole_paper, too small)
R_MAP_SCALED = "PNP-R101"  # warning: the map is larger than its whole paper and is scaled
R_MAP_SLIVER = "PNP-R102"  # warning: the tiled print's last column or row adds a sliver of map

REGULAR, BOLD, ITALIC = "Vera", "Vera-Bold", "Vera-Italic"
INK = (0.12, 0.12, 0.14)
WATER_INK = (0.10, 0.28, 0.45)
FRAME = mm(6)  # the frame round the map area
TITLE_H = mm(12)
LEGEND_H = mm(34)
WHOLE_MARGIN = mm(10)
SLIVER = mm(15)  # a tiled page that adds less map than this across or down is a wasted sheet
MIN_WHOLE_SCALE = 0.5
CITY_R = mm(4.2)  # a city site's circle
NAME_PT, NAME_MIN_PT = 8.0, 6.0
DEFAULT_LAND, DEFAULT_WATER = "#dfd3ad", "#9cc3dc"
#: edge kinds in data order get these styles: (dash pattern or None, width, grey level)
EDGE_STYLES = (((), 1.4, 0.30), ((4, 2.5), 1.2, 0.30), ((1, 2), 1.3, 0.20),
               ((6, 2, 1, 2), 1.2, 0.35))
RESOURCE_DEFAULTS = ("#e8e4da", "#5b7fa6", "#e3b53b", "#a0522d", "#6b8e23", "#8e2c48")


def hex_rgb(value: str) -> tuple[float, float, float]:
    v = value.lstrip("#")
    return int(v[0:2], 16) / 255, int(v[2:4], 16) / 255, int(v[4:6], 16) / 255


# --------------------------------------------------------------------------- geometry


Polygon = list[tuple[float, float]]


def _clip(poly: Polygon, a: tuple[float, float], b: tuple[float, float]) -> Polygon:
    """The part of `poly` nearer to `a` than to `b` (one half-plane, Sutherland-Hodgman)."""
    mx, my = (a[0] + b[0]) / 2, (a[1] + b[1]) / 2
    nx, ny = b[0] - a[0], b[1] - a[1]

    def inside(p: tuple[float, float]) -> float:
        return (p[0] - mx) * nx + (p[1] - my) * ny  # <= 0: a's side

    out: Polygon = []
    for i, p in enumerate(poly):
        q = poly[(i + 1) % len(poly)]
        dp, dq = inside(p), inside(q)
        if dp <= 0:
            out.append(p)
        if (dp <= 0) != (dq <= 0):
            t = dp / (dp - dq)
            out.append((p[0] + t * (q[0] - p[0]), p[1] + t * (q[1] - p[1])))
    return out


def voronoi_cells(points: dict[str, tuple[float, float]], width: float,
                  height: float) -> dict[str, Polygon]:
    """Each point's Voronoi cell inside the rectangle 0..width × 0..height."""
    frame: Polygon = [(0.0, 0.0), (width, 0.0), (width, height), (0.0, height)]
    cells = {}
    for name, p in points.items():
        cell = frame
        for other, q in points.items():
            if other != name and q != p and cell:
                cell = _clip(cell, p, q)
        cells[name] = cell
    return cells


@dataclass(frozen=True)
class MapLayout:
    """Sizes of the drawing in points: the map area sits between the title and the legend."""

    gmap: GameMap
    width: float
    map_h: float
    scale: float  # points per map unit

    @property
    def size(self) -> tuple[float, float]:
        return (self.width + 2 * FRAME, TITLE_H + self.map_h + LEGEND_H + 2 * FRAME)

    def at(self, x: float, y: float) -> tuple[float, float]:
        """Map units (0,0 top-left) to drawing points (origin bottom-left)."""
        return (FRAME + x * self.scale, FRAME + LEGEND_H + self.map_h - y * self.scale)


def layout_map(gmap: GameMap) -> MapLayout:
    scale = gmap.print_width / gmap.width
    return MapLayout(gmap, gmap.print_width, gmap.height * scale, scale)


# --------------------------------------------------------------------------- drawing


def _text(c, font: str, size: float, x: float, y: float, text: str, anchor: str = "centre",
          max_width: float | None = None, min_size: float = 0.0) -> None:
    if max_width is not None:
        size = fit_width(text, font, size, max_width, min_size)
    w = measure(text, font, size)
    c.setFont(font, size)
    c.drawString(x - (w / 2 if anchor == "centre" else 0), y, text)


def _kind_colour(gmap: GameMap, kind: str) -> tuple[float, float, float]:
    k = gmap.kinds[kind]
    return hex_rgb(k.colour or (DEFAULT_WATER if k.terrain == "water" else DEFAULT_LAND))


def _resource_colour(gmap: GameMap, resource: str) -> tuple[float, float, float]:
    r = gmap.resources[resource]
    i = list(gmap.resources).index(resource)
    return hex_rgb(r.colour or RESOURCE_DEFAULTS[i % len(RESOURCE_DEFAULTS)])


def edge_styles(gmap: GameMap) -> dict[str, tuple]:
    kinds = list(dict.fromkeys(e.kind for e in gmap.edges))
    return {k: EDGE_STYLES[i % len(EDGE_STYLES)] for i, k in enumerate(kinds)}


def draw_map(c, layout: MapLayout, title: str) -> None:
    """The whole drawing with its lower-left corner at the origin."""
    gmap = layout.gmap
    w, h = layout.size
    c.setFillColorRGB(1, 1, 1)
    c.rect(0, 0, w, h, stroke=0, fill=1)
    centres = {n.id: layout.at(*n.at) for n in gmap.nodes.values()}
    x0, y0 = FRAME, FRAME + LEGEND_H
    local = {k: (x - x0, y - y0) for k, (x, y) in centres.items()}
    cells = voronoi_cells(local, layout.width, layout.map_h)
    c.setLineWidth(0.6)
    c.setStrokeColorRGB(1, 1, 1)
    for node in gmap.nodes.values():
        cell = cells[node.id]
        if len(cell) < 3:
            continue
        c.setFillColorRGB(*_kind_colour(gmap, node.kind))
        p = c.beginPath()
        p.moveTo(x0 + cell[0][0], y0 + cell[0][1])
        for px, py in cell[1:]:
            p.lineTo(x0 + px, y0 + py)
        p.close()
        c.drawPath(p, stroke=1, fill=1)
    _draw_edges(c, gmap, centres)
    _draw_nodes(c, layout, centres)
    c.setStrokeColorRGB(*INK)
    c.setLineWidth(1.2)
    c.rect(x0, y0, layout.width, layout.map_h, stroke=1, fill=0)
    c.setFillColorRGB(*INK)
    _text(c, BOLD, 16, w / 2, h - FRAME - TITLE_H + mm(3), title, max_width=w - 2 * FRAME,
          min_size=9)
    _draw_legend(c, layout)


def _draw_edges(c, gmap: GameMap, centres: dict) -> None:
    styles = edge_styles(gmap)
    for e in gmap.edges:
        dash, width, grey = styles[e.kind]
        (ax, ay), (bx, by) = centres[e.a], centres[e.b]
        c.setDash(*dash) if dash else c.setDash()
        c.setLineWidth(width)
        c.setStrokeColorRGB(grey, grey, grey)
        c.line(ax, ay, bx, by)
    c.setDash()


def _draw_nodes(c, layout: MapLayout, centres: dict) -> None:
    gmap = layout.gmap
    name_w = mm(30)
    for node in gmap.nodes.values():
        x, y = centres[node.id]
        water = gmap.kinds[node.kind].terrain == "water"
        if node.site is not None:
            c.setLineWidth(1.0)
            c.setStrokeColorRGB(*INK)
            c.setFillColorRGB(*_resource_colour(gmap, node.site))
            c.circle(x, y, CITY_R, stroke=1, fill=1)
            initial = gmap.resources[node.site].name[:1].upper()
            c.setFillColorRGB(*INK)
            _text(c, BOLD, 8, x, y - 2.8, initial)
        else:
            c.setLineWidth(0.8)
            c.setStrokeColorRGB(*(WATER_INK if water else INK))
            c.setFillColorRGB(1, 1, 1)
            c.circle(x, y, mm(1.4), stroke=1, fill=1)
        # the name on a white band below the centre, so it reads over edges
        font = ITALIC if water else BOLD
        size = fit_width(node.name, font, NAME_PT, name_w, NAME_MIN_PT)
        tw = measure(node.name, font, size)
        ny = y - CITY_R - size - mm(0.8)
        c.setFillColorRGB(1, 1, 1)
        c.roundRect(x - tw / 2 - mm(0.8), ny - mm(0.7), tw + mm(1.6), size + mm(1.2), mm(0.8),
                    stroke=0, fill=1)
        c.setFillColorRGB(*(WATER_INK if water else INK))
        _text(c, font, size, x, ny, node.name)


def _draw_legend(c, layout: MapLayout) -> None:
    """Node kinds, city sites by resource, edge kinds and the pieces with their limits."""
    gmap = layout.gmap
    x, top = FRAME + mm(2), FRAME + LEGEND_H - mm(5)
    col_w = layout.width / 4
    c.setFillColorRGB(*INK)
    _text(c, BOLD, 9, x, top, "Legend", "left")
    row = mm(5.2)
    # column 1: node kinds
    y = top - row
    for k in gmap.kinds.values():
        c.setFillColorRGB(*_kind_colour(gmap, k.id))
        c.setStrokeColorRGB(*INK)
        c.setLineWidth(0.5)
        c.rect(x, y - 1, mm(8), mm(3.5), stroke=1, fill=1)
        c.setFillColorRGB(*INK)
        _text(c, REGULAR, 8, x + mm(10), y, f"{k.name} ({'water' if k.terrain == 'water' else 'land'})",
              "left", col_w - mm(12), 6)
        y -= row
    # column 2: city sites
    x2, y = x + col_w, top - row
    for r in gmap.resources.values():
        c.setFillColorRGB(*_resource_colour(gmap, r.id))
        c.setStrokeColorRGB(*INK)
        c.setLineWidth(0.8)
        c.circle(x2 + mm(2.5), y + mm(1), mm(2.2), stroke=1, fill=1)
        c.setFillColorRGB(*INK)
        _text(c, BOLD, 6, x2 + mm(2.5), y - 0.6, r.name[:1].upper())
        _text(c, REGULAR, 8, x2 + mm(7), y, f"{r.name} city site", "left", col_w - mm(9), 6)
        y -= row
    # column 3: edge kinds
    x3, y = x + 2 * col_w, top - row
    for kind, (dash, width, grey) in edge_styles(gmap).items():
        c.setDash(*dash) if dash else c.setDash()
        c.setLineWidth(width)
        c.setStrokeColorRGB(grey, grey, grey)
        c.line(x3, y + mm(1), x3 + mm(10), y + mm(1))
        c.setDash()
        c.setFillColorRGB(*INK)
        _text(c, REGULAR, 8, x3 + mm(12), y, f"{kind or 'border'} edge", "left", col_w - mm(14),
              6)
        y -= row
    # column 4: pieces and their limits
    x4, y = x + 3 * col_w, top - row
    for p in gmap.pieces.values():
        limits = [f"{p.per_player} each" if p.per_player is not None else "",
                  f"{p.stock} in the box" if p.stock is not None else "",
                  f"{p.per_node} a place" if p.per_node is not None else ""]
        where = ", ".join(gmap.kinds[k].name.lower() for k in p.on)
        text = f"{p.name}: on {where}" + "".join(f"; {t}" for t in limits if t)
        c.setFillColorRGB(*INK)
        _text(c, REGULAR, 8, x4, y, text, "left", col_w - mm(4), 5.5)
        y -= row


# --------------------------------------------------------------------------- files


def map_stem(game: GameDef) -> str:
    return "map"


def whole_paper(gmap: GameMap) -> tuple[str, tuple[float, float]] | None:
    """(name, size) of the map's large paper, None when it prints only tiled."""
    if not gmap.whole_paper:
        return None
    return gmap.whole_paper.lower(), parse_paper(gmap.whole_paper)


def _whole_fit(layout: MapLayout, paper: tuple[float, float]) -> tuple[tuple[float, float],
                                                                        float]:
    """The orientation of `paper` the map fits better, and the scale it prints at there."""
    best = None
    for page in (paper, (paper[1], paper[0])):
        inner = (page[0] - 2 * WHOLE_MARGIN, page[1] - 2 * WHOLE_MARGIN)
        scale = min(1.0, inner[0] / layout.size[0], inner[1] / layout.size[1])
        if best is None or scale > best[1]:
            best = (page, scale)
    assert best is not None
    return best


def check_map(game: GameDef, home: tuple[float, float]) -> list[Diagnostic]:
    """What drawing the map on this home paper and its whole paper would meet."""
    gmap = game.map
    if gmap is None:
        return []
    layout = layout_map(gmap)
    try:
        plan = tiling.plan_tiles(layout.size, home)
        whole = whole_paper(gmap)
    except (GeometryError, ValueError) as exc:
        return [Diagnostic.at(gmap.paper_origin, ERROR, R_MAP, f"map '{gmap.id}': {exc}",
                              f"whole_paper takes {', '.join(LARGE_PAPERS)} or WIDTHxHEIGHT")]
    found = _sliver(gmap, layout, plan, home)
    if whole is None:
        return found
    _, scale = _whole_fit(layout, whole[1])
    if scale < MIN_WHOLE_SCALE:
        return [Diagnostic.at(gmap.paper_origin, ERROR, R_MAP, f"map '{gmap.id}' would print at "
                              f"{scale:.0%} on {whole[0].upper()}, too small to read",
                              "name a larger whole_paper or a smaller print_width")]
    if scale < 1.0:
        return [Diagnostic.at(gmap.paper_origin, WARNING, R_MAP_SCALED, f"map '{gmap.id}' is larger "
                              f"than {whole[0].upper()}; its whole print is scaled to "
                              f"{scale:.0%}", "name a larger whole_paper or a smaller "
                              "print_width")] + found
    return found


def _sliver(gmap: GameMap, layout: MapLayout, plan: tiling.TilePlan,
            home: tuple[float, float]) -> list[Diagnostic]:
    """A warning when the tiled print's last column or row adds only a strip of map, with the
    print_width that drops it: a designer tunes the width to the paper, not the other way."""
    (cw, ch), (sx, sy) = plan.content, plan.step
    extra = [plan.size[0] - (plan.cols - 1) * sx - plan.overlap if plan.cols > 1 else cw,
             plan.size[1] - (plan.rows - 1) * sy - plan.overlap if plan.rows > 1 else ch]
    if min(extra) >= SLIVER:
        return []
    # shrink the map a millimetre at a time until a page goes (the frame, title and legend keep
    # their size; only the map area scales with print_width)
    width = layout.width
    for _ in range(200):
        width -= mm(1)
        fewer = tiling.plan_tiles(layout_map(replace(gmap, print_width=width)).size, home)
        if fewer.pages < plan.pages:
            break
    else:
        return []
    across = "column" if extra[0] < SLIVER else "row"
    return [Diagnostic.at(gmap.paper_origin, WARNING, R_MAP_SLIVER,
                          f"map '{gmap.id}' tiles on {plan.pages} pages, and its last {across} "
                          f"adds only {to_mm(max(0.0, min(extra))):.0f} mm of map",
                          f"print_width: {math.floor(to_mm(width) + 1e-6)}mm prints it on "
                          f"{fewer.pages} pages")]


#: how each kind of piece is cut out, in data order (a rules-free choice: shapes tell them apart)
PIECE_SHAPES = ("square", "circle", "hexagon", "circle")
PIECE_SIZE = "12mm"


def piece_groups(game: GameDef) -> list:
    """Token groups for the map's pieces: each per-player piece in every player colour
    (`per_player` of each), each shared piece once (`stock` of it)."""
    from pnp.render.build import PLAYER_COLOURS
    from pnp.render.tokens import TokenGroup

    gmap = game.map
    if gmap is None:
        return []
    groups = []
    for i, piece in enumerate(gmap.pieces.values()):
        shape = PIECE_SHAPES[i % len(PIECE_SHAPES)]
        if piece.per_player:
            for seat in range(game.players_max):
                name, colour = PLAYER_COLOURS[seat % len(PLAYER_COLOURS)]
                groups.append(TokenGroup(f"{name} {piece.name.lower()}", colour,
                                         piece.per_player, shape, PIECE_SIZE, piece.name,
                                         piece.origin))
        elif piece.stock:
            groups.append(TokenGroup(piece.name, "#e9e2cf", piece.stock, shape, PIECE_SIZE,
                                     piece.name, piece.origin))
    return groups


def output_names(game: GameDef, paper: str) -> list[str]:
    gmap = game.map
    if gmap is None:
        return []
    names = [f"{map_stem(game)}-{file_part(paper)}-tiled.pdf"]
    if piece_groups(game):
        names.append(f"{map_stem(game)}-pieces.pdf")
    try:
        whole = whole_paper(gmap)
    except GeometryError:
        whole = None
    if whole is not None:
        names.append(f"{map_stem(game)}-{file_part(whole[0])}.pdf")
    return names


def _scale_bar_below(c, page: tuple[float, float], drawn: tuple[float, float]) -> None:
    """The 50 mm bar under the map's bottom right corner, in the page margin, drawn at the
    page's own scale so a ruler checks the print (even when the map itself is scaled down)."""
    below = (page[1] - drawn[1]) / 2
    if below < HEIGHT + mm(2):
        return
    right = (page[0] + drawn[0]) / 2
    draw_scale_bar_in(c, Rect(right - LENGTH, (below - HEIGHT) / 2, LENGTH, HEIGHT))


def render_map(game: GameDef, out_dir: str | os.PathLike = "output", paper: str = "a4",
               tiled: bool = True, whole: bool = True) -> tuple[list[Path], list[Diagnostic]]:
    """Write the map tiled on `paper` and whole on its large paper; nothing on an error."""
    gmap = game.map
    if gmap is None:
        return [], [Diagnostic(ERROR, R_MAP, f"game {game.id!r} has no map",
                               hint="add `map:` to components.yaml (docs/components.md#maps)")]
    try:
        home = parse_paper(paper)
    except GeometryError as exc:
        return [], [Diagnostic(ERROR, R_MAP, str(exc))]
    diags = check_map(game, home)
    if has_errors(diags):
        return [], diags
    layout = layout_map(gmap)
    title = f"{game.name} — {gmap.name}"
    out = Path(out_dir)
    outputs: list[tuple[Path, bytes]] = []
    if tiled:
        plan = tiling.plan_tiles(layout.size, home)

        def draw_tiled(c):
            form = tiling.define_form(c, layout.size, lambda cc: draw_map(cc, layout, title),
                                      name="pnpMap")
            tiling.draw_tiles(c, plan, form, gmap.name)

        data, _ = pdf_bytes(draw_tiled, plan.page, title)
        outputs.append((out / f"{map_stem(game)}-{file_part(paper)}-tiled.pdf", data))
    big = whole_paper(gmap)
    if whole and big is not None:
        page, scale = _whole_fit(layout, big[1])

        def draw_whole(c):
            w, h = layout.size
            c.setPageSize(page)
            _scale_bar_below(c, page, (w * scale, h * scale))
            c.translate((page[0] - w * scale) / 2, (page[1] - h * scale) / 2)
            c.scale(scale, scale)
            draw_map(c, layout, title)
            c.showPage()

        data, _ = pdf_bytes(draw_whole, page, title)
        outputs.append((out / f"{map_stem(game)}-{file_part(big[0])}.pdf", data))
    written = write_outputs(outputs, diags)
    groups = piece_groups(game)
    if groups:
        from pnp.render.tokens import render_tokens

        paths, d = render_tokens(groups, out / f"{map_stem(game)}-pieces.pdf", paper,
                                 title=f"{game.name} — pieces for the map")
        written.extend(paths)
        diags.extend(d)
    return written, diags
