"""Where self-played games run: in this process, on local worker processes, or on a Dask cluster.

A run is a list of jobs (game definition, config, engine entry point). Each job's games are cut
into batches of consecutive game indexes; a worker plays a batch and folds it into a partial
Aggregate (`play_batch`, a pure function of the job and the index range), and the parent merges
the partials back in index order. So every executor and worker count gives the same results;
only the time changes. Worker processes started here never outlive the run: they ignore Ctrl-C
(the parent handles it), are terminated when the run ends for any reason, and on Linux are sent
SIGTERM by the kernel if the parent itself dies.
"""

from __future__ import annotations

import multiprocessing
import os
import signal
import sys
import threading
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from concurrent.futures import FIRST_COMPLETED, CancelledError, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from contextlib import contextmanager
from dataclasses import dataclass, field
from itertools import islice
from typing import Any, Protocol

from pnp import __version__
from pnp.engine.selfplay import Aggregate, PlayFn, SimConfig, play_one

#: at most this many games in one batch: small enough for a smooth progress bar and balance
MAX_BATCH = 25
#: aim for about this many batches per worker, so a slow batch does not idle the others
BATCHES_PER_WORKER = 8
#: environment variable naming a Dask scheduler (the CLI's --scheduler default)
SCHEDULER_ENV = "PNP_SCHEDULER"
#: the optional extra that brings Dask's distributed package
CLUSTER_EXTRA = "pnp[cluster]"
#: seconds to reach a scheduler, and to wait for its first worker
CONNECT_TIMEOUT = 10.0
#: seconds a terminated worker gets to exit before it is killed
TERMINATE_GRACE = 3.0
#: batches queued per local worker at a time (more are submitted as they finish)
IN_FLIGHT = 2
#: the longest a local run waits for a batch before it looks for Ctrl-C again (seconds)
POLL = 0.25

#: called with the number of games finished so far (over every job of the run)
ProgressFn = Callable[[int], None]


class ExecutorError(Exception):
    """An executor that cannot be used (no Dask, no scheduler, a mismatched worker): its
    message says what to do, and commands print it as a usage error."""


class WorkerLost(Exception):
    """A worker process died in the middle of a run (killed, out of memory, a rules module
    calling os._exit): the games it and the run still owed are lost, and the run cannot give
    the same results as any other executor. Commands print it as PNP-B021 and exit 1.

    `dead` holds (job, index) of each game a dead worker was playing, where known; `lost` maps
    each job to the index ranges (start, stop) never played or never returned.
    """

    def __init__(self, how: str, jobs: Sequence[Job], dead: list[tuple[int, int]],
                 lost: dict[int, list[tuple[int, int]]]):
        self.how, self.dead, self.lost = how, dead, lost
        self.labels = {j: _job_label(job) for j, job in enumerate(jobs)} if len(jobs) > 1 else {}
        self.seeds = {(j, i): _seed(jobs[j], i) for j, i in dead}
        super().__init__(self.describe())

    def describe(self) -> str:
        where = "; ".join(f"game {i}{self._of(j)} (seed {self.seeds[j, i]})"
                          for j, i in self.dead)
        count = sum(stop - start for ranges in self.lost.values() for start, stop in ranges)
        games = "; ".join(f"{_ranges(ranges)}{self._of(j)}" for j, ranges in self.lost.items())
        return (f"a worker process {self.how}"
                + (f" while playing {where}" if where else "")
                + f": {count} game{'s' if count != 1 else ''} lost ({games}); no report")

    def _of(self, job: int) -> str:
        return f" of {self.labels[job]}" if job in self.labels else ""


def _job_label(job: Job) -> str:
    config = job.config
    return (f"{config.players}p {config.variant or 'base'} {','.join(config.bots)}")


def _seed(job: Job, index: int) -> int:
    from pnp.engine.selfplay import game_seed

    return game_seed(job.config.seed, index)


def _by_job(tasks: Iterable[tuple[int, int, int]]) -> dict[int, list[tuple[int, int]]]:
    by_job: dict[int, list[tuple[int, int]]] = {}
    for job, start, stop in sorted(tasks):
        by_job.setdefault(job, []).append((start, stop))
    return by_job


def _ranges(ranges: list[tuple[int, int]]) -> str:
    """'games 0-24, 50-74, 99' from index ranges (merged where they touch)."""
    merged: list[list[int]] = []
    for start, stop in sorted(ranges):
        if merged and merged[-1][1] == start:
            merged[-1][1] = stop
        else:
            merged.append([start, stop])
    text = ", ".join(str(a) if b - a == 1 else f"{a}-{b - 1}" for a, b in merged)
    return ("game " if len(merged) == 1 and merged[0][1] - merged[0][0] == 1 else "games ") + text


@dataclass(frozen=True)
class Job:
    """Everything a worker needs to play games of one run: sent to each worker once."""

    game: Any
    config: SimConfig
    play: PlayFn


@dataclass
class Batch:
    """What a worker sends back for games start..stop-1 of job `job`: their folded aggregate,
    the event logs asked for, and the CPU seconds the worker spent."""

    job: int
    start: int
    stop: int
    aggregate: Aggregate
    logs: list[tuple[int, int, tuple[str, ...], list]] = field(default_factory=list)
    cpu_seconds: float = 0.0


@dataclass
class JobOutcome:
    """One job's games merged in index order."""

    aggregate: Aggregate
    logs: list[tuple[int, int, tuple[str, ...], list]]
    cpu_seconds: float


def batch_ranges(games: int, workers: int) -> list[tuple[int, int]]:
    """Index ranges sent to workers: about BATCHES_PER_WORKER per worker, at most MAX_BATCH."""
    size = max(1, min(MAX_BATCH, games // max(1, workers * BATCHES_PER_WORKER)))
    return [(start, min(start + size, games)) for start in range(0, games, size)]


def play_batch(job: Job, job_index: int, start: int, stop: int,
               version: str | None = None,
               playing: Callable[[int, int], None] | None = None) -> Batch:
    """Play games start..stop-1 of `job` and fold them: the unit of work on every executor.
    `playing(job_index, index)` is told of each game before it starts."""
    if version is not None and version != __version__:
        raise ExecutorError(f"this worker runs pnp {__version__}, the client pnp {version}: "
                            f"install the same pnp on every worker")
    started = time.process_time()
    agg = Aggregate(players=job.config.players)
    logs = []
    for index in range(start, stop):
        if playing is not None:
            playing(job_index, index)
        played = play_one(job.game, job.config, index, job.play)
        agg.add(index, played.result)
        if played.log is not None:
            logs.append((index, played.result.seed, played.result.bots, played.log))
    return Batch(job_index, start, stop, agg, logs, time.process_time() - started)


class Executor(Protocol):
    """Plays batches somewhere; `run` yields them as they finish (any order)."""

    workers: int

    def run(self, jobs: Sequence[Job], tasks: Sequence[tuple[int, int, int]]) -> Iterator[Batch]:
        ...

    def close(self) -> None:
        ...


class InProcess:
    """One worker: the games are played here, batch after batch."""

    workers = 1

    def run(self, jobs: Sequence[Job], tasks: Sequence[tuple[int, int, int]]) -> Iterator[Batch]:
        for job_index, start, stop in tasks:
            yield play_batch(jobs[job_index], job_index, start, stop)

    def close(self) -> None:
        pass

    def __enter__(self) -> InProcess:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


# --------------------------------------------------------------------------- local processes

_jobs: Sequence[Job] = ()
#: (pid, job, index) per worker, in memory the parent shares: which game each worker is
#: playing, so a worker that dies is reported with the game that was on it
_playing: Any = None
_slot = -1


def _init_local_worker(jobs: Sequence[Job], parent: int, own_session: bool = False,
                       playing: Any = None) -> None:
    """Runs once in each worker process: keep the jobs, take a slot in `playing`, leave Ctrl-C
    to the parent, and die with the parent even if it is killed (Linux)."""
    global _jobs, _playing, _slot
    _jobs = jobs
    if playing is not None:
        with playing.get_lock():
            raw = playing.get_obj()
            free = [i for i in range(0, len(raw), 3) if raw[i] == 0]
            if free:
                _playing, _slot = raw, free[0]
                raw[_slot], raw[_slot + 1], raw[_slot + 2] = os.getpid(), -1, -1
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if own_session:
        os.setsid()
    if sys.platform.startswith("linux"):
        try:
            import ctypes

            pr_set_pdeathsig = 1
            ctypes.CDLL(None, use_errno=True).prctl(pr_set_pdeathsig, signal.SIGTERM)
        except (OSError, AttributeError):  # no prctl: the parent's cleanup still applies
            pass
    if os.getppid() != parent:  # the parent died before the line above took effect
        os._exit(1)


def _play_local(job_index: int, start: int, stop: int) -> Batch:
    if _playing is None:
        return play_batch(_jobs[job_index], job_index, start, stop)
    batch = play_batch(_jobs[job_index], job_index, start, stop, playing=_note_playing)
    _playing[_slot + 2] = -1  # between batches: no game on this worker
    return batch


def _note_playing(job_index: int, index: int) -> None:
    # no lock: each worker writes only its own slot, and the parent reads a dead worker's
    _playing[_slot + 1], _playing[_slot + 2] = job_index, index


def _exit_words(code: int) -> str:
    if code < 0:
        try:
            return f"was killed by {signal.Signals(-code).name}"
        except ValueError:
            return f"was killed by signal {-code}"
    return f"exited with code {code}"


@contextmanager
def _interrupt_flag() -> Iterator[threading.Event]:
    """Within the block, Ctrl-C (SIGINT) sets the event instead of raising at whatever line
    the main thread is on; the previous handler comes back after. Outside the main thread, or
    where SIGINT is ignored, nothing changes (the event is then never set)."""
    flag = threading.Event()
    if threading.current_thread() is not threading.main_thread() or \
            signal.getsignal(signal.SIGINT) is not signal.default_int_handler:
        yield flag
        return
    previous = signal.signal(signal.SIGINT, lambda signum, frame: flag.set())
    try:
        yield flag
    finally:
        signal.signal(signal.SIGINT, previous)


def _start_method() -> str:
    """'fork' where it is safe (Linux, a parent with no other threads): workers then start with
    pnp and the game already loaded instead of importing them again, a start-up that costs a
    second of CPU per worker. 'spawn' elsewhere: the same behaviour on every OS, no forked
    locks."""
    if sys.platform.startswith("linux") and threading.active_count() == 1:
        return "fork"
    return "spawn"


class LocalProcesses:
    """W spawned worker processes on this machine (a concurrent.futures pool per run).

    `own_session` starts each worker in a session of its own, as Dask workers started by hand
    are: where Linux groups CPU time by session (sched_autogroup), a busy machine then gives
    each worker a share instead of one share for the command. Off by default (the workers
    then stay in the terminal's job control); benchmarks/executors.py uses it to compare like
    with like.
    """

    def __init__(self, workers: int, own_session: bool = False):
        self.workers = workers
        self.own_session = own_session
        self._pool: ProcessPoolExecutor | None = None

    def run(self, jobs: Sequence[Job], tasks: Sequence[tuple[int, int, int]]) -> Iterator[Batch]:
        self.close()
        ctx = multiprocessing.get_context(_start_method())
        size = max(1, min(self.workers, len(tasks)))
        playing = ctx.Array("q", 3 * size)
        self._pool = ProcessPoolExecutor(size, mp_context=ctx,
                                         initializer=_init_local_worker,
                                         initargs=(tuple(jobs), os.getpid(),
                                                   self.own_session, playing))
        # A few batches in flight per worker, the next submitted as one finishes, so a wait
        # looks at a handful of futures rather than every batch of the run. Ctrl-C only sets
        # a flag while the pool is busy and is raised here between waits: raised inside
        # wait(), it could leave a future's lock held, and the pool's manager thread, which
        # needs that lock to cancel the future, would then hang close() for good.
        queue = iter(tasks)
        pool = self._pool
        submitted: dict[Any, tuple[int, int, int]] = {}  # future -> task, until it returns
        processes: dict[int, Any] = {}  # every worker seen, kept to read how a dead one ended

        def lost(task: tuple[int, int, int]) -> WorkerLost:
            processes.update(getattr(pool, "_processes", None) or {})
            return self._lost(jobs, [task, *submitted.values(), *queue], processes, playing)

        def submit(task: tuple[int, int, int]) -> Any:
            try:
                future = pool.submit(_play_local, *task)
            except BrokenProcessPool:  # a worker died since the last wait
                raise lost(task) from None
            submitted[future] = task
            return future

        pending = {submit(task) for task in islice(queue, IN_FLIGHT * self.workers)}
        with _interrupt_flag() as interrupted:
            while pending:
                processes.update(getattr(pool, "_processes", None) or {})
                done, pending = wait(pending, timeout=POLL, return_when=FIRST_COMPLETED)
                if interrupted.is_set():
                    raise KeyboardInterrupt
                for future in done:
                    task = submitted.pop(future)
                    try:
                        batch = future.result()
                    except BrokenProcessPool:
                        raise lost(task) from None
                    task = next(queue, None)
                    if task is not None:
                        pending.add(submit(task))
                    yield batch
        self._pool.shutdown(wait=True)
        self._pool = None

    @staticmethod
    def _lost(jobs: Sequence[Job], unfinished: list[tuple[int, int, int]],
              processes: dict[int, Any], playing: Any) -> WorkerLost:
        """What a broken pool cost: the workers that died on their own (the pool terminates
        the others with SIGTERM), the game each was playing, every batch not returned."""
        deadline = time.monotonic() + TERMINATE_GRACE
        while any(p.exitcode is None for p in processes.values()) and \
                time.monotonic() < deadline:
            time.sleep(0.01)
        ended = {pid: p.exitcode for pid, p in processes.items() if p.exitcode not in (None, 0)}
        dead = {pid: code for pid, code in ended.items() if code != -signal.SIGTERM} or ended
        raw = playing.get_obj()
        slots = {raw[i]: (raw[i + 1], raw[i + 2]) for i in range(0, len(raw), 3)}
        on_dead = [slots[pid] for pid in sorted(dead) if slots.get(pid, (-1, -1))[1] >= 0]
        how = " and ".join(sorted({_exit_words(code) for code in dead.values()})) or "died"
        return WorkerLost(how, jobs, sorted(set(on_dead)), _by_job(unfinished))

    def worker_pids(self) -> list[int]:
        processes = getattr(self._pool, "_processes", None) or {}
        return sorted(processes)

    def close(self) -> None:
        """Stop every worker now: pending batches are cancelled, running ones terminated."""
        pool, self._pool = self._pool, None
        if pool is None:
            return
        processes = list((getattr(pool, "_processes", None) or {}).values())
        pool.shutdown(wait=False, cancel_futures=True)
        for process in processes:
            if process.is_alive():
                process.terminate()
        deadline = time.monotonic() + TERMINATE_GRACE
        for process in processes:
            process.join(max(0.0, deadline - time.monotonic()))
            if process.is_alive():
                process.kill()
                process.join(1.0)
        pool.shutdown(wait=True)

    def __enter__(self) -> LocalProcesses:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


# --------------------------------------------------------------------------- Dask


def _import_distributed():
    try:
        import distributed
    except ImportError:
        raise ExecutorError(f"--scheduler needs Dask's distributed package, which is in the "
                            f"optional extra: pip install '{CLUSTER_EXTRA}'") from None
    return distributed


class DaskCluster:
    """A running Dask scheduler (tcp://HOST:PORT) and its workers; pnp only connects to it.

    Each job is scattered to every worker once; a task is (job, index range), and a batch's
    folded aggregate comes back. The cluster's own processes belong to whoever started them.
    """

    def __init__(self, address: str, timeout: float | None = None):
        distributed = _import_distributed()
        self.address = address
        timeout = CONNECT_TIMEOUT if timeout is None else timeout
        try:
            self.client = distributed.Client(address, timeout=timeout, set_as_default=False)
        except (OSError, TimeoutError, ValueError) as exc:
            raise ExecutorError(f"could not reach the Dask scheduler at {address}: "
                                f"{exc or type(exc).__name__}") from None
        try:
            self.client.wait_for_workers(1, timeout=timeout)
        except (TimeoutError, OSError):
            self.client.close()
            raise ExecutorError(f"the Dask scheduler at {address} has no workers: start some "
                                f"with `{worker_command(address)}`") from None
        info = self.client.scheduler_info(n_workers=-1) if _takes_n_workers(self.client) \
            else self.client.scheduler_info()
        self.workers = max(1, sum(w.get("nthreads", 1) for w in info["workers"].values()))
        self._futures: list = []

    def run(self, jobs: Sequence[Job], tasks: Sequence[tuple[int, int, int]]) -> Iterator[Batch]:
        distributed = _import_distributed()
        # all jobs in one object, so a game definition shared by several jobs is sent once
        [shipped] = self.client.scatter([tuple(jobs)], broadcast=True, hash=False)
        self._futures = [self.client.submit(_play_shipped, shipped, j, start, stop, __version__,
                                            pure=False)
                         for j, start, stop in tasks]
        task_of = {future.key: task for future, task in zip(self._futures, tasks, strict=True)}
        # results are fetched as each batch finishes, not when the loop reaches it: a worker
        # that dies later would otherwise take a finished batch with it, and asking a dead
        # worker for it waits out Dask's connect timeout (30 s) before the loss is reported
        finished = distributed.as_completed(self._futures, loop=self.client.loop,
                                            with_results=True, raise_errors=False)
        for future, batch in finished:
            failure = _failure(future.status, batch)
            if isinstance(failure, ImportError):
                raise ExecutorError(f"a Dask worker at {self.address} cannot import pnp "
                                    f"({failure}): install pnp on every worker") from None
            if isinstance(failure, (distributed.KilledWorker, CancelledError)):
                # a batch that killed its worker (Dask retries it on others, then gives up),
                # or one the cluster dropped when the workers holding the game had died
                raise WorkerLost(f"on the Dask cluster at {self.address} died", jobs, [],
                                 _by_job(task_of.values())) from None
            if failure is not None:
                raise failure
            del task_of[future.key]
            yield batch
        self._futures = []

    def close(self) -> None:
        futures, self._futures = self._futures, []
        if futures:
            self.client.cancel(futures)
        self.client.close()

    def __enter__(self) -> DaskCluster:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def _failure(status: str, result: Any) -> BaseException | None:
    """The error a finished Dask future stands for, or None: an erred future's result (as
    `as_completed` hands it over) is (type, error, traceback), a cancelled one's the error."""
    if status == "error":
        return result[1].with_traceback(result[2])
    return result if isinstance(result, CancelledError) else None


def worker_command(address: str) -> str:
    """The `dask worker` line to suggest: one thread, the dashboard on loopback (Dask opens one
    on every interface by default), and the worker's port on loopback too when the scheduler
    is on this machine's loopback; otherwise on the address the scheduler reaches it by."""
    from urllib.parse import urlsplit

    try:
        local = urlsplit(address).hostname in ("127.0.0.1", "localhost", "::1")
    except ValueError:
        local = False
    host = "127.0.0.1" if local else "PRIVATE_IP"
    return (f"dask worker {address} --nthreads 1 --host {host} "
            f"--dashboard-address 127.0.0.1:0")


def _play_shipped(jobs: Sequence[Job], job_index: int, start: int, stop: int,
                  version: str) -> Batch:
    return play_batch(jobs[job_index], job_index, start, stop, version)


def _takes_n_workers(client: Any) -> bool:
    import inspect

    return "n_workers" in inspect.signature(client.scheduler_info).parameters


def make_executor(workers: int = 1, scheduler: str | None = None) -> InProcess | LocalProcesses \
        | DaskCluster:
    """The executor for a command: Dask when a scheduler address is given, else local."""
    if scheduler:
        return DaskCluster(scheduler)
    if workers <= 1:
        return InProcess()
    return LocalProcesses(workers)


def run_jobs(jobs: Sequence[Job], executor: Executor,
             progress: ProgressFn | None = None) -> list[JobOutcome]:
    """Play every job's games on `executor` and merge each job's batches in index order."""
    tasks = [(j, start, stop) for j, job in enumerate(jobs)
             for start, stop in batch_ranges(job.config.games, executor.workers)]
    outcomes = [JobOutcome(Aggregate(players=job.config.players), [], 0.0) for job in jobs]
    waiting: list[dict[int, Batch]] = [{} for _ in jobs]  # finished early, by start index
    merged_to = [0] * len(jobs)
    done = 0
    for batch in executor.run(jobs, tasks):
        waiting[batch.job][batch.start] = batch
        outcome, queue = outcomes[batch.job], waiting[batch.job]
        while merged_to[batch.job] in queue:
            ready = queue.pop(merged_to[batch.job])
            outcome.aggregate.merge(ready.aggregate)
            outcome.logs.extend(ready.logs)
            outcome.cpu_seconds += ready.cpu_seconds
            merged_to[batch.job] = ready.stop
        done += batch.stop - batch.start
        if progress:
            progress(done)
    return outcomes
