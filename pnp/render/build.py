"""Render every component a game defines: the one place `pnp build` calls into the renderer.

Each kind of component has its own registered renderer (pnp/render/kinds.py: record sheets,
boards, tokens, card sheets, rulesheet); a build renders every kind the game has and collects
diagnostics. It writes into a staging folder and swaps it in only when every renderer
succeeded, so a failed or killed build leaves the previous kit complete and byte-identical.
This module also makes the pawns (`tokens.pdf`) from the game's per-player pawn component.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

from pnp.data.model import Component, GameDef
from pnp.diagnostics import WARNING, Diagnostic, has_errors
from pnp.render.kit_folder import kit_folder_problems
from pnp.render.staging import staged

Progress = Callable[[int, int], None]

R_BUILD = "PNP-R078"  # a component the build cannot render

#: Okabe & Ito's palette, chosen to stay distinct for the common colour-vision deficiencies;
#: each pawn also carries its player number, so colour is never the only cue.
PLAYER_COLOURS: tuple[tuple[str, str], ...] = (
    ("Orange", "#E69F00"),
    ("Sky blue", "#56B4E9"),
    ("Bluish green", "#009E73"),
    ("Yellow", "#F0E442"),
    ("Blue", "#0072B2"),
    ("Vermilion", "#D55E00"),
    ("Reddish purple", "#CC79A7"),
    ("Black", "#000000"),
)
COUNTER_SIZE = "12mm"  # a common counter marks one space of a track (at least 14 mm wide)
COUNTER_COLOUR = "#d9d9d9"  # light grey: no player's colour
PAWN_SIZE = "13mm"  # twelve to a row on A4 and Letter, and small enough for a 23 mm space


def pawn_component(game: GameDef) -> Component | None:
    """The per-player component that is pawns (by id or name), if the game has one."""
    for comp in game.components:
        if comp.per_player and ("pawn" in comp.id.lower() or "pawn" in comp.name.lower()):
            return comp
    return None


def pawn_groups(game: GameDef) -> tuple[list, list[Diagnostic]]:
    """One token group per player colour, up to the game's maximum number of players, and the
    game's common counters (a shared component named for counters) as round markers."""
    from pnp.render.tokens import TokenGroup

    comp = pawn_component(game)
    if comp is None or comp.count < 1:
        return [], []
    diags: list[Diagnostic] = []
    players = game.players_max
    if players > len(PLAYER_COLOURS):
        diags.append(Diagnostic.at(comp.origin, WARNING, R_BUILD,
                                   f"{players} players but only {len(PLAYER_COLOURS)} distinct "
                                   "pawn colours: colours repeat (the player number differs)"))
    groups = []
    for i in range(players):
        name, hex_ = PLAYER_COLOURS[i % len(PLAYER_COLOURS)]
        groups.append(TokenGroup(label=f"Player {i + 1} · {name} {comp.name.lower()}",
                                 colour=hex_, count=comp.count, shape="pawn", size=PAWN_SIZE,
                                 text=f"P{i + 1}", origin=comp.origin))
    for shared in game.components:  # a common set of counters (markers) beside the pawns
        if not shared.per_player and shared.count > 0 and "counter" in (
                shared.id + " " + shared.name).lower():
            groups.append(TokenGroup(label=shared.name, colour=COUNTER_COLOUR,
                                     count=shared.count, shape="circle", size=COUNTER_SIZE,
                                     text="", origin=shared.origin))
    return groups, diags


def render_pawns(game: GameDef, out_dir: str | os.PathLike, paper: str = "a4",
                 ) -> tuple[list[Path], list[Diagnostic]]:
    """`tokens.pdf`: the pawns of every player colour (nothing when the game has no pawns)."""
    from pnp.render.tokens import render_tokens

    groups, diags = pawn_groups(game)
    if not groups:
        return [], diags
    paths, d = render_tokens(groups, Path(out_dir) / "tokens.pdf", paper,
                             title=f"{game.name} — pawns and counters")
    return paths, diags + d


def build_game(game: GameDef, out_dir: str | os.PathLike, paper: str = "a4",
               progress: Progress | None = None, gutterfold: bool = False,
               low_ink: bool = False, pack: bool = False, shop: Any = None,
               **exports: Any) -> tuple[list[Path], list[Diagnostic]]:
    """Write the game's whole print kit into out_dir; returns the files written and diagnostics.

    `gutterfold` prints each card's back beside its front (no duplex printer needed),
    `low_ink` leaves out the cards' dark backgrounds and full-bleed frames, `pack` puts all
    decks of one card size in one file (`cards-poker.pdf`), so small decks share sheets.
    `exports` (print_shop, png, tts, tts_url) add the card exports `pnp render cards` writes;
    `ttp` a Tabletop Playground package made from the TTS sheets (pnp/render/ttpg.py);
    `shop` (a ShopProfile) adds `shop-<id>/`, the files that shop asks for (pnp/render/shops).

    Every registered kind the game has (pnp/render/kinds.py): record sheets (printable and
    fillable), each board tiled on `paper` and whole on its large paper, pawn tokens for every
    player colour, every deck's card sheets, and the rulesheet. Every file goes to a staging
    folder first (pnp/render/staging.py); out_dir is replaced by it only when no renderer
    reported an error, so a failed or killed build leaves the previous kit as it was. An out_dir pnp did
    not write (pnp/render/kit_folder.py) is refused before anything is written.
    """
    from pnp.render.kinds import in_kit, renderers
    from pnp.render.preflight import preflight

    target = Path(out_dir)
    refused = kit_folder_problems(target, game.folder)  # a folder pnp did not write stays
    checked = preflight(game, paper)  # the same checks as `pnp validate`, before any write
    if has_errors(checked) or refused:
        return [], checked + refused

    ttp = bool(exports.pop("ttp", False))  # made from the TTS sheets: those are drawn too
    exports["tts"] = bool(exports.get("tts")) or ttp
    paths: list[Path] = []
    diags: list[Diagnostic] = []
    shop_diags: list[Diagnostic] = []  # what the shop does not take is a warning worth showing
    print_options = {"gutterfold": gutterfold, "low_ink": low_ink, "pack": pack, **exports}
    with staged(target, diags) as stage:
        if stage is None:
            return [], diags
        steps = [kind for kind in renderers() if in_kit(kind) and kind.applies(game)]
        for i, kind in enumerate(steps):
            options = kind.kit_options(game, **print_options) if hasattr(
                kind, "kit_options") else {}
            p, d = kind.render(game, stage, paper, **options)
            paths.extend(p)
            diags.extend(d)
            if progress is not None:
                progress(i + 1, len(steps))
        if shop is not None and not has_errors(diags):
            from pnp.render.shops.deliver import folder_name, render_shop

            p, shop_diags = render_shop(game, stage / folder_name(shop), shop)
            paths.extend(p)
            diags.extend(shop_diags)
        if exports.get("tts") and not has_errors(diags):
            from pnp.render.tts import retarget
            from pnp.render.tts_game import render_game_object

            p, d = render_game_object(game, stage, exports.get("tts_url"))
            paths.extend(p)
            diags.extend(x for x in d if x.is_error)
            if not exports.get("tts_url"):
                retarget(stage, target)  # file:/// URLs name the kit, not its staging folder
        if ttp and not has_errors(diags):
            from pnp.render.ttpg import render_package

            p, d = render_package(game, stage)
            paths.extend(p)
            diags.extend(d)
        paths = [target / p.relative_to(stage) for p in paths]
    if has_errors(diags):
        return [], checked + diags
    # the preflight already reported every finding about the data; rendering adds only errors
    # it alone can meet (a file that cannot be written)
    return paths, checked + [d for d in diags if (d.is_error or d in shop_diags)
                             and d not in checked]
