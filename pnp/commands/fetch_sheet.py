"""`pnp fetch-sheet`: save a published Google Sheets CSV into the game folder, on request only."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from pnp.commands.common import EXIT_ERRORS, EXIT_OK, cannot_write, echo_diagnostics


@click.command("fetch-sheet")
@click.argument("url", metavar="URL")
@click.option("--out", "out", type=click.Path(dir_okay=False, path_type=Path), required=True,
              help="The CSV file to write (a deck reads it with `cards: {from: FILE}`); an "
              "earlier download there is replaced.")
@click.option("--timeout", type=click.FloatRange(min=1), default=30.0, show_default=True,
              help="Seconds to wait for the server.")
def command(url: str, out: Path, timeout: float) -> None:
    """Download a sheet published as CSV (Google Sheets: File > Share > Publish to web) to a file;
    builds never fetch, so they work offline and give the same PDF until you fetch again."""
    from pnp.atomic import atomic_write_bytes
    from pnp.data.sheet_fetch import fetch_csv

    if out.suffix.lower() != ".csv":
        raise click.BadParameter(f"'{out}' must end in .csv", param_hint="--out")
    got = fetch_csv(url, timeout)
    if not isinstance(got, tuple):
        echo_diagnostics([got])
        sys.exit(EXIT_ERRORS)
    data, table = got
    try:
        atomic_write_bytes(out, data)
    except OSError as exc:
        echo_diagnostics([cannot_write(out, exc, "--out")])
        sys.exit(EXIT_ERRORS)
    header = ", ".join(str(v) for v in table.rows[0][1] if v is not None)
    click.echo(f"{out}: {len(table.rows) - 1} rows under the header {header}")
    sys.exit(EXIT_OK)
