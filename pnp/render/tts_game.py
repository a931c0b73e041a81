"""One Tabletop Simulator saved object for a whole game: a bag holding every deck, every token
and board piece, and the dice.

`pnp build --tts` writes `<game>-tts.json` in the kit beside the per-deck objects. Card decks
are the per-deck `DeckCustom` objects the card export wrote (read back, not drawn twice).
A deck of small pieces (tokens, at most TOKEN_MAX each way) or of large ones (player boards,
over BOARD_MIN) is not a deck on the table: each distinct piece becomes a two-sided
`Custom_Tile` (round when the piece is round) with its own front and back image, one per copy,
in a bag per deck. A drawn board (`boards:`) becomes a `Custom_Board` from its whole print,
rasterised to at most 4096 px. A six-faced die with its own faces becomes a `Custom_Dice`
whose texture shows them (pnp.render.tts_dice); a plain 1-6 die, or a die of 4, 8, 10, 12 or
20 faces, a stock die (`Die_6` ...) whose description maps its numbers to the game's faces. The players' pawns (pnp.render.build.pawn_groups) are stock
`PlayerPawn`s in each player's colour.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from pnp.diagnostics import Diagnostic
from pnp.render.geometry import mm

TOKEN_MAX = mm(40)  # a piece no larger than this each way is a token
BOARD_MIN = mm(130)  # a piece with a side over this is a board
PIECES = "tts-pieces"  # the folder of per-piece images
STOCK_DICE = (4, 6, 8, 10, 12, 20)
ROUND_SHAPES = ("circle", "round", "coin")


def piece_decks(game: Any) -> list[Any]:
    """Printed decks that are pieces, not cards (tokens and boards)."""
    from pnp.render.geometry import printed_deck_sizes

    return [deck for deck, size in printed_deck_sizes(game)
            if max(size) <= TOKEN_MAX or max(size) > BOARD_MIN]


def _url(path: Path, base_url: str | None, root: Path) -> str:
    if base_url:
        return base_url.rstrip("/") + "/" + path.relative_to(root).as_posix()
    return path.resolve().as_uri()


def _transform(x: float, z: float = 0.0, scale: float = 1.0) -> dict[str, float]:
    return {"posX": x, "posY": 1.0, "posZ": z, "rotX": 0.0, "rotY": 180.0, "rotZ": 0.0,
            "scaleX": scale, "scaleY": 1.0, "scaleZ": scale}


def tile(card: Any, front: str, back: str, size: tuple[float, float]) -> dict[str, Any]:
    """One piece as a two-sided Custom_Tile, about its printed size (a TTS unit is ~1 in)."""
    from pnp.render.tts import describe

    shape = str(card.fields.get("shape", "")).lower()
    return {"Name": "Custom_Tile", "Nickname": card.name, "Description": describe(card),
            "Transform": _transform(0.0, 0.0, max(size) / 72 / 2),
            "CustomImage": {"ImageURL": front, "ImageSecondaryURL": back, "ImageScalar": 1.0,
                            "WidthScale": 0.0,
                            "CustomTile": {"Type": 2 if shape in ROUND_SHAPES else 0,
                                           "Thickness": 0.1, "Stackable": True,
                                           "Stretch": True}}}


def die(d: Any) -> dict[str, Any] | None:
    """A stock die whose numbers stand for the game's faces; None for other face counts."""
    n = len(d.faces)
    if n not in STOCK_DICE:
        return None
    faces = "\n".join(f"{i + 1}: {face}" for i, face in enumerate(d.faces))
    return {"Name": f"Die_{n}", "Nickname": d.name, "Description": faces,
            "Transform": _transform(0.0)}


def game_dice(game: Any, stage: Path, base_url: str | None
              ) -> tuple[list[dict[str, Any]], list[tuple[Path, bytes]]]:
    """Each die of the game: a six-faced die other than 1-6 as a Custom_Dice with its faces
    drawn on a texture (pnp.render.tts_dice), any other a stock die; with the textures."""
    from pnp.render.tts_dice import custom_die, texture_png, wants_texture

    objects, images, library = [], [], None
    for d in getattr(game, "dice", {}).values():
        if wants_texture(d):
            if library is None:
                from pnp.render.layout.library import load_library

                library, _ = load_library(game)  # its diagnostics are the card renderer's
            path = stage / PIECES / "dice" / f"{d.id}.png"
            images.append((path, texture_png(d, library)))
            objects.append(custom_die(d, _url(path, base_url, stage), _transform(0.0)))
        elif (stock := die(d)) is not None:
            objects.append(stock)
    return objects, images


def board_images(game: Any, stage: Path) -> list[tuple[Any, Path, bytes]]:
    """Each drawn board's whole print (written by the board renderer) as a PNG of at most
    4096 px a side: (board, image path, PNG bytes)."""
    import pypdfium2 as pdfium

    from pnp.render.boards import file_stem
    from pnp.render.exports import TTS_MAX_WIDTH, rasterise

    out = []
    for board in getattr(game, "boards", {}).values():
        stem = file_stem(game, board)
        prints = [p for p in sorted(stage.glob(f"{stem}-*.pdf"))
                  if not p.name.endswith("-tiled.pdf") and (len(game.boards) > 1
                                                            or p.stem.count("-") == 1)]
        if not prints:
            continue
        data = prints[0].read_bytes()
        doc = pdfium.PdfDocument(data)
        try:
            w, h = doc[0].get_size()
        finally:
            doc.close()
        scale = TTS_MAX_WIDTH / max(w, h)
        (png,) = rasterise(data, [(round(w * scale), round(h * scale))])
        out.append((board, stage / PIECES / "boards" / f"{board.id}.png", png))
    return out


def board_object(board: Any, url: str) -> dict[str, Any]:
    return {"Name": "Custom_Board", "Nickname": board.name, "Description": "",
            "Transform": _transform(0.0, 0.0, 1.0),
            "CustomImage": {"ImageURL": url, "ImageSecondaryURL": "", "ImageScalar": 1.0,
                            "WidthScale": 0.0}}


def pawns(game: Any) -> list[dict[str, Any]]:
    """A bag of stock pawns per player colour (the common counters are not in it)."""
    from pnp.render.build import pawn_groups

    groups, _ = pawn_groups(game)
    out = []
    for g in groups:
        if g.shape != "pawn" or not g.colour.startswith("#"):
            continue
        r, gr, b = (int(g.colour[i:i + 2], 16) / 255 for i in (1, 3, 5))
        pawn = {"Name": "PlayerPawn", "Nickname": g.label, "Description": g.text or "",
                "Transform": _transform(0.0), "ColorDiffuse": {"r": round(r, 4),
                                                               "g": round(gr, 4),
                                                               "b": round(b, 4)}}
        out.append(bag(g.label, [pawn] * g.count, 0.0))
    return out


def bag(name: str, contained: Sequence[dict[str, Any]], x: float) -> dict[str, Any]:
    return {"Name": "Bag", "Nickname": name, "Description": "", "Transform": _transform(x),
            "ContainedObjects": list(contained)}


def game_object(game: Any, stage: Path, base_url: str | None, build: Any,
                diags: list[Diagnostic]) -> list[tuple[Path, bytes]]:
    """The piece images and `<game>-tts.json` (the files to write, under `stage`)."""
    from pnp.render.exports import card_pngs
    from pnp.render.sheets import _unique, prepare_cards

    pieces = piece_decks(game)
    copies, d = prepare_cards(game, [deck.id for deck in pieces]) if pieces else ([], [])
    diags.extend(d)
    images = card_pngs(_unique(copies), stage / PIECES, build, diags, bleed=0.0)
    names = {p for p, _ in images}
    contained: list[dict[str, Any]] = []
    piece_ids = {deck.id for deck in pieces}
    for save in sorted(stage.glob("*-tts/*.json")):  # the card decks, as the export wrote them
        doc = json.loads(save.read_text(encoding="utf-8"))
        for state in doc.get("ObjectStates", []):
            deck_id = save.parent.name.removeprefix("cards-").removesuffix("-tts")
            if deck_id not in piece_ids:
                contained.append(state)
    for deck in pieces:
        folder = stage / PIECES / deck.id
        tiles = []
        for cp in (c for c in copies if c.front.deck.id == deck.id):
            card = cp.front.card
            front = folder / f"{card.id}.png"
            back = next((p for p in (folder / f"{card.id}-back.png", folder / "back.png")
                         if p in names), front)
            tiles.append(tile(card, _url(front, base_url, stage), _url(back, base_url, stage),
                              cp.size))
        if tiles:
            contained.append(bag(deck.name, tiles, 0.0))
    boards = board_images(game, stage)
    images += [(path, png) for _, path, png in boards]
    contained += [board_object(board, _url(path, base_url, stage)) for board, path, _ in boards]
    contained += pawns(game) if hasattr(game, "components") else []
    dice, dice_images = game_dice(game, stage, base_url)
    images += dice_images
    if dice:
        contained.append(bag("Dice", dice, 0.0))
    doc = {"SaveName": game.name, "GameMode": "", "Date": "", "Table": "", "Sky": "",
           "Note": f"{game.name}: made by pnp", "ObjectStates": [bag(game.name, contained, 0.0)]}
    data = (json.dumps(doc, indent=2, ensure_ascii=False) + "\n").encode("utf-8")
    return images + [(stage / f"{game.id}-tts.json", data)]


def render_game_object(game: Any, stage: Path, base_url: str | None = None
                       ) -> tuple[list[Path], list[Diagnostic]]:
    """Write the game's saved object (and its piece images) into the staging folder."""
    from pnp.render.pdfwrite import write_outputs
    from pnp.render.sheets import Build

    diags: list[Diagnostic] = []
    build = Build()
    outputs = game_object(game, stage, base_url, build, diags)
    diags.extend(build.diags)
    if any(d.is_error for d in diags):
        return [], diags
    return write_outputs(outputs, diags), diags
