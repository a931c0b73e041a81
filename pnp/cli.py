"""The `pnp` command: a thin click group. Each command lives in pnp/commands/<name>.py."""

from __future__ import annotations

import ast
import gc
import importlib
import importlib.util
from pathlib import Path

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
    "ladder": "ladder",
    "probe": "probe",
    "tune": "tune",
    "scenario": "scenario",
    "render": "render",
    "build": "build",
    "new": "new",
    "schemas": "schemas",
    "upgrade": "upgrade",
    "export": "export",
    "fetch-sheet": "fetch_sheet",
    "preview": "preview",
    "preflight": "preflight",
}


class LazyGroup(click.Group):
    """Imports a command's module only when that command runs.

    `pnp --help` lists every command with the first sentence of its docstring; that is read
    from the module's source (a parse, not an import), so listing the commands does not load
    jsonschema, reportlab and the engine the commands need.

    Run as its own process (`pnp ...`, arguments from sys.argv), the command's module is
    imported with the cyclic garbage collector off and what the import built is then frozen
    (gc.freeze): modules, classes and functions live as long as the process, and without this
    the collector scans them over and over while they are built and again in every later full
    collection (about 20 ms of a 54-card `pnp render cards`). Called with arguments (a test's
    CliRunner, in a process that lives on) the collector is left as it is.
    """

    own_process = False

    def main(self, args=None, *rest, **kwargs):
        self.own_process = args is None
        return super().main(args, *rest, **kwargs)

    def list_commands(self, ctx: click.Context) -> list[str]:
        return [name for name in COMMANDS if _source(COMMANDS[name]) is not None]

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        rows = []
        for name in self.list_commands(ctx):
            text = _docstring(COMMANDS[name])
            if text is None:  # not a plain `def command` with a docstring: ask click
                cmd = self._load(name)
                text = "" if cmd is None else cmd.get_short_help_str(formatter.width)
            else:  # click's own shortening, on a bare command holding the same help
                text = click.Command(name, help=text).get_short_help_str(
                    formatter.width - 6 - max(len(n) for n in COMMANDS))
            rows.append((name, text))
        if rows:
            with formatter.section("Commands"):
                formatter.write_dl(rows)

    def get_command(self, ctx: click.Context, name: str) -> click.Command | None:
        if not (self.own_process and gc.isenabled()):
            return self._load(name)
        gc.disable()
        try:
            return self._load(name)
        finally:
            gc.freeze()  # what the import built outlives every collection: never scan it again
            gc.enable()

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


def _source(module: str) -> str | None:
    """The source of pnp/commands/<module>.py, or None when there is no such command."""
    spec = importlib.util.find_spec(f"pnp.commands.{module}")
    if spec is None or spec.origin is None:
        return None
    return Path(spec.origin).read_text(encoding="utf-8")


def _docstring(module: str) -> str | None:
    """The docstring of the module's `command` function: the help click would show."""
    source = _source(module)
    if source is None:
        return None
    for node in ast.parse(source).body:
        if isinstance(node, ast.FunctionDef) and node.name == "command":
            return ast.get_docstring(node)
    return None


@click.group(cls=LazyGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="pnp")
def main() -> None:
    """pnp: validate, self-play and print tabletop games described in YAML."""
