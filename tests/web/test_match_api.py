"""Quick match over HTTP: /api/match (join, wait, leave, bots), its refusals and limits, and
two app instances on one Postgres seating one table."""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

import pytest
from fastapi.testclient import TestClient

from app.main import create_app
from app.settings import Settings

TWO = {"players": 2, "expansion": False, "pace": "live"}


def test_two_players_land_at_one_table(client_factory: Callable[..., TestClient]) -> None:
    ann, bob = client_factory("Ann"), client_factory("Bob")
    first = ann.post("/api/match", json=TWO)
    assert first.status_code == 201, first.text
    mine = first.json()
    assert (mine["status"], mine["waiting"], mine["players"]) == ("waiting", 1, 2)
    second = bob.post("/api/match", json=TWO).json()
    assert second["status"] == "matched"
    seen = ann.post(f"/api/match/{mine['id']}/wait").json()  # Ann's waiting page learns it
    assert seen["status"] == "matched" and seen["game_id"] == second["game_id"]
    game = ann.get(f"/api/games/{seen['game_id']}").json()
    assert game["status"] == "live" and game["your_seat"] is not None
    assert bob.get(f"/api/games/{seen['game_id']}").json()["your_seat"] is not None
    assert ann.delete(f"/api/match/{mine['id']}").json()["error"]["code"] == "already_matched"


def test_any_and_leave(client_factory: Callable[..., TestClient]) -> None:
    ann = client_factory("Ann")
    r = ann.post("/api/match", json={"players": "any", "pace": "daily"})
    assert r.status_code == 201 and r.json()["players"] == "any"
    assert [e["id"] for e in ann.get("/api/match").json()["entries"]] == [r.json()["id"]]
    assert ann.delete(f"/api/match/{r.json()['id']}").status_code == 204
    assert ann.get("/api/match").json()["entries"] == []
    assert ann.get(f"/api/match/{r.json()['id']}").json()["error"]["code"] == "not_found"


@pytest.mark.parametrize(
    "body",
    [
        {"players": 6},
        {"players": 1},
        {"players": "3"},
        {"players": 3, "pace": "weekly"},
        {"players": 3, "user_id": 1},  # an entry for someone else cannot even be asked for
        {"players": 3, "expansion": "yes"},
    ],
)
def test_a_malformed_choice_is_refused_and_nothing_stored(
    client_factory: Callable[..., TestClient], body: dict[str, Any]
) -> None:
    ann = client_factory("Ann")
    r = ann.post("/api/match", json=body)
    assert r.status_code == 422 and r.json()["error"]["code"] == "invalid_request"
    assert ann.get("/api/match").json()["entries"] == []


def test_someone_elses_entry_does_not_exist_for_you(
    client_factory: Callable[..., TestClient],
) -> None:
    ann, eve = client_factory("Ann"), client_factory("Eve")
    entry = ann.post("/api/match", json={"players": 3}).json()["id"]
    for method, path in (
        ("get", f"/api/match/{entry}"),
        ("post", f"/api/match/{entry}/wait"),
        ("post", f"/api/match/{entry}/bots"),
        ("delete", f"/api/match/{entry}"),
    ):
        r = getattr(eve, method)(path)
        assert r.status_code == 404 and r.json()["error"]["code"] == "not_found", path
    assert ann.get(f"/api/match/{entry}").json()["status"] == "waiting"
    assert client_factory().post("/api/match", json=TWO).status_code == 401


def test_rated_pools_are_for_accounts(client_factory: Callable[..., TestClient]) -> None:
    guest = client_factory("Ann")
    r = guest.post("/api/match", json={**TWO, "rated": True})
    assert r.status_code == 403 and r.json()["error"]["code"] == "account_required"
    assert guest.get("/api/match").json()["entries"] == []
    account = client_factory()
    assert account.post(
        "/api/users", json={"username": "ann", "password": "long-password"}
    ).status_code in (200, 201)
    assert account.post("/api/match", json={**TWO, "rated": True}).status_code == 201


def test_bots_are_refused_before_the_wait(client_factory: Callable[..., TestClient]) -> None:
    ann = client_factory("Ann")
    entry = ann.post("/api/match", json={"players": 3}).json()["id"]
    r = ann.post(f"/api/match/{entry}/bots")
    assert r.status_code == 409 and r.json()["error"]["code"] == "too_early"
    assert int(r.headers["retry-after"]) >= 1


def _app(url: str, make_settings: Callable[..., Settings], **extra: Any) -> Any:
    return create_app(make_settings(url, **extra))


def test_a_flood_of_entries_is_limited_per_user_and_address(
    sqlite_url: str, make_settings: Callable[..., Settings]
) -> None:
    app = _app(
        sqlite_url,
        make_settings,
        match_limits_per_user="3/minute",
        match_limits_per_address="5/minute",
        match_max_pools_per_user=2,
    )
    try:
        with TestClient(app) as ann, TestClient(app) as bob:
            ann.post("/api/session/guest", json={"name": "Ann"})
            bob.post("/api/session/guest", json={"name": "Bob"})
            codes = [ann.post("/api/match", json={"players": p}).status_code for p in (3, 4)]
            assert codes == [201, 201]
            capped = ann.post("/api/match", json={"players": 5})
            assert (capped.status_code, capped.json()["error"]["code"]) == (429, "too_many_pools")
            flood = ann.post("/api/match", json={"players": 5})
            assert (flood.status_code, flood.json()["error"]["code"]) == (429, "too_many_joins")
            assert "retry-after" in flood.headers
            assert len(ann.get("/api/match").json()["entries"]) == 2
            # The address's 5 a minute: Ann's 3 within her own limit count, Bob has two left.
            for players in (5, 4):
                r = bob.post("/api/match", json={"players": players, "pace": "daily"})
                assert r.status_code == 201
            again = bob.post("/api/match", json={"players": 3, "pace": "daily"})
            assert again.json()["error"]["code"] == "too_many_joins"
            assert len(bob.get("/api/match").json()["entries"]) == 2
    finally:
        app.state.engine.dispose()


def test_two_instances_on_one_postgres_seat_one_table(
    make_migrated_postgres_db: Callable[[], str], make_settings: Callable[..., Settings]
) -> None:
    """Two apps (as two servers would be) share one database and nothing else: players on
    either, joining at once, are seated at whole tables, each once."""
    url = make_migrated_postgres_db()
    apps = [_app(url, make_settings), _app(url, make_settings)]
    try:
        clients = [TestClient(apps[i % 2]) for i in range(12)]
        for i, c in enumerate(clients):
            assert c.post("/api/session/guest", json={"name": f"P{i}"}).status_code == 200
        barrier = threading.Barrier(12)
        answers: list[Any] = [None] * 12

        def join(i: int) -> None:
            barrier.wait(10)
            answers[i] = clients[i].post("/api/match", json={"players": 3}).json()

        threads = [threading.Thread(target=join, args=(i,)) for i in range(12)]
        for t in threads:
            t.start()
        for t in threads:
            t.join(60)
        views = [clients[i].post(f"/api/match/{answers[i]['id']}/wait").json() for i in range(12)]
        assert all(v["status"] == "matched" for v in views), views
        tables: dict[int, list[int]] = {}
        for i, v in enumerate(views):
            tables.setdefault(v["game_id"], []).append(i)
        assert sorted(len(p) for p in tables.values()) == [3, 3, 3, 3]
        for gid, players in tables.items():
            game = clients[players[0]].get(f"/api/games/{gid}").json()
            names = sorted(s["player"]["display_name"] for s in game["seats"])
            assert game["status"] == "live"
            assert names == sorted(f"P{i}" for i in players)
        for c in clients:
            c.close()
    finally:
        for a in apps:
            a.state.engine.dispose()


def test_the_home_page_leads_a_returning_player_with_their_games(
    client_factory: Callable[..., TestClient],
) -> None:
    """A newcomer reads what the game is, then Play now; a player with games finds them first,
    then Play now (the order comes from the server, not from a script)."""
    stranger = client_factory().get("/").text
    assert stranger.index('class="hero"') < stranger.index('id="play-now"')
    assert stranger.index('id="play-now"') < stranger.index("your-games")
    ann = client_factory("Ann")
    assert ann.post("/api/games", json={"players": 2}).status_code == 201
    page = ann.get("/").text
    assert page.index("your-games") < page.index('id="play-now"') < page.index('class="hero"')
