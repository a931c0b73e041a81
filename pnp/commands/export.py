"""`pnp export cards`: a game's decks written out as CSV, XLSX or YAML, read back before kept."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from pnp.commands.common import (
    EXIT_ERRORS,
    EXIT_OK,
    cannot_write,
    echo_diagnostics,
    output_folder,
    resolve_games,
)
from pnp.data.game import load_game_and_documents


@click.group("export")
def command() -> None:
    """Write game data out in another format (cards: CSV, XLSX or YAML)."""


@command.command("cards")
@click.argument("game", metavar="GAME")
@click.option("--format", "fmt", type=click.Choice(["csv", "xlsx", "yaml"]), required=True,
              help="csv: a file per deck; xlsx: one workbook, a sheet per deck; yaml: a `cards:` "
              "list per deck, to paste back into the deck file.")
@click.option("--deck", default=None, help="Only this deck (its id).")
@click.option("--out", "out_dir", type=click.Path(file_okay=False), default=".",
              callback=output_folder, show_default=True, help="The folder to write into.")
@click.option("--force", is_flag=True, help="Replace files of the same names.")
def cards(game: str, fmt: str, deck: str | None, out_dir: Path, force: bool) -> None:
    """Write the cards of GAME's decks so a spreadsheet can hold them; each file is read back
    with the reader `pnp build` uses and written only when every card comes back the same."""
    from pnp.atomic import atomic_write_bytes
    from pnp.data.deck_export import plan_export

    folder = resolve_games((game,))[0]
    result, docs = load_game_and_documents(folder)
    if not result.ok or docs is None:
        echo_diagnostics(result.diagnostics)
        click.echo(f"{folder.name}: not exported (fix the errors above)", err=True)
        sys.exit(EXIT_ERRORS)
    plan = plan_export(docs, fmt, result.game.id, deck)
    if not plan.files:
        known = ", ".join(d for d in result.game.decks) or "(none)"
        click.echo(f"{result.game.id}: no deck with cards to export"
                   + (f" named '{deck}' (decks: {known})" if deck else ""), err=True)
        sys.exit(EXIT_ERRORS)
    if plan.diagnostics:
        echo_diagnostics(plan.diagnostics)
        click.echo(f"{result.game.id}: not exported (these cards would not come back the same)",
                   err=True)
        sys.exit(EXIT_ERRORS)
    targets = {name: out_dir / name for name in plan.files}
    present = [str(p) for p in targets.values() if p.exists()]
    if present and not force:
        click.echo(f"not replacing {', '.join(present)} (--force replaces them)", err=True)
        sys.exit(EXIT_ERRORS)
    for name, data in plan.files.items():
        try:
            click.echo(str(atomic_write_bytes(targets[name], data)))
        except OSError as exc:
            echo_diagnostics([cannot_write(targets[name], exc, "--out")])
            sys.exit(EXIT_ERRORS)
    for deck_id, use in plan.uses.items():
        click.echo(f"  deck {deck_id}: {use}", err=True)
    sys.exit(EXIT_OK)
