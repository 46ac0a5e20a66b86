"""Helpers shared by the browser tests."""

from __future__ import annotations

from pathlib import Path
from typing import Any

ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"


def shot(page: Any, name: str, full_page: bool = True) -> Path:
    """Save a screenshot as test-artifacts/<name>.png."""
    ARTIFACTS.mkdir(exist_ok=True)
    path = ARTIFACTS / f"{name}.png"
    page.screenshot(path=str(path), full_page=full_page)
    return path


def watch_console(page: Any) -> list[str]:
    """Collect page errors and console errors, so a test can assert the page ran cleanly."""
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(f"pageerror: {e}"))

    def on_console(m: Any) -> None:
        # A refused WebSocket handshake is expected until the socket endpoint exists: the
        # client then polls. Anything else logged as an error is a bug.
        if m.type == "error" and "WebSocket" not in m.text:
            errors.append(f"console: {m.text}")

    page.on("console", on_console)
    return errors
