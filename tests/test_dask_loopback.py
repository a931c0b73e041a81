"""Nothing a test cluster starts listens beyond loopback: not the scheduler, not a worker, not
a dashboard Dask opens by itself."""

from __future__ import annotations

import pytest
from dask_cluster import dask_command, local_cluster_processes

LOOPBACK = {"127.0.0.1", "::1"}


def listening(pids: list[int]) -> list[tuple[int, str, int]]:
    """(pid, address, port) of every listening inet socket of these processes and their
    children."""
    import psutil

    found = []
    for pid in pids:
        parent = psutil.Process(pid)
        for proc in [parent, *parent.children(recursive=True)]:
            try:
                connections = proc.net_connections(kind="inet")
            except psutil.NoSuchProcess:
                continue
            found += [(proc.pid, c.laddr.ip, c.laddr.port) for c in connections
                      if c.status == psutil.CONN_LISTEN]
    return found


@pytest.mark.skipif(dask_command() is None, reason="needs pnp[cluster] (Dask's distributed)")
def test_test_cluster_listens_on_loopback_only(tmp_path):
    with local_cluster_processes(tmp_path, workers=2) as (address, pids):
        sockets = listening(pids)
    assert address.startswith("tcp://127.0.0.1:")
    # the scheduler's port and one per worker (and nanny) at least: the check saw the cluster
    assert len({pid for pid, _, _ in sockets}) >= 3, sockets
    assert [s for s in sockets if s[1] not in LOOPBACK] == []


def test_the_suggested_worker_command_keeps_the_dashboard_on_loopback():
    from pnp.engine.executor import worker_command

    local = worker_command("tcp://127.0.0.1:8786")
    assert "--host 127.0.0.1" in local and "--dashboard-address 127.0.0.1:0" in local
    remote = worker_command("tcp://10.0.0.5:8786")
    assert "--host PRIVATE_IP" in remote and "--dashboard-address 127.0.0.1:0" in remote
