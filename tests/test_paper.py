"""One paper table (pnp/paper.py): every command that prints takes the same `--paper` names,
refuses the same unknown ones, and a report is drawn on the paper asked for."""

from __future__ import annotations

import importlib

import click
import pytest
from click.testing import CliRunner
from pypdf import PdfReader

from pnp.cli import COMMANDS, main
from pnp.paper import HOME_PAPERS, LARGE_PAPERS, PAPERS

#: every command that prints something, with the arguments it needs besides --paper
PRINTING = {
    "validate": ["ancient-civilizations"],
    "build": ["ancient-civilizations"],
    "render": ["board", "ancient-civilizations"],
    "simulate": ["ancient-civilizations"],
    "sweep": ["ancient-civilizations"],
}
LETTER = (612, 792)  # 8.5 × 11 in, in points


def command(name: str) -> click.Command:
    return importlib.import_module(f"pnp.commands.{COMMANDS[name]}").command


def parsed_paper(name: str, paper: str) -> str:
    """What the command receives for `--paper paper`, parsed as click would, without running."""
    with command(name).make_context(name, [*PRINTING[name], "--paper", paper]) as ctx:
        return ctx.params["paper"]


def test_the_table_has_the_home_and_large_papers():
    assert HOME_PAPERS == ("a4", "letter")
    assert set(LARGE_PAPERS) == {"a3", "tabloid", "a2"}
    assert [round(v) for v in PAPERS["letter"].size] == list(LETTER)
    assert [round(v / 72 * 25.4) for v in PAPERS["a4"].size] == [210, 297]


@pytest.mark.parametrize("name", PRINTING)
def test_every_printing_command_has_the_same_paper_option_defaulting_to_a4(name):
    (option,) = [p for p in command(name).params if p.name == "paper"]
    assert option.default == "a4"
    assert parsed_paper(name, "a4") == "a4"


@pytest.mark.parametrize("paper", sorted(PAPERS))
@pytest.mark.parametrize("name", PRINTING)
def test_every_printing_command_accepts_every_paper_name(name, paper):
    assert parsed_paper(name, paper) == paper
    assert parsed_paper(name, paper.upper()) == paper  # spelt as the table spells it


@pytest.mark.parametrize("name", PRINTING)
def test_an_unknown_paper_is_a_usage_error_listing_the_names(name):
    result = CliRunner().invoke(main, [name, *PRINTING[name], "--paper", "a9"])
    assert result.exit_code == 2, result.output
    assert "unknown paper 'a9'" in result.output
    for paper in PAPERS:
        assert paper in result.output


@pytest.mark.parametrize("name", ["simulate", "sweep"])
def test_a_report_paper_smaller_than_a5_is_a_usage_error(name):
    """A report's label columns need room: a tiny page would wrap text forever."""
    result = CliRunner().invoke(main, [name, *PRINTING[name], "--paper", "100mmx150mm"])
    assert result.exit_code == 2, result.output
    assert "148×210 mm" in result.output


def test_a_simulate_report_on_letter_has_letter_pages(tmp_path):
    report = tmp_path / "r.pdf"
    result = CliRunner().invoke(main, ["simulate", "ancient-civilizations", "--games", "4",
                                       "--report", str(report), "--paper", "letter"])
    assert result.exit_code == 0, result.output
    pages = PdfReader(report).pages
    assert len(pages) > 1
    for page in pages:
        assert (round(float(page.mediabox.width)), round(float(page.mediabox.height))) == LETTER


def test_a_sweep_report_on_letter_has_letter_pages(tmp_path):
    from test_selfplay_fakes import fake_game, unbalanced_play

    from pnp.engine import sweep
    from pnp.engine.executor import InProcess
    from pnp.report.sweep_pdf import write_sweep_pdf

    cells = sweep.cross([3, 4], [None], [("random", "greedy")])
    doc = sweep.run_sweep({None: fake_game()}, cells, 40, seed=3, executor=InProcess(),
                          play=unbalanced_play)
    write_sweep_pdf(tmp_path / "s.pdf", doc, "letter")
    for page in PdfReader(tmp_path / "s.pdf").pages:
        assert (round(float(page.mediabox.width)), round(float(page.mediabox.height))) == LETTER


def test_the_paper_table_imports_nothing_any_layer_may_not():
    """The engine, the reports and the commands may all read it: no reportlab, no pnp module."""
    import ast

    import pnp.paper

    tree = ast.parse(open(pnp.paper.__file__, encoding="utf-8").read())
    imported = {node.module if isinstance(node, ast.ImportFrom) else alias.name
                for node in ast.walk(tree) if isinstance(node, ast.Import | ast.ImportFrom)
                for alias in node.names}
    assert imported <= {"__future__", "dataclasses"}
