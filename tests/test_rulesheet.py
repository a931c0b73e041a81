"""The rulesheet is written from the game data: what the data says, the printed rules say."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pdfplumber
import pytest
from click.testing import CliRunner
from pypdf import PdfReader

from pnp.cli import main
from pnp.data.game import load_game
from pnp.paths import RULESHEET
from pnp.render.rulesheet import render_rulesheet
from pnp.rulesheet.check import check_rulesheet
from pnp.rulesheet.context import Helpers

AC_SHEET = RULESHEET / "ancient-civilizations"


def flat(text: str) -> str:
    return re.sub(r"\s+", " ", text)


def pdf_text(path: Path) -> str:
    return flat(" ".join(page.extract_text() for page in PdfReader(path).pages))


@pytest.fixture(scope="module")
def sheet(tmp_path_factory, ac) -> Path:
    out = tmp_path_factory.mktemp("rulesheet")
    paths, diags = render_rulesheet(ac, out, "a4")
    assert not [d for d in diags if d.is_error], diags
    assert [p.name for p in paths] == ["rulesheet.pdf"]
    return paths[0]


@pytest.fixture(scope="module")
def text(sheet) -> str:
    return pdf_text(sheet)


# ------------------------------------------------------------------ the data is in the rules


def test_every_track_space_name_is_printed(text, ac):
    for track in ac.tracks.values():
        assert track.name in text
        for space in track.spaces:
            assert flat(space.name) in text, (track.id, space.name)
            if not space.start:
                assert flat(space.label) in text, (track.id, space.label)


def test_every_chart_row_is_printed(text, ac):
    for chart in ac.charts.values():
        assert chart.name in text
        for row in chart.rows:
            assert f"{row.roll_label} {flat(row.result_label)}" in text, (chart.id, row)


def test_every_purchase_line_is_printed(text, ac):
    h = Helpers(ac)
    table = ac.tables["purchase"]
    assert "Gold Buys" in text
    for row in table.rows:
        assert f"{row.cost} {h.quantity(row.buys)}" in text, row


def test_stats_print_with_their_abbreviations_and_caps(text, ac):
    for stat in ac.stats.values():
        assert f"{stat.name} {stat.abbreviation}" in text, stat.id
    assert "Never more than 20" in text and "Never more than 10" in text  # Food and Resources


def test_every_phase_is_in_the_turn_table_in_order(text, ac):
    table = text[text.index("# Phase What happens"):]
    where = [table.index(f"{i + 1} {p.name.replace(' Phase', '')}") for i, p in enumerate(ac.phases)]
    assert where == sorted(where)


def test_every_interpretation_is_listed_with_the_reading_the_engine_plays(text, ac):
    section = text[text.index("How pnp reads the rules", text.index("Contents") + 200):]
    for interp in ac.interpretations.values():
        assert flat(interp.reading)[:60] in section, interp.id


def test_a_changed_number_in_tracks_yaml_changes_the_rulesheet(tmp_path, text):
    game = tmp_path / "ancient-civilizations"
    shutil.copytree(Path(load_game_folder()), game)
    tracks = game / "tracks.yaml"
    source = tracks.read_text(encoding="utf-8")
    assert '{name: "Hanging Gardens", effect: "Food +2 per Turn"}' in source
    tracks.write_text(source.replace('"Food +2 per Turn"', '"Food +7 per Turn"'), encoding="utf-8")
    changed = load_game(game)
    assert changed.ok, changed.diagnostics
    paths, diags = render_rulesheet(changed.game, tmp_path / "out")
    assert not [d for d in diags if d.is_error]
    new = pdf_text(paths[0])
    assert "Hanging Gardens Food +7 per Turn" in new
    assert "Hanging Gardens Food +2 per Turn" in text and "Food +2 per Turn" not in new


def test_a_changed_rule_parameter_changes_the_prose(tmp_path):
    game = tmp_path / "ancient-civilizations"
    shutil.copytree(Path(load_game_folder()), game)
    manifest = game / "game.yaml"
    manifest.write_text(manifest.read_text(encoding="utf-8").replace(
        "higher_military_bonus: 2", "higher_military_bonus: 3"), encoding="utf-8")
    paths, _ = render_rulesheet(load_game(game).game, tmp_path / "out")
    assert "adds 3 to its roll" in pdf_text(paths[0])


def load_game_folder() -> Path:
    from pnp.paths import CARDS

    return CARDS / "ancient-civilizations"


# ------------------------------------------------------------------ variants


def test_a_variant_prints_its_own_reading_and_the_data_it_changes(tmp_path):
    result = load_game(load_game_folder(), "arch-ideas")
    paths, diags = render_rulesheet(result.game, tmp_path)
    assert [p.name for p in paths] == ["rulesheet-arch-ideas.pdf"]
    variant = pdf_text(paths[0])
    assert "I is Ideas. (variant arch-ideas)" in variant
    assert "I is Infrastructure." not in variant
    assert "The Arch Idea+1" in variant  # the track table follows the overridden data


def test_a_variant_that_changes_a_rule_changes_the_prose(tmp_path, text):
    result = load_game(load_game_folder(), "conversions-once")
    paths, _ = render_rulesheet(result.game, tmp_path)
    assert "may, once a phase" in pdf_text(paths[0])
    assert "may, as often as possible" in text


# ------------------------------------------------------------------ the PDF


def test_two_to_seven_a4_pages_with_page_numbers(sheet):
    reader = PdfReader(sheet)
    assert 2 <= len(reader.pages) <= 7  # seven since the variants table joined it
    for i, page in enumerate(reader.pages, 1):
        assert abs(float(page.mediabox.width) - 595.28) < 0.5
        assert f"page {i} of {len(reader.pages)}" in page.extract_text()


def test_letter_paper(tmp_path, ac):
    paths, _ = render_rulesheet(ac, tmp_path, "letter")
    assert abs(float(PdfReader(paths[0]).pages[0].mediabox.width) - 612) < 0.5


def test_contents_lists_numbered_sections_with_their_pages(sheet):
    with pdfplumber.open(sheet) as pdf:
        first = pdf.pages[0].extract_text()
        pages = [page.extract_text() for page in pdf.pages]
    entries = re.findall(r"^(\d+) (.+?) [ .]+ (\d+)", first, re.M)
    assert [int(n) for n, _, _ in entries] == list(range(1, len(entries) + 1))
    assert entries[0][1] == "Overview" and entries[-1][1] == "How pnp reads the rules"
    for number, title, page in entries:  # each heading stands on the page the contents gives
        assert f"{number} {title}" in pages[int(page) - 1], (title, page)


@pytest.mark.skipif(shutil.which("pdffonts") is None, reason="pdffonts (poppler-utils) is missing")
def test_every_font_is_embedded(sheet):
    out = subprocess.run(["pdffonts", str(sheet)], capture_output=True, text=True, check=True).stdout
    rows = out.splitlines()[2:]
    assert rows
    for row in rows:
        assert row.split()[-5] == "yes", row  # the emb column


def test_rendering_twice_gives_identical_bytes(sheet, ac, tmp_path):
    paths, _ = render_rulesheet(ac, tmp_path)
    assert paths[0].read_bytes() == sheet.read_bytes()


def test_a_game_without_sources_has_no_rulesheet(tmp_path, ac):
    from dataclasses import replace

    other = replace(ac, id="no-such-game", folder=tmp_path)
    assert render_rulesheet(other, tmp_path / "out") == ([], [])
    assert check_rulesheet(other) == []


# ------------------------------------------------------------------ diagnostics


def broken(tmp_path: Path, body: str) -> Path:
    folder = tmp_path / "sheet"
    folder.mkdir(exist_ok=True)
    (folder / "01-rules.md").write_text(body, encoding="utf-8")
    return folder


def only(diags, code):
    assert [d.code for d in diags] == [code], diags
    return diags[0]


def test_a_missing_field_is_an_error_at_its_line(tmp_path, ac):
    folder = broken(tmp_path, "# Rules\n\nFine line.\n\n{{ game.tracks.leader.colour }}\n")
    d = only(check_rulesheet(ac, folder), "PNP-R081")
    assert (Path(d.file).name, d.line) == ("01-rules.md", 5)
    assert "colour" in d.message


def test_a_missing_rule_parameter_names_its_path(tmp_path, ac):
    folder = broken(tmp_path, "# Rules\n{{ rule('options', 'war', 'truce') }}\n")
    d = only(check_rulesheet(ac, folder), "PNP-R081")
    assert d.line == 2 and "options/war/truce" in d.message


def test_printing_none_is_a_missing_value(tmp_path, ac):
    folder = broken(tmp_path, "# Rules\n\n{{ game.rule('nothing') }}\n")
    assert only(check_rulesheet(ac, folder), "PNP-R081").line == 3


def test_a_sandbox_violation_is_an_error_at_its_line(tmp_path, ac):
    folder = broken(tmp_path, "# Rules\n\n\n{{ game.__class__.__mro__ }}\n")
    assert only(check_rulesheet(ac, folder), "PNP-R082").line == 4


def test_templates_cannot_reach_files_or_change_the_data(tmp_path, ac):
    folder = broken(tmp_path, "# Rules\n{{ game.folder }}\n")
    assert only(check_rulesheet(ac, folder), "PNP-R082").line == 2
    folder = broken(tmp_path, "# Rules\n{{ game.phases[0].checks.__len__() }}"
                    "{% set x = game.stats.clear() %}\n")
    assert only(check_rulesheet(ac, folder), "PNP-R082").line == 2
    assert len(ac.stats) == 14


def test_a_template_syntax_error_is_an_error_at_its_line(tmp_path, ac):
    folder = broken(tmp_path, "# Rules\n\n{% for t in game.tracks %}\n| {{ t }} |\n")
    d = only(check_rulesheet(ac, folder), "PNP-R080")
    assert d.line >= 3


def test_a_table_row_with_a_missing_cell_is_an_error_at_the_template_line(tmp_path, ac):
    folder = broken(tmp_path, "# Tracks\n\n| Space | Effect |\n|---|---|\n"
                    "{% for s in game.tracks.leader.spaces %}\n"
                    "{% if s.name == 'Wise' %}\n| {{ s.name }} |\n{% else %}\n"
                    "| {{ s.name }} | {{ s.label }} |\n{% endif %}\n{% endfor %}\n")
    d = only(check_rulesheet(ac, folder), "PNP-R084")
    assert d.line == 7 and "1 cells but its header has 2" in d.message


def test_a_table_whose_delimiter_row_does_not_match_is_an_error(tmp_path, ac):
    folder = broken(tmp_path, "# Charts\n\n| Roll | Result |\n|---|\n| 1 | Gold +1 |\n")
    d = only(check_rulesheet(ac, folder), "PNP-R084")
    assert d.line == 4 and "not read as a table" in d.message


def test_a_pipe_inside_data_is_escaped_by_the_cell_filter(tmp_path, ac):
    folder = broken(tmp_path, "| Space | Effect |\n|---|---|\n| Builder | "
                    "{{ game.tracks.leader.spaces[7].effect.source | cell }} |\n")
    assert check_rulesheet(ac, folder) == []
    folder = broken(tmp_path, "| Space | Effect |\n|---|---|\n| Builder | "
                    "{{ game.tracks.leader.spaces[7].effect.source }} |\n")
    assert only(check_rulesheet(ac, folder), "PNP-R084").line == 3


def test_an_unknown_inline_icon_is_an_error(tmp_path, ac):
    folder = broken(tmp_path, "# Gold\n\nPay one {coin} or one {doubloon}.\n")
    d = only(check_rulesheet(ac, folder), "PNP-R085")
    assert d.line == 3 and "doubloon" in d.message


def test_an_error_in_an_imported_macro_points_at_the_macro_file(tmp_path, ac):
    folder = broken(tmp_path, "{% from '_m.md' import row %}\n| A | B |\n|---|---|\n{{ row() }}\n")
    (folder / "_m.md").write_text("{% macro row() %}\n| one |\n{% endmacro %}\n", encoding="utf-8")
    d = only(check_rulesheet(ac, folder), "PNP-R084")
    assert (Path(d.file).name, d.line) == ("_m.md", 2)


def test_a_partial_imported_by_two_sources_is_read_and_compiled_once(tmp_path, ac, monkeypatch):
    """jinja2 keeps a loaded template while its loader says it is up to date: the partial
    two sources import is compiled once, and both sources still print its rows, each row
    traced to the partial's line."""
    from pnp.rulesheet import sources

    folder = broken(tmp_path, "{% from '_m.md' import row %}\n| A |\n|---|\n{{ row(1) }}\n")
    (folder / "02-more.md").write_text("{% from '_m.md' import row %}\n| A |\n|---|\n"
                                       "{{ row(2) }}\n", encoding="utf-8")
    (folder / "_m.md").write_text("{% macro row(n) %}\n| row {{ n }} |\n{% endmacro %}\n",
                                  encoding="utf-8")
    loads = []
    real = sources._MarkingLoader.get_source
    monkeypatch.setattr(sources._MarkingLoader, "get_source",
                        lambda self, env, name: loads.append(name) or real(self, env, name))
    rendered, diags = sources.render_sources(ac, folder)
    assert not diags and loads.count("_m.md") == 1
    assert [s.text.split("\n")[2] for s in rendered] == ["| row 1 |", "| row 2 |"]
    assert {(Path(s.position(2).file).name, s.position(2).line) for s in rendered} == {
        ("_m.md", 2)}


def test_a_broken_source_writes_no_pdf(tmp_path, ac):
    folder = broken(tmp_path, "# Rules\n{{ game.nothing }}\n")
    paths, diags = render_rulesheet(ac, tmp_path / "out", folder=folder)
    assert paths == [] and not (tmp_path / "out").exists()
    assert diags[0].code == "PNP-R081"


def test_icons_are_drawn_inline(tmp_path, ac):
    folder = broken(tmp_path, "# Icons\n\nPay {coin} and score {vp} or {star}.\n")
    paths, diags = render_rulesheet(ac, tmp_path / "out", folder=folder)
    assert not diags
    images = [name for page in PdfReader(paths[0]).pages
              for name in (page["/Resources"].get("/XObject") or {})]
    assert len(images) == 3


# ------------------------------------------------------------------ commands


def test_validate_reports_a_broken_rulesheet_with_file_and_line(tmp_path):
    game = tmp_path / "ancient-civilizations"
    shutil.copytree(load_game_folder(), game)
    (game / "rulesheet").mkdir()
    (game / "rulesheet" / "01-rules.md").write_text("# Rules\n\n{{ game.nope }}\n", encoding="utf-8")
    result = CliRunner().invoke(main, ["validate", str(game)])
    assert result.exit_code == 1
    assert re.search(r"01-rules\.md:3:1: error PNP-R081", result.output)


def test_build_stops_before_any_pdf_when_the_rulesheet_is_broken(tmp_path):
    game = tmp_path / "ancient-civilizations"
    shutil.copytree(load_game_folder(), game)
    (game / "rulesheet").mkdir()
    (game / "rulesheet" / "01-rules.md").write_text("| a | b |\n|---|---|\n| 1 |\n", encoding="utf-8")
    out = tmp_path / "out"
    result = CliRunner().invoke(main, ["build", str(game), "--out", str(out)])
    assert result.exit_code == 1 and "PNP-R084" in result.output
    assert not out.exists()


def test_render_rulesheet_command_with_variant(tmp_path):
    result = CliRunner().invoke(main, ["render", "rulesheet", "ancient-civilizations",
                                       "--variant", "checks-every-phase", "--out", str(tmp_path)])
    assert result.exit_code == 0, result.output
    assert "Every check is made at the end of every phase" in pdf_text(
        tmp_path / "rulesheet-checks-every-phase.pdf")


# ------------------------------------------------------------------ the sandbox's budget

ENDLESS = ("# Rules\n\nA line.\n\n{% for a in 'x' * 99999 %}{% for b in 'y' * 99999 %}"
           "{% endfor %}{% endfor %}\n")


@pytest.mark.parametrize("command", ["validate", "build"])
def test_a_source_that_loops_for_hours_is_an_error_at_its_line_within_seconds(tmp_path, command):
    # 99,999 × 99,999 steps over strings: about three hours of jinja2 without the time budget
    game = tmp_path / "hours"
    assert CliRunner().invoke(main, ["new", str(game)]).exit_code == 0
    (game / "rulesheet").mkdir()
    (game / "rulesheet" / "01-rules.md").write_text(ENDLESS, encoding="utf-8")
    out = tmp_path / "out"
    started = time.monotonic()
    result = subprocess.run([sys.executable, "-m", "pnp", command, str(game),
                             *(["--out", str(out)] if command == "build" else [])],
                            capture_output=True, text=True, timeout=60, cwd=tmp_path)
    assert time.monotonic() - started < 30
    assert result.returncode == 1, result.stdout + result.stderr
    assert re.search(r"01-rules\.md:5:1: error PNP-R089: .*longer than 2 s",
                     result.stdout + result.stderr)
    assert "Traceback" not in result.stderr and not out.exists()


def test_a_source_that_builds_a_huge_string_is_an_error_at_its_line(tmp_path, ac):
    folder = broken(tmp_path, "# Rules\n\n{% set s = 'x' * 10**6 %}{{ s }}\n")
    assert "1,000,000" in only(check_rulesheet(ac, folder), "PNP-R089").message


def test_every_source_has_a_budget_of_its_own(tmp_path, ac):
    # 60,000 range() steps each: fine alone, past the 100,000-step budget only if shared
    loops = "{% for a in range(60) %}{% for b in range(1000) %}{% endfor %}{% endfor %}\n"
    folder = broken(tmp_path, "# One\n\n" + loops)
    (folder / "02-more.md").write_text("# Two\n\n" + loops, encoding="utf-8")
    assert check_rulesheet(ac, folder) == []
    assert check_rulesheet(ac, folder) == []  # and every check has its own


def test_a_source_past_the_loop_budget_is_an_error_at_its_line(tmp_path, ac):
    folder = broken(tmp_path, "# Rules\n\n\n{% for a in range(1000) %}{% for b in range(1000) %}"
                    "{% endfor %}{% endfor %}\n")
    d = only(check_rulesheet(ac, folder), "PNP-R089")
    assert d.line == 4 and "100,000" in d.message


def test_a_source_that_writes_too_much_is_an_error_at_the_line_writing_it(tmp_path, ac):
    folder = broken(tmp_path, "# Rules\n\n| n | text |\n|---|---|\n{% for i in range(5000) %}\n"
                    "| {{ i }} | a row of a table far longer than any rulesheet needs |\n"
                    "{% endfor %}\n")
    d = only(check_rulesheet(ac, folder), "PNP-R089")
    assert "writes more than 100,000 characters" in d.message and d.line == 6
