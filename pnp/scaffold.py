"""`pnp new`: a small working game a new designer can validate, build and then edit.

It shows one of everything: a manifest with phases, stats, a track, a 54-card deck using the
shared poker layouts, a board and a record sheet. Everything it writes validates as it is.
"""

from __future__ import annotations

import re
from pathlib import Path

from pnp.schema_files import copy_schemas, schema_line

CARD_TYPES = [
    # (name, type, cost, text, flavour): 18 cards, printed 3 times each = 54.
    ("Caravan", "Trade", 2, "Gain 2 {coin}.", "Camels know the way."),
    ("Oasis", "Place", 1, "Gain 2 {food}.", "Water first, then talk."),
    ("Bazaar", "Trade", 3, "Pay 1 {food}: gain 3 {coin}.", "Everything has a price."),
    ("Spice Road", "Trade", 4, "Gain 1 {coin} for each Trade card you have.", ""),
    ("Bandits", "Hazard", 0, "Lose 2 {coin}. If you have none, lose 1 {food}.", "They came at dusk."),
    ("Sandstorm", "Hazard", 0, "Every player moves back 1 space.", ""),
    ("Guide", "Ally", 2, "Move 1 extra space this turn.", "Follow the stars."),
    ("Guards", "Ally", 3, "Ignore the next Hazard card you draw.", ""),
    ("Well", "Place", 2, "Gain 1 {food} each turn.", ""),
    ("Market Day", "Event", 1, "Every player gains 1 {coin}.", "Drums at dawn."),
    ("Famine", "Event", 0, "Every player loses 1 {food}.", ""),
    ("Silk", "Goods", 3, "Worth 2 {vp} at the end of the game.", "Lighter than air."),
    ("Salt", "Goods", 2, "Worth 1 {vp} at the end of the game.", ""),
    ("Incense", "Goods", 4, "Worth 3 {vp} at the end of the game.", ""),
    ("Map", "Ally", 1, "Look at the top 3 cards of the deck; put them back in any order.", ""),
    ("Festival", "Event", 2, "Gain 1 {vp}.", "Songs carry far."),
    ("Tax Collector", "Hazard", 0, "Pay 1 {coin} for every 3 {coin} you have.", ""),
    ("Caravanserai", "Place", 3, "Gain 1 {coin} and 1 {food}.", "Rest for the weary."),
]


def slugify(name: str) -> str:
    """The game id for a folder name: 'My Game!' -> 'my-game' (the id `pnp validate` expects)."""
    return re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-") or "my-game"


def title_of(folder_name: str) -> str:
    """'my_game' -> 'My Game'; a name already written as a title ('My Game!') stays as it is."""
    if re.fullmatch(r"[a-z0-9_\- ]+", folder_name):
        return re.sub(r"[_\-]+", " ", folder_name).strip().title() or "My Game"
    return folder_name.strip()


def scaffold(folder: Path, name: str | None = None) -> list[Path]:
    """Write the starter game into `folder` (which must not exist or be empty).

    The folder keeps the name the user gave; the id is its slug. The schemas are copied into
    `folder/.schemas/` and every file points there, so the game is editor-ready wherever it is.
    """
    folder.mkdir(parents=True, exist_ok=True)
    game_id = slugify(folder.resolve().name)
    title = name or title_of(folder.resolve().name)
    files = {
        "game.yaml": ("game", _GAME.format(id=game_id, name=_quote(title))),
        "stats.yaml": ("stats", _STATS),
        "tracks.yaml": ("tracks", _TRACKS),
        "deck.yaml": ("deck", _deck()),
        "board.yaml": ("board", _BOARD),
        "record-sheet.yaml": ("record-sheet", _RECORD),
    }
    written = []
    for file, (kind, body) in files.items():
        path = folder / file
        path.write_text(f"{schema_line(path, folder, kind)}\n{body}", encoding="utf-8")
        written.append(path)
    return [*written, *copy_schemas(folder)]


def _quote(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def _deck() -> str:
    lines = ["# 54 cards: 18 designs, 3 copies each. Edit a line, run `pnp build`, print.",
             "decks:", "  - id: market", "    name: Market deck", "    size: poker",
             "    front: poker-front", "    back: poker-back", "    prototype: true",
             "    defaults: {color: \"#7a4b2a\"}", "    cards:"]
    for name, kind, cost, text, flavour in CARD_TYPES:
        fields = f"type: {kind}, cost: {cost}, text: {_quote(text)}"
        if flavour:
            fields += f", flavor: {_quote(flavour)}"
        lines.append(f"      - {{id: {slugify(name)}, name: {_quote(name)}, count: 3, fields: {{{fields}}}}}")
    return "\n".join(lines) + "\n"


_GAME = """# A starter game made by `pnp new`. Rename things, add tracks and cards, run `pnp validate`.
id: {id}
name: {name}
edition: prototype
prototype: true
players: {{min: 2, max: 4}}
description: >-
  Lead a caravan along the road, trading goods for gold and food. Most Victory Points wins.
components:
  - {{id: market, name: Market deck, count: 54, counts: "deck:market"}}
  - {{id: pawns, name: Pawns, count: 1, per_player: true}}
  - {{id: dice, name: Six-sided die, count: 1}}
phases:
  - {{id: travel, name: Travel Phase, track: road}}
  - {{id: market, name: Market Phase, note: Draw a Market card and resolve it.}}
  - {{id: end, name: End Phase, end_checks: true}}
end:
  game_ends_when: "VP >= 10"
  winner: most VP
  eliminated_when: ["F < 0"]
  max_turns: 40
"""

_STATS = """stats:
  - {id: gold, name: Gold, abbreviation: G}
  - {id: food, name: Food, abbreviation: F, cap: 10}
  - {id: victory-points, name: Victory Points, abbreviation: VP}
"""

_TRACKS = """tracks:
  - id: road
    name: The Road
    shape: loop
    spaces:
      - {name: City Gate, start: true}
      - {name: Well, effect: "F+1"}
      - {name: Market, effect: "G+2"}
      - {name: Dunes, effect: "F-1"}
      - {name: Oasis, effect: "F+2"}
      - {name: Trading Post, effect: "G+1 | F+1"}
      - {name: Bandit Pass, effect: "G-1D6"}
      - {name: Temple, effect: "VP+1"}
      - {name: Caravanserai, effect: "G+1 F+1"}
      - {name: Palace, effect: "VP+2 G-2"}
"""

_BOARD = """boards:
  - id: road-board
    name: The Road
    items:
      - {track: road}
"""

_RECORD = """record_sheets:
  - id: caravan-log
    name: Caravan Log
    fields:
      - {id: name, label: Name, kind: text}
      - {id: gold, stat: gold}
      - {id: food, stat: food}
      - {id: victory-points, stat: victory-points}
      - {id: notes, label: Notes, kind: lines, lines: 2}
    turn_grid:
      turns: 20
      stats: [gold, food, victory-points]
"""
