"""The Content-Security-Policy in Debian's Chromium: pages and the game socket work under it,
and an injected inline script does not run."""

from __future__ import annotations

import os
import time
from pathlib import Path
from typing import Any

import pytest

from tests.e2e.conftest import CHROMIUM_ARGS, FULL_CHROMIUM
from tests.ops.servers import serve, server_env

RECORD_VIOLATIONS = """
window.__csp = [];
document.addEventListener("securitypolicyviolation",
  (e) => window.__csp.push(`${e.violatedDirective} ${e.blockedURI}`));
"""
API = """async ([path, body]) => {
  const r = await fetch(path, {method: "POST", headers: {"content-type": "application/json"},
                               body: JSON.stringify(body ?? {})});
  return [r.status, await r.json()];
}"""


def _known_violations() -> set[str]:
    """templates/game.html still has an inline onclick (removed on another branch): until that
    lands, it is the one violation tolerated; after it, none is."""
    game = (Path(__file__).resolve().parents[2] / "templates" / "game.html").read_text()
    return {"script-src-attr inline"} if "onclick=" in game else set()


@pytest.mark.browser
@pytest.mark.server
@pytest.mark.timeout(240)
def test_pages_and_the_game_socket_work_under_the_csp(tmp_path: Path) -> None:
    if not Path(FULL_CHROMIUM).exists():
        if os.environ.get("SEADRAGONS_REQUIRE_SERVICES") == "1":
            pytest.fail(f"{FULL_CHROMIUM} is required (SEADRAGONS_REQUIRE_SERVICES=1)")
        pytest.skip(f"{FULL_CHROMIUM} is not installed")
    from playwright.sync_api import sync_playwright

    with (
        serve(server_env(tmp_path, BOT_DELAY_SECONDS="0.2"), tmp_path / "server.log") as server,
        sync_playwright() as pw,
    ):
        # The policy as a browser people use enforces it: the full one, not the headless shell.
        browser = pw.chromium.launch(
            executable_path=FULL_CHROMIUM, args=CHROMIUM_ARGS, headless=True
        )
        page = browser.new_page()
        page.add_init_script(RECORD_VIOLATIONS)
        response = page.goto(server.url + "/")
        assert response is not None
        assert "script-src 'self'" in response.headers["content-security-policy"]
        # The page's own requests carry its Origin: the Origin check lets them through.
        status, _ = page.evaluate(API, ["/api/session/guest", {"name": "Csp"}])
        assert status == 200
        status, game = page.evaluate(API, ["/api/games", {"players": 2}])
        assert status == 201
        gid = game["id"]
        assert page.evaluate(API, [f"/api/games/{gid}/bots", {"level": "random"}])[0] == 200
        assert page.evaluate(API, [f"/api/games/{gid}/start", None])[0] == 200

        sockets: list[Any] = []
        frames: list[Any] = []

        def on_socket(ws: Any) -> None:
            sockets.append(ws)
            ws.on("framereceived", lambda payload: frames.append(payload))

        page.on("websocket", on_socket)
        page.goto(f"{server.url}/games/{gid}")
        page.wait_for_selector("#players .player", timeout=30000)
        deadline = time.monotonic() + 30
        while not frames and time.monotonic() < deadline:
            page.wait_for_timeout(50)  # lets Playwright deliver the socket's events
        assert sockets and frames, "no game socket, or it received nothing"
        assert sockets[0].url.startswith(f"ws://127.0.0.1:{server.port}/ws/games/{gid}")
        assert not sockets[0].is_closed()
        assert set(page.evaluate("window.__csp")) <= _known_violations()

        # The policy is enforced: an injected inline script is refused, and reported.
        page.evaluate(
            "() => { const s = document.createElement('script');"
            " s.textContent = 'window.__ran = 1'; document.head.appendChild(s); }"
        )
        page.wait_for_function("() => window.__csp.length > 0", timeout=10000)
        assert page.evaluate("window.__ran") is None
        assert any("script-src" in v for v in page.evaluate("window.__csp"))
        browser.close()
