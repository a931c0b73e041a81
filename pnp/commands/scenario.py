"""`pnp scenario`: run scripted rules scenarios and report every expectation that failed."""

from __future__ import annotations

import json
import sys

import click

from pnp.commands.common import EXIT_ERRORS, EXIT_OK, EXIT_USAGE, refuse_game_files, write_or_exit
from pnp.diagnostics import SCHEMA_VERSION


@click.command("scenario")
@click.argument("paths", nargs=-1, required=True, metavar="FILE_OR_DIR...")
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text",
              show_default=True)
@click.option("--log", "log_dir", type=click.Path(file_okay=False), default=None,
              help="Write each scenario's event log (JSONL) into this folder.")
def command(paths: tuple[str, ...], fmt: str, log_dir: str | None) -> None:
    """Run scenario files (folders: every *.yaml inside); exit 1 if any expectation fails."""
    from pathlib import Path

    from pnp.engine.log import write_jsonl
    from pnp.engine.scenario import run_scenario, scenario_files

    files = scenario_files(paths)
    missing = [str(f) for f in files if not f.exists()]
    if missing or not files:
        click.echo(f"error: no scenario file at {', '.join(missing) or ' '.join(paths)}", err=True)
        sys.exit(EXIT_USAGE)
    reports = [run_scenario(f) for f in files]
    failed = [r for r in reports if not r.ok]
    if fmt == "json":
        click.echo(json.dumps({
            "schema_version": SCHEMA_VERSION, "ok": not failed,
            "scenarios": [{"file": str(r.path), "name": r.name, "ok": r.ok,
                           "expectations": r.checked, "rolls": r.rolls,
                           "decisions": r.decisions,
                           "failures": [{"message": f.message, "file": f.file, "line": f.line,
                                         "column": f.column, "code": f.code, "hint": f.hint}
                                        for f in r.failures]}
                          for r in reports]}, indent=2))
    else:
        for r in reports:
            click.echo(f"{'PASS' if r.ok else 'FAIL'}  {r.path}  {r.name}")
            for f in r.failures:
                click.echo(f"    {f.format()}")
        click.echo(f"{len(reports) - len(failed)} passed, {len(failed)} failed", err=True)
    if log_dir:  # after the results, so an unwritable folder does not hide them
        for r in reports:  # never onto a game's own files or folder
            if r.game is not None:
                refuse_game_files(r.game, (log_dir, "--log", "logs"),
                                  (Path(log_dir) / (r.path.stem + ".jsonl"), "--log", "logs"))

        def write_logs() -> None:
            Path(log_dir).mkdir(parents=True, exist_ok=True)
            for r in reports:
                write_jsonl(r.log, Path(log_dir) / (r.path.stem + ".jsonl"))

        write_or_exit(log_dir, write_logs, "--log")
    sys.exit(EXIT_ERRORS if failed else EXIT_OK)
