"""Tabletop Simulator saved objects: the JSON that makes deck sheets a deck on the table.

TTS loads a file from Saves/Saved Objects as `{"ObjectStates": [...]}`. A deck is a
`DeckCustom` whose `CustomDeck` entries name a face sheet, a back image and the sheet's grid
(`NumWidth` x `NumHeight`, the last cell the face shown for a hidden card); each card is a
`Card` in `ContainedObjects` whose `CardID` is the sheet's key times 100 plus the card's cell.
A deck of one card is a `CardCustom`. Sheets are referenced by `file:///` path, or under a base
URL where they will be uploaded (`--tts-url`). Pure data: the images come from exports.py.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

#: a card's cell within its sheet is CardID % 100: at most 69 faces + the hidden cell
CARD_ID_BASE = 100


@dataclass(frozen=True)
class Sheet:
    """One face sheet of a deck: its image and grid, and the cards in its cells, in order."""

    image: Path
    cols: int
    rows: int
    cards: Sequence[Any]  # the model's Card of each cell (copies repeat their card)


def _url(path: Path, base_url: str | None) -> str:
    if base_url:
        return base_url.rstrip("/") + "/" + path.name
    return path.resolve().as_uri()


def describe(card: Any) -> str:
    """The card's own words for its TTS description: each printed field as `key: value`."""
    lines = []
    for key, value in card.fields.items():
        if key in ("name", "count", "id") or isinstance(value, dict | list | tuple):
            continue
        lines.append(f"{key}: {value}")
    return "\n".join(lines)


def _transform(x: float) -> dict[str, float]:
    return {"posX": x, "posY": 1.0, "posZ": 0.0, "rotX": 0.0, "rotY": 180.0, "rotZ": 180.0,
            "scaleX": 1.0, "scaleY": 1.0, "scaleZ": 1.0}


def deck_object(name: str, sheets: Sequence[Sheet], back: Path | None, first_key: int,
                x: float, base_url: str | None = None) -> dict[str, Any]:
    """One deck as a TTS object (`DeckCustom`, or `CardCustom` for a single card); sheet keys
    start at `first_key` so several decks in one save never share a key."""
    custom, contained, ids = {}, [], []
    for k, sheet in enumerate(sheets, start=first_key):
        face = _url(sheet.image, base_url)
        custom[str(k)] = {
            "FaceURL": face, "BackURL": _url(back, base_url) if back is not None else face,
            "NumWidth": sheet.cols, "NumHeight": sheet.rows, "BackIsHidden": True,
            "UniqueBack": False, "Type": 0,
        }
        for cell, card in enumerate(sheet.cards):
            card_id = k * CARD_ID_BASE + cell
            ids.append(card_id)
            contained.append({"Name": "Card", "CardID": card_id, "Nickname": card.name,
                              "Description": describe(card), "CustomDeck": {str(k): custom[str(k)]},
                              "Transform": _transform(x)})
    if len(contained) == 1:
        return {**contained[0], "Name": "CardCustom"}
    return {"Name": "DeckCustom", "Nickname": name, "Description": "", "Transform": _transform(x),
            "DeckIDs": ids, "CustomDeck": custom, "ContainedObjects": contained}


def saved_object(game_name: str, decks: Sequence[tuple[str, Sequence[Sheet], Path | None]],
                 base_url: str | None = None) -> bytes:
    """The saved-object file of every deck of a game, laid out side by side on the table."""
    states, key = [], 1
    for i, (name, sheets, back) in enumerate(decks):
        states.append(deck_object(name, sheets, back, key, 3.0 * i, base_url))
        key += len(sheets)
    doc = {"SaveName": game_name, "GameMode": "", "Date": "", "Table": "", "Sky": "",
           "Note": f"{game_name}: made by pnp", "ObjectStates": states}
    return (json.dumps(doc, indent=2, ensure_ascii=False) + "\n").encode("utf-8")


def retarget(stage: Path, target: Path) -> list[Path]:
    """Saved objects drawn into a staging folder load their images from where the folder is
    about to be: every `file:///` URL under `stage` is rewritten to `target` (without this a
    built kit's objects pointed at the deleted staging folder). Returns the files changed."""
    from pnp.atomic import atomic_write_bytes

    old, new = stage.resolve().as_uri() + "/", target.resolve().as_uri() + "/"
    changed = []
    for path in sorted(stage.glob("**/*.json")):
        text = path.read_text(encoding="utf-8")
        if old in text and '"ObjectStates"' in text:
            atomic_write_bytes(path, text.replace(old, new).encode("utf-8"))
            changed.append(path)
    return changed
