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


def watch_console(page: Any, errors: list[str] | None = None) -> list[str]:
    """Collect page errors and console errors, so a test can assert the page ran cleanly."""
    errors = [] if errors is None else errors
    page.on("pageerror", lambda e: errors.append(f"pageerror: {e}"))

    def on_console(m: Any) -> None:
        # A refused WebSocket handshake is expected against the stub server (it has no socket
        # endpoint): the client then polls. 409 is a lost race the client recovers from.
        # Anything else logged as an error is a bug: a signed-out page asks GET /api/session,
        # which answers 200, so not even a 401 is expected any more.
        expected = ("WebSocket", "status of 409")
        if m.type == "error" and not any(x in m.text for x in expected):
            errors.append(f"console: {m.text}")

    page.on("console", on_console)
    return errors


# Every finite animation jumped to its end, after two frames (so the last render's transitions
# have started): what the page shows once it has settled, without waiting out a turn banner's
# pulse (three 1.6 s beats) at every check. Endless ones (a lesson's target) are left running.
SETTLE = """() => new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)))
  .then(() => document.getAnimations()
    .filter(a => a.effect?.getTiming().iterations !== Infinity)
    .forEach(a => { try { a.finish(); } catch (e) { /* an animation that cannot end */ } }))"""


def settle(page: Any) -> None:
    """Let the page settle: colours and boxes are checked as they end up, not half-way."""
    page.evaluate(SETTLE)
