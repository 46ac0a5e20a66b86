"""Browser fixtures: Debian's Chromium through Playwright, and servers on loopback ports."""

from __future__ import annotations

import contextlib
import os
import secrets
import shutil
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
from tests.e2e.contexts import ContextPool
from tests.e2e.helpers import ARTIFACTS

ROOT = Path(__file__).resolve().parents[2]
# The pages run in Debian's headless shell of Chromium (package chromium-headless-shell), what
# Playwright itself runs for headless tests: the same Blink and V8 as the browser without its
# browser-level services, where a table page from the tests' pool costs about two fifths less
# CPU (docs/benchmarks.md). A test whose subject is such a service (Web Push, the install
# prompt, the Content-Security-Policy of a real browser) launches FULL_CHROMIUM.
CHROMIUM = "/usr/bin/chromium-headless-shell"
FULL_CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
REQUIRE = os.environ.get("SEADRAGONS_REQUIRE_SERVICES") == "1"
# Every test server's origin (http://127.0.0.1:port): a shared context's stored data for each is
# cleared before another test gets it (tests/e2e/contexts.py).
ORIGINS: set[str] = set()


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


@pytest.fixture(scope="session")
def playwright() -> Iterator[Any]:
    """Playwright for this worker, started by its first browser test and stopped at its end
    (skipped, or failed under CI, without Chromium). Its event loop runs in this thread from then
    on, under which asyncio-based tests (realtime, bot runner) would fail: the browser tests run
    after every other test (tests/tiers.py `run_order`)."""
    for path in (CHROMIUM, FULL_CHROMIUM):
        if not Path(path).exists():
            if REQUIRE:
                pytest.fail(f"{path} is required (SEADRAGONS_REQUIRE_SERVICES=1)")
            pytest.skip(f"{path} is not installed: browser tests cannot run")
    from playwright.sync_api import sync_playwright

    ARTIFACTS.mkdir(exist_ok=True)
    with sync_playwright() as pw:
        yield pw


@pytest.fixture(scope="session")
def _context_pool(playwright: Any) -> Iterator[ContextPool]:
    pool = ContextPool(
        lambda: playwright.chromium.launch(
            executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True
        ),
        lambda: ORIGINS,
    )
    yield pool
    pool.close()


@pytest.fixture
def browser(_context_pool: ContextPool) -> ContextPool:
    """A headless Chromium, one for all the browser tests of this worker, whose contexts and
    pages the tests share, each getting them as good as new (contexts.py); launched again if it
    crashed."""
    return _context_pool.connected()


@pytest.fixture(autouse=True)
def _close_pages(request: pytest.FixtureRequest) -> Iterator[None]:
    """Close the pages a browser test opened and hand its contexts back: left open, they
    would go on polling and rendering beside the next tests (slowing them), and on the shared
    stub server they would talk to the next test's table."""
    if "browser" not in request.fixturenames:
        yield
        return
    pool = request.getfixturevalue("browser")
    yield
    if request.node.stash.get(FAILED, False):
        save_failed_pages(pool.open_pages(), request.node.name)
    pool.release_all()


FAILED = pytest.StashKey[bool]()


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]) -> Any:
    """Note a browser test's failure for `_close_pages`, which saves its pages."""
    report = yield
    if report.when == "call":
        item.stash[FAILED] = report.failed
    return report


def save_failed_pages(pages: list[Any], test_name: str) -> list[Path]:
    """What a failed test's pages showed, as test-artifacts/failed-<test>-<n>.png: the run's
    first clue, with or without --screenshots."""
    ARTIFACTS.mkdir(exist_ok=True)
    name = "".join(c if c.isalnum() or c in "-_." else "-" for c in test_name)
    saved = []
    for n, page in enumerate(pages, 1):
        path = ARTIFACTS / f"failed-{name}-{n}.png"
        with contextlib.suppress(Exception):  # a crashed page: the others may still be saved
            page.screenshot(path=str(path), full_page=True, timeout=10_000)
            saved.append(path)
    return saved


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
    ORIGINS.add(url)
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
def app_process(tmp_path: Path, template: Path | None = None, **settings: str) -> Iterator[str]:
    """The real app in its own process, on a temp SQLite database and a free port; `settings`:
    more SEADRAGONS_* variables (name without the prefix); `template`: a migrated SQLite file
    to start from (a copy, so the app's upgrade at start finds nothing to do). Yields its URL."""
    tiers.starts("server", "a server process")
    port = free_port()
    database = tmp_path / "e2e.db"
    if template is not None:
        shutil.copyfile(template, database)
    env = {
        **os.environ,
        "SEADRAGONS_DATA_DIR": str(tmp_path),
        "SEADRAGONS_DATABASE_URL": f"sqlite:///{database}",
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
    ORIGINS.add(url)
    try:
        wait_http(url + "/healthz", timeout=60)
        yield url
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()


# Bots answer quickly, but not within the same frame as the move before (50 ms is three frames),
# so the page really goes through "their turn" (and the tests see it) without slowing the game:
# the games the tests play or finish give the bots hundreds of turns in a run.
REAL_SERVER = {"BOT_DELAY_SECONDS": "0.05"}
# No game analyses: each finished game's would take a minute of CPU beside the tests, and on a
# shared server run to the end; the tests that show one supply it (page.route).
NO_ANALYSES = {"REVIEW_CONCURRENCY": "0"}
# Quick sweeps, bots and jobs (tenths of a second), for tests of clocks and rated games.
QUICK = {"BOT_DELAY_SECONDS": "0.05", "CLOCK_SWEEP_SECONDS": "0.1", "JOBS_POLL_SECONDS": "0.2"}
# A shared server serves many tests, all from 127.0.0.1: the per-address caps on accounts,
# guests and live games (each test leaves its tables behind) would refuse the later tests.
# Those caps are the subject of tests/web (test_rate_limits.py, test_caps_api.py), not here.
SHARED = {
    **NO_ANALYSES,
    "ACCOUNT_LIMITS_PER_ADDRESS": "",
    "GUEST_LIMITS_PER_ADDRESS": "",
    "LOGIN_LIMITS_PER_ADDRESS": "",
    "MAX_LIVE_GAMES_PER_ADDRESS": "100000",
}


class SharedApps:
    """Real app processes shared by the tests of this worker: one per set of settings, started
    when first asked for and stopped at the end of the run (or started anew if one died)."""

    def __init__(self, root: Path, template: Path) -> None:
        self._root, self._template = root, template
        self._running: dict[tuple[tuple[str, str], ...], tuple[contextlib.ExitStack, str]] = {}

    def url(self, **settings: str) -> str:
        tiers.starts("server", "a shared server process")
        key = tuple(sorted(settings.items()))
        running = self._running.get(key)
        if running is not None and _answers(running[1]):
            return running[1]
        if running is not None:  # it died (a crash in an earlier test): start it anew
            running[0].close()
        stack = contextlib.ExitStack()
        data = self._root / f"app{len(self._running)}_{secrets.token_hex(3)}"
        data.mkdir()
        url = stack.enter_context(app_process(data, self._template, **SHARED, **settings))
        self._running[key] = (stack, url)
        return url

    def close(self) -> None:
        for stack, _ in self._running.values():
            stack.close()
        self._running.clear()


def _answers(url: str) -> bool:
    import httpx

    try:
        return httpx.get(url + "/healthz", timeout=5).status_code < 500
    except httpx.HTTPError:
        return False


@pytest.fixture(scope="session")
def shared_apps(
    tmp_path_factory: pytest.TempPathFactory, migrated_sqlite_file: Path
) -> Iterator[SharedApps]:
    """The worker's shared real-app processes (`shared_apps.url(**settings)`), one per set of
    settings: a test on one makes its own users and games and assumes nothing else is there."""
    apps = SharedApps(tmp_path_factory.mktemp("shared-apps"), migrated_sqlite_file)
    yield apps
    apps.close()


@pytest.fixture
def real_server(shared_apps: SharedApps) -> str:
    """`seadragons serve` (the real app) on SQLite, shared by this worker's tests: each test
    makes its own users and games (pick names no other test's checks depend on). A test whose
    checks see the whole server (every live game, the featured one) takes `own_real_server`."""
    return shared_apps.url(**REAL_SERVER)


@pytest.fixture
def own_real_server(tmp_path: Path, migrated_sqlite_file: Path) -> Iterator[str]:
    """The real app in a process of this test's own, on a fresh SQLite database."""
    with app_process(tmp_path, migrated_sqlite_file, **NO_ANALYSES, **REAL_SERVER) as url:
        yield url
