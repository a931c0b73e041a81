"""The `pnp` command: a thin click group. Each command lives in pnp/commands/<name>.py."""

from __future__ import annotations

import importlib

import click

from pnp import __version__

#: command name -> module under pnp.commands that defines `command` (imported lazily: fast start-up)
COMMANDS = {
    "list": "list_games",
    "validate": "validate",
    "show": "show",
    "simulate": "simulate",
    "compare": "compare",
    "sweep": "sweep",
    "scenario": "scenario",
    "render": "render",
    "build": "build",
    "new": "new",
    "schemas": "schemas",
    "upgrade": "upgrade",
}


class LazyGroup(click.Group):
    """Imports a command's module only when that command runs (or help lists it)."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return [name for name in COMMANDS if self._load(name) is not None]

    def get_command(self, ctx: click.Context, name: str) -> click.Command | None:
        return self._load(name)

    @staticmethod
    def _load(name: str) -> click.Command | None:
        module = COMMANDS.get(name)
        if module is None:
            return None
        try:
            return importlib.import_module(f"pnp.commands.{module}").command
        except ModuleNotFoundError as exc:
            if exc.name == f"pnp.commands.{module}":
                return None  # not built yet
            raise


@click.group(cls=LazyGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="pnp")
def main() -> None:
    """pnp: validate, self-play and print tabletop games described in YAML."""
