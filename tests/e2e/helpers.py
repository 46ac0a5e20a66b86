"""Helpers shared by the browser tests."""

from __future__ import annotations

from pathlib import Path
from typing import Any

ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"
# Whether the run was asked for its screenshots (`pytest --screenshots`, set by
# tests/conftest.py). They are for a person to look at, and a run nobody looks at would pay for
# some 150 of them (about 40 CPU-seconds of the browser tests, docs/testing.md); a failed
# browser test saves its open pages whatever this says (tests/e2e/conftest.py).
SCREENSHOTS = {"wanted": False}


def shot(page: Any, name: str, full_page: bool = True) -> Path | None:
    """Save a screenshot of a page (or of one element, given a locator) as
    test-artifacts/<name>.png when the run asked for screenshots; the path, or None."""
    if not SCREENSHOTS["wanted"]:
        return None
    ARTIFACTS.mkdir(exist_ok=True)
    path = ARTIFACTS / f"{name}.png"
    if hasattr(page, "goto"):
        page.screenshot(path=str(path), full_page=full_page)
    else:  # a locator: the element alone
        page.screenshot(path=str(path))
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
