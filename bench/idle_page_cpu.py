"""What a game page costs the browser, idle or with new Dragons: Debian's Chromium, headless.

The stub server (tests/e2e/stub_server.py, the engine in memory) serves a mid-game table whose
seat to act is the viewer, so the "Your turn" banner and the "to play" badge are both on screen;
nothing happens for `--seconds`, or with `--dragon-every S` a Dragon is placed every S seconds
(the page polls the stub every 1.5 s), so the newest Dragon's outline pulses as in a lively game.
Reported: the renderer main thread's busy time (CDP Performance.getMetrics TaskDuration) and the
CPU time of every Chromium process (from /proc), each as a share of one core, plus the style
recalculations and layouts in the window.

    nice -n 10 .venv/bin/python bench/idle_page_cpu.py --seconds 20
    git archive cdb5da2 static | tar -x -C /tmp/before   # the same page before the change
    nice -n 10 .venv/bin/python bench/idle_page_cpu.py --seconds 20 --static-dir /tmp/before/static
    nice -n 10 .venv/bin/python bench/idle_page_cpu.py --seconds 20 --dragon-every 2.5

`--page lesson`: a tutorial's first step instead (/learn?lesson=base, served by the real app in
this process on a temporary SQLite database: the stub has no lessons), whose marked controls
and board square pulse when the step is shown.
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import threading
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.e2e.conftest import CHROMIUM, CHROMIUM_ARGS, free_port, wait_http  # noqa: E402
from tests.e2e.stub_server import Table, make_app  # noqa: E402


def browser_pids() -> list[int]:
    """Ids of the Chromium processes under this bench (other people's browsers are not ours)."""
    parent: dict[int, int] = {}
    name: dict[int, str] = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            stat = Path(f"/proc/{entry}/stat").read_text()
        except OSError:
            continue
        name[int(entry)] = stat[stat.index("(") + 1 : stat.rindex(")")]
        parent[int(entry)] = int(stat[stat.rindex(")") + 2 :].split()[1])

    def ours(pid: int) -> bool:
        while pid > 1:
            pid = parent.get(pid, 0)
            if pid == os.getpid():
                return True
        return False

    return [p for p, n in name.items() if "chrom" in n and ours(p)]


def cpu_seconds(pids: list[int]) -> float:
    """User + system CPU seconds used so far by `pids` (Linux /proc; gone processes count 0)."""
    tick = os.sysconf("SC_CLK_TCK")
    total = 0.0
    for pid in pids:
        try:
            stat = Path(f"/proc/{pid}/stat").read_text()
        except OSError:
            continue
        fields = stat[stat.rindex(")") + 2 :].split()
        total += (int(fields[11]) + int(fields[12])) / tick
    return total


def lesson_app() -> Any:
    """The real app on a temporary SQLite database: the tutorials need the engine's lessons."""
    import tempfile

    from app.main import create_app
    from app.settings import Settings

    data = Path(tempfile.mkdtemp(prefix="idle-lesson-"))
    return create_app(
        Settings(database_url=f"sqlite:///{data / 'bench.db'}", data_dir=data, secret_key="bench")
    )


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seconds", type=float, default=20.0)
    ap.add_argument("--settle", type=float, default=3.0, help="wait before measuring")
    ap.add_argument("--reduced-motion", action="store_true", help="prefers-reduced-motion")
    ap.add_argument("--dragon-every", type=float, help="place a Dragon every this many seconds")
    ap.add_argument("--page", choices=["game", "lesson"], default="game")
    ap.add_argument(
        "--static-dir",
        help="serve this static/ instead (e.g. an older commit's: git archive REV static | tar -x)",
    )
    args = ap.parse_args()

    import uvicorn
    from playwright.sync_api import sync_playwright

    if args.static_dir:
        from app.web import pages

        pages.STATIC_DIR = Path(args.static_dir)
    table = Table(3, 7)
    table.advance(12, random.Random(7))
    port = free_port()
    server = uvicorn.Server(
        uvicorn.Config(
            lesson_app() if args.page == "lesson" else make_app({1: table}),
            host="127.0.0.1",
            port=port,
            log_level="warning",
        )
    )
    threading.Thread(target=server.run, daemon=True).start()
    url = f"http://127.0.0.1:{port}"
    wait_http(url + "/rules")
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True)
        page = browser.new_page(
            viewport={"width": 1280, "height": 800},
            reduced_motion="reduce" if args.reduced_motion else "no-preference",
        )
        if args.page == "lesson":
            page.goto(f"{url}/learn?lesson=base")
            page.wait_for_selector("#hand .lesson-target")
        else:
            page.goto(f"{url}/games/1")
            page.wait_for_selector("#turn-banner:not([hidden])")
            page.wait_for_selector("#players .turn-dot")
        cdp = page.context.new_cdp_session(page)
        cdp.send("Performance.enable")
        # Every process of this browser: the headless shell and its renderer, GPU and utility
        # children (Playwright's own driver is not counted).
        chromium = browser_pids()
        time.sleep(args.settle)

        def metrics() -> dict[str, float]:
            return {m["name"]: m["value"] for m in cdp.send("Performance.getMetrics")["metrics"]}

        m0, c0, t0 = metrics(), cpu_seconds(chromium), time.monotonic()
        placed, rng = 0, random.Random(7)
        while args.dragon_every and time.monotonic() - t0 + args.dragon_every <= args.seconds:
            table.advance(1, rng)  # a placement (where one is legal), then to the next turn
            placed += 1
            time.sleep(args.dragon_every)
        time.sleep(max(0.0, args.seconds - (time.monotonic() - t0)))
        m1, c1, t1 = metrics(), cpu_seconds(chromium), time.monotonic()
        wall = t1 - t0
        what = f"{placed} Dragons placed" if args.dragon_every else "idle"
        print(f"{args.page} page, {what}, {wall:.1f} s, load average {os.getloadavg()[0]:.2f}")
        busy = m1["TaskDuration"] - m0["TaskDuration"]
        print(f"renderer main thread busy: {100 * busy / wall:.2f}% of a core")
        print(f"all Chromium processes:    {100 * (c1 - c0) / wall:.2f}% of a core")
        for name in ("RecalcStyleCount", "LayoutCount"):
            print(f"{name}: {m1[name] - m0[name]:.0f}")
        browser.close()
    server.should_exit = True


if __name__ == "__main__":
    main()
