"""The map renderer: a components.yaml map prints tiled on home paper and whole on its large
paper, every node drawn in its own area, and a map too large for its paper is reported."""

from __future__ import annotations

import shutil
import subprocess

import pytest
from test_graph_board import MAP, with_map

from pnp.data.game import load_game
from pnp.render.kinds import renderer
from pnp.render.maps import layout_map, render_map, voronoi_cells


def test_voronoi_cells_cover_the_frame_and_hold_their_centres():
    points = {"a": (10.0, 10.0), "b": (90.0, 10.0), "c": (50.0, 50.0)}
    cells = voronoi_cells(points, 100, 60)

    def area(poly):
        return abs(sum(x0 * y1 - x1 * y0 for (x0, y0), (x1, y1)
                       in zip(poly, poly[1:] + poly[:1], strict=True))) / 2

    assert sum(area(c) for c in cells.values()) == pytest.approx(100 * 60)
    for name, (x, y) in points.items():  # each centre lies in its own cell's bounding box
        xs = [p[0] for p in cells[name]]
        ys = [p[1] for p in cells[name]]
        assert min(xs) <= x <= max(xs) and min(ys) <= y <= max(ys)


def test_the_map_prints_tiled_and_whole_and_the_kind_is_registered(tmp_path):
    folder = with_map(tmp_path, MAP.replace("  height: 60\n",
                                            "  height: 60\n  whole_paper: a2\n"))
    game = load_game(folder).game
    kind = renderer("map")
    assert kind.applies(game)
    assert kind.output_names(game, "a4") == ["map-a4-tiled.pdf", "map-pieces.pdf", "map-a2.pdf"]
    written, diags = render_map(game, tmp_path / "out", "a4")
    assert not diags
    assert sorted(p.name for p in written) == ["map-a2.pdf", "map-a4-tiled.pdf", "map-pieces.pdf"]
    again, _ = render_map(game, tmp_path / "again", "a4")
    for a, b in zip(sorted(written), sorted(again), strict=True):
        assert a.read_bytes() == b.read_bytes()  # deterministic
    if shutil.which("pdfinfo"):
        info = subprocess.run(["pdfinfo", str(tmp_path / "out" / "map-a4-tiled.pdf")],
                              capture_output=True, text=True).stdout
        pages = int(next(line for line in info.splitlines() if line.startswith("Pages")).split()[1])
        layout = layout_map(game.map)
        assert pages > 1 and layout.size[0] > 595  # 560 mm does not fit one A4 page


def test_a_game_without_a_map_has_nothing_of_this_kind(tmp_path):
    folder = with_map(tmp_path, "")
    game = load_game(folder).game
    assert not renderer("map").applies(game)


@pytest.mark.parametrize("extra,code,severity", [
    ("  whole_paper: a3\n", "PNP-R101", "warning"),   # 560 mm wide map on A3: scaled
    ("  whole_paper: a5\n", "PNP-R100", "error"),     # not a large paper pnp knows
    ("  whole_paper: a3\n  print_width: 1200mm\n", "PNP-R100", "error"),  # below half size
])
def test_a_map_too_large_for_its_paper_is_reported(tmp_path, extra, code, severity):
    folder = with_map(tmp_path, MAP.replace("  height: 60\n", "  height: 60\n" + extra))
    game = load_game(folder).game
    diags = renderer("map").preflight(game, (595.0, 842.0))
    assert [(d.code, d.severity) for d in diags] == [(code, severity)]
    lines = (folder / "components.yaml").read_text().splitlines()
    assert diags[0].line == 1 + next(i for i, t in enumerate(lines) if "whole_paper" in t)
    assert diags[0].hint


def test_the_pieces_print_per_player_colour_and_from_the_box_stock(tmp_path):
    from pnp.render.maps import piece_groups

    game = load_game(with_map(tmp_path)).game
    groups = piece_groups(game)
    armies = [g for g in groups if g.text == "Army"]
    assert len(armies) == game.players_max and {g.count for g in armies} == {3}
    assert [g.count for g in groups if g.text == "Fort"] == [2]  # stock, one neutral group


def test_a_map_whose_tiled_print_ends_in_a_strip_is_told_the_width_that_saves_pages(tmp_path):
    """540 mm of map tiles on 8 A4 pages whose last column holds 2 mm; the hint's width is
    taken at its word and must print on fewer pages with no warning left."""
    from pnp.render import tiling

    def check(width: str, folder):
        folder = with_map(folder, MAP.replace("  height: 60\n", f"  height: 60\n  print_width: {width}\n"))
        game = load_game(folder).game
        pages = tiling.plan_tiles(layout_map(game.map).size, (595.0, 842.0)).pages
        return pages, renderer("map").preflight(game, (595.0, 842.0)), folder

    pages, diags, folder = check("540mm", tmp_path / "wide")
    assert pages == 8
    assert [(d.code, d.severity) for d in diags] == [("PNP-R102", "warning")]
    assert "last column adds only 2 mm" in diags[0].message
    lines = (folder / "components.yaml").read_text().splitlines()
    assert diags[0].line == 1 + next(i for i, t in enumerate(lines) if "print_width" in t)
    suggested = diags[0].hint.split()[1]
    fewer, after, _ = check(suggested, tmp_path / "narrow")
    assert fewer < pages and after == []
