"""Two `seadragons serve` processes on one Postgres: players spread over both, joining one pool
at once, are seated at whole tables, each once, and every waiting page (polling whichever
instance it reaches) learns its table."""

from __future__ import annotations

import threading
import time
from collections import Counter
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.realtime.helpers import ORIGIN, Server


@pytest.mark.server
@pytest.mark.timeout(120)
def test_two_server_processes_fill_one_pool(tmp_path: Path, make_migrated_postgres_db: Any) -> None:
    url = make_migrated_postgres_db()
    servers = []
    for name in ("a", "b"):
        data = tmp_path / name
        data.mkdir()
        servers.append(Server(data, url, None).start())
    try:
        clients = [
            httpx.Client(base_url=servers[i % 2].http, timeout=20, headers={"origin": ORIGIN})
            for i in range(10)
        ]
        for i, c in enumerate(clients):
            assert c.post("/api/session/guest", json={"name": f"Player {i}"}).status_code == 200
        barrier = threading.Barrier(10)
        entries: list[Any] = [None] * 10

        def join(i: int) -> None:
            barrier.wait(10)
            entries[i] = clients[i].post("/api/match", json={"players": 2, "pace": "daily"}).json()

        threads = [threading.Thread(target=join, args=(i,)) for i in range(10)]
        for t in threads:
            t.start()
        for t in threads:
            t.join(60)
        # Each waiting page polls; the other instance's client may be the one that learns it.
        seen: dict[int, int] = {}
        deadline = time.monotonic() + 30
        while len(seen) < 10:
            assert time.monotonic() < deadline, seen
            for i, c in enumerate(clients):
                if i not in seen:
                    view = c.post(f"/api/match/{entries[i]['id']}/wait").json()
                    if view["status"] == "matched":
                        seen[i] = view["game_id"]
        assert sorted(Counter(seen.values()).values()) == [2] * 5  # five whole 2-player tables
        for i, gid in seen.items():
            game = clients[i].get(f"/api/games/{gid}").json()
            assert game["status"] == "live" and game["your_seat"] is not None
        for c in clients:
            c.close()
    finally:
        for srv in servers:
            srv.stop()
    for srv in servers:
        assert "Traceback" not in srv.log.read_text()
