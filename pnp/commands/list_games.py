"""`pnp list`: the bundled games, one a line."""

from __future__ import annotations

import os
import sys

import click

from pnp import paths
from pnp.commands.common import EXIT_ERRORS, echo_diagnostics, error
from pnp.data.game import bundled_games


@click.command("list")
def command() -> None:
    """List the bundled games (folders under cards/ holding a game.yaml); exit 1 when there are none.

    pnp always ships three games, so an empty list means a broken install or a PNP_HOME that
    points elsewhere: say where we looked rather than print nothing.
    """
    games = bundled_games(paths.CARDS)
    for folder in games:
        click.echo(folder.name)
    if not games:
        if os.environ.get("PNP_HOME"):
            hint = "point PNP_HOME at a folder holding cards/, schemas/, templates/, rulesheet/, or unset it"
        else:
            hint = "this install lacks its bundled games: reinstall pnp-toolkit (pip install --force-reinstall)"
        echo_diagnostics([error(f"no games in {paths.CARDS} (no folder there holds a game.yaml)",
                                hint)])
        sys.exit(EXIT_ERRORS)
