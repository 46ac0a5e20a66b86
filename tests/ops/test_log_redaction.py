"""A real server's logs never carry invite codes or email link tokens (text and JSON formats):
uvicorn's access and WebSocket lines, and our own JSON access lines."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from websockets.asyncio.client import connect

from tests.ops.servers import serve, server_env


async def _open_socket(url: str, cookie: str) -> None:
    async with connect(url, additional_headers={"Cookie": cookie}) as ws:
        await asyncio.wait_for(ws.recv(), 10)  # the socket was accepted and served


@pytest.mark.server
@pytest.mark.parametrize("fmt", ["text", "json"])
def test_invite_codes_and_tokens_are_redacted_in_every_log_line(fmt: str, tmp_path: Path) -> None:
    env = server_env(tmp_path, LOG_FORMAT=fmt, DATABASE_URL=f"sqlite:///{tmp_path / 'l.db'}")
    with serve(env, tmp_path / "server.log") as server:
        with server.client() as host, server.client() as friend:
            host.post("/api/session/guest", json={"name": "Host"})
            game = host.post("/api/games", json={"players": 3, "visibility": "private"}).json()
            gid, code = game["id"], game["invite_code"]
            friend.post("/api/session/guest", json={"name": "Friend"})
            assert friend.get(f"/api/invites/{code}").status_code == 200
            assert friend.get(f"/join/{code}").status_code == 200
            assert friend.get(f"/api/games/{gid}?invite_code={code}").status_code == 200
            assert friend.get(f"/games/{gid}?code={code}").status_code == 200
            friend.get("/account/verify?token=SECRETTOKEN123")
            cookie = f"sd_session={friend.cookies['sd_session']}"
            ws_url = server.url.replace("http://", "ws://") + f"/ws/games/{gid}?invite_code={code}"
            asyncio.run(_open_socket(ws_url, cookie))
            # The lines are there, only without the secrets.
            assert friend.get("/api/invites/unknown-code-zz").status_code == 404
        log = server.log_text()
    assert "WebSocket" in log, log[-3000:]
    assert "/api/invites/[redacted]" in log and "/join/[redacted]" in log, log[-3000:]
    assert code not in log, log[-3000:]
    assert "SECRETTOKEN123" not in log and "unknown-code-zz" not in log
    assert "invite_code=[redacted]" in log and "code=[redacted]" in log
