"""The simulate report as a designer sees it: text order, JSON, and the PDF's pages and fonts."""

from __future__ import annotations

import json

import pdfplumber
import pytest
from pypdf import PdfReader
from test_selfplay_fakes import broken_play, fake_game, unbalanced_play

from pnp.engine.selfplay import SimConfig, compare_document, report_document, run_simulation
from pnp.report.pdf import write_report_pdf
from pnp.report.text import render_compare_text, render_json, render_text


@pytest.fixture(scope="module")
def unbalanced():
    game = fake_game()
    sim = run_simulation(game, SimConfig(games=200, players=4, seed=3), play=unbalanced_play)
    return report_document(sim), game


@pytest.fixture(scope="module")
def pdf_path(unbalanced, tmp_path_factory):
    doc, game = unbalanced
    return write_report_pdf(tmp_path_factory.mktemp("rep") / "report.pdf", doc, game)


def test_text_report_has_key_figures_then_findings_most_severe_first():
    game = fake_game()
    doc = report_document(run_simulation(game, SimConfig(games=60, players=3, seed=1),
                                         play=broken_play))
    text = render_text(doc)
    lines = text.splitlines()
    assert lines[0].startswith("fake (base rules): 60 games, 3 players, seed 1")
    assert text.index("Turns") < text.index("Seats") < text.index("Findings")
    findings = [ln.split()[0] for ln in lines[lines.index(next(ln for ln in lines
                                                              if ln.startswith("Findings"))) + 1:]]
    assert findings[0] == "error"
    assert findings == sorted(findings, key=["error", "warning", "info"].index)
    assert len(lines) < 30


def test_json_report_round_trips(unbalanced):
    doc, _ = unbalanced
    assert json.loads(render_json(doc)) == doc


def test_pdf_pages_show_figures_charts_and_flags(pdf_path):
    with pdfplumber.open(pdf_path) as pdf:
        texts = [page.extract_text() or "" for page in pdf.pages]
    assert len(texts) >= 4
    first = texts[0]
    assert "Self-play report: Fake Game" in first and "Findings" in first
    assert "before turn 6" in first.replace("\n", " ")
    everything = "\n".join(texts)
    for heading in ("Turns per game", "Winning margin", "Win rate by seat (95% CI)",
                    "Win rate by bot (95% CI)", "Stats at game end",
                    "How often each space came up", "How often each chart result came up"):
        assert heading in everything
    assert "never seen" in everything and "Drought" in everything


def test_pdf_embeds_truetype_fonts_only(pdf_path):
    reader = PdfReader(pdf_path)
    fonts = {}
    for page in reader.pages:
        for font in page["/Resources"]["/Font"].values():
            font = font.get_object()
            descendant = font.get("/FontDescriptor")
            fonts[font["/BaseFont"]] = descendant is not None and "/FontFile2" in descendant
    assert fonts and all(fonts.values()), fonts
    assert not any(name in fonts for name in ("/Helvetica", "/Times-Roman", "/Courier"))


def test_pdf_bytes_are_deterministic(unbalanced, tmp_path):
    doc, game = unbalanced
    a = write_report_pdf(tmp_path / "a.pdf", doc, game).read_bytes()
    b = write_report_pdf(tmp_path / "b.pdf", doc, game).read_bytes()
    assert a == b


def test_failed_render_leaves_the_old_report_untouched(unbalanced, tmp_path):
    doc, game = unbalanced
    target = tmp_path / "report.pdf"
    target.write_bytes(b"old report")
    broken = dict(doc, turns=None)
    with pytest.raises(TypeError):
        write_report_pdf(target, broken, game)
    assert target.read_bytes() == b"old report"
    assert [p.name for p in tmp_path.iterdir()] == ["report.pdf"]


def test_compare_text_marks_only_real_differences():
    from test_selfplay_fakes import fair_play

    runs = [run_simulation(fake_game(v), SimConfig(games=100, players=4, seed=2, variant=v),
                           play=fair_play) for v in (None, "long")]
    text = render_compare_text(compare_document(*runs))
    marked = [ln for ln in text.splitlines() if ln.startswith("* ")]
    assert len(marked) == 1 and "turns (mean)" in marked[0] and "+5.00" in marked[0]
    assert "long vs base" in text.splitlines()[0]
