"""Helpers shared by the commands: resolving GAME arguments and printing diagnostics."""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path

import click

from pnp.data.game import LoadResult, bundled_games, find_game, load_game
from pnp.diagnostics import ERROR, Diagnostic, render_text

#: Exit codes: 0 clean, 1 errors in the data (or a failed check), 2 usage.
EXIT_OK, EXIT_ERRORS, EXIT_USAGE = 0, 1, 2


def resolve_games(names: tuple[str, ...]) -> list:
    """Game folders for the given names (all bundled games when none); a bad name is a usage error."""
    if not names:
        return bundled_games()
    folders = []
    for name in names:
        folder, hint = find_game(name)
        if folder is None:
            raise click.BadParameter(f"no game '{name}'. {hint}", param_hint="GAME")
        folders.append(folder)
    return folders


def load_or_exit(name: str, variant: str | None = None) -> LoadResult:
    """Load one game for a command that needs a clean model; print diagnostics and exit 1 if not."""
    folder = resolve_games((name,))[0]
    result = load_game(folder, variant)
    if not result.ok:
        echo_diagnostics(result.diagnostics)
        sys.exit(EXIT_ERRORS)
    return result


def rules_or_exit(game) -> None:
    """Import the rules module of a game about to be played (simulate, compare); without one,
    or when it fails to load, print one diagnostic saying what is needed and exit 1.

    Only the commands that play import game code; validate and build never call this."""
    from pnp.engine.registry import NoEngine, engine_diagnostic, module_for

    try:
        module_for(game)
    except NoEngine as exc:
        echo_diagnostics([engine_diagnostic(game, exc)])
        sys.exit(EXIT_ERRORS)


def output_folder(_ctx: click.Context, param: click.Parameter, value: str | None) -> Path | None:
    """A click callback for --out: the folder as a Path; an empty value is a usage error (exit 2),
    since Path("") is the current folder and a kit written there could replace a game folder."""
    if value is None:
        return None
    if not value.strip():
        raise click.BadParameter("is empty; give a folder, e.g. --out output", param=param)
    return Path(value)


class PaperType(click.ParamType):
    """A paper from pnp/paper.py (any case) or WIDTHxHEIGHT; anything else is a usage error
    (exit 2) that lists the names. A name comes back as the table spells it (`A4` -> `a4`)."""

    name = "paper"

    def __init__(self, smallest: tuple[float, float] | None = None):
        self.smallest = smallest  # (width, height) in points a WIDTHxHEIGHT must reach

    def convert(self, value, param, ctx):
        from pnp.paper import known_name, too_small
        from pnp.render.geometry import GeometryError, parse_paper  # pure arithmetic, no reportlab

        try:
            size = parse_paper(value)
        except GeometryError as exc:
            self.fail(str(exc), param, ctx)
        problem = self.smallest and too_small(size, self.smallest)
        if problem:
            self.fail(f"{value!r}: {problem}", param, ctx)
        return known_name(value) or value


def paper_option(help: str = "The paper to print on.",
                 smallest: tuple[float, float] | None = None) -> Callable:
    """`--paper`: the same names, default and error on every command that prints; `smallest`
    refuses a WIDTHxHEIGHT too small for what the command draws (every name is large enough)."""
    from pnp.paper import CUSTOM_EXAMPLE, DEFAULT_PAPER, names_text

    return click.option("--paper", type=PaperType(smallest), default=DEFAULT_PAPER,
                        show_default=True, help=f"{help} {names_text()}, or {CUSTOM_EXAMPLE}.")


def echo_diagnostics(diags: list[Diagnostic]) -> None:
    if diags:
        click.echo(render_text(diags), err=True)


WRITE_FAILED = "PNP-R050"  # the same code the renderers use for an output they cannot write


def cannot_write(path: Path | str, exc: OSError, option: str = "") -> Diagnostic:
    """The diagnostic for an output path a command cannot write (never a traceback)."""
    hint = "check the folder exists, is a folder and is writable"
    return Diagnostic(ERROR, WRITE_FAILED, f"cannot write {path}: {exc.strerror or exc}",
                      str(path), hint=hint + (f", or choose another with {option}" if option else ""))


def write_or_exit(path: Path | str, write: Callable[[], object], option: str = "") -> None:
    """Run `write`; an OSError is printed as a PNP-R050 diagnostic and the command exits 1."""
    try:
        write()
    except OSError as exc:
        echo_diagnostics([cannot_write(path, exc, option)])
        sys.exit(EXIT_ERRORS)


def refuse_game_files(game, *outputs: tuple[Path | str | None, str, str]) -> None:
    """Exit 1 with a PNP-R056 diagnostic when an output path (path, option, example) is one of
    `game`'s own files or its folder (pnp/render/kit_folder.py); call it before writing."""
    from pnp.render.kit_folder import output_path_problem

    refused = [d for path, option, example in outputs if path is not None and str(path)
               and (d := output_path_problem(path, game, option, example)) is not None]
    if refused:
        echo_diagnostics(refused)
        sys.exit(EXIT_ERRORS)


def error(message: str, hint: str = "") -> Diagnostic:
    return Diagnostic(ERROR, "PNP-C001", message, hint=hint)
