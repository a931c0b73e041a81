"""`pnp schemas GAME`: put the schemas beside a game so editors validate it wherever it lives."""

from __future__ import annotations

import sys

import click

from pnp import paths
from pnp.commands.common import (
    EXIT_ERRORS,
    EXIT_OK,
    cannot_write,
    echo_diagnostics,
    error,
    resolve_games,
)


@click.command("schemas")
@click.argument("game", metavar="GAME")
def command(game: str) -> None:
    """Copy the JSON Schemas into GAME/.schemas/ and point every file's schema line there.

    Run it after moving or copying a game folder, or after upgrading pnp; the loader does not
    need it (it reads the kind from the file name the line names), the editor does.
    """
    from pnp.schema_files import FOLDER, install_schemas

    folder = resolve_games((game,))[0]
    if paths.IN_PACKAGE and folder.resolve().is_relative_to(paths.CARDS.resolve()):
        # rewriting files inside site-packages would be lost on the next upgrade (or refused)
        copy = f"./{folder.name}"
        echo_diagnostics([error(f"{folder.name} is bundled inside the installed pnp ({folder})",
                                f"copy it out and run this on the copy: cp -r '{folder}' {copy} "
                                f"&& pnp schemas {copy}")])
        sys.exit(EXIT_ERRORS)
    try:
        schemas, changed, problems = install_schemas(folder)
    except OSError as exc:
        echo_diagnostics([cannot_write(exc.filename or folder, exc)])
        sys.exit(EXIT_ERRORS)
    if problems:
        echo_diagnostics(problems)
        sys.exit(EXIT_ERRORS)
    click.echo(f"wrote {len(schemas)} schemas into {folder / FOLDER}")
    for path in changed:
        click.echo(f"pointed {path} at {FOLDER}/")
    sys.exit(EXIT_OK)
