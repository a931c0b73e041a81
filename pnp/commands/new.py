"""`pnp new DIR`: scaffold a small working game."""

from __future__ import annotations

import shlex
import sys
from pathlib import Path

import click

from pnp.commands.common import EXIT_ERRORS, EXIT_OK, cannot_write, echo_diagnostics
from pnp.data.game import load_game
from pnp.diagnostics import render_text
from pnp.scaffold import scaffold


@click.command("new")
@click.argument("folder", type=click.Path(file_okay=False, path_type=Path))
@click.option("--name", default=None, help="The game's title (default: from the folder name).")
def command(folder: Path, name: str | None) -> None:
    """Create FOLDER with a starter game (manifest, stats, a track, a 54-card deck, a board, a record sheet, and rules.py that plays it)."""
    if folder.is_dir() and any(folder.iterdir()):
        raise click.UsageError(f"{folder} exists and is not empty; choose a new folder")
    try:
        written = scaffold(folder, name)
    except OSError as exc:
        echo_diagnostics([cannot_write(exc.filename or folder, exc)])
        sys.exit(EXIT_ERRORS)
    for path in written:
        click.echo(f"wrote {path}")
    result = load_game(folder)
    if result.diagnostics:
        click.echo(render_text(result.diagnostics), err=True)
    if not result.ok:
        sys.exit(EXIT_ERRORS)
    shown = shlex.quote(str(folder))
    click.echo(f"\nNext: pnp validate {shown}   then   pnp build {shown}   and   "
               f"pnp simulate {shown}", err=True)
    sys.exit(EXIT_OK)
