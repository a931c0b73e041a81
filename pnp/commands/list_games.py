"""`pnp list`: the bundled games, one a line."""

from __future__ import annotations

import click

from pnp.data.game import bundled_games


@click.command("list")
def command() -> None:
    """List the bundled games (folders under cards/)."""
    for folder in bundled_games():
        click.echo(folder.name)
