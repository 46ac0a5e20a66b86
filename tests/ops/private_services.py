"""Private Redis and Postgres servers that a test starts, stops and restarts at will.

Fault tests must never touch the machine's own services (other people's tests use them), so
they run their own on free ports, in temporary directories, and stop them when done.
"""

from __future__ import annotations

import contextlib
import glob
import os
import shutil
import socket
import subprocess
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from tests import tiers


def free_port() -> int:
    """A TCP port nobody listens on right now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_until(check, timeout: float = 30.0, what: str = "condition") -> None:  # type: ignore[no-untyped-def]
    """Poll `check()` until it is true; fail after `timeout` seconds."""
    deadline = time.monotonic() + timeout
    while not check():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out after {timeout} s waiting for {what}")
        time.sleep(0.05)


def _listening(port: int) -> bool:
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=0.5):
            return True
    except OSError:
        return False


REDIS_OPTS = ("--save", "", "--appendonly", "no")


class PrivateRedis:
    """`redis-server` on a free port, without persistence."""

    def __init__(self) -> None:
        if shutil.which("redis-server") is None:
            pytest.skip("redis-server is not installed")
        self.port = free_port()
        self.url = f"redis://127.0.0.1:{self.port}/0"
        self.proc: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        """Start it and wait until it accepts connections."""
        tiers.starts("server", "a private redis-server")
        self.proc = subprocess.Popen(
            [*("redis-server", "--port", str(self.port), "--bind", "127.0.0.1"), *REDIS_OPTS],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        wait_until(lambda: _listening(self.port), 20, "the private redis-server")

    def stop(self) -> None:
        """Stop it and wait until the port is closed."""
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            self.proc.wait(10)
        wait_until(lambda: not _listening(self.port), 10, "redis-server to stop")


@contextmanager
def private_redis() -> Iterator[PrivateRedis]:
    """A running private Redis, stopped at the end of the block."""
    server = PrivateRedis()
    server.start()
    try:
        yield server
    finally:
        server.stop()


def _pg_bin(name: str) -> str:
    found = sorted(glob.glob(f"/usr/lib/postgresql/*/bin/{name}"))
    if not found:
        pytest.skip(f"Postgres server binaries ({name}) are not installed")
    return found[-1]


INITDB_OPTS = ("-U", "postgres", "--auth=trust", "--no-sync")


class PrivatePostgres:
    """A throw-away Postgres cluster (initdb + pg_ctl) on a free port, trust auth."""

    def __init__(self, root: Path) -> None:
        self.port = free_port()
        self.data = root / "pgdata"
        self.sockets = root / "pgsock"
        self.url = f"postgresql://postgres@127.0.0.1:{self.port}/postgres"
        # Postgres refuses to run as root: then run it as the `postgres` system user.
        self._as = ["runuser", "-u", "postgres", "--"] if os.geteuid() == 0 else []
        for path in (self.data, self.sockets):
            path.mkdir(parents=True)
            if self._as:
                shutil.chown(path, "postgres", "postgres")
        if self._as:
            shutil.chown(root, "postgres", "postgres")
        subprocess.run(
            [*self._as, _pg_bin("initdb"), "-D", str(self.data), *INITDB_OPTS],
            check=True,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )

    def _ctl(self, *args: str) -> None:
        subprocess.run(
            [*self._as, _pg_bin("pg_ctl"), "-D", str(self.data), "-w", "-t", "60", *args],
            check=True,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )

    def start(self) -> None:
        """Start the cluster (pg_ctl waits until it accepts connections)."""
        tiers.starts("server", "a private Postgres cluster")
        opts = f"-p {self.port} -k {self.sockets} -c listen_addresses=127.0.0.1 -c fsync=off"
        self._ctl("-o", opts, "start")

    def stop(self) -> None:
        """Stop it at once, as a crash or an outage would (open connections break)."""
        self._ctl("-m", "immediate", "stop")


@contextmanager
def private_postgres() -> Iterator[PrivatePostgres]:
    """A running private Postgres cluster, stopped and deleted at the end of the block."""
    # Not under pytest's tmp_path: its parents are private to root, and the server may run as
    # the `postgres` user, which must reach its directory.
    root = Path(tempfile.mkdtemp(prefix="seadragons-pg-"))
    try:
        cluster = PrivatePostgres(root)
        cluster.start()
        try:
            yield cluster
        finally:
            with contextlib.suppress(subprocess.CalledProcessError):
                cluster.stop()  # unless the test stopped it already
    finally:
        shutil.rmtree(root, ignore_errors=True)


def _cluster_port() -> int:
    """A free port that a cluster node may use: its cluster bus takes the port 10,000 above, so
    that must be free too (and the port at most 55,535)."""
    import random

    for _ in range(200):
        port = random.randrange(20000, 45000)
        if not _listening(port) and not _listening(port + 10000):
            with contextlib.suppress(OSError), socket.socket() as a, socket.socket() as b:
                a.bind(("127.0.0.1", port))
                b.bind(("127.0.0.1", port + 10000))
                return port
    raise AssertionError("no free port pair for a Redis cluster node")


class PrivateRedisCluster:
    """Three `redis-server` nodes with `cluster-enabled yes` on free ports, in a temporary
    directory, joined by `redis-cli --cluster create` (no replicas: each node owns a third of
    the slots). A node restarts with its nodes.conf, so it comes back with the same slots."""

    def __init__(self, root: Path, nodes: int = 3) -> None:
        for exe in ("redis-server", "redis-cli"):
            if shutil.which(exe) is None:
                pytest.skip(f"{exe} is not installed (apt-get install redis-server redis-tools)")
        self.root = root
        self.ports = [_cluster_port() for _ in range(nodes)]
        self.procs: dict[int, subprocess.Popen[bytes]] = {}
        self.url = "redis+cluster://" + ",".join(f"127.0.0.1:{p}" for p in self.ports)

    def start_node(self, port: int) -> None:
        """Start (or restart) one node and wait until it accepts connections."""
        tiers.starts("server", "a private Redis cluster node")
        workdir = self.root / str(port)
        workdir.mkdir(exist_ok=True)
        self.procs[port] = subprocess.Popen(
            [
                *("redis-server", "--port", str(port), "--bind", "127.0.0.1"),
                *("--cluster-enabled", "yes", "--cluster-config-file", "nodes.conf"),
                *("--cluster-node-timeout", "2000", "--dir", str(workdir)),
                *REDIS_OPTS,
            ],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        wait_until(lambda: _listening(port), 20, f"cluster node {port}")

    def stop_node(self, port: int) -> None:
        """Kill one node at once (a crash), and wait until its port is closed."""
        proc = self.procs.pop(port, None)
        if proc is not None and proc.poll() is None:
            proc.kill()
            proc.wait(10)
        wait_until(lambda: not _listening(port), 10, f"cluster node {port} to stop")

    def cli(self, port: int, *args: str) -> str:
        """`redis-cli -p port args...`; its output."""
        done = subprocess.run(
            ["redis-cli", "-p", str(port), *args], capture_output=True, text=True, timeout=30
        )
        return done.stdout

    def node_id(self, port: int) -> str:
        return self.cli(port, "cluster", "myid").strip()

    def owner(self, slot: int) -> int:
        """The port of the node serving `slot`."""
        for port in self.procs:
            for line in self.cli(port, "cluster", "nodes").splitlines():
                fields = line.split()
                if "myself" not in fields[2]:
                    continue
                for part in fields[8:]:
                    low, _, high = part.partition("-")
                    if low.isdigit() and int(low) <= slot <= int(high or low):
                        return port
        raise AssertionError(f"no node serves slot {slot}")

    def move_slot(self, slot: int, to_port: int) -> None:
        """Reshard one (keyless) slot to the node on `to_port`, as `redis-cli --cluster
        reshard` does: IMPORTING / MIGRATING, then NODE on every node."""
        source = self.owner(slot)
        src_id, dst_id = self.node_id(source), self.node_id(to_port)
        self.cli(to_port, "cluster", "setslot", str(slot), "importing", src_id)
        self.cli(source, "cluster", "setslot", str(slot), "migrating", dst_id)
        for port in (to_port, source, *[p for p in self.procs if p not in (to_port, source)]):
            self.cli(port, "cluster", "setslot", str(slot), "node", dst_id)

    def healthy(self) -> bool:
        """Every node sees the cluster as ok (all slots served)."""
        return all("cluster_state:ok" in self.cli(p, "cluster", "info") for p in self.procs)

    def start(self) -> None:
        """Start every node, create the cluster, and wait until it is ok everywhere."""
        for port in self.ports:
            self.start_node(port)
        hosts = [f"127.0.0.1:{p}" for p in self.ports]
        options = ["--cluster-replicas", "0", "--cluster-yes"]
        subprocess.run(
            ["redis-cli", "--cluster", "create", *hosts, *options],
            check=True,
            capture_output=True,
            timeout=60,
        )
        wait_until(self.healthy, 30, "the Redis cluster to be ok")

    def stop(self) -> None:
        """Stop every node."""
        for port in list(self.procs):
            self.stop_node(port)


@contextmanager
def private_redis_cluster() -> Iterator[PrivateRedisCluster]:
    """A running private three-node Redis Cluster, stopped and deleted at the end."""
    root = Path(tempfile.mkdtemp(prefix="seadragons-redis-cluster-"))
    cluster = PrivateRedisCluster(root)
    try:
        cluster.start()
        yield cluster
    finally:
        cluster.stop()
        shutil.rmtree(root, ignore_errors=True)
