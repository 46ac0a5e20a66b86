"""`seadragons serve` as a real process: SIGKILL loses no acknowledged move."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import httpx
import pytest


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@contextmanager
def server(env: dict[str, str], port: int) -> Iterator[subprocess.Popen[bytes]]:
    """Run `seadragons serve` until the block ends (or the test kills it)."""
    proc = subprocess.Popen(
        [sys.executable, "-m", "app.cli", "serve", "--port", str(port)],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    try:
        deadline = time.monotonic() + 60  # a busy machine starts slowly
        while True:
            try:
                if httpx.get(f"http://127.0.0.1:{port}/healthz", timeout=1).status_code == 200:
                    break
            except httpx.TransportError:
                pass
            if proc.poll() is not None or time.monotonic() > deadline:
                if proc.poll() is None:
                    proc.kill()  # reading its stderr would wait for ever while it runs
                    proc.wait()
                err = proc.stderr.read().decode() if proc.stderr else ""
                raise AssertionError(f"server did not come up: {err[-2000:]}")
            time.sleep(0.1)
        yield proc
    finally:
        if proc.poll() is None:
            proc.send_signal(signal.SIGTERM)
            try:
                proc.wait(10)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()


def _play(clients: list[httpx.Client], gid: int, moves: int) -> int:
    version = -1
    for _ in range(moves):
        seat = clients[0].get(f"/api/games/{gid}/state").json()["to_act"]
        state = clients[seat].get(f"/api/games/{gid}/state").json()
        body = {"version": state["version"], "action": state["legal_actions"][0]}
        r = clients[seat].post(f"/api/games/{gid}/actions", json=body)
        assert r.status_code == 200, r.text
        version = r.json()["version"]  # acknowledged: must survive anything from here on
    return version


@pytest.mark.server
@pytest.mark.parametrize(
    "backend", ["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)]
)
def test_sigkill_loses_no_acknowledged_move(
    backend: str, tmp_path: Path, request: pytest.FixtureRequest
) -> None:
    env = {k: v for k, v in os.environ.items() if not k.startswith("SEADRAGONS_")}
    # SQLite: the out-of-the-box default (a file in the data dir, a generated secret key).
    env["SEADRAGONS_DATA_DIR"] = str(tmp_path / "data")
    if backend == "postgres":
        env["SEADRAGONS_DATABASE_URL"] = request.getfixturevalue("make_postgres_db")()
    port = _free_port()
    base = f"http://127.0.0.1:{port}"
    clients = [httpx.Client(base_url=base, timeout=10) for _ in range(2)]
    try:
        with server(env, port) as proc:
            clients[0].post("/api/session/guest", json={"name": "Ann"})
            clients[1].post("/api/session/guest", json={"name": "Bob"})
            gid = clients[0].post("/api/games", json={"players": 2}).json()["id"]
            clients[1].post(f"/api/games/{gid}/join")
            clients[0].post(f"/api/games/{gid}/start")
            acknowledged = _play(clients, gid, 6)
            proc.send_signal(signal.SIGKILL)
            proc.wait(10)
        if backend == "sqlite":
            assert (tmp_path / "data" / "seadragons.db").exists()
            assert (tmp_path / "data" / "secret_key").exists()
        with server(env, port):
            # Same cookies: sessions live in the database, the key in the data dir.
            state = clients[0].get(f"/api/games/{gid}/state").json()
            assert state["version"] == acknowledged
            assert _play(clients, gid, 2) == acknowledged + 2
    finally:
        for c in clients:
            c.close()
