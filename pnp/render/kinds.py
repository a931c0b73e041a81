"""The kinds of kit component, one registered renderer each: what exists comes from here.

`pnp validate` (through `preflight`), `pnp build` and `pnp render KIND` iterate `renderers()`,
so a kind is added in one place. Each renderer says whether a game has anything of its kind,
checks it without writing, renders it into a fresh folder (the build's or render's staging
folder) under its kit names, and names the files it writes at default options. The renderers
import their drawing modules only when called, so validate and the CLI start fast.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any, Protocol

from pnp.diagnostics import Diagnostic

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


# ---------------------------------------------------------------------------------------------
# the six kinds


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


def deck_stem(deck) -> str:
    """A deck's files in a kit: `cards-<deck>.pdf`, `-printshop.pdf`, `-png/`, `-tts/`."""
    return f"cards-{deck.id}"


class Cards:
    name = "cards"

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
        for deck in game.decks.values():
            if not deck.printed:
                continue  # data only: its cards are printed on other cards
            paths, d = render_deck_sheets(game, [deck.id], paper, out_dir, stem=deck_stem(deck),
                                          **options)
            written.extend(paths)
            diags.extend(d)
        if calibration:
            paths, d = render_calibration(out_dir, paper, options.get("duplex") or "long")
            written.extend(paths)
            diags.extend(d)
        return written, diags

    def output_names(self, game, paper) -> list[str]:
        return [f"{deck_stem(deck)}.pdf" for deck in game.decks.values() if deck.printed]


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


for _kind in (RecordSheets(), Boards(), Maps(), Pawns(), Cards(), Rulesheet()):
    register(_kind)
