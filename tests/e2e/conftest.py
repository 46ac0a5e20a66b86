"""Browser fixtures: Debian's Chromium through Playwright, and servers on loopback ports."""

from __future__ import annotations

import contextlib
import os
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests import tiers

ROOT = Path(__file__).resolve().parents[2]
ARTIFACTS = ROOT / "test-artifacts"
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
REQUIRE = os.environ.get("SEADRAGONS_REQUIRE_SERVICES") == "1"


def free_port() -> int:
    """A free loopback TCP port."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_http(url: str, timeout: float = 30.0) -> None:
    """Wait until `url` answers (any status below 500)."""
    import httpx

    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            if httpx.get(url, timeout=2).status_code < 500:
                return
        except httpx.HTTPError:
            pass
        time.sleep(0.1)
    raise RuntimeError(f"{url} did not come up in {timeout}s")


# Module scope, not session: Playwright's sync API keeps an event loop running in this thread
# until it is closed, and later asyncio-based tests (realtime, bot runner) fail under it.
@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    """A headless Chromium per test module (skipped, or failed under CI, when absent)."""
    if not Path(CHROMIUM).exists():
        if REQUIRE:
            pytest.fail(f"{CHROMIUM} is required (SEADRAGONS_REQUIRE_SERVICES=1)")
        pytest.skip(f"{CHROMIUM} is not installed: browser tests cannot run")
    from playwright.sync_api import sync_playwright

    ARTIFACTS.mkdir(exist_ok=True)
    with sync_playwright() as pw:
        b = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True)
        yield b
        b.close()


@pytest.fixture(autouse=True)
def _close_pages(request: pytest.FixtureRequest) -> Iterator[None]:
    """Close the pages a browser test opened: left open, they would go on polling and
    rendering beside the next tests (slowing them), and on the shared stub server they would
    talk to the next test's table."""
    if "browser" not in request.fixturenames:
        yield
        return
    browser = request.getfixturevalue("browser")
    before = set(browser.contexts)
    yield
    for context in browser.contexts:
        if context not in before:
            with contextlib.suppress(Exception):  # already closed by the test, or crashed
                context.close()


@pytest.fixture(scope="session")
def _stub_server() -> Iterator[tuple[str, dict[int, Any]]]:
    """One stub API (engine in memory) serving the real pages, in a thread on a free port, for
    the whole run: it keeps no state but the tables, which each test sets anew."""
    import uvicorn

    from tests.e2e.stub_server import make_app

    tables: dict[int, Any] = {}
    port = free_port()
    server = uvicorn.Server(
        uvicorn.Config(make_app(tables), host="127.0.0.1", port=port, log_level="warning")
    )
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    url = f"http://127.0.0.1:{port}"
    wait_http(url + "/rules")
    yield url, tables
    server.should_exit = True
    thread.join(timeout=10)


@pytest.fixture
def stub_tables(_stub_server: tuple[str, dict[int, Any]]) -> dict[int, Any]:
    """Tables of the in-memory stub server, by game id (tests add their own; empty at first)."""
    tables = _stub_server[1]
    tables.clear()
    return tables


@pytest.fixture
def stub_url(_stub_server: tuple[str, dict[int, Any]], stub_tables: dict[int, Any]) -> str:
    """The stub server's URL, its tables emptied for this test."""
    return _stub_server[0]


@contextlib.contextmanager
def app_process(tmp_path: Path, **settings: str) -> Iterator[str]:
    """The real app in its own process, on a temp SQLite database and a free port; `settings`:
    more SEADRAGONS_* variables (name without the prefix). Yields its URL."""
    tiers.starts("server", "a server process")
    port = free_port()
    env = {
        **os.environ,
        "SEADRAGONS_DATA_DIR": str(tmp_path),
        "SEADRAGONS_DATABASE_URL": f"sqlite:///{tmp_path / 'e2e.db'}",
        "SEADRAGONS_SECRET_KEY": "e2e-secret",
        "SEADRAGONS_ALLOWED_ORIGINS": f"http://127.0.0.1:{port}",
        **{f"SEADRAGONS_{name}": value for name, value in settings.items()},
    }
    code = (
        "import uvicorn; from app.main import create_app; "
        f"uvicorn.run(create_app(), host='127.0.0.1', port={port}, log_level='warning')"
    )
    proc = subprocess.Popen([sys.executable, "-c", code], cwd=ROOT, env=env)
    url = f"http://127.0.0.1:{port}"
    try:
        wait_http(url + "/healthz", timeout=60)
        yield url
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()


@pytest.fixture
def real_server(tmp_path: Path) -> Iterator[str]:
    """`seadragons serve` (the real app) on a temp SQLite database and a free port."""
    # Bots answer quickly, but not within the same frame as the move before, so the page
    # really goes through "their turn" (and the tests see it) without slowing the game.
    with app_process(tmp_path, BOT_DELAY_SECONDS="0.1") as url:
        yield url
