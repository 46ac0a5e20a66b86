"""Two `seadragons serve` instances on one Postgres: each timeout is acted on exactly once."""

from __future__ import annotations

import re
import time
from collections import Counter
from pathlib import Path

import httpx
import pytest

from tests.realtime.helpers import Server


@pytest.mark.server
@pytest.mark.timeout(120)
def test_two_instances_act_on_each_timeout_once(
    tmp_path: Path, make_migrated_postgres_db: object
) -> None:
    url = make_migrated_postgres_db()  # type: ignore[operator]
    servers = []
    for name in ("a", "b"):
        data = tmp_path / name
        data.mkdir()
        srv = Server(data, url, None)
        # Both sweep for timeouts and for bot turns several times a second: a real race.
        srv.env.update(
            SEADRAGONS_CLOCK_SWEEP_SECONDS="0.05",
            SEADRAGONS_BOT_SWEEP_SECONDS="0.05",
            SEADRAGONS_BOT_DELAY_SECONDS="0.2",
        )
        servers.append(srv.start())
    a, b = servers
    try:
        with (
            httpx.Client(base_url=a.http, timeout=10) as ann,
            httpx.Client(base_url=b.http, timeout=10) as bob,
        ):
            ann.post("/api/session/guest", json={"name": "Ann"})
            bob.post("/api/session/guest", json={"name": "Bob"})
            clock = {"mode": "daily", "per_turn": 2, "grace": 0}  # a bot at once
            game = ann.post(
                "/api/games", json={"players": 2, "first_player": 0, "clock": clock}
            ).json()
            gid = game["id"]
            bob.post(f"/api/games/{gid}/join", json={"invite_code": game["invite_code"]})
            assert ann.post(f"/api/games/{gid}/start").status_code == 200
            # Nobody plays: turn 1 (Ann) and turn 2 (Bob) run out, a bot plays each.
            deadline = time.monotonic() + 60
            while bob.get(f"/api/games/{gid}/state").json()["clock"]["turn"] < 3:
                assert time.monotonic() < deadline, "the timeouts were not acted on"
                time.sleep(0.1)
            log = ann.get(f"/api/games/{gid}/log").json()
            state = ann.get(f"/api/games/{gid}/state").json()
    finally:
        for srv in servers:
            srv.stop()
    claims = Counter(
        int(turn)
        for srv in servers
        for turn in re.findall(
            rf"clock: game {gid} seat \d ran out of time on turn (\d+)", srv.log.read_text()
        )
    )
    assert claims[1] == 1 and claims[2] == 1, claims  # one timeout each, whichever instance won
    by_instance = [len(re.findall(rf"clock: game {gid} ", srv.log.read_text())) for srv in servers]
    print(f"\ntimeouts claimed per instance: {by_instance}")
    # Every decision of those two turns was played once, by a bot, in order: one move per
    # version, each marked as a timeout move.
    moves = log["moves"]
    assert [m["seq"] for m in moves] == list(range(1, len(moves) + 1))
    turns: list[list[dict[str, object]]] = [[]]
    for move in moves:
        turns[-1].append(move)
        if any(ev["type"] == "turn_ended" for ev in move["events"]):
            turns.append([])
    assert [{m["seat"] for m in t} for t in turns[:2]] == [{0}, {1}]
    assert all(m["timeout"] for t in turns[:2] for m in t)
    assert state["clock"]["turn"] >= 3
