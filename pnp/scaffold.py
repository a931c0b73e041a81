"""`pnp new`: a small working game a new designer can validate, build and then edit.

It shows one of everything: a manifest with phases, stats, a track, a 54-card deck using the
shared poker layouts, a board, a record sheet, and a short rules module (rules.py) that plays
the game, so `pnp simulate` works at once. Everything it writes validates as it is.
"""

from __future__ import annotations

import re
from pathlib import Path

from pnp.schema_files import copy_schemas, schema_line

#: the rules module every new game starts with (a real module, linted and tested as such)
RULES = Path(__file__).with_name("starter_rules.py")

CARD_TYPES = [
    # (name, type, cost, effect, text, flavour): 18 cards, printed 3 times each = 54.
    # `effect` is what rules.py plays (docs/effects.md); `text` is what the card says.
    # A card that costs nothing happens when drawn; any other may be bought for its cost in Gold.
    ("Caravan", "Trade", 0, "G+2", "Gain 2 {coin}.", "Camels know the way."),
    ("Oasis", "Place", 0, "F+2", "Gain 2 {food}.", "Water first, then talk."),
    ("Bazaar", "Trade", 0, "F-1 G+3", "Gain 3 {coin}, lose 1 {food}.", "Everything has a price."),
    ("Spice Road", "Trade", 2, "G+4", "Gain 4 {coin}.", ""),
    ("Bandits", "Hazard", 0, "G-2", "Lose 2 {coin}.", "They came at dusk."),
    ("Sandstorm", "Hazard", 0, "F-1", "Lose 1 {food}.", ""),
    ("Guide", "Ally", 2, "VP+1 F+1", "Gain 1 {vp} and 1 {food}.", "Follow the stars."),
    ("Guards", "Ally", 3, "VP+1 G+2", "Gain 1 {vp} and 2 {coin}.", ""),
    ("Well", "Place", 1, "F+3", "Gain 3 {food}.", ""),
    ("Market Day", "Event", 0, "G+1", "Gain 1 {coin}.", "Drums at dawn."),
    ("Famine", "Event", 0, "F-2", "Lose 2 {food}.", ""),
    ("Silk", "Goods", 3, "VP+2", "Gain 2 {vp}.", "Lighter than air."),
    ("Salt", "Goods", 2, "VP+1", "Gain 1 {vp}.", ""),
    ("Incense", "Goods", 4, "VP+3", "Gain 3 {vp}.", ""),
    ("Map", "Ally", 1, "G+1 | F+2", "Gain 1 {coin} or 2 {food}.", ""),
    ("Festival", "Event", 2, "VP+1 F-1", "Gain 1 {vp}, lose 1 {food}.", "Songs carry far."),
    ("Tax Collector", "Hazard", 0, "G-1D6", "Roll a die: lose that many {coin}.", ""),
    ("Caravanserai", "Place", 1, "G+1 F+1", "Gain 1 {coin} and 1 {food}.", "Rest for the weary."),
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
    rules = folder / "rules.py"  # the rules module game.yaml names: plain Python, no schema
    rules.write_text(RULES.read_text(encoding="utf-8"), encoding="utf-8")
    written.append(rules)
    return [*written, *copy_schemas(folder)]


def _quote(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def _deck() -> str:
    lines = ["# 54 cards: 18 designs, 3 copies each. Edit a line, run `pnp build`, print.",
             "decks:", "  - id: market", "    name: Market deck", "    size: poker",
             "    front: poker-front", "    back: poker-back", "    prototype: true",
             "    defaults: {color: \"#7a4b2a\"}", "    cards:"]
    for name, kind, cost, effect, text, flavour in CARD_TYPES:
        fields = f"type: {kind}, cost: {cost}, effect: {_quote(effect)}, text: {_quote(text)}"
        if flavour:
            fields += f", flavor: {_quote(flavour)}"
        lines.append(f"      - {{id: {slugify(name)}, name: {_quote(name)}, count: 3, fields: {{{fields}}}}}")
    return "\n".join(lines) + "\n"


_GAME = """# A starter game made by `pnp new`. Rename things, add tracks and cards, run `pnp validate`.
schema_version: 2  # the layout of pnp's game data this game is written for (docs/schema-versions.md)
id: {id}
name: {name}
edition: prototype
prototype: true
engine: rules.py  # the rules `pnp simulate` plays: rules.py in this folder (docs/engine.md)
players: {{min: 2, max: 4}}
description: >-
  Lead a caravan along the road, trading goods for gold and food. Most Victory Points wins.
components:
  - {{id: market, name: Market deck, count: 54, counts: "deck:market"}}
  - {{id: pawns, name: Pawns, count: 1, per_player: true}}
  - {{id: dice, name: Six-sided die, count: 1}}
phases:
  - {{id: travel, name: Travel Phase, track: road, note: "Roll the die; move that many spaces or one fewer."}}
  - {{id: market, name: Market Phase, note: "Draw a Market card: a free one happens now, any other you may buy."}}
  - {{id: end, name: End Phase, end_checks: true, note: "Each caravan eats 1 Food; one without Food loses 1 VP."}}
rules:  # rule parameters; a game's engine supplies their schema
  movement:
    die: 1D6
  end:
    game_ends_when: "VP >= 10"
    winner: most VP
    max_turns: 40
  upkeep:  # the End Phase: each caravan eats this much Food, or suffers the loss
    eat: 1
    loss: "VP-1"
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
      turns: 36  # two rows of 18, more than nearly every game lasts (simulate: PNP-B028)
      stats: [gold, food, victory-points]
"""
