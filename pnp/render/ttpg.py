"""Tabletop Playground: a package folder made from the Tabletop Simulator deck sheets.

`pnp build GAME --ttp` writes `ttp/<game>/` in the kit: `Textures/` holds the TTS sheets and
backs (the same images, copied, since a package reads only its own folder), `Templates/` one
card template per sheet, and `manifest.json`. A card template follows Plasticity Studios'
published format (github.com/plasticity-studios/tabletop-playground-schemas, `CardTemplate`
in schema.json): `FrontTexture` the sheet, `NumHorizontal` x `NumVertical` its grid,
`Indices` the cells that hold cards (not the TTS hidden cell), `CardNames` and `CardMetadata`
each card's name and fields, `BackTexture` the deck's back as a separate file (`BackIndex`
-2), shown also for a hidden card (`HiddenIndex` -3), `Width` x `Height` the printed size in
cm. The manifest (`Name`, `Version`, `GUID`) is the one Templative writes for its packages;
Tabletop Playground's own documents do not describe it. GUIDs are derived from the game and
deck ids, so a rebuild keeps them (a saved table refers to templates by GUID).
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urlparse

from pnp.render.tts import CARD_ID_BASE

FOLDER = "ttp"  # in the kit: ttp/<game id>/
PT_PER_CM = 72 / 2.54
ROUND_SHAPES = ("circle", "round", "coin")


def guid(*parts: str) -> str:
    """32 upper-case hex digits, the same for the same names (TTP wants a GUID of this form)."""
    return hashlib.md5("/".join(parts).encode("utf-8")).hexdigest().upper()


def _deck_id(save: Path) -> str:
    return save.parent.name.removeprefix("cards-").removesuffix("-tts")


def _states(doc: dict) -> list[dict]:
    """The decks of a saved object (a one-card deck is a lone CardCustom)."""
    return [s for s in doc.get("ObjectStates", []) if s.get("Name") in ("DeckCustom", "CardCustom")]


def card_template(game: Any, deck: Any, key: str, custom: dict, cards: list[dict],
                  size: tuple[float, float], texture: str, back: str, sheet_no: str
                  ) -> dict[str, Any]:
    """One sheet of a deck as a TTP card template (a stack of its cards)."""
    cells = [c["CardID"] % CARD_ID_BASE for c in cards]
    shapes = {str(c.fields.get("shape", "")).lower() for c in deck.cards}
    model = "Round" if shapes and shapes <= set(ROUND_SHAPES) else "Rounded"
    return {
        "Type": "Card", "GUID": guid(game.id, deck.id, key), "Name": f"{deck.name}{sheet_no}",
        "Metadata": f"pnp:{game.id}/{deck.id}", "CollisionType": "Regular", "Friction": 0.7,
        "Restitution": 0, "Density": 0.5, "SurfaceType": "Cardboard", "Roughness": 1,
        "Metallic": 0, "Flippable": True, "AutoStraighten": False, "ShouldSnap": True,
        "Models": [], "Collision": [], "SnapPoints": [], "Tags": [],
        "FrontTexture": texture, "BackTexture": back, "HiddenTexture": "",
        "BackIndex": -2, "HiddenIndex": -3,
        "NumHorizontal": custom["NumWidth"], "NumVertical": custom["NumHeight"],
        "Width": round(size[0] / PT_PER_CM, 2), "Height": round(size[1] / PT_PER_CM, 2),
        "Thickness": 0.05, "HiddenInHand": True, "UsedWithCardHolders": True, "CanStack": True,
        "Model": model, "Indices": cells,
        "CardNames": {str(i): c.get("Nickname", "") for i, c in zip(cells, cards, strict=True)},
        "CardMetadata": {str(i): c.get("Description", "")
                         for i, c in zip(cells, cards, strict=True)},
        "CardTags": {},
    }


def package_files(game: Any, stage: Path) -> list[tuple[Path, bytes]]:
    """The package's files (under `stage`), made from the TTS card export already in it."""
    from pnp.render.geometry import printed_deck_sizes

    sizes = {deck.id: (deck, size) for deck, size in printed_deck_sizes(game)}
    root = stage / FOLDER / game.id
    out: list[tuple[Path, bytes]] = []
    for save in sorted(stage.glob("*-tts/*.json")):
        deck_id = _deck_id(save)
        if deck_id not in sizes:
            continue
        deck, size = sizes[deck_id]
        doc = json.loads(save.read_text(encoding="utf-8"))
        for state in _states(doc):
            cards = state.get("ContainedObjects") or [state]
            customs = state.get("CustomDeck") or {}
            for n, (key, custom) in enumerate(sorted(customs.items(), key=lambda kv: int(kv[0]))):
                face = Path(unquote(urlparse(custom["FaceURL"]).path)).name
                back = Path(unquote(urlparse(custom["BackURL"]).path)).name
                for name in (face, back):
                    target = root / "Textures" / name
                    if all(p != target for p, _ in out):
                        out.append((target, (save.parent / name).read_bytes()))
                on_sheet = [c for c in cards if str(c["CardID"] // CARD_ID_BASE) == key]
                sheet_no = f" {n + 1}/{len(customs)}" if len(customs) > 1 else ""
                template = card_template(game, deck, key, custom, on_sheet, size, face, back,
                                         sheet_no)
                data = json.dumps(template, indent=2, ensure_ascii=False) + "\n"
                out.append((root / "Templates" / f"{Path(face).stem}.json",
                            data.encode("utf-8")))
    manifest = {"Name": game.name, "Version": "1", "GUID": guid(game.id)}
    out.append((root / "manifest.json",
                (json.dumps(manifest, indent=2, ensure_ascii=False) + "\n").encode("utf-8")))
    return out


def render_package(game: Any, stage: Path) -> tuple[list[Path], list]:
    """Write the package into the staging folder (after the TTS card export)."""
    from pnp.render.pdfwrite import write_outputs

    diags: list = []
    return write_outputs(package_files(game, stage), diags), diags
