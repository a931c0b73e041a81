"""benchmarks/soak.py plays every cell of a game once, keeps each cell's report, picks up where
it stopped, and says which cells were not clean (the soak exists to catch crashes, timeouts and
broken invariants, so those must turn its exit code)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from pnp.scaffold import scaffold

SOAK = Path(__file__).resolve().parents[1] / "benchmarks" / "soak.py"


def soak(*args: str, cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, str(SOAK), *args], capture_output=True, text=True,
                          cwd=cwd)


def caravan(folder: Path) -> None:
    """The starter game as folder/caravan, with one variant ('short') beside its base rules."""
    game = folder / "caravan"
    scaffold(game)
    with (game / "game.yaml").open("a") as f:
        f.write('variants:\n  - {id: short, description: "A shorter road.", '
                'overrides: {game/rules/end/max_turns: 30}}\n')


def test_every_cell_is_played_once_and_a_bad_one_fails_the_soak(tmp_path):
    caravan(tmp_path)
    first = soak("caravan", "--out", "reports", "--games", "2", "--players", "2,3",
                 "--variant", "base,short,nope", cwd=tmp_path)
    assert first.returncode == 1, first.stderr
    reports = tmp_path / "reports"
    assert sorted(p.name for p in reports.glob("*.json")) == [
        f"caravan-{p}-{v}.json" for p in (2, 3) for v in ("base", "nope", "short")]
    table = first.stdout.split("every cell in")[1].splitlines()[1:]
    assert len(table) == 6
    clean = [line for line in table if line.startswith("   ")]
    assert len(clean) == 4 and all("2 games, 2 completed" in line and line.endswith("clean")
                                   for line in clean)
    assert "caravan 3p short [mcts:1]" in "\n".join(clean)
    failed = [line for line in table if line.startswith("!! ")]
    assert len(failed) == 2 and all("no variant 'nope'" in line for line in failed)
    short = json.loads((reports / "caravan-2-short.json").read_text())
    assert short["variant"] == "short" and short["invariants"] == "all"

    # a second run keeps every finished cell: nothing is played again
    kept = {p: p.stat().st_mtime_ns for p in reports.iterdir()}
    again = soak("caravan", "--out", "reports", "--games", "2", "--players", "2,3",
                 "--variant", "base,short,nope", cwd=tmp_path)
    assert again.returncode == 1
    assert again.stdout.startswith("every cell in")
    assert {p: p.stat().st_mtime_ns for p in reports.iterdir()} == kept

    # the Markdown table: a line per player count, over base and the game's own variants
    # ('nope' is none of them); a cell not played yet is named as left
    (reports / "caravan-3-short.json").unlink()
    report(reports / "caravan-4-short.json", completed=9, crashed=1)  # played, not clean
    (reports / "caravan-2-base.json").write_text('{"game": "cara')  # cut short: not clean
    md = soak("caravan", "--out", "reports", "--markdown", cwd=tmp_path)
    assert md.returncode == 0, md.stderr
    assert md.stdout.splitlines()[2:] == [
        "| Caravan | 2 | 2 of 2 | 1 | 0 | — |",
        "| Caravan | 3 | 1 of 2 | 1 | 0 | short |",
        "| Caravan | 4 | 1 of 2 | 0 | 0 | base |"]


def test_estimates_play_the_cheapest_cell_first_and_count_the_hours_left(tmp_path):
    caravan(tmp_path)
    estimates = tmp_path / "pass"
    estimates.mkdir()
    # a shorter pass says base costs 36 s a game and short 3.6 s (made up, so the order is
    # the estimates' and not the game's own)
    for variant, seconds in (("base", 72.0), ("short", 7.2)):
        (estimates / f"caravan-2-{variant}.json").write_text(
            json.dumps({"games": 2, "seconds": seconds}))
    run = soak("caravan", "--out", "reports", "--games", "1", "--players", "2,3",
               "--estimates", "pass", cwd=tmp_path)
    assert run.returncode == 0, run.stderr
    played = [line.split(" [")[0].strip() for line in run.stdout.split("every cell in")[0]
              .splitlines()]
    # cheapest first; the cells the pass never played last, in the game's order
    assert played == ["caravan 2p short", "caravan 2p base", "caravan 3p base",
                      "caravan 3p short"]

    (tmp_path / "reports" / "caravan-2-base.json").unlink()
    (tmp_path / "reports" / "caravan-3-short.json").unlink()
    md = soak("caravan", "--out", "reports", "--markdown", "--estimates", "pass",
              "--games", "100", cwd=tmp_path)
    assert md.returncode == 0, md.stderr
    # the table is over every player count (2 to 4): 2p base at 100 games is 3,600 s, one
    # hour; 3p short and both 4p cells have no run in the pass
    assert "| Caravan | 4 | 0 of 2 | 0 | 0 | all |" in md.stdout
    assert md.stdout.splitlines()[-1] == (
        "4 cells left, about 1.0 CPU hours at 100 games by the runs in pass "
        "(3 of them without a run there)")


def report(path: Path, **outcomes) -> None:
    """A cell's report as `pnp simulate --format json` writes it, trimmed to what the table
    reads: 10 games, with the given outcome counts."""
    o = {"completed": 10, "crashed": 0, "timeouts": 0, "all_eliminated": 0,
         "all_alike": False, **outcomes}
    violations = o.pop("violations", [])
    path.write_text(json.dumps({
        "game": "toy", "players": 2, "variant": None, "games": 10, "seconds": 1.0,
        "outcomes": o, "violations": violations,
        "lineup": {"bots": ["mcts:1", "mcts:1"], "seatings": 1},
        "seats": [{"seat": 1, "win_rate": 0.5}, {"seat": 2, "win_rate": 0.5}]}))


def test_crashes_timeouts_violations_and_alike_games_are_not_clean(tmp_path):
    report(tmp_path / "a.json")
    report(tmp_path / "b.json", completed=9, all_eliminated=1)  # a legal end: still clean
    report(tmp_path / "c.json", completed=9, crashed=1)
    report(tmp_path / "d.json", completed=8, timeouts=2)
    report(tmp_path / "e.json", violations=[{"message": "VP below zero"}])
    report(tmp_path / "f.json", all_alike=True)
    report(tmp_path / "g.json", completed=7)  # three games not accounted for
    done = soak("toy", "--out", str(tmp_path), "--summary", cwd=tmp_path)
    assert done.returncode == 1
    lines = done.stdout.splitlines()[1:]
    assert [line[:3] for line in lines] == ["   ", "   ", "!! ", "!! ", "!! ", "!! ", "!! "]
    assert "1 all eliminated" in lines[1]
    assert lines[2].endswith("1 crashed") and lines[3].endswith("2 timeouts")
    assert lines[4].endswith("1 violations")
    assert lines[5].endswith("every game alike (use bots that vary)")
    assert lines[6].endswith("games unaccounted for")

    (tmp_path / "h.json").write_text('{"game": "toy", "outc')  # cut short
    done = soak("toy", "--out", str(tmp_path), "--summary", cwd=tmp_path)
    assert done.returncode == 1
    assert done.stdout.splitlines()[-1] == "!! h.json: FAILED unreadable report (JSONDecodeError)"

    for bad in "cdefgh":
        (tmp_path / f"{bad}.json").unlink()
    assert soak("toy", "--out", str(tmp_path), "--summary", cwd=tmp_path).returncode == 0


def _module():
    sys.path.insert(0, str(SOAK.parent))
    try:
        import soak as module
    finally:
        sys.path.remove(str(SOAK.parent))
    return module


def test_a_game_without_chance_soaks_against_its_own_bots():
    module = _module()
    name, cells = module.cells("antike", None, None)
    assert name == "antike" and {bots for _, _, bots in cells} == {"mcts:1,greedy-varied"}
    assert (2, "base", "mcts:1,greedy-varied") in cells
    assert len(cells) == 5 * 3 + 1  # neutral-cities is written for 3 players alone
    assert (6, "round-coin", "mcts:1,greedy-varied") in cells
    assert (6, "neutral-cities", "mcts:1,greedy-varied") not in cells
    assert module.cells("ancient-civilizations", [3], ["base"])[1] == [(3, "base", "mcts:1")]


def test_one_seat_puts_the_bot_in_one_seat_against_the_games_own_opponents(tmp_path):
    module = _module()
    _, cells = module.cells("antike", [2, 4], ["base"], one_seat="mcts:8")
    assert cells == [(2, "base", "mcts:8,greedy-varied"),
                     (4, "base", "mcts:8,greedy-varied,greedy-varied,greedy-varied")]
    _, cells = module.cells("ancient-civilizations", [3], ["base"], one_seat="mcts:32")
    assert cells == [(3, "base", "mcts:32,greedy,greedy")]

    # played: one game with the bot in each seat, and the bot's rate beside greedy's
    game = tmp_path / "caravan"
    scaffold(game)
    done = soak("caravan", "--out", "deep", "--games", "1", "--players", "3",
                "--variant", "base", "--one-seat", "mcts:4", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    record = json.loads((tmp_path / "deep" / "caravan-3-base.json").read_text())
    assert record["games"] == 3 and record["lineup"]["seatings"] == 3
    assert record["soak"]["bots"] == "mcts:4,greedy,greedy"
    assert "caravan 3p base [mcts:4,greedy]: 3 games, 3 completed" in done.stdout
    both = soak("caravan", "--out", "deep", "--bots", "mcts:1", "--one-seat", "mcts:4",
                cwd=tmp_path)
    assert both.returncode == 2 and "not allowed with" in both.stderr


def test_the_ledger_keeps_the_soak_when_the_reports_folder_is_gone(tmp_path):
    """A soak spread over machines: the ledger (a line per cell, committed beside the code)
    is what survives a machine whose report folder is lost."""
    caravan(tmp_path)
    first = soak("caravan", "--out", "one", "--games", "2", "--players", "2",
                 "--ledger", "ledger.jsonl", cwd=tmp_path)
    assert first.returncode == 0, first.stderr
    lines = [json.loads(line) for line in (tmp_path / "ledger.jsonl").read_text().splitlines()]
    assert [(r["players"], r["variant"], r["games"], r["seed"]) for r in lines] == [
        (2, None, 2, 1), (2, "short", 2, 1)]
    assert all(r["commit"] and r["day"] and r["soak"]["bots"] == "mcts:1" for r in lines)

    # another machine: the folder is gone, the ledger is not; nothing is played again and
    # the tables count the ledger's cells
    again = soak("caravan", "--out", "two", "--games", "2", "--players", "2",
                 "--ledger", "ledger.jsonl", cwd=tmp_path)
    assert again.returncode == 0, again.stderr
    assert not list((tmp_path / "two").glob("*.json"))
    assert again.stdout.count("clean") == 2
    md = soak("caravan", "--out", "two", "--markdown", "--games", "2",
              "--ledger", "ledger.jsonl", cwd=tmp_path)
    assert "| Caravan | 2 | 2 of 2 | 2 | 0 | — |" in md.stdout
    # a 500-game table does not count a 2-game pass
    md500 = soak("caravan", "--out", "two", "--markdown", "--ledger", "ledger.jsonl",
                 cwd=tmp_path)
    assert "| Caravan | 2 | 0 of 2 | 0 | 0 | all |" in md500.stdout

    # a cell the ledger records as broken fails the summary, though its report is gone
    broken = dict(lines[1], outcomes=dict(lines[1]["outcomes"], completed=1, crashed=1))
    with (tmp_path / "ledger.jsonl").open("a") as f:
        f.write(json.dumps(broken) + "\n" + '{"game": "cara')  # and a line cut short
    summary = soak("caravan", "--out", "two", "--summary", "--games", "2",
                   "--ledger", "ledger.jsonl", cwd=tmp_path)
    assert summary.returncode == 1
    assert summary.stdout.splitlines()[-1].startswith("!! caravan 2p short")
    assert summary.stdout.splitlines()[-1].endswith("1 crashed")

    # after a fix, --again plays the named cell though the ledger holds it: its new line
    # wins over the broken one, and the summary is clean again
    fixed = soak("caravan", "--out", "two", "--games", "2", "--players", "2", "--variant",
                 "short", "--again", "--ledger", "ledger.jsonl", cwd=tmp_path)
    assert fixed.returncode == 0, fixed.stderr
    assert [p.name for p in (tmp_path / "two").glob("*.json")] == ["caravan-2-short.json"]
    assert len((tmp_path / "ledger.jsonl").read_text().splitlines()) == 5  # history kept
    summary = soak("caravan", "--out", "two", "--summary", "--games", "2",
                   "--ledger", "ledger.jsonl", cwd=tmp_path)
    assert summary.returncode == 0 and "!!" not in summary.stdout


def test_a_player_count_a_game_does_not_take_is_left_out_not_failed(tmp_path):
    """Two games share one --players: the count only one of them takes is no cell of the
    other (it once wrote nine failed cells of The Ancient World at 6 players to the ledger)."""
    caravan(tmp_path)
    run = soak("caravan", "--out", "reports", "--games", "2", "--players", "2,9",
               "--variant", "base", "--ledger", "ledger.jsonl", cwd=tmp_path)
    assert run.returncode == 0, run.stdout + run.stderr
    assert "takes 2 to 4 players: 9 left out" in run.stderr
    assert [p.name for p in (tmp_path / "reports").glob("*.json")] == ["caravan-2-base.json"]
    assert len((tmp_path / "ledger.jsonl").read_text().splitlines()) == 1
