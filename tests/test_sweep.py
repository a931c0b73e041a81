"""`pnp sweep`: cells, measures, text, JSON and PDF; and the same sweep on a real Dask cluster."""

from __future__ import annotations

import json
import shutil
import subprocess

import pytest
from click.testing import CliRunner
from dask_cluster import dask_command, local_cluster
from test_selfplay_fakes import fake_game, unbalanced_play

from pnp.cli import main
from pnp.engine import sweep
from pnp.engine.executor import DaskCluster, InProcess
from pnp.report.sweep_pdf import write_sweep_pdf
from pnp.report.text import render_sweep_text

TIMING = ("seconds", "games_per_second")


def without_timing(doc: dict) -> dict:
    return {k: v for k, v in doc.items() if k not in TIMING}


def fake_sweep(**kw) -> dict:
    cells = sweep.cross([2, 4], [None], [("random", "greedy"), ("greedy",)])
    return sweep.run_sweep({None: fake_game()}, cells, 400, seed=3, executor=InProcess(),
                           play=unbalanced_play, **kw)


def test_progress_counts_every_game_of_every_cell_once():
    seen: list[int] = []
    cells = sweep.cross([2, 3], [None], [("random",)])
    sweep.run_sweep({None: fake_game()}, cells, 60, executor=InProcess(), play=unbalanced_play,
                    progress=seen.append)
    assert seen == sorted(seen) and seen[-1] == 120


def test_cells_are_the_cross_product_in_table_order():
    cells = sweep.cross([3, 4], ["base", "arch-ideas"], [("random", "greedy"), ("greedy",)])
    assert len(cells) == 8
    assert [c.label for c in cells[:3]] == ["3p base random,greedy", "3p base greedy",
                                            "3p arch-ideas random,greedy"]


def test_an_unfair_seat_is_flagged_with_its_interval():
    doc = fake_sweep()
    four = next(c for c in doc["cells"] if c["players"] == 4 and c["bots"] == ["greedy"])
    balance = four["seat_balance"]
    # the unbalanced fake gives seat 1 a 60% win rate against a fair share near 25%
    assert balance["seat"] == 1 and balance["significant"]
    assert balance["gap_ci95"][0] > 0.2
    assert four["skill"] is None  # one bot: no skill depth


def test_skill_depth_compares_the_best_and_worst_bot():
    doc = fake_sweep()
    mixed = next(c for c in doc["cells"] if c["bots"] == ["random", "greedy"])
    skill = mixed["skill"]
    assert {skill["best"], skill["worst"]} == {"random", "greedy"}
    lo, hi = skill["ci95"]
    assert lo <= skill["diff"] <= hi


def test_text_table_lists_every_cell_and_its_findings():
    doc = fake_sweep()
    text = render_sweep_text(doc)
    for cell in doc["cells"]:
        assert cell["label"] in text
    assert "PNP-B005" in text  # the unfair seat's finding is among the top findings


def test_pdf_has_a_chart_per_measure_and_is_deterministic(tmp_path):
    doc = without_timing(fake_sweep())
    doc["seconds"] = doc["games_per_second"] = 0
    first, second = tmp_path / "a.pdf", tmp_path / "b.pdf"
    write_sweep_pdf(first, doc)
    write_sweep_pdf(second, doc)
    assert first.read_bytes() == second.read_bytes()
    pypdf = pytest.importorskip("pypdf")
    text = "".join(p.extract_text() for p in pypdf.PdfReader(first).pages)
    for title in ("Completion", "Game length", "Eliminations", "Seat balance", "Skill depth"):
        assert title in text
    assert "4p base greedy" in text


def test_sweep_command_text_json_and_report(tmp_path):
    args = ["sweep", "ancient-civilizations", "--players", "3,4", "--variant", "base",
            "--variant", "arch-ideas", "--bots", "random,greedy", "--bots", "greedy",
            "--games", "3", "--seed", "2"]
    result = CliRunner().invoke(main, [*args, "--format", "json", "--report",
                                       str(tmp_path / "s.pdf")])
    assert result.exit_code == 0, result.output
    doc = json.loads(result.stdout)
    assert [c["label"] for c in doc["cells"]][:2] == ["3p base random,greedy", "3p base greedy"]
    # random,greedy is rounded up to its seatings: 3 at three players, 6 at four
    assert len(doc["cells"]) == 8 and doc["games"] == 2 * (3 + 3) + 2 * (6 + 3)
    assert (tmp_path / "s.pdf").read_bytes().startswith(b"%PDF")
    text = CliRunner().invoke(main, args)
    assert text.exit_code == 0 and "4p arch-ideas greedy" in text.output


@pytest.mark.parametrize("args, message", [
    (["--players", "9"], "players"),
    (["--players", "three"], "not a number"),
    (["--variant", "nope"], "no variant 'nope'"),
    (["--bots", "random,nobody"], "unknown bot"),
])
def test_bad_sweep_options_exit_2(args, message):
    result = CliRunner().invoke(main, ["sweep", "ancient-civilizations", "--games", "1", *args])
    assert result.exit_code == 2 and message in result.output


@pytest.mark.parametrize("command", ["sweep", "simulate", "compare"])
@pytest.mark.parametrize("args, message", [
    (["--games", "99999999999999999999999"], "1<=x<=1000000"),  # once 8 GB and a MemoryError
    (["--games", "1000001"], "1<=x<=1000000"),
    (["--games", "0"], "1<=x<=1000000"),
    (["--max-turns", "100001"], "1<=x<=100000"),
])
def test_games_and_turn_caps_are_bounded_alike_in_every_command_that_plays(command, args,
                                                                            message):
    """sweep, simulate and compare share one --games (at most 1,000,000 games) and one
    --max-turns (at most 100,000 turns): past them is a usage error before any game is played."""
    extra = ["--variant", "arch-ideas"] if command == "compare" else []
    result = CliRunner().invoke(main, [command, "ancient-civilizations", *extra, *args])
    assert result.exit_code == 2, result.output
    assert message in result.output


@pytest.mark.skipif(dask_command() is None, reason="needs pnp[cluster] (Dask's distributed)")
def test_sweep_on_a_dask_cluster_equals_the_local_run(tmp_path):
    args = ["sweep", "ancient-civilizations", "--players", "2,4", "--variant", "base,arch-ideas",
            "--bots", "random,greedy", "--games", "6", "--seed", "5", "--format", "json"]
    local = CliRunner().invoke(main, args)
    assert local.exit_code == 0, local.output
    with local_cluster(tmp_path, workers=2) as address:
        remote = CliRunner().invoke(main, [*args, "--scheduler", address])
        simulated = CliRunner().invoke(main, ["simulate", "ancient-civilizations", "--games",
                                              "8", "--seed", "4", "--format", "json",
                                              "--scheduler", address])
        seen: list[int] = []  # the progress bar's counts, as batches come back from the cluster
        with DaskCluster(address) as cluster:
            assert cluster.workers == 2
            sweep.run_sweep({None: fake_game()}, sweep.cross([2, 3], [None], [("random",)]), 60,
                            executor=cluster, play=unbalanced_play, progress=seen.append)
        assert seen == sorted(seen) and seen[-1] == 120 and len(seen) > 2
    assert remote.exit_code == 0, remote.output
    assert without_timing(json.loads(remote.stdout)) == without_timing(json.loads(local.stdout))
    alone = CliRunner().invoke(main, ["simulate", "ancient-civilizations", "--games", "8",
                                      "--seed", "4", "--format", "json"])
    assert without_timing(json.loads(simulated.stdout)) == without_timing(json.loads(alone.stdout))
    assert not _dask_processes_left(tmp_path)


def _dask_processes_left(tmp_path) -> list[str]:
    """Scheduler and worker processes of this test still running (their cwd is tmp_path)."""
    if not shutil.which("pgrep"):
        return []
    out = subprocess.run(["pgrep", "-af", str(tmp_path / "scheduler.json")], capture_output=True,
                         text=True).stdout
    return [line for line in out.splitlines() if "pgrep" not in line]
