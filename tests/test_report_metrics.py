"""The PDF report shows every metric the text and JSON give: skill depth (the ladder's steps),
how the lead moved (lead changes, drama, decisiveness, comebacks, as distributions), and
every option picked with its win rates and intervals; and says why one is absent."""

from __future__ import annotations

import json

import pdfplumber
import pytest
from click.testing import CliRunner
from test_ladder import ladder, luck_play
from test_selfplay_fakes import fake_game, unbalanced_play

from pnp.cli import main
from pnp.engine.selfplay import SimConfig, _tenths, report_document, run_simulation
from pnp.report.choices_pdf import table_cells
from pnp.report.ladder_pdf import write_ladder_pdf
from pnp.report.pdf import write_report_pdf
from pnp.scaffold import scaffold


def pdf_text(path) -> list[str]:
    with pdfplumber.open(path) as pdf:
        return [page.extract_text() or "" for page in pdf.pages]


@pytest.fixture(scope="module")
def starter(tmp_path_factory):
    """A new game's run (greedy in every seat, the default skill check) as JSON and PDF."""
    root = tmp_path_factory.mktemp("starter")
    scaffold(root / "starter", "Starter")
    pdf = root / "report.pdf"
    result = CliRunner().invoke(main, ["simulate", str(root / "starter"), "--games", "60",
                                       "--format", "json", "--report", str(pdf)])
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout), pdf_text(pdf)


def test_the_first_page_gives_skill_depth_and_the_whole_lead_line(starter):
    doc, pages = starter
    first = pages[0]
    assert "Skill depth depth 1 of 1 step (random < greedy)" in first
    lead = doc["lead"]
    said = first.replace("\n", " ")
    assert f"comebacks {round(lead['comeback_rate'] * 100)}%" in said
    assert "led for good after" in said  # decisiveness, which the PDF used to leave out


def test_the_skill_section_draws_each_step_against_the_fair_share(starter):
    doc, pages = starter
    text = "\n".join(pages)
    assert "Skill depth: does more thinking win more?" in text
    assert "The upper bot's win rate at each step (95% CI)" in text
    [step] = doc["skill"]["steps"]
    lo, hi = (round(x * 100) for x in step["ci95"])
    assert (f"greedy in one seat against random: won {round(step['win_rate'] * 100)}% "
            f"[{lo}%–{hi}%] of {step['seat_games']} games, fair 50%") in text.replace("\n", " ")
    assert "greedy v random" in text and "fair 50%" in text


def test_invariants_broken_in_the_skill_check_are_shouted_on_the_skill_page(starter, tmp_path):
    doc, _ = starter
    broken = dict(doc, skill=dict(doc["skill"], violations=3))
    text = "\n".join(pdf_text(write_report_pdf(tmp_path / "r.pdf", broken)))
    assert "invariants BROKEN in 3 games" in text.replace("\n", " ")


def test_the_lead_section_shows_three_distributions_and_comebacks(starter):
    doc, pages = starter
    text = "\n".join(pages)
    for title in ("How the lead moved", "Lead changes per game", "Drama: turns the winner trailed",
                  "Decisiveness: the winner led for good after", "Comebacks"):
        assert title in text
    lead = doc["lead"]
    # the JSON's distributions count every game that recorded the lead, once each
    assert sum(lead["lead_changes"]["histogram"].values()) == lead["games"] == 60
    assert sum(lead["trailing_share"]["tenths"]) == sum(lead["decided_at"]["tenths"]) == 60
    assert max(map(int, lead["lead_changes"]["histogram"])) == lead["lead_changes"]["max"]
    assert "0% 20% 40% 60% 80% 100%" in text  # the tenths' edges under the drama charts


def test_every_option_picked_is_a_row_with_its_intervals_and_verdict(starter):
    doc, pages = starter
    text = "\n".join(pages)
    assert "Every option picked, decision by decision" in text
    rows = [r for r in doc["choices"]["options"] if r["picked"]]
    assert rows
    for r in rows:
        assert " ".join(table_cells(r)) in text, r
    flagged = [r for r in rows if r["flagged"]]
    for r in flagged:
        assert ("a dominant pick?" if r["gap"] > 0 else "never worth picking?") in \
            " ".join(table_cells(r))
    assert "Findings on choices" in text or not any(
        f["code"] in ("PNP-B022", "PNP-B023", "PNP-B024", "PNP-B025") for f in doc["findings"])


def test_a_long_table_repeats_its_header_and_decision_on_every_page(starter, tmp_path):
    doc, _ = starter
    row = next(r for r in doc["choices"]["options"] if r["picked"])
    many = [dict(row, why="build a wonder", option=f"wonder-{i:03}") for i in range(150)]
    long = dict(doc, choices=dict(doc["choices"], options=many))
    pages = pdf_text(write_report_pdf(tmp_path / "r.pdf", long))
    table = [p for p in pages if "decision / option" in p]
    assert len(table) >= 2
    assert all("build a wonder (continued)" in p for p in table[1:])
    assert all(f"wonder-{i:03}" in "\n".join(table) for i in range(150))


def test_an_opening_nobody_left_says_so_rather_than_against_nought(starter, tmp_path):
    doc, _ = starter
    openings = doc["choices"]["openings"]
    row = dict(openings["most_played"][0], opening="pay to move: move, move, move",
               win_rate_rest=None, ci95_rest=[0.0, 0.0], gap=None, tested=False)
    only = dict(doc, choices=dict(doc["choices"], openings=dict(openings, most_played=[row])))
    text = " ".join(" ".join(pdf_text(write_report_pdf(tmp_path / "r.pdf", only))).split())
    assert "pay to move: move, move, move" in text
    assert "no seat opened otherwise" in text and "against 0%" not in text


def test_skill_none_says_why_skill_is_absent(tmp_path):
    scaffold(tmp_path / "starter", "Starter")
    pdf = tmp_path / "report.pdf"
    runner = CliRunner()
    result = runner.invoke(main, ["simulate", str(tmp_path / "starter"), "--games", "8",
                                  "--skill", "none", "--format", "json", "--report", str(pdf),
                                  "--paper", "letter"])
    assert result.exit_code == 0, result.output
    doc = json.loads(result.stdout)
    assert doc["skill"] is None and doc["skill_skipped"] == "skipped with --skill none"
    pages = pdf_text(pdf)
    assert "Skill depth not measured: skipped with --skill none" in pages[0]
    assert "Not measured: skipped with --skill none." in "\n".join(pages)
    text = runner.invoke(main, ["simulate", str(tmp_path / "starter"), "--games", "8",
                                "--skill", "none"]).output
    assert "Skill      not measured: skipped with --skill none" in text


def test_a_run_without_lead_or_skill_records_says_so(tmp_path):
    """The fake game's play records no leader per turn, and a bare report_document has no
    skill check: both sections say why instead of drawing empty charts."""
    game = fake_game()
    doc = report_document(run_simulation(game, SimConfig(games=40, players=4, seed=3),
                                         play=unbalanced_play))
    assert doc["lead"] == {"games": 0}
    text = "\n".join(pdf_text(write_report_pdf(tmp_path / "r.pdf", doc, game)))
    assert "Not recorded: no game of this run named who led" in text.replace("\n", " ")
    assert "Skill depth not measured: this run played no skill check" in text
    assert "Lead changes per game" not in text


def test_tenths_count_a_share_in_the_tenth_it_starts():
    # 3/10 is 0.3 however the float rounds; 1.0 (led only in the last turn) is the last tenth
    assert _tenths([0.0, 0.09, 3 / 10, 0.7, 7 / 10, 0.999, 1.0]) == [2, 0, 0, 1, 0, 0, 0, 2, 0, 2]
    assert _tenths([]) == [0] * 10


def test_the_ladder_pdf_draws_the_same_steps(tmp_path):
    doc = ladder(luck_play, rungs=("random", "greedy"))
    text = "\n".join(pdf_text(write_ladder_pdf(tmp_path / "l.pdf", doc)))
    assert "The upper bot's win rate at each step (95% CI)" in text
    assert "greedy in one seat against random: won" in text
    assert "no clear gain" in text and "PNP-B026" in text
