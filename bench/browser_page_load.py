"""What loading a table page costs the machine in a browser test, by how the test gets its page.

The stub server (tests/e2e/stub_server.py, the engine in memory) serves a mid-game table; each
load goes to /games/1 and waits until the page has the table drawn (as the browser tests'
`_open` helpers do). Three ways, in interleaved rounds so the machine's noise falls on all:
- `context`: a new context and page for each load, closed after it (the browser tests before
  tests/e2e/contexts.py);
- `pooled`: the context and page from tests/e2e/contexts.py's pool, handed back after each
  load (the browser tests now: cleared and reset between tests);
- `floor`: one page navigated again and again, nothing cleared (what no pool can beat);
each in the full browser (`/usr/bin/chromium`) and in its headless shell
(`/usr/bin/chromium-headless-shell`, what the browser tests drive).
Reported: the machine's busy CPU-seconds per load (every process, from /proc/stat: Chromium's
processes die with their context, so their own counters cannot be read after), median of the
rounds, and the ratio to the full browser's `context`. Run it on a quiet machine.

    .venv/bin/python bench/browser_page_load.py --rounds 7 --loads 6
"""

from __future__ import annotations

import argparse
import statistics
import sys
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.e2e.conftest import (  # noqa: E402
    CHROMIUM,
    CHROMIUM_ARGS,
    FULL_CHROMIUM,
    free_port,
    wait_http,
)
from tests.e2e.contexts import ContextPool  # noqa: E402
from tests.e2e.stub_server import Table, make_app  # noqa: E402

READY = "() => window.seadragons && window.seadragons.state.doc && !window.seadragons.state.pending"
VIEWPORT = {"width": 1280, "height": 800}
# The browser tests' headless shell against the full browser they drove before.
BROWSERS = {"full": FULL_CHROMIUM, "shell": CHROMIUM}


def busy_seconds() -> float:
    """CPU-seconds the machine has spent busy since boot (all cores)."""
    with open("/proc/stat") as f:
        fields = [int(v) for v in f.readline().split()[1:9]]
    return (sum(fields) - fields[3] - fields[4]) / 100  # USER_HZ is 100 on Linux


def start_stub_server() -> tuple[Any, str]:
    """The stub server with one mid-game table (/games/1), in a thread; returns it and its URL."""
    import uvicorn

    port = free_port()
    server = uvicorn.Server(
        uvicorn.Config(make_app({1: Table(3, 5)}), host="127.0.0.1", port=port, log_level="error")
    )
    threading.Thread(target=server.run, daemon=True).start()
    url = f"http://127.0.0.1:{port}"
    wait_http(url + "/rules")
    return server, url


def load(page: Any, url: str) -> None:
    page.goto(url + "/games/1")
    page.wait_for_function(READY)


def _ways(browser_name: str, browser: Any, url: str) -> dict[str, Callable[[], None]]:
    pool = ContextPool(lambda: browser, lambda: [url]).connected()
    kept = browser.new_context(viewport=VIEWPORT).new_page()

    def in_new_context() -> None:
        context = browser.new_context(viewport=VIEWPORT)
        load(context.new_page(), url)
        context.close()

    def pooled() -> None:
        load(pool.new_context(viewport=VIEWPORT).new_page(), url)
        pool.release_all()

    def floor() -> None:
        load(kept, url)

    return {
        f"{browser_name}, context": in_new_context,
        f"{browser_name}, pooled": pooled,
        f"{browser_name}, floor": floor,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--loads", type=int, default=6, help="page loads per way per round")
    args = parser.parse_args()

    from playwright.sync_api import sync_playwright

    server, url = start_stub_server()

    ways: dict[str, Callable[[], None]] = {}
    with sync_playwright() as pw:
        browsers = {
            name: pw.chromium.launch(executable_path=path, args=CHROMIUM_ARGS, headless=True)
            for name, path in BROWSERS.items()
        }
        for name, browser in browsers.items():
            ways.update(_ways(name, browser, url))
        for way in ways.values():  # warm: the server's first answers, the browser's first page
            way()
        per_load: dict[str, list[float]] = {name: [] for name in ways}
        for _ in range(args.rounds):
            for name, way in ways.items():
                start = busy_seconds()
                for _ in range(args.loads):
                    way()
                per_load[name].append((busy_seconds() - start) / args.loads)
        for browser in browsers.values():
            browser.close()
    server.should_exit = True

    base = statistics.median(per_load["full, context"])
    print(f"{args.rounds} rounds of {args.loads} table page loads per way")
    print("| browser, way | CPU-s a load (median) | min | max | ratio to full, context |")
    print("| --- | --- | --- | --- | --- |")
    for name, values in per_load.items():
        med = statistics.median(values)
        print(f"| {name} | {med:.2f} | {min(values):.2f} | {max(values):.2f} | {med / base:.2f} |")


if __name__ == "__main__":
    main()
