"""`pnp upgrade GAME [--dry-run]`: move a game's keys to where the current schema has them."""

from __future__ import annotations

import sys

import click

from pnp.commands.common import EXIT_ERRORS, EXIT_OK, echo_diagnostics, resolve_games


@click.command("upgrade")
@click.argument("game", metavar="GAME")
@click.option("--dry-run", is_flag=True, help="Print the changes as a unified diff; write nothing.")
def command(game: str, dry_run: bool) -> None:
    """Rewrite GAME's files for the current schema version, keeping comments and key order.

    Each changed file is kept as FILE.bak first (an existing backup stops the upgrade). Exit 0
    when upgraded or already current, 1 when the game cannot be read or upgraded (nothing is
    written then). docs/schema-versions.md lists the versions and what moved.
    """
    from pnp.data.upgrades import BACKUP_SUFFIX, CURRENT_VERSION, plan_upgrade, write_upgrade

    folder = resolve_games((game,))[0]
    plan = plan_upgrade(folder)
    if not plan.ok:
        echo_diagnostics(plan.diagnostics)
        sys.exit(EXIT_ERRORS)
    if not plan.changes:
        click.echo(f"{folder}: nothing to upgrade (schema version {CURRENT_VERSION})")
        sys.exit(EXIT_OK)
    if dry_run:
        for change in plan.changes:
            click.echo(change.diff(folder), nl=False)
        click.echo(f"{folder}: would upgrade to schema version {CURRENT_VERSION} "
                   "(dry run: nothing written)", err=True)
        sys.exit(EXIT_OK)
    problems = write_upgrade(plan)
    if problems:
        echo_diagnostics(problems)
        sys.exit(EXIT_ERRORS)
    for change in plan.changes:
        for note in change.notes:
            click.echo(f"{change.path}: {note}")
        click.echo(f"{change.path}: was kept as {change.path.name}{BACKUP_SUFFIX}")
    click.echo(f"{folder}: upgraded to schema version {CURRENT_VERSION}")
    sys.exit(EXIT_OK)
