"""The executor: batches merge exactly, any executor gives the same run, workers never outlive it.

The worker-lifetime tests start real processes (`python -m pnp simulate --workers 2`) and look
for survivors in /proc by an environment marker every descendant inherits.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
import uuid
from pathlib import Path

import pytest
from click.testing import CliRunner
from dask_cluster import dask_command, local_cluster
from test_selfplay_fakes import broken_play, fair_play, fake_game, tied_play, unbalanced_play

from pnp.cli import main
from pnp.engine import executor as ex
from pnp.engine.selfplay import Aggregate, SimConfig, play_one, report_document, run_simulation

TIMING = ("seconds", "games_per_second")
REPO = Path(__file__).resolve().parents[1]
linux_only = pytest.mark.skipif(not Path("/proc/self/environ").exists(), reason="needs /proc")


def without_timing(doc: dict) -> dict:
    return {k: v for k, v in doc.items() if k not in TIMING}


def one_by_one(play, config: SimConfig) -> Aggregate:
    game = fake_game()
    agg = Aggregate(players=config.players)
    for i in range(config.games):
        agg.add(i, play_one(game, config, i, play).result)
    return agg


@pytest.mark.parametrize("play", [unbalanced_play, tied_play, broken_play])
def test_batches_merged_in_order_equal_the_games_added_one_by_one(play):
    config = SimConfig(games=97, players=3, seed=5, bots=("random", "greedy"))
    whole = one_by_one(play, config)
    merged = Aggregate(players=3)
    job = ex.Job(fake_game(), config, play)
    for start, stop in ((0, 1), (1, 30), (30, 31), (31, 97)):
        merged.merge(ex.play_batch(job, 0, start, stop).aggregate)
    assert vars(merged) == vars(whole)
    assert merged.seat_wins == whole.seat_wins and merged.bot_wins == whole.bot_wins


class Reversed(ex.InProcess):
    """An executor whose batches come back last first, as a busy cluster may return them."""

    def run(self, jobs, tasks):
        yield from reversed(list(super().run(jobs, tasks)))


def test_batches_arriving_out_of_order_give_the_same_run():
    config = SimConfig(games=120, players=4, seed=2, log_games=3)
    in_order = run_simulation(fake_game(), config, play=unbalanced_play)
    shuffled = run_simulation(fake_game(), config, play=unbalanced_play, executor=Reversed())
    assert shuffled.aggregate.turns == in_order.aggregate.turns
    assert [log[0] for log in shuffled.logs] == [0, 1, 2]
    assert without_timing(report_document(shuffled)) == without_timing(report_document(in_order))


def test_local_processes_give_the_same_run_as_one_process():
    config = SimConfig(games=150, players=4, seed=9, log_games=2)
    one = run_simulation(fake_game(), config, play=broken_play)
    with ex.LocalProcesses(2) as pool:
        two = run_simulation(fake_game(), config, play=broken_play, executor=pool)
    assert vars(two.aggregate) == vars(one.aggregate)
    assert two.logs == one.logs


def test_batches_cover_every_game_once():
    for games, workers in ((1, 1), (7, 2), (1000, 2), (5000, 16)):
        ranges = ex.batch_ranges(games, workers)
        assert [i for start, stop in ranges for i in range(start, stop)] == list(range(games))
        assert max(stop - start for start, stop in ranges) <= ex.MAX_BATCH


def test_an_error_in_the_parent_stops_the_workers():
    config = SimConfig(games=400, players=4, seed=1)
    seen: list[int] = []
    pool = ex.LocalProcesses(2)

    def fail(done: int) -> None:
        seen.extend(pool.worker_pids())
        raise RuntimeError("the progress bar broke")

    with pytest.raises(RuntimeError), pool:
        run_simulation(fake_game(), config, play=fair_play, progress=fail, executor=pool)
    assert len(seen) == 2
    for pid in seen:
        assert not Path(f"/proc/{pid}").exists() or _is_zombie(pid), f"worker {pid} survived"


def test_scheduler_without_dask_names_the_extra(monkeypatch):
    monkeypatch.setitem(sys.modules, "distributed", None)  # import distributed -> ImportError
    result = CliRunner().invoke(main, ["simulate", "ancient-civilizations", "--games", "2",
                                       "--scheduler", "tcp://127.0.0.1:9"])
    assert result.exit_code == 2
    assert "pnp[cluster]" in result.output and "--scheduler" in result.output


def test_unreachable_scheduler_is_a_usage_error(monkeypatch):
    pytest.importorskip("distributed")
    monkeypatch.setattr(ex, "CONNECT_TIMEOUT", 1.0)
    result = CliRunner().invoke(main, ["simulate", "ancient-civilizations", "--games", "2",
                                       "--scheduler", "tcp://127.0.0.1:9"])
    assert result.exit_code == 2
    assert "could not reach the Dask scheduler at tcp://127.0.0.1:9" in result.output


# --------------------------------------------------------------------------- worker lifetime


def _is_zombie(pid: int) -> bool:
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] == "Z"
    except OSError:
        return True


def marked(marker: str) -> list[int]:
    """Live processes whose environment holds `marker` (every descendant inherits it)."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            if marker.encode() in (entry / "environ").read_bytes() and not _is_zombie(
                    int(entry.name)):
                found.append(int(entry.name))
        except OSError:
            continue
    return found


def parent_of(pid: int) -> int:
    """A process's parent (workers are the simulate command's children, forked or spawned)."""
    try:
        return int(Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[1])
    except (OSError, IndexError, ValueError):
        return 0


def cpu_ticks(pid: int) -> int:
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        return int(fields[11]) + int(fields[12])
    except (OSError, IndexError, ValueError):
        return 0


#: `python -m pnp ARGS`, with Ctrl-C handled as Python does when a terminal starts it
AS_FROM_A_TERMINAL = ("import runpy, signal, sys; "
                      "signal.signal(signal.SIGINT, signal.default_int_handler); "
                      "sys.argv[0] = 'pnp'; runpy.run_module('pnp', run_name='__main__')")


def start_long_simulation(marker: str) -> tuple[subprocess.Popen, list[int]]:
    """`pnp simulate --workers 2` on many games; returns once both workers are playing."""
    env = dict(os.environ, PNP_TEST_MARKER=marker, PYTHONPATH=str(REPO))
    env.pop("PNP_SCHEDULER", None)
    # started as a terminal starts a command, Ctrl-C at its default: a test run launched in
    # the background (`pytest &` in a script) passes SIGINT down ignored, and pnp would never
    # see the signal this test sends
    proc = subprocess.Popen([sys.executable, "-c", AS_FROM_A_TERMINAL, "simulate",
                             "ancient-civilizations",
                             "--games", "200000", "--workers", "2", "--format", "json"],
                            cwd=REPO, env=env, stdout=subprocess.DEVNULL,
                            stderr=subprocess.PIPE)
    deadline = time.monotonic() + 90
    while time.monotonic() < deadline:
        children = [p for p in marked(marker) if p != proc.pid and parent_of(p) == proc.pid]
        if len(children) >= 2 and all(cpu_ticks(p) > 100 for p in children):  # > 1 s of play
            return proc, children
        if proc.poll() is not None:
            break
        time.sleep(0.2)
    proc.kill()
    pytest.fail(f"the workers did not start: {proc.stderr.read().decode()[-2000:]}")


def wait_for_no_survivors(marker: str, seconds: float = 15) -> list[int]:
    deadline = time.monotonic() + seconds
    while marked(marker) and time.monotonic() < deadline:
        time.sleep(0.1)
    return marked(marker)


@linux_only
def test_ctrl_c_leaves_no_worker_process():
    marker = f"pnp-test-{uuid.uuid4().hex}"
    proc, workers = start_long_simulation(marker)
    try:
        proc.send_signal(signal.SIGINT)
        proc.wait(30)
        survivors = wait_for_no_survivors(marker)
    finally:
        for pid in marked(marker):
            os.kill(pid, signal.SIGKILL)
    assert proc.returncode != 0
    assert survivors == [], f"still running after Ctrl-C: {survivors} (workers were {workers})"


@linux_only
def test_killed_parent_takes_its_workers_along():
    marker = f"pnp-test-{uuid.uuid4().hex}"
    proc, workers = start_long_simulation(marker)
    try:
        proc.kill()
        proc.wait(30)
        survivors = wait_for_no_survivors(marker)
    finally:
        for pid in marked(marker):
            os.kill(pid, signal.SIGKILL)
    assert survivors == [], f"still running after the parent was killed: {survivors}"



def test_supply_lows_and_faction_wins_merge_exactly_across_batches() -> None:
    """Component sufficiency and faction win rates must not depend on how games were batched."""
    from pnp.engine.result import GameResult
    from pnp.engine.selfplay import Aggregate

    games = [GameResult("g", i, 3, ("random",) * 3, winners=(i % 3,) if i % 4 else (0, 1),
                        scores=(1, 1, 1), turns=3, factions=("red", "blue", "green"),
                        supply_low={"coins": 10 - i, "cubes": i}) for i in range(12)]
    whole = Aggregate(players=3)
    for i, r in enumerate(games):
        whole.add(i, r)
    merged = Aggregate(players=3)
    for start in (0, 5, 9):
        part = Aggregate(players=3)
        for i in range(start, {0: 5, 5: 9, 9: 12}[start]):
            part.add(i, games[i])
        merged.merge(part)
    assert merged.supply_low == whole.supply_low
    assert merged.faction_seats == whole.faction_seats
    assert merged.faction_wins == whole.faction_wins and merged.faction_wins["red"] > 0


@linux_only
def test_ctrl_c_during_a_local_run_sets_a_flag_instead_of_raising_mid_wait():
    """Raised inside concurrent.futures.wait, Ctrl-C could leave a future's lock held and hang
    the pool's shutdown; while a local run waits it only sets a flag, checked between waits."""
    import signal as sig

    from pnp.engine.executor import _interrupt_flag

    if sig.getsignal(sig.SIGINT) is not sig.default_int_handler:
        pytest.skip("SIGINT is not Python's default handler in this process")
    with _interrupt_flag() as interrupted:
        os.kill(os.getpid(), sig.SIGINT)
        time.sleep(0.05)  # no KeyboardInterrupt here
        assert interrupted.is_set()
    assert sig.getsignal(sig.SIGINT) is sig.default_int_handler


# --------------------------------------------------------------------------- a worker that dies

def killing_play(game, players, seed, bots, *, invariants="sample", log=None, max_turns=None):
    """fair_play, except that game 13 of seed 3 kills the process playing it."""
    from pnp.engine.selfplay import game_seed

    if seed == game_seed(3, 13):
        os.kill(os.getpid(), signal.SIGKILL)
    return fair_play(game, players, seed, bots, invariants=invariants, log=log)


@linux_only
def test_a_worker_killed_mid_run_names_the_game_it_was_playing_and_the_games_lost():
    from pnp.engine.selfplay import game_seed

    config = SimConfig(games=120, players=3, seed=3)
    with pytest.raises(ex.WorkerLost) as caught, ex.LocalProcesses(2) as pool:
        run_simulation(fake_game(), config, play=killing_play, executor=pool)
    lost = caught.value
    assert lost.dead == [(0, 13)]
    assert "was killed by SIGKILL while playing game 13 " in str(lost)
    assert f"(seed {game_seed(3, 13)})" in str(lost)
    lost_games = [i for start, stop in lost.lost[0] for i in range(start, stop)]
    assert 13 in lost_games and len(lost_games) == len(set(lost_games)) <= 120
    assert list(lost.lost) == [0]  # one job


def test_lost_games_are_written_as_ranges():
    assert ex._ranges([(25, 50), (0, 5), (5, 10), (99, 100)]) == "games 0-9, 25-49, 99"
    assert ex._ranges([(7, 8)]) == "game 7"


OS_EXIT = '''
def play(game, ctx, max_turns: int) -> None:
    import os

    from pnp.engine.selfplay import game_seed

    if ctx.result.seed == game_seed(1, 7):
        os._exit(3)  # a rules module ending the worker process mid-game
    _play(game, ctx, max_turns)
'''


@linux_only
@pytest.mark.parametrize("command", [["simulate"], ["compare", "--variant", "base"],
                                     ["sweep", "--players", "2"]], ids=lambda c: c[0])
def test_a_rules_module_calling_os_exit_in_a_worker_is_a_finding_naming_the_game(tmp_path,
                                                                                  command):
    """os._exit is refused during a game (pnp/engine/guards.py): the worker lives on, the
    game is a finding with its seed, and no other game is lost. A worker that dies anyway
    (killed) is PNP-B021: the SIGKILL tests above."""
    from broken_games import starter

    from pnp.engine.selfplay import game_seed

    game = starter(tmp_path, "exits")
    rules = game / "rules.py"
    rules.write_text(rules.read_text().replace("def play(game, ctx", "def _play(game, ctx")
                     + OS_EXIT)
    result = CliRunner().invoke(main, [command[0], str(game), *command[1:], "--games", "60",
                                       "--workers", "2", "--seed", "1"])
    assert result.exit_code == 1, result.output
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    assert "PNP-B001" in result.output and "PNP-B021" not in result.output
    line = next(i for i, text in enumerate(rules.read_text().splitlines(), 1)
                if "os._exit(" in text)  # the finding points at the call
    assert f"the rules module tried to end the process (os._exit(3)) (at rules.py:{line}) " \
           f"(first in game 7, seed {game_seed(1, 7)}" in result.output
    assert "Traceback" not in result.output


@pytest.mark.skipif(dask_command() is None, reason="needs pnp[cluster] (Dask's distributed)")
def test_a_batch_that_kills_its_dask_workers_is_reported_as_lost_games(tmp_path):
    config = SimConfig(games=60, players=3, seed=3)
    with local_cluster(tmp_path, workers=2) as address, ex.DaskCluster(address) as cluster, \
            pytest.raises(ex.WorkerLost) as caught:
        started = time.monotonic()
        try:
            run_simulation(fake_game(), config, play=killing_play, executor=cluster)
        finally:
            waited = time.monotonic() - started
    # reported as soon as Dask gives up: not after asking a dead worker for a batch it had
    # finished, which waits out Dask's 30 s connect timeout (it did, when results were
    # fetched only as the loop reached them)
    assert waited < 25, f"the loss took {waited:.0f} s to report"
    assert f"a worker process on the Dask cluster at {address} died" in str(caught.value)
    lost_games = [i for start, stop in caught.value.lost[0] for i in range(start, stop)]
    assert 13 in lost_games


@pytest.mark.skipif(dask_command() is None, reason="needs pnp[cluster] (Dask's distributed)")
def test_a_dask_worker_running_another_pnp_is_an_error_naming_both_versions(tmp_path,
                                                                          monkeypatch):
    """The worker's error comes back through the batch's result and is raised as it was."""
    monkeypatch.setattr(ex, "__version__", "0.0.0-elsewhere")  # what the client sends
    config = SimConfig(games=4, players=2, seed=1)
    with local_cluster(tmp_path, workers=1) as address, ex.DaskCluster(address) as cluster, \
            pytest.raises(ex.ExecutorError) as caught:
        run_simulation(fake_game(), config, play=fair_play, executor=cluster)
    assert not isinstance(caught.value, ex.WorkerLost)
    assert "the client pnp 0.0.0-elsewhere: install the same pnp on every worker" \
        in str(caught.value)
