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
