"""`pnp show`: the resolved, validated definition of one game."""

from __future__ import annotations

import json

import click
import yaml

from pnp.commands.common import load_or_exit
from pnp.data.export import game_to_data
from pnp.data.game import variant_name
from pnp.diagnostics import SCHEMA_VERSION
from pnp.paths import ROOT


@click.command("show")
@click.argument("game", metavar="GAME")
@click.option("--format", "fmt", type=click.Choice(["json", "yaml"]), default="json", show_default=True)
@click.option("--variant", multiple=True,
              help="Show the game with a variant's overrides applied (repeat to combine).")
def command(game: str, fmt: str, variant: tuple[str, ...]) -> None:
    """Print the whole resolved game: stats, tracks, charts, phases, rules, interpretations."""
    result = load_or_exit(game, variant_name(variant))
    data = {"schema_version": SCHEMA_VERSION, **game_to_data(result.game, ROOT)}
    if fmt == "json":
        click.echo(json.dumps(data, indent=2, ensure_ascii=False))
    else:
        click.echo(yaml.safe_dump(data, sort_keys=False, allow_unicode=True, width=100))
