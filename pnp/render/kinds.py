"""The kinds of kit component, one registered renderer each: what exists comes from here.

`pnp validate` (through `preflight`), `pnp build` and `pnp render KIND` iterate `renderers()`,
so a kind is added in one place. Each renderer says whether a game has anything of its kind,
checks it without writing, renders it into a fresh folder (the build's or render's staging
folder) under its kit names, and names the files it writes at default options. The renderers
import their drawing modules only when called, so validate and the CLI start fast.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path
from typing import Any, Protocol, TypeVar

from pnp.diagnostics import ERROR, Diagnostic
from pnp.render.geometry import GeometryError, parse_paper

T = TypeVar("T")

Rendered = tuple[list[Path], list[Diagnostic]]


class Renderer(Protocol):
    name: str  # the KIND of `pnp render KIND`

    def applies(self, game: Any) -> bool:
        """Whether the game has anything of this kind (a build renders only those)."""

    def preflight(self, game: Any, paper_size: tuple[float, float]) -> list[Diagnostic]:
        """Every problem rendering it on this paper would meet, with nothing written."""

    def render(self, game: Any, out_dir: str | os.PathLike, paper: str, **options: Any
               ) -> Rendered:
        """Write its files into out_dir; the paths written and every diagnostic."""

    def output_names(self, game: Any, paper: str) -> list[str]:
        """The file names render writes into out_dir at default options (a folder ends in /)."""


#: name -> renderer, in build order
REGISTRY: dict[str, Renderer] = {}


def register(renderer: Renderer) -> Renderer:
    REGISTRY[renderer.name] = renderer
    return renderer


def renderers() -> list[Renderer]:
    return list(REGISTRY.values())


def kind_names() -> list[str]:
    return list(REGISTRY)


def renderer(name: str) -> Renderer:
    return REGISTRY[name]


def in_kit(kind: Renderer) -> bool:
    """Whether `pnp build` puts the kind in the kit (a check such as the fit overlay is only
    rendered when asked for, by `pnp render KIND`)."""
    return getattr(kind, "in_kit", True)


def paper_and_items(game: Any, paper: str, items: Mapping[str, T], wanted: str | None,
                    code: str, noun: tuple[str, str],
                    ) -> tuple[tuple[float, float], list[T], list[Diagnostic]]:
    """What a render of one kind starts from: its paper's size and the items it draws, all of
    them or the one named `wanted` (`pnp render board --board ID`); else the error (`code`)
    that stops it: a paper it cannot read, or a name the game has no item of (`noun`:
    singular and plural) by, with the names it has."""
    try:
        size = parse_paper(paper)
    except GeometryError as exc:
        return (0.0, 0.0), [], [Diagnostic(ERROR, code, str(exc))]
    found = [item for item in items.values() if wanted is None or item.id == wanted]
    if not found and wanted is not None:
        known = ", ".join(sorted(items)) or "none"
        return size, [], [Diagnostic(ERROR, code, f"game {game.id!r} has no {noun[0]} {wanted!r}",
                                     hint=f"{noun[1]}: {known}")]
    return size, found, []


# ---------------------------------------------------------------------------------------------
# the kinds


class RecordSheets:
    name = "record"

    def applies(self, game) -> bool:
        return bool(game.record_sheets)

    def preflight(self, game, paper_size) -> list[Diagnostic]:
        from pnp.render.preflight import check_records

        return check_records(game, paper_size)

    def render(self, game, out_dir, paper, sheet_id: str | None = None,
               fillable: bool = True) -> Rendered:
        from pnp.render.records import render_record_sheets

        return render_record_sheets(game, out_dir, paper, sheet_id=sheet_id, fillable=fillable)

    def output_names(self, game, paper) -> list[str]:
        return [name for sheet in game.record_sheets.values()
                for name in (f"{sheet.id}.pdf", f"{sheet.id}-fillable.pdf")]


class Boards:
    name = "board"

    def applies(self, game) -> bool:
        return bool(game.boards)

    def preflight(self, game, paper_size) -> list[Diagnostic]:
        from pnp.render.preflight import check_boards

        return check_boards(game, paper_size)

    def render(self, game, out_dir, paper, board_id: str | None = None, tiled: bool = True,
               whole: bool = True) -> Rendered:
        from pnp.render.boards import render_board

        return render_board(game, out_dir, paper, board_id=board_id, tiled=tiled, whole=whole)

    def output_names(self, game, paper) -> list[str]:
        from pnp.paper import file_part
        from pnp.render.boards import file_stem, whole_paper
        from pnp.render.geometry import GeometryError

        names = []
        for board in game.boards.values():
            names.append(f"{file_stem(game, board)}-{file_part(paper)}-tiled.pdf")
            try:
                if board.whole_paper:
                    names.append(f"{file_stem(game, board)}-{whole_paper(board)[0]}.pdf")
            except GeometryError:
                pass  # an unknown whole_paper: preflight reports it, no whole print
        return names


class Pawns:
    """`tokens.pdf`: the pawns of every player colour (pnp.render.build.pawn_groups)."""

    name = "tokens"

    def applies(self, game) -> bool:
        from pnp.render.build import pawn_component

        return pawn_component(game) is not None

    def preflight(self, game, paper_size) -> list[Diagnostic]:
        from pnp.render.preflight import check_pawns

        return check_pawns(game, paper_size)

    def render(self, game, out_dir, paper) -> Rendered:
        from pnp.render.build import render_pawns

        return render_pawns(game, out_dir, paper)

    def output_names(self, game, paper) -> list[str]:
        from pnp.render.build import pawn_groups

        return ["tokens.pdf"] if pawn_groups(game)[0] else []


class SupplyTokens:
    """`supply-tokens.pdf`: every supply with `token:`, `stock` tokens each
    (pnp.render.supply_tokens)."""

    name = "supplies"

    def applies(self, game) -> bool:
        return any(s.token is not None for s in (game.supplies or {}).values())

    def preflight(self, game, paper_size) -> list[Diagnostic]:
        from pnp.render.supply_tokens import check_supply_tokens

        return check_supply_tokens(game, paper_size)

    def render(self, game, out_dir, paper) -> Rendered:
        from pnp.render.supply_tokens import render_supply_tokens

        return render_supply_tokens(game, out_dir, paper)

    def output_names(self, game, paper) -> list[str]:
        from pnp.render.supply_tokens import FILE_NAME

        return [FILE_NAME] if self.applies(game) else []


def deck_stem(deck) -> str:
    """A deck's files in a kit: `cards-<deck>.pdf`, `-printshop.pdf`, `-png/`, `-tts/`."""
    return f"cards-{deck.id}"


def deck_files(game, pack: bool = False) -> dict[str, list]:
    """File stem -> the printed decks in it: one deck a file, or with `pack` every deck of one
    card size in one file (`cards-poker`, `cards-18x18mm`), so small decks share sheets."""
    from pnp.render.geometry import CARD_SIZES_MM, GeometryError, card_size, mm, size_key

    files: dict[str, list] = {}
    for deck in game.decks.values():
        if not deck.printed:
            continue
        if not pack:
            files[deck_stem(deck)] = [deck]
            continue
        try:
            key = size_key(card_size(deck.size))
        except GeometryError:
            files[deck_stem(deck)] = [deck]  # preflight reports the size
            continue
        named = next((n for n, (w, h) in CARD_SIZES_MM.items()
                      if size_key((mm(w), mm(h))) == key), None)
        stem = f"cards-{named}" if named else (
            f"cards-{key[0] / mm(1):.0f}x{key[1] / mm(1):.0f}mm")
        files.setdefault(stem, []).append(deck)
    return files


class Cards:
    name = "cards"
    def kit_options(self, game, gutterfold: bool = False, low_ink: bool = False,
                    pack: bool = False, print_shop: bool = False, png: bool = False,
                    tts: bool = False, tts_url: str | None = None) -> dict:
        """A kit prints every card's back: after its fronts, mirrored for a long-edge flip, or
        beside them with `gutterfold` (backs tell decks apart and carry the city-state side and
        military legacies); sheet footers carry the kit's version stamp; `pack` puts the decks
        of one card size in one file. The exports (`print_shop`, `png`, `tts`, `tts_url`) are
        written beside the deck files, as `pnp render cards` writes them."""
        from pnp.render.guide import kit_stamp

        sides = {"gutterfold": True} if gutterfold else {"duplex": "long"}
        exports = {"print_shop": print_shop, "png": png, "tts": tts, "tts_url": tts_url}
        return {**sides, "low_ink": low_ink, "stamp": kit_stamp(game), "pack": pack,
                **{k: v for k, v in exports.items() if v}}

    def applies(self, game) -> bool:
        return bool(game.decks)

    def preflight(self, game, paper_size) -> list[Diagnostic]:
        from pnp.render.preflight import check_cards

        return check_cards(game, paper_size)

    def render(self, game, out_dir, paper, calibration: bool = False, **options) -> Rendered:
        """Every printed deck's sheets (options: duplex, offset, print_shop, png, tts), and a
        duplex calibration page with `calibration`."""
        from pnp.render.sheets import render_calibration, render_deck_sheets

        written: list[Path] = []
        diags: list[Diagnostic] = []
        pack = options.pop("pack", False)
        for stem, decks in deck_files(game, pack).items():  # data-only decks are not printed
            paths, d = render_deck_sheets(game, [deck.id for deck in decks], paper, out_dir,
                                          stem=stem, **options)
            written.extend(paths)
            diags.extend(d)
        if calibration:
            paths, d = render_calibration(out_dir, paper, options.get("duplex") or "long")
            written.extend(paths)
            diags.extend(d)
        return written, diags

    def output_names(self, game, paper) -> list[str]:
        return [f"{deck_stem(deck)}.pdf" for deck in game.decks.values() if deck.printed]


class SymbolKey:
    """`symbol-key.pdf`: every symbol the game defines with a meaning, or the short forms and
    marks a game prints in words (pnp.render.symbolkey)."""

    name = "symbols"

    def applies(self, game) -> bool:
        from pnp.render.symbolkey import symbols, word_keys

        return bool(symbols(game)) or bool(word_keys(game))

    def preflight(self, game, paper_size) -> list[Diagnostic]:
        from pnp.render.symbolkey import check_symbols

        return check_symbols(game)

    def render(self, game, out_dir, paper) -> Rendered:
        from pnp.render.symbolkey import render_symbol_key

        return render_symbol_key(game, out_dir, paper)

    def output_names(self, game, paper) -> list[str]:
        from pnp.render.symbolkey import FILE_NAME

        return [FILE_NAME]


class Rulesheet:
    name = "rulesheet"

    def applies(self, game) -> bool:
        from pnp.rulesheet.sources import rulesheet_folder

        return rulesheet_folder(game) is not None

    def preflight(self, game, paper_size) -> list[Diagnostic]:
        from pnp.rulesheet.check import check_rulesheet

        return check_rulesheet(game)  # rendered to Markdown and parsed, no PDF

    def render(self, game, out_dir, paper) -> Rendered:
        from pnp.render.rulesheet import render_rulesheet

        return render_rulesheet(game, out_dir, paper)

    def output_names(self, game, paper) -> list[str]:
        from pnp.render.rulesheet import rulesheet_name

        return [rulesheet_name(game)]


#: a game folder's player-aid sources (pnp.render.aid reads them from here)
AID_FOLDER = "player-aid"


class PlayerAid:
    """`player-aid.pdf`: the game folder's `player-aid/` sources, one page a player
    (pnp.render.aid)."""

    name = "aid"

    def applies(self, game) -> bool:
        # asked of every game by validate and build: pnp.render.aid loads platypus, so only
        # a game with the folder pays for importing it
        return (Path(game.folder) / AID_FOLDER).is_dir()

    def preflight(self, game, paper_size) -> list[Diagnostic]:
        from pnp.render.aid import check_aid

        return check_aid(game, paper_size)  # sources checked, one copy laid out in memory

    def render(self, game, out_dir, paper) -> Rendered:
        from pnp.render.aid import render_aid

        return render_aid(game, out_dir, paper)

    def output_names(self, game, paper) -> list[str]:
        from pnp.render.aid import FILE_NAME

        return [FILE_NAME]


class Guide:
    """`print-guide.pdf` (what to print, how, in what order) and `print-all.pdf` (the guide and
    every home file in one); last, so it can count the pages the other kinds wrote."""

    name = "guide"

    def applies(self, game) -> bool:
        return True

    def preflight(self, game, paper_size) -> list[Diagnostic]:
        return []

    def kit_options(self, game, gutterfold: bool = False, low_ink: bool = False,
                    pack: bool = False, **exports: object) -> dict:
        return {"gutterfold": gutterfold, "pack": pack}

    def render(self, game, out_dir, paper, gutterfold: bool = False,
               pack: bool = False) -> Rendered:
        from pnp.render.guide import render_guide

        return render_guide(game, out_dir, paper, gutterfold=gutterfold, pack=pack)

    def output_names(self, game, paper) -> list[str]:
        from pnp.render.guide import GUIDE, PRINT_ALL

        return [GUIDE, PRINT_ALL]


class Maps:
    """`map-<paper>-tiled.pdf` and `map-<large paper>.pdf`: components.yaml `map:` drawn as
    a map (pnp.render.maps)."""

    name = "map"

    def applies(self, game) -> bool:
        return getattr(game, "map", None) is not None

    def preflight(self, game, paper_size) -> list[Diagnostic]:
        from pnp.render.maps import check_map

        return check_map(game, paper_size)

    def render(self, game, out_dir, paper, tiled: bool = True, whole: bool = True) -> Rendered:
        from pnp.render.maps import render_map

        return render_map(game, out_dir, paper, tiled=tiled, whole=whole)

    def output_names(self, game, paper) -> list[str]:
        from pnp.render.maps import output_names

        return output_names(game, paper)


class FitOverlay:
    """`fit-overlay.pdf`: every box that declares `holds`, its pieces drawn on it (green fits,
    red overhangs; pnp.render.overlay). A check for the designer, not part of the kit."""

    name = "overlay"
    in_kit = False

    def applies(self, game) -> bool:
        return any(d.printed for d in game.decks.values())

    def preflight(self, game, paper_size) -> list[Diagnostic]:
        return []  # the sizes are the cards' preflight (PNP-R042); this only draws them

    def render(self, game, out_dir, paper) -> Rendered:
        from pnp.render.overlay import render_overlay

        return render_overlay(game, out_dir, paper)

    def output_names(self, game, paper) -> list[str]:
        from pnp.render.overlay import FILE_NAME

        return [FILE_NAME]


for _kind in (RecordSheets(), Boards(), Maps(), Pawns(), SupplyTokens(), Cards(), SymbolKey(),
              Rulesheet(), PlayerAid(), Guide(), FitOverlay()):
    register(_kind)
