"""`pnp render KIND GAME`: one kind of component (cards, board, record sheets, tokens, rulesheet).

The kinds and what renders them come from pnp/render/kinds.py; this command adds only the
options each kind takes.
"""

from __future__ import annotations

import sys
from pathlib import Path

import click

from pnp.commands.common import (
    EXIT_ERRORS,
    EXIT_OK,
    echo_diagnostics,
    load_or_exit,
    output_folder,
    paper_option,
)
from pnp.data.game import variant_name
from pnp.diagnostics import has_errors
from pnp.paths import default_output
from pnp.render.kinds import kind_names, renderer
from pnp.render.kit_folder import kit_folder_problems
from pnp.render.staging import move_into, staged, write_error

KINDS = tuple(kind_names())

#: option -> the kinds it applies to (used only to reject options that would be ignored)
_ONLY_FOR = {
    "duplex": ("cards",), "offset": ("cards",), "print_shop": ("cards",), "png": ("cards",),
    "tts": ("cards",), "tts_url": ("cards",), "deck": ("cards",), "calibration": ("cards",), "board": ("board",), "no_tiled": ("board",),
    "no_whole": ("board",), "sheet": ("record",), "no_fillable": ("record",),
    "variant": ("rulesheet",),
}


def _offset(text: str | None) -> tuple[str, str] | tuple[float, float]:
    if not text:
        return (0.0, 0.0)
    parts = [p.strip() for p in text.split(",")]
    if len(parts) != 2:
        raise click.BadParameter("write X,Y in millimetres, e.g. 1.5,-0.5", param_hint="--offset")
    try:
        return (float(parts[0]), float(parts[1]))
    except ValueError:
        return (parts[0], parts[1])  # lengths with units: the renderer checks them


@click.command("render")
@click.argument("kind", type=click.Choice(KINDS), metavar="|".join(KINDS))
@click.argument("game", metavar="GAME")
@paper_option("The home paper the files are laid out on.")
@click.option("--out", "out_dir", type=click.Path(file_okay=False), default=None,
              callback=output_folder,
              help="Output folder (default: ./output/GAME under the current folder).")
@click.option("--deck", multiple=True, help="cards: only this deck (repeatable).")
@click.option("--duplex", type=click.Choice(["long", "short"]), default=None,
              help="cards: add mirrored back pages for double-sided printing.")
@click.option("--offset", default=None, help="cards: back-page offset X,Y in mm (see the "
              "calibration page).")
@click.option("--print-shop", is_flag=True, help="cards: also one card per page with bleed.")
@click.option("--png", is_flag=True, help="cards: also one 300 dpi PNG per card.")
@click.option("--tts", is_flag=True, help="cards: also Tabletop Simulator deck sheets and a "
              "saved object (JSON) that loads them.")
@click.option("--tts-url", default=None, metavar="URL",
              help="cards: with --tts, the saved object loads the sheets from URL/<file> (where "
              "you upload them) instead of file:/// paths on this machine.")
@click.option("--calibration", is_flag=True,
              help="cards: also a duplex calibration page (print it double-sided to read --offset).")
@click.option("--board", default=None, help="board: only this board id.")
@click.option("--no-tiled", is_flag=True, help="board: skip the tiled home-paper file.")
@click.option("--no-whole", is_flag=True, help="board: skip the whole large-paper file.")
@click.option("--sheet", default=None, help="record: only this record sheet id.")
@click.option("--no-fillable", is_flag=True, help="record: skip the fillable PDF.")
@click.option("--variant", multiple=True,
              help="rulesheet: print the rules as this variant plays them (rulesheet-VARIANT.pdf; "
                   "repeat to combine variants, rulesheet-A+B.pdf).")
def command(kind: str, game: str, paper: str, out_dir: Path | None, **opts) -> None:
    """Render one kind of component of GAME into ./output/GAME (or --out)."""
    for name, value in opts.items():
        if value and kind not in _ONLY_FOR[name]:
            flag = "--" + name.replace("_", "-")
            raise click.UsageError(f"{flag} applies to `pnp render {_ONLY_FOR[name][0]}`, "
                                   f"not `{kind}`")
    result = load_or_exit(game, variant_name(opts["variant"]))
    gd = result.game
    echo_diagnostics(result.diagnostics)
    if kind == "cards" and opts["deck"]:
        unknown = [d for d in opts["deck"] if d not in gd.decks]
        if unknown:
            raise click.BadParameter(f"no deck {', '.join(unknown)}; decks: "
                                     f"{', '.join(gd.decks) or 'none'}", param_hint="--deck")
        gd = _only_decks(gd, opts["deck"])
    target = out_dir or default_output() / gd.id
    diags: list = kit_folder_problems(target, gd.folder)  # a folder pnp did not write stays
    paths: list[Path] = []
    if not has_errors(diags):
        with staged(target, diags, swap=False) as out:
            paths = [] if out is None else _render(kind, gd, out, paper, opts, diags)
            if out is not None and not has_errors(diags):
                try:
                    if opts.get("tts") and not opts.get("tts_url"):
                        from pnp.render.tts import retarget

                        retarget(out, target)  # the saved objects load from the kit folder
                    paths = move_into(out, target, paths)
                except OSError as exc:
                    diags.append(write_error(target, exc))
    if has_errors(diags):
        paths = []  # nothing was moved into place
    echo_diagnostics(diags)
    for path in paths:
        click.echo(str(path))
    if not paths and not has_errors(diags):
        click.echo(f"{gd.id}: nothing to render for `{kind}`", err=True)
    sys.exit(EXIT_ERRORS if has_errors(diags) else EXIT_OK)


def _only_decks(game, deck_ids):
    """The game with only the named decks, so the card renderer sees just those."""
    from dataclasses import replace

    return replace(game, decks={k: v for k, v in game.decks.items() if k in deck_ids})


def _render(kind: str, gd, out: Path, paper: str, opts: dict, diags: list) -> list[Path]:
    """Render one kind of component into the folder `out`; diagnostics go to `diags`."""
    paths, d = renderer(kind).render(gd, out, paper, **_kind_options(kind, opts))
    diags.extend(d)
    return paths


def _kind_options(kind: str, opts: dict) -> dict:
    """The command's options as the keyword arguments of `kind`'s renderer."""
    if kind == "cards":
        return {"duplex": opts["duplex"], "offset": _offset(opts["offset"]),
                "print_shop": opts["print_shop"], "png": opts["png"], "tts": opts["tts"],
                "tts_url": opts["tts_url"],
                "calibration": opts["calibration"]}
    if kind == "board":
        return {"board_id": opts["board"], "tiled": not opts["no_tiled"],
                "whole": not opts["no_whole"]}
    if kind == "record":
        return {"sheet_id": opts["sheet"], "fillable": not opts["no_fillable"]}
    return {}
