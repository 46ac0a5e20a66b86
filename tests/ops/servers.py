"""`seadragons serve` as a real process on a free port, for the operations tests."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import httpx

from tests import tiers
from tests.ops.private_services import free_port


def server_env(data_dir: Path, **settings: str) -> dict[str, str]:
    """The test process's environment without its SEADRAGONS_* values, plus `settings`
    (keys without the prefix, e.g. DATABASE_URL)."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("SEADRAGONS_")}
    env["SEADRAGONS_DATA_DIR"] = str(data_dir)
    env["SEADRAGONS_SECRET_KEY"] = "ops-test-secret"
    env.update({f"SEADRAGONS_{k}": v for k, v in settings.items()})
    return env


class Server:
    """A running server: its base URL, process and (if captured) its stderr log file."""

    def __init__(self, proc: subprocess.Popen[bytes], port: int, log: Path) -> None:
        self.proc, self.port, self.log = proc, port, log
        self.url = f"http://127.0.0.1:{port}"

    def client(self, **kwargs: object) -> httpx.Client:
        """An HTTP client with its own cookie jar."""
        return httpx.Client(base_url=self.url, timeout=30, **kwargs)  # type: ignore[arg-type]

    def log_text(self) -> str:
        """What the server wrote to stderr so far."""
        return self.log.read_text(errors="replace")


@contextmanager
def serve(env: dict[str, str], log: Path) -> Iterator[Server]:
    """Run `seadragons serve` until the block ends (SIGTERM, then SIGKILL after 20 s)."""
    tiers.starts("server", "a server process")
    port = free_port()
    with log.open("wb") as sink:
        proc = subprocess.Popen(
            [sys.executable, "-m", "app.cli", "serve", "--port", str(port)],
            env=env,
            stdout=sink,
            stderr=subprocess.STDOUT,
        )
    server = Server(proc, port, log)
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                if httpx.get(f"{server.url}/readyz", timeout=2).status_code == 200:
                    break
            except httpx.TransportError:
                pass
            if proc.poll() is not None or time.monotonic() > deadline:
                raise AssertionError(f"server did not come up: {server.log_text()[-3000:]}")
            time.sleep(0.1)
        yield server
    finally:
        if proc.poll() is None:
            proc.send_signal(signal.SIGTERM)
            try:
                proc.wait(20)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()
