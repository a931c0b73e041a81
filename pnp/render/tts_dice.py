"""Tabletop Simulator custom dice: a six-faced die of the game becomes a `Custom_Dice` whose
texture shows the game's own faces, drawn as its die net draws them.

The texture follows Berserk Games' D6 template (Knowledge Base, "Custom Dice",
https://kb.tabletopsimulator.com/custom-content/custom-dice/; the template's picture is
docs/img/custom-dice/ps1.png in github.com/Berserk-Games/Tabletop-Simulator-Knowledge-Base): a
square image cut in a 3 x 3 grid whose top row is unused, faces 2, 4, 5 across the middle row
and 1, 3, 6 across the bottom row, with 1 and 6 upside down. `CustomImage.CustomDice.Type` is
the die's shape, 1 for six sides (Berserk Games' API docs, docs/custom-game-objects.md in
github.com/Berserk-Games/Tabletop-Simulator-API: 0 d4, 1 d6, 2 d8, 3 d10, 4 d12, 5 d20). The
templates of the other shapes ship only inside the game, so dice of 4, 8, 10, 12 or 20 faces
stay stock dice with their faces in the description.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pnp.render.geometry import mm

#: TTS D6 template: die face (1-based) -> (column, row from the top, rotation in degrees)
D6_CELLS: Mapping[int, tuple[int, int, int]] = {
    1: (0, 2, 180), 2: (0, 1, 0), 3: (1, 2, 0), 4: (1, 1, 0), 5: (2, 1, 0), 6: (2, 2, 180)}
D6_TYPE = 1  # CustomImage.CustomDice.Type of a six-sided die
TEXTURE_PX = 1024  # the texture's side in pixels (TTS takes up to 4096)
CELL = mm(19)  # a face's side while drawing (the printed die net's face); scaled on rasterising


def wants_texture(die: Any) -> bool:
    """A six-faced die that is not a plain 1-6 die (that one is TTS's stock Die_6, with pips)."""
    return len(die.faces) == 6 and tuple(die.faces) != (1, 2, 3, 4, 5, 6)


def _net_data(library: Any, faces: tuple) -> tuple[str, dict]:
    """The game's own die net element (its face icons, fill and colour) that knows these
    faces; an empty one (white faces, faces written as words) when the game has none."""
    symbols = {str(f) for f in faces if not isinstance(f, int)}
    found: list[tuple[str, dict]] = []
    for layout_id in library.sources:
        data, _, diags = library.resolve(layout_id)
        for el in (data.get("elements") or []) if not diags else []:
            if el.get("type") == "die_net":
                found.append((str(el.get("id", "net")), el))
    for eid, el in reversed(found):  # the game's layouts come after the shared ones
        if symbols <= set(el.get("face_icons") or {}) | set(library.icons):
            return eid, el
    return "die", {}


def texture_pdf(die: Any, library: Any) -> bytes:
    """One page, 3 x 3 faces, laid out as TTS's D6 template, drawn by the game's die net."""
    from pnp.render.layout.codes import ElementError
    from pnp.render.layout.dienet import DieNetElement
    from pnp.render.layout.elements import DrawContext
    from pnp.render.layout.icons import set_fill
    from pnp.render.pdfwrite import pdf_bytes

    eid, data = _net_data(library, tuple(die.faces))
    keep = {k: v for k, v in data.items() if k in ("face_icons", "fill", "color", "stroke")}
    net = DieNetElement(eid, {**keep, "face": f"{CELL}pt"}, None, 3 * CELL, 3 * CELL)
    side = 3 * CELL
    dc = DrawContext({}, library.icons, library.game_root, 0.0, side, side)
    what = f"die {die.id!r}"

    def colour(prop, default):
        try:
            return prop.get({}, what)
        except ElementError:  # a templated colour reads a card; a die has none
            return default

    fill = colour(net.fill, (1.0, 1.0, 1.0))
    ink = colour(net.color, (0.114, 0.153, 0.2))

    def draw(c):
        c.saveState()
        set_fill(c, fill)
        c.rect(0, 0, side, side, stroke=0, fill=1)
        c.restoreState()
        for number, (col, row, turn) in D6_CELLS.items():
            x, y = col * CELL, side - (row + 1) * CELL  # the cell's lower-left corner
            c.saveState()
            c.translate(x + CELL / 2, y + CELL / 2)
            c.rotate(turn)
            net.draw_face(c, dc, str(die.faces[number - 1]), (-CELL / 2, -CELL / 2), ink)
            c.restoreState()

    pdf, _ = pdf_bytes(draw, (side, side), title=die.name)
    return pdf


def texture_png(die: Any, library: Any) -> bytes:
    from pnp.render.exports import rasterise

    (png,) = rasterise(texture_pdf(die, library), [(TEXTURE_PX, TEXTURE_PX)])
    return png


def describe_faces(die: Any) -> str:
    return "\n".join(f"{i + 1}: {face}" for i, face in enumerate(die.faces))


def custom_die(die: Any, url: str, transform: dict[str, float]) -> dict[str, Any]:
    """The saved-object entry of a textured six-sided die."""
    return {"Name": "Custom_Dice", "Nickname": die.name, "Description": describe_faces(die),
            "Transform": transform,
            "CustomImage": {"ImageURL": url, "ImageSecondaryURL": "", "ImageScalar": 1.0,
                            "WidthScale": 0.0, "CustomDice": {"Type": D6_TYPE}}}
