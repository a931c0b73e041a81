"""A real Dask cluster on 127.0.0.1 for tests: `dask scheduler` and `dask worker` processes
started the way a user starts them, each in its own process group, all killed on exit.

Also used by benchmarks/executors.py. Every wait is bounded.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import time
from contextlib import contextmanager
from pathlib import Path

import pnp

#: the repository this pnp comes from: workers must import the same code as the client
REPO = Path(pnp.__file__).resolve().parents[1]
START_TIMEOUT = 60.0
#: every listener on loopback: `--host` places the scheduler's and workers' own ports, but
#: distributed 2026.8 opens a dashboard (scheduler 0.0.0.0:8787, each worker a random port on
#: 0.0.0.0) even with `--no-dashboard`; `--dashboard-address` keeps it on 127.0.0.1 too
LOOPBACK = ["--host", "127.0.0.1", "--no-dashboard", "--dashboard-address", "127.0.0.1:0"]


def dask_command() -> list[str] | None:
    """`dask` from this interpreter's environment (or PATH), or None when Dask is missing."""
    try:
        import distributed  # noqa: F401
    except ImportError:
        return None
    beside = Path(sys.executable).with_name("dask")
    if beside.exists():
        return [str(beside)]
    found = shutil.which("dask")
    return [found] if found else None


def _kill_group(proc: subprocess.Popen) -> None:
    for sig in (signal.SIGTERM, signal.SIGKILL):
        try:
            os.killpg(proc.pid, sig)
        except ProcessLookupError:
            return
        try:
            proc.wait(5)
            return
        except subprocess.TimeoutExpired:
            continue


@contextmanager
def local_cluster(tmp: Path, workers: int = 2):
    """Yield the address of a scheduler with `workers` single-threaded worker processes."""
    with local_cluster_processes(tmp, workers) as (address, _pids):
        yield address


@contextmanager
def local_cluster_processes(tmp: Path, workers: int = 2):
    """Yield the scheduler's address and the pids of the `dask` processes started (the
    scheduler, then each worker's nanny; their children are the worker processes)."""
    dask = dask_command()
    if dask is None:
        raise RuntimeError("Dask's distributed package is not installed")
    # the repository (pnp itself) and tests/ (the fake games tests send by reference)
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(
        [str(REPO), str(REPO / "tests"), *filter(None, [os.environ.get("PYTHONPATH")])]))
    env.pop("PNP_SCHEDULER", None)
    info = tmp / "scheduler.json"
    procs: list[subprocess.Popen] = []
    logs = []

    def start(args: list[str], name: str) -> None:
        log = open(tmp / f"{name}.log", "wb")  # noqa: SIM115 (closed below)
        logs.append(log)
        procs.append(subprocess.Popen([*dask, *args], env=env, cwd=tmp, stdout=log,
                                      stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
                                      start_new_session=True))

    try:
        start(["scheduler", *LOOPBACK, "--port", "0", "--scheduler-file", str(info)],
              "scheduler")
        deadline = time.monotonic() + START_TIMEOUT
        while not info.exists() or not info.read_text().strip():
            if time.monotonic() > deadline or procs[0].poll() is not None:
                raise RuntimeError("the Dask scheduler did not start: "
                                   + (tmp / "scheduler.log").read_text()[-2000:])
            time.sleep(0.1)
        time.sleep(0.2)  # the file is written whole, but give the JSON a moment
        address = json.loads(info.read_text())["address"]
        for i in range(workers):
            start(["worker", address, "--nthreads", "1", "--nworkers", "1", *LOOPBACK,
                   "--death-timeout", "30"], f"worker{i}")
        from distributed import Client

        with Client(address, timeout=START_TIMEOUT, set_as_default=False) as client:
            client.wait_for_workers(workers, timeout=START_TIMEOUT)
        yield address, [proc.pid for proc in procs]
    finally:
        for proc in reversed(procs):
            _kill_group(proc)
        for log in logs:
            log.close()
