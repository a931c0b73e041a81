"""Die nets: a cube unfolded on the card, with exactly one glue tab on every seam to close.

The net is data (rows of a grid, a digit per face: which of the die's faces sits in that cell).
`fold_net` rolls a cube across the cells to learn which cube edge every cell edge becomes: an
edge shared by two cells of the net is a fold, and every other cube edge appears twice on the
net's outline and gets one tab, on one of its two sides. A net that does not fold into a cube
(two cells on the same side, six in a row) is an error, not a die that cannot be glued.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from pnp.render.layout.codes import ElementError
from pnp.render.layout.elements import BoxElement, TextElement
from pnp.render.layout.icons import ICON_UNITS, icon_form, set_fill, set_stroke
from pnp.render.layout.templates import Prop
from pnp.render.layout.values import as_length, as_text, parse_color
from pnp.render.pdfops import place_form

R_DIE_NET = "PNP-R044"  # a die net that does not fold into a cube, or faces that do not match it
#: the cross: face 0 on top, 4 1 5 across, 2 and 3 below
DEFAULT_NET = (".0.", "415", ".2.", ".3.")
#: grid steps (column, row); rows grow downward, as a layout's y does
STEPS = {"N": (0, -1), "S": (0, 1), "E": (1, 0), "W": (-1, 0)}
OPPOSITE = {"N": "S", "S": "N", "E": "W", "W": "E"}


class NetError(ValueError):
    """A net that cannot be folded into a cube."""


@dataclass(frozen=True)
class NetEdge:
    """One side of one cell: the cube edge it becomes is the pair of cube sides it joins."""

    cell: tuple[int, int]
    side: str  # N, E, S or W
    cube_edge: frozenset


@dataclass(frozen=True)
class NetPlan:
    cells: Mapping[tuple[int, int], int]  # grid cell -> index of the die face drawn there
    folds: tuple[NetEdge, ...]  # one entry per fold (the side of the lower cell in reading order)
    tabs: tuple[NetEdge, ...]  # one glue tab per cut seam
    columns: int
    rows: int
    sides: Mapping[tuple[int, int], str]  # grid cell -> the side of the cube it becomes


def _roll(orient: dict[str, str], d: str) -> dict[str, str]:
    """The cube tipped over its edge in direction d: which original side now faces where."""
    o = dict(orient)
    o["D"], o[d], o["U"], o[OPPOSITE[d]] = orient[d], orient["U"], orient[OPPOSITE[d]], orient["D"]
    return o


def fold_net(rows: Sequence[str], faces: int = 6) -> NetPlan:
    """Fold a net (rows of '.' and face digits) into a cube; NetError when it does not fold."""
    cells: dict[tuple[int, int], int] = {}
    for r, line in enumerate(rows):
        for col, ch in enumerate(str(line)):
            if ch.isdigit():
                cells[(col, r)] = int(ch)
            elif ch not in ". ":
                raise NetError(f"net row {r + 1} has {ch!r}: use '.' and face digits")
    if len(cells) != 6:
        raise NetError(f"a cube net has 6 cells, this one has {len(cells)}")
    if sorted(cells.values()) != list(range(faces)) or faces != 6:
        raise NetError(f"the net's digits must be 0 to 5, each once, for a die of {faces} faces")
    start = min(cells, key=lambda p: (p[1], p[0]))
    sides = {"D": "D", "U": "U", "N": "N", "S": "S", "E": "E", "W": "W"}
    orient = {start: sides}
    queue = [start]
    while queue:
        cell = queue.pop(0)
        for d, (dx, dy) in STEPS.items():
            nxt = (cell[0] + dx, cell[1] + dy)
            if nxt in cells and nxt not in orient:
                orient[nxt] = _roll(orient[cell], d)
                queue.append(nxt)
    if len(orient) != 6:
        raise NetError("the net's cells are not all joined edge to edge")
    bottoms = {o["D"] for o in orient.values()}
    if len(bottoms) != 6:
        raise NetError("two cells of the net fold onto the same side of the cube")
    edges = [NetEdge(cell, d, frozenset((orient[cell]["D"], orient[cell][d])))
             for cell in sorted(cells, key=lambda p: (p[1], p[0])) for d in "NESW"]
    folds, seams = [], {}
    for e in edges:
        dx, dy = STEPS[e.side]
        if (e.cell[0] + dx, e.cell[1] + dy) in cells:
            if (e.cell[1], e.cell[0]) < ((e.cell[1] + dy), (e.cell[0] + dx)):
                folds.append(e)
        else:
            seams.setdefault(e.cube_edge, []).append(e)
    tabs = tuple(_tab_side(pair, cells) for pair in seams.values())
    width = max(c for c, _ in cells) + 1
    return NetPlan(cells, tuple(folds), tabs, width, len(rows),
                   {cell: o["D"] for cell, o in orient.items()})


def _tab_side(pair: list[NetEdge], cells: Mapping[tuple[int, int], int]) -> NetEdge:
    """Of a seam's two outline edges, the one whose tab stays inside the net's bounding box
    (it then lies in an empty cell of the grid); the first in reading order on a tie."""
    cols = max(c for c, _ in cells)
    rows = max(r for _, r in cells)

    def inside(e: NetEdge) -> bool:
        dx, dy = STEPS[e.side]
        x, y = e.cell[0] + dx, e.cell[1] + dy
        return 0 <= x <= cols and 0 <= y <= rows

    return sorted(pair, key=lambda e: (not inside(e), e.cell[1], e.cell[0], e.side))[0]


def _segment(cx: float, cy: float, f: float, side: str) -> tuple[float, float, float, float]:
    """The side of a cell whose lower-left corner is (cx, cy), in PDF orientation."""
    return {"N": (cx, cy + f, cx + f, cy + f), "S": (cx, cy, cx + f, cy),
            "E": (cx + f, cy, cx + f, cy + f), "W": (cx, cy, cx, cy + f)}[side]


class DieNetElement(BoxElement):
    """A cube die's net: faces from a template (comma-separated values), icons or letters on
    them, fold lines dashed, glue tabs from fold_net."""

    kind = "die_net"

    def __init__(self, eid, data, origin, card_w, card_h):
        super().__init__(eid, data, origin, card_w, card_h)
        self.faces = Prop("faces", data.get("faces", ""), as_text)
        self.face = as_length(data.get("face", "20mm"))
        self.tab = as_length(data.get("tab", "5mm"))
        self.face_icons = dict(data.get("face_icons") or {})
        self.fill = Prop("fill", data.get("fill", "#ffffff"), parse_color)
        self.stroke = Prop("stroke", data.get("stroke", "#1d2733"), parse_color)
        self.color = Prop("color", data.get("color", "#1d2733"), parse_color)
        self.plan = fold_net(tuple(data.get("net") or DEFAULT_NET))  # NetError: reported when the layout compiles
        self.label = TextElement(f"{eid}-face", {"text": "", "font": "bold", "size": "24pt",
                                                 "min_size": "6pt", "wrap": False,
                                                 "align": "center", "valign": "middle"},
                                 origin, card_w, card_h)

    def needed(self) -> tuple[float, float]:
        """The box the net and its tabs need, in points."""
        return (self.plan.columns * self.face + 2 * self.tab,
                self.plan.rows * self.face + 2 * self.tab)

    def draw(self, c, dc):
        values = [v.strip() for v in self.faces.get(dc.ctx, self.what).split(",")]
        if len(values) != len(self.plan.cells):
            raise ElementError(R_DIE_NET, f"{self.what}: the net has {len(self.plan.cells)} "
                               f"faces but the card gives {len(values)}",
                               "give one value per face, comma-separated",
                               self.faces.fields[0] if self.faces.fields else None)
        x, y, w, h = self.box(dc)
        nw, nh = self.needed()
        if nw > w + 0.01 or nh > h + 0.01:
            raise ElementError(R_DIE_NET, f"{self.what}: the net with its tabs needs "
                               f"{nw / 2.8346:.1f}×{nh / 2.8346:.1f} mm, its box is "
                               f"{w / 2.8346:.1f}×{h / 2.8346:.1f} mm",
                               "enlarge the box or make `face` or `tab` smaller")
        f, t = self.face, self.tab
        ox, top = x + (w - nw) / 2 + t, y + h - (h - nh) / 2 - t

        def corner(cell):  # lower-left corner of a cell in PDF orientation
            return ox + cell[0] * f, top - (cell[1] + 1) * f

        stroke = self.stroke.get(dc.ctx, self.what)
        c.saveState()
        c.setLineWidth(0.6)
        set_fill(c, (0.88, 0.88, 0.88))
        set_stroke(c, stroke)
        for e in self.plan.tabs:
            c.drawPath(self._tab_path(c, corner(e.cell), e.side), stroke=1, fill=1)
        set_fill(c, self.fill.get(dc.ctx, self.what))
        for cell in self.plan.cells:
            cx, cy = corner(cell)
            c.rect(cx, cy, f, f, stroke=0, fill=1)
        folds = {(e.cell, e.side) for e in self.plan.folds}
        for cell in self.plan.cells:  # the outline is cut (solid), a fold is dashed
            cx, cy = corner(cell)
            for side in "NESW":
                dx, dy = STEPS[side]
                other = (cell[0] + dx, cell[1] + dy)
                fold = other in self.plan.cells
                if fold and (cell, side) not in folds:
                    continue  # drawn once, from the cell that owns the fold
                c.setDash([2, 2] if fold else [])
                c.setLineWidth(0.4 if fold else 0.8)
                c.line(*_segment(cx, cy, f, side))
        c.restoreState()
        color = self.color.get(dc.ctx, self.what)
        for cell, index in self.plan.cells.items():
            self.draw_face(c, dc, values[index], corner(cell), color)

    def _tab_path(self, c, at, side):
        """A trapezoid on one side of a cell, its slanted ends keeping clear of neighbours."""
        cx, cy = at
        f, t = self.face, self.tab
        k = min(t, f / 4)
        p = c.beginPath()
        if side == "N":
            pts = [(cx, cy + f), (cx + k, cy + f + t), (cx + f - k, cy + f + t), (cx + f, cy + f)]
        elif side == "S":
            pts = [(cx, cy), (cx + k, cy - t), (cx + f - k, cy - t), (cx + f, cy)]
        elif side == "E":
            pts = [(cx + f, cy), (cx + f + t, cy + k), (cx + f + t, cy + f - k), (cx + f, cy + f)]
        else:
            pts = [(cx, cy), (cx - t, cy + k), (cx - t, cy + f - k), (cx, cy + f)]
        p.moveTo(*pts[0])
        for pt in pts[1:]:
            p.lineTo(*pt)
        p.close()
        return p

    def draw_face(self, c, dc, value, at, color):
        """One face's icon or word in the cell whose lower-left corner is `at` (the TTS die
        texture draws its faces with this too)."""
        name = self.face_icons.get(value, value if value in dc.icons else None)
        if not value or name == "":  # a blank face
            return
        cx, cy = at
        f = self.face
        if name is not None and name in dc.icons:
            s = f * 0.7  # a margin all round, so the symbol is never clipped by a cut
            place_form(c, icon_form(c, dc.icons[name]), cx + (f - s) / 2, cy + (f - s) / 2,
                       s / ICON_UNITS)
            return
        inset = f * 0.12
        ops, _ = self.label._operators(c, dc, value, (cx + inset, cy + inset, f - 2 * inset,
                                                      f - 2 * inset), color)
        from pnp.render import pdfops

        pdfops.append_operators(c, ops)
