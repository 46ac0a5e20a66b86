"""What a browser test's screenshot costs the machine, by format and extent.

The browser tests save over a hundred screenshots a run for people to look at
(tests/e2e/helpers.py `shot`). One mid-game table page of the stub server (tests/e2e/stub_server.py)
at 1400x950, in the headless shell the tests drive, is captured again and again, in interleaved
rounds so the machine's noise falls on every way:
- `png, full page`: what `shot` saves;
- `jpeg, full page`: the cheaper format (quality `JPEG_QUALITY`), lossy;
- `png, viewport`: the visible part only, for scale (no relayout to the page's whole height).
Reported: the machine's busy CPU-seconds and the wall time per screenshot (medians of the
rounds), the ratio to PNG, and the file's size. Run it on a quiet machine.

    .venv/bin/python bench/browser_screenshot.py --rounds 5 --shots 5
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.browser_page_load import busy_seconds, load, start_stub_server  # noqa: E402
from tests.e2e.conftest import CHROMIUM, CHROMIUM_ARGS  # noqa: E402

JPEG_QUALITY = 90  # enough to read every word of a page
WAYS: dict[str, dict[str, Any]] = {
    "png, full page": {"type": "png", "full_page": True},
    "jpeg, full page": {"type": "jpeg", "quality": JPEG_QUALITY, "full_page": True},
    "png, viewport": {"type": "png", "full_page": False},
}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--shots", type=int, default=5, help="screenshots per way per round")
    args = parser.parse_args()

    from playwright.sync_api import sync_playwright

    server, url = start_stub_server()

    cpu: dict[str, list[float]] = {name: [] for name in WAYS}
    wall: dict[str, list[float]] = {name: [] for name in WAYS}
    size: dict[str, int] = {}
    with tempfile.TemporaryDirectory() as tmp, sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True)
        page = browser.new_context(viewport={"width": 1400, "height": 950}).new_page()
        load(page, url)
        for options in WAYS.values():  # warm
            page.screenshot(path=str(Path(tmp) / f"warm.{options['type']}"), **options)
        for _ in range(args.rounds):
            for name, options in WAYS.items():
                path = Path(tmp) / f"{len(size)}.{options['type']}"
                start, began = busy_seconds(), time.perf_counter()
                for _ in range(args.shots):
                    page.screenshot(path=str(path), **options)
                cpu[name].append((busy_seconds() - start) / args.shots)
                wall[name].append((time.perf_counter() - began) / args.shots)
                size[name] = path.stat().st_size
        browser.close()
    server.should_exit = True

    base = statistics.median(cpu["png, full page"])
    print(f"{args.rounds} rounds of {args.shots} screenshots per way, a 1400x950 table page")
    print("| way | CPU-s a shot (median) | wall (median) | ratio to PNG | file |")
    print("| --- | --- | --- | --- | --- |")
    for name in WAYS:
        med = statistics.median(cpu[name])
        print(
            f"| {name} | {med:.3f} | {statistics.median(wall[name]):.3f} s "
            f"| {med / base:.2f} | {size[name] // 1000} kB |"
        )


if __name__ == "__main__":
    main()
