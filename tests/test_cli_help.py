"""`pnp --help` lists every command with its own help, without importing what the commands need
(jsonschema, reportlab, the engine): the list a user reads first comes back at once."""

from __future__ import annotations

import gc
import subprocess
import sys

import click
import pytest

from pnp.cli import COMMANDS, main


def _last_line(probe: str) -> str:
    """The last line a fresh Python process running `probe` prints."""
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True,
                         check=True).stdout
    return out.strip().splitlines()[-1]


@pytest.mark.parametrize("width", [60, 80, 120])
def test_help_lists_every_command_as_click_would_from_the_imported_commands(width):
    """The listing read from source equals click's own, which imports every command."""
    ctx = click.Context(main, terminal_width=width)
    ours, clicks = ctx.make_formatter(), ctx.make_formatter()
    main.format_commands(ctx, ours)
    click.Group.format_commands(main, ctx, clicks)
    assert ours.getvalue() == clicks.getvalue()
    assert all(f"  {name} " in ours.getvalue() for name in COMMANDS)


def test_help_imports_neither_the_schema_checker_nor_the_pdf_library():
    probe = ("import sys; from pnp.cli import main\n"
             "try:\n    main(['--help'])\nexcept SystemExit:\n    pass\n"
             "print(sorted(m for m in ('jsonschema', 'reportlab', 'pnp.engine.selfplay',"
             " 'pnp.data.game') if m in sys.modules))")
    assert _last_line(probe) == "[]"


def test_a_pnp_process_freezes_what_the_command_import_built_and_keeps_collecting():
    """Run as its own process (arguments from sys.argv) the command's module is imported with
    the garbage collector off and frozen after (gc.freeze), and the collector is on again."""
    probe = ("import gc, sys; from pnp.cli import main\n"
             "sys.argv = ['pnp', 'list']\n"
             "before = gc.get_freeze_count()\n"
             "try:\n    main()\nexcept SystemExit:\n    pass\n"
             "print(before, gc.get_freeze_count() > before, gc.isenabled())")
    assert _last_line(probe) == "0 True True"


def test_a_command_run_with_arguments_leaves_the_collector_alone():
    """A test's CliRunner passes arguments: the process lives on, so nothing is frozen."""
    from click.testing import CliRunner

    before = gc.get_freeze_count()
    result = CliRunner().invoke(main, ["list"])
    assert result.exit_code == 0, result.output
    assert gc.get_freeze_count() == before and gc.isenabled()
