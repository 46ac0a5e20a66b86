"""Render the app icons (static/img/icon-192.png, icon-512.png) from static/img/favicon.svg with
headless Chromium: `python tools/render_icons.py` (needs /usr/bin/chromium). The PNGs are
committed; run this again only when the favicon changes."""

from __future__ import annotations

import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SVG = ROOT / "static" / "img" / "favicon.svg"


def render(size: int, out: Path, chromium: str = "/usr/bin/chromium") -> None:
    """One square PNG of `size` pixels, the icon filling it, transparent corners."""
    svg = SVG.read_text()
    page = (
        "<!doctype html><html><head><style>html,body{margin:0;background:transparent}"
        f"svg{{display:block;width:{size}px;height:{size}px}}</style></head><body>{svg}</body></html>"
    )
    with tempfile.TemporaryDirectory() as tmp:
        html = Path(tmp) / "icon.html"
        html.write_text(page)
        subprocess.run(
            [
                chromium,
                "--headless",
                "--no-sandbox",
                "--disable-gpu",
                "--hide-scrollbars",
                "--default-background-color=00000000",
                f"--window-size={size},{size}",
                f"--screenshot={out}",
                html.as_uri(),
            ],
            check=True,
            capture_output=True,
            timeout=60,
        )


def main() -> int:
    for size in (192, 512):
        render(size, ROOT / "static" / "img" / f"icon-{size}.png")
    return 0


if __name__ == "__main__":
    sys.exit(main())
