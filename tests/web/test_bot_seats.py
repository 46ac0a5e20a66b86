"""Bot seats over HTTP: adding bots, playing against them, standing in for players, reclaiming."""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient

from app.main import create_app
from app.services.tables import presence
from app.services.tables.names import bot_name
from app.settings import Settings
from app.shared.clock import SYSTEM_CLOCK, Clock, FakeClock

GRACE_S = (
    1.0  # small, so the tests can outwait it; not so small that a busy machine misses a heartbeat
)


@pytest.fixture
def clock() -> Clock:
    """The app's clock: the machine's, unless a test moves a FakeClock (parametrize `clock`)."""
    return SYSTEM_CLOCK


@pytest.fixture
def live_client(
    database_url: str, make_settings: Callable[..., Settings], clock: Clock
) -> Iterator[TestClient]:
    """A client whose app runs its lifespan (so the bot runner plays), bots moving at once."""
    settings = make_settings(
        database_url,
        bot_delay_seconds=0,
        bot_budget_seconds=0.05,
        bot_grace_seconds=GRACE_S,
    )
    application = create_app(settings, clock)
    with TestClient(application) as client:  # enters the lifespan: runner and hub start
        yield client
    application.state.engine.dispose()


@pytest.fixture
def bot_app(live_client: TestClient) -> FastAPI:
    """The app behind `live_client`."""
    return live_client.app  # type: ignore[return-value]


@pytest.fixture
def player(bot_app: FastAPI) -> Iterator[Callable[[str], TestClient]]:
    """A signed-in guest with their own cookie jar."""
    clients: list[TestClient] = []

    def make(name: str) -> TestClient:
        client = TestClient(bot_app)
        clients.append(client)
        assert client.post("/api/session/guest", json={"name": name}).status_code == 200
        return client

    yield make
    for client in clients:
        client.close()


def _code(r: Any) -> tuple[int, str]:
    return r.status_code, r.json()["error"]["code"]


def _wait(check: Callable[[], bool], timeout: float = 20.0) -> None:
    deadline = time.monotonic() + timeout
    while not check():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.01)


def test_the_host_adds_and_removes_bots_before_the_start(
    player: Callable[[str], TestClient],
) -> None:
    host, guest = player("Nessie"), player("Morgawr")
    gid = host.post("/api/games", json={"players": 3}).json()["id"]
    assert _code(guest.post(f"/api/games/{gid}/bots", json={"level": "random"})) == (
        403,
        "not_host",
    )
    assert _code(host.post(f"/api/games/{gid}/bots", json={"level": "genius"})) == (
        422,
        "unknown_bot_level",
    )
    assert _code(host.post(f"/api/games/{gid}/bots", json={"level": "random", "x": 1})) == (
        422,
        "invalid_request",
    )
    r = host.post(f"/api/games/{gid}/bots", json={"level": "expert"})
    assert r.status_code == 200, r.text
    seat = r.json()["seats"][1]
    assert seat["bot_level"] == "expert" and seat["player"] is None
    assert seat["stand_in_for"] is None
    assert guest.post(f"/api/games/{gid}/join").json()["your_seat"] == 2
    assert _code(host.post(f"/api/games/{gid}/bots", json={"level": "random"})) == (
        409,
        "game_full",
    )
    assert _code(guest.delete(f"/api/games/{gid}/bots/1")) == (403, "not_host")
    assert _code(host.delete(f"/api/games/{gid}/bots/2")) == (409, "not_a_bot")
    assert _code(host.delete(f"/api/games/{gid}/bots/7")) == (404, "no_such_seat")
    r = host.delete(f"/api/games/{gid}/bots/1")
    assert r.status_code == 200 and r.json()["seats"][1]["bot_level"] is None
    assert host.post(f"/api/games/{gid}/bots").json()["seats"][1]["bot_level"] == "greedy"
    listed = {g["id"]: g for g in player("Eve").get("/api/games").json()["games"]}
    assert [s["bot_level"] for s in listed[gid]["seats"]] == [None, "greedy", None]
    assert host.post(f"/api/games/{gid}/start").status_code == 200
    assert _code(host.post(f"/api/games/{gid}/bots", json={"level": "random"})) == (
        409,
        "not_open",
    )
    assert _code(host.delete(f"/api/games/{gid}/bots/1")) == (409, "not_open")
    assert _code(TestClient(host.app).post(f"/api/games/{gid}/bots")) == (401, "not_signed_in")


@pytest.mark.slow  # a whole game against a bot
@pytest.mark.parametrize("level", ["greedy", "expert"])
def test_a_human_plays_a_bot_to_the_end(
    player: Callable[[str], TestClient], level: str, database_url: str
) -> None:
    if level == "expert" and not database_url.startswith("sqlite"):
        pytest.skip("one database is enough for the slow level")
    human = player("Nessie")
    gid = human.post("/api/games", json={"players": 2}).json()["id"]
    assert human.post(f"/api/games/{gid}/bots", json={"level": level}).status_code == 200
    assert human.post(f"/api/games/{gid}/start").status_code == 200
    rng = random.Random(7)
    waits: list[float] = []
    asked_at, bot_moving = time.perf_counter(), False
    for _ in range(5000):
        state = human.get(f"/api/games/{gid}/state").json()
        if state["status"] == "finished":
            break
        if not state["legal_actions"]:
            assert state["to_act"] == 1, "the human's turn with nothing to do"
            bot_moving = True
            time.sleep(0.002)  # the bot's turn: it answers by itself
            continue
        if bot_moving:  # how long the human waited for the bot's whole turn
            waits.append(time.perf_counter() - asked_at)
            bot_moving = False
        action = rng.choice(state["legal_actions"])
        r = human.post(
            f"/api/games/{gid}/actions", json={"version": state["version"], "action": action}
        )
        assert r.status_code == 200, r.text
        asked_at = time.perf_counter()
    game = human.get(f"/api/games/{gid}").json()
    assert game["status"] == "finished", "the game did not end"
    log = human.get(f"/api/games/{gid}/log").json()
    assert {m["seat"] for m in log["moves"]} == {0, 1}
    assert log["record"]["players"] == ["Nessie", f"{bot_name(gid, 1)} ({level} bot)"]
    print(
        f"\n{level}: {len(log['moves'])} moves; median wait for the human's turn "
        f"{1000 * sorted(waits)[len(waits) // 2]:.1f} ms, max {1000 * max(waits):.1f} ms"
    )


@pytest.mark.slow  # a whole game of bots
def test_a_table_of_bots_finishes_by_itself(player: Callable[[str], TestClient]) -> None:
    host = player("Nessie")
    gid = host.post("/api/games", json={"players": 3}).json()["id"]
    for level in ("random", "greedy"):
        assert host.post(f"/api/games/{gid}/bots", json={"level": level}).status_code == 200
    assert host.post(f"/api/games/{gid}/start").status_code == 200
    # The host lets a bot play their own seat: no human decides anything any more.
    r = host.post(f"/api/games/{gid}/seats/0/bot", json={"level": "random"})
    assert r.status_code == 200, r.text
    assert r.json()["seats"][0]["stand_in_for"] == "Nessie"
    _wait(lambda: host.get(f"/api/games/{gid}").json()["status"] == "finished", timeout=40)
    game = host.get(f"/api/games/{gid}").json()
    assert len(game["final_scores"]["players"]) == 3


def _live_pair(player: Callable[[str], TestClient]) -> tuple[int, TestClient, TestClient]:
    host, guest = player("Nessie"), player("Morgawr")
    gid = host.post("/api/games", json={"players": 2}).json()["id"]
    assert guest.post(f"/api/games/{gid}/join").status_code == 200
    assert host.post(f"/api/games/{gid}/start").status_code == 200
    return gid, host, guest


def test_a_player_who_left_is_replaced_and_takes_the_seat_back(
    player: Callable[[str], TestClient], live_client: TestClient, bot_app: FastAPI
) -> None:
    gid, host, guest = _live_pair(player)
    url = f"/api/games/{gid}/seats/1/bot"
    assert _code(host.post(url, json={"level": "random"})) == (409, "player_present")
    r = guest.post(f"/api/games/{gid}/leave")
    assert r.status_code == 200 and r.json()["seats"][1]["left"] is True
    assert _code(guest.post(f"/api/games/{gid}/seats/0/bot", json={"level": "random"})) == (
        403,
        "not_host",
    )
    assert _code(host.post(url, json={"level": "nobody"})) == (422, "unknown_bot_level")
    r = host.post(url, json={"level": "random"})
    assert r.status_code == 200, r.text
    seat = r.json()["seats"][1]
    assert seat["bot_level"] == "random" and seat["stand_in_for"] == "Morgawr"
    assert seat["player"]["display_name"] == "Morgawr"
    assert _code(host.post(url, json={"level": "random"})) == (409, "seat_has_bot")

    # The bot plays seat 1 while the host plays seat 0.
    for _ in range(30):
        state = host.get(f"/api/games/{gid}/state").json()
        if state["legal_actions"]:
            body = {"version": state["version"], "action": state["legal_actions"][0]}
            assert host.post(f"/api/games/{gid}/actions", json=body).status_code == 200
        else:
            time.sleep(0.005)
    log = host.get(f"/api/games/{gid}/log").json()
    assert 1 in {m["seat"] for m in log["moves"]}
    assert guest.get(f"/api/games/{gid}/state").json()["legal_actions"] == []
    body = {"version": 0, "action": {"type": "pass"}}
    assert _code(guest.post(f"/api/games/{gid}/actions", json=body)) == (409, "seat_has_bot")

    # Back again: only the owner may reclaim, and the bot stops.
    assert _code(host.post(f"/api/games/{gid}/seats/1/reclaim")) == (403, "not_your_seat")
    r = guest.post(f"/api/games/{gid}/seats/1/reclaim")
    assert r.status_code == 200, r.text
    seat = r.json()["seats"][1]
    assert seat["bot_level"] is None and seat["stand_in_for"] is None and seat["left"] is False
    assert guest.post(f"/api/games/{gid}/seats/1/reclaim").status_code == 200  # idempotent
    # The host plays on until seat 1 is to act: its owner's decision, which no bot takes.
    state = host.get(f"/api/games/{gid}/state").json()
    for _ in range(30):
        if state["to_act"] != 0:
            break
        body = {"version": state["version"], "action": state["legal_actions"][0]}
        assert host.post(f"/api/games/{gid}/actions", json=body).status_code == 200
        state = host.get(f"/api/games/{gid}/state").json()
    version = host.get(f"/api/games/{gid}").json()["version"]
    state = guest.get(f"/api/games/{gid}/state").json()
    assert state["to_act"] == 1
    assert state["legal_actions"] and state["version"] == version
    # Every change above poked the bot runner (on the app's loop, before its reply came back);
    # once it is idle it has looked at the game and left the decision to its owner.
    assert live_client.portal.call(bot_app.state.bot_runner.idle)
    assert guest.get(f"/api/games/{gid}/state").json()["version"] == version


@pytest.mark.parametrize("clock", [FakeClock()])
def test_only_a_disconnected_player_is_replaced_after_the_grace_period(
    player: Callable[[str], TestClient], monkeypatch: pytest.MonkeyPatch, clock: FakeClock
) -> None:
    """The app reads the time from the clock this test moves: no waiting, no stalls."""
    # Every request counts (no write throttling), as the tiny grace period needs.
    monkeypatch.setattr(presence, "MIN_WRITE_INTERVAL_S", 0.0)
    gid, host, guest = _live_pair(player)
    url = f"/api/games/{gid}/seats/1/bot"
    for _ in range(12):  # the guest keeps polling over twice the grace period: still here
        assert guest.get(f"/api/games/{gid}/state").status_code == 200
        clock.advance(GRACE_S / 6)
        r = host.post(url, json={"level": "greedy"})
        assert _code(r) == (409, "player_present"), r.text
    clock.advance(GRACE_S + 0.2)  # the guest went quiet
    r = host.post(url, json={"level": "greedy"})
    assert r.status_code == 200, r.text
    assert r.json()["seats"][1]["stand_in_for"] == "Morgawr"
    r = guest.post(f"/api/games/{gid}/seats/1/reclaim")
    assert r.status_code == 200 and r.json()["seats"][1]["bot_level"] is None
    # Only the host manages seats while the host is here.
    assert host.get(f"/api/games/{gid}/state").status_code == 200
    assert _code(guest.post(f"/api/games/{gid}/seats/0/bot", json={})) == (403, "not_host")
    assert _code(host.post(f"/api/games/{gid}/seats/5/bot", json={})) == (404, "no_such_seat")


def test_an_open_socket_keeps_the_player_present(
    live_client: TestClient, player: Callable[[str], TestClient], monkeypatch: pytest.MonkeyPatch
) -> None:
    # The room's heartbeat marks seated sockets seen; make it beat well inside the grace period.
    monkeypatch.setattr(live_client.app.state.realtime, "heartbeat_s", GRACE_S / 4)
    host = player("Nessie")
    gid = host.post("/api/games", json={"players": 2}).json()["id"]
    guest = live_client  # the socket runs on the app's own loop
    assert guest.post("/api/session/guest", json={"name": "Morgawr"}).status_code == 200
    assert guest.post(f"/api/games/{gid}/join").status_code == 200
    assert host.post(f"/api/games/{gid}/start").status_code == 200
    url = f"/api/games/{gid}/seats/1/bot"
    with guest.websocket_connect(f"/ws/games/{gid}") as ws:
        assert ws.receive_json()["type"]  # the first frame: the socket is being served
        # Real time here: the room's heartbeat (on the event loop's own clock) is what keeps
        # the player present, so the test outwaits it rather than moving a clock.
        time.sleep(2 * GRACE_S)  # no HTTP requests from the guest, only the socket
        assert _code(host.post(url, json={"level": "random"})) == (409, "player_present")
    time.sleep(GRACE_S + 0.3)  # disconnected past the grace period
    r = host.post(url, json={"level": "random"})
    assert r.status_code == 200, r.text


def test_a_restarted_server_resumes_a_bot_turn(
    database_url: str, make_settings: Callable[..., Settings]
) -> None:
    settings = make_settings(database_url, bot_delay_seconds=0, bot_sweep_seconds=0)
    first = create_app(settings)
    # No lifespan: this server plays no bots (as if it stopped before the bot's turn came).
    host = TestClient(first)
    assert host.post("/api/session/guest", json={"name": "Nessie"}).status_code == 200
    gid = host.post("/api/games", json={"players": 2}).json()["id"]
    assert host.post(f"/api/games/{gid}/bots", json={"level": "greedy"}).status_code == 200
    assert host.post(f"/api/games/{gid}/start").status_code == 200
    state = host.get(f"/api/games/{gid}/state").json()
    while state["to_act"] == 0:
        body = {"version": state["version"], "action": state["legal_actions"][0]}
        assert host.post(f"/api/games/{gid}/actions", json=body).status_code == 200
        state = host.get(f"/api/games/{gid}/state").json()
    waiting_at = state["version"]
    # Without its lifespan this app never started its bot runner: nothing can play the bot's
    # turn here (the second app below must find it waiting).
    assert first.state.bot_runner.loop is None
    assert host.get(f"/api/games/{gid}").json()["version"] == waiting_at  # nobody plays it
    host.close()
    first.state.engine.dispose()

    second = create_app(settings)
    with TestClient(second) as client:  # startup finds the waiting bot turn
        _wait(lambda: client.get(f"/api/games/{gid}").json()["version"] > waiting_at)
    second.state.engine.dispose()


def test_every_bot_seat_has_a_name_of_its_own(player: Callable[[str], TestClient]) -> None:
    """with several bots, the seats, the log's record and the table tell them apart."""
    host = player("Nessie")
    gid = host.post("/api/games", json={"players": 5}).json()["id"]
    for level in ("greedy", "greedy", "random", "greedy"):
        assert host.post(f"/api/games/{gid}/bots", json={"level": level}).status_code == 200
    seats = host.get(f"/api/games/{gid}").json()["seats"]
    names = [s["bot_name"] for s in seats[1:]]
    assert all(names) and len(set(names)) == 4, names
    assert seats[0]["bot_name"] is None  # a person's seat
