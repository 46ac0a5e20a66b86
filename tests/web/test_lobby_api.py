"""Creating, listing, joining, leaving and starting tables."""

from __future__ import annotations

from collections.abc import Callable

from fastapi.testclient import TestClient

Factory = Callable[..., TestClient]


def test_create_game_seats_the_host(client_factory: Factory) -> None:
    host = client_factory("Host")
    r = host.post("/api/games", json={"players": 3, "expansion": False})
    assert r.status_code == 201, r.text
    game = r.json()
    assert game["status"] == "open" and game["visibility"] == "public"
    assert game["players"] == 3 and game["your_seat"] == 0
    assert game["invite_code"]
    assert [s["player"]["display_name"] if s["player"] else None for s in game["seats"]] == [
        "Host",
        None,
        None,
    ]
    assert "seed" not in r.text


def test_create_game_needs_a_session_and_valid_options(client_factory: Factory) -> None:
    anon = client_factory()
    assert anon.post("/api/games", json={"players": 2}).status_code == 401
    host = client_factory("Host")
    for body in [{"players": 1}, {"players": 6}, {"players": 2, "visibility": "secret"}, {}]:
        r = host.post("/api/games", json=body)
        assert r.status_code == 422, body
        assert r.json()["error"]["code"] == "invalid_request"
    r = host.post("/api/games", json={"players": 2, "first_player": 3})
    assert r.status_code == 422 and r.json()["error"]["code"] == "invalid_options"
    r = host.post("/api/games", json={"players": 2, "colour": "red"})
    assert r.status_code == 422


def test_list_shows_public_open_games_only(client_factory: Factory) -> None:
    host = client_factory("Host")
    public = host.post("/api/games", json={"players": 2}).json()
    private = host.post("/api/games", json={"players": 2, "visibility": "private"}).json()
    listed = [g["id"] for g in client_factory().get("/api/games").json()["games"]]
    assert public["id"] in listed and private["id"] not in listed
    assert client_factory().get("/api/games?status=live").json()["games"] == []
    bad = client_factory().get("/api/games?status=whatever")
    assert bad.status_code == 422 and bad.json()["error"]["code"] == "invalid_request"
    # Strangers do not see the invite code of public games either.
    assert all(g["invite_code"] is None for g in client_factory().get("/api/games").json()["games"])


def test_join_fill_and_start(client_factory: Factory) -> None:
    host, guest = client_factory("Host"), client_factory("Guest")
    game = host.post("/api/games", json={"players": 2}).json()
    gid = game["id"]
    r = host.post(f"/api/games/{gid}/start")
    assert r.status_code == 409 and r.json()["error"]["code"] == "seats_not_full"
    r = guest.post(f"/api/games/{gid}/join")
    assert r.status_code == 200 and r.json()["your_seat"] == 1
    assert guest.post(f"/api/games/{gid}/join").json()["your_seat"] == 1  # idempotent
    late = client_factory("Late")
    r = late.post(f"/api/games/{gid}/join")
    assert r.status_code == 409 and r.json()["error"]["code"] == "game_full"
    r = guest.post(f"/api/games/{gid}/start")
    assert r.status_code == 403 and r.json()["error"]["code"] == "not_host"
    r = host.post(f"/api/games/{gid}/start")
    assert r.status_code == 200, r.text
    assert r.json()["status"] == "live" and r.json()["to_act"] in (0, 1)
    assert "seed" not in r.text
    r = host.post(f"/api/games/{gid}/start")
    assert r.status_code == 409 and r.json()["error"]["code"] == "not_open"
    # Leaving a live game keeps the seat, marked as left (a bot may stand in: test_bot_seats).
    r = guest.post(f"/api/games/{gid}/leave")
    assert r.status_code == 200 and r.json()["seats"][1]["left"] is True
    live = [g["id"] for g in client_factory().get("/api/games?status=live").json()["games"]]
    assert gid in live


def test_a_second_player_may_not_join_under_a_name_already_at_the_table(
    client_factory: Factory,
) -> None:
    host = client_factory("Alice")
    gid = host.post("/api/games", json={"players": 3}).json()["id"]
    for name in ("Alice", "ALICE"):
        r = client_factory(name).post(f"/api/games/{gid}/join")
        assert r.status_code == 409 and r.json()["error"]["code"] == "name_taken", r.text
        assert "Alice" in r.json()["error"]["message"]
    spanish = client_factory("alice")
    r = spanish.post(f"/api/games/{gid}/join", headers={"accept-language": "es"})
    assert r.status_code == 409 and "ya se llama Alice" in r.json()["error"]["message"], r.text
    seats = host.get(f"/api/games/{gid}").json()["seats"]
    assert [s["player"] is not None for s in seats] == [True, False, False]  # nothing changed
    assert client_factory("Alicia").post(f"/api/games/{gid}/join").status_code == 200


def test_private_game_needs_the_invite_code(client_factory: Factory) -> None:
    host = client_factory("Host")
    game = host.post("/api/games", json={"players": 2, "visibility": "private"}).json()
    gid, code = game["id"], game["invite_code"]
    stranger = client_factory("Stranger")
    # Without the code a private game is indistinguishable from a missing one.
    missing = stranger.get("/api/games/999999").json()["error"]["message"]
    r = stranger.get(f"/api/games/{gid}")
    assert r.status_code == 404 and r.json()["error"]["code"] == "not_found"
    assert r.json()["error"]["message"] == missing.replace("999999", str(gid))
    r = stranger.post(f"/api/games/{gid}/join", json={"invite_code": "nope"})
    assert r.status_code == 404 and r.json()["error"]["code"] == "not_found"
    assert stranger.get(f"/api/games/{gid}?invite_code={code}").status_code == 200
    r = stranger.post(f"/api/games/{gid}/join", json={"invite_code": code})
    assert r.status_code == 200 and r.json()["your_seat"] == 1
    # Once seated, no code is needed any more, and the player sees it to invite others.
    r = stranger.get(f"/api/games/{gid}")
    assert r.status_code == 200 and r.json()["invite_code"] == code


def test_leave_passes_host_and_last_leaver_cancels(client_factory: Factory) -> None:
    host, guest = client_factory("Host"), client_factory("Guest")
    gid = host.post("/api/games", json={"players": 3}).json()["id"]
    guest_id = guest.get("/api/me").json()["id"]
    guest.post(f"/api/games/{gid}/join")
    r = host.post(f"/api/games/{gid}/leave")
    assert r.status_code == 200
    assert r.json()["host_id"] == guest_id and r.json()["your_seat"] is None
    r = host.post(f"/api/games/{gid}/leave")
    assert r.status_code == 403 and r.json()["error"]["code"] == "not_seated"
    r = guest.post(f"/api/games/{gid}/leave")
    assert r.json()["status"] == "cancelled"
    assert guest.get("/api/me/games").json()["games"] == []


def test_my_games_lists_open_and_live(client_factory: Factory) -> None:
    host, guest = client_factory("Host"), client_factory("Guest")
    a = host.post("/api/games", json={"players": 2}).json()["id"]
    b = host.post("/api/games", json={"players": 2}).json()["id"]
    guest.post(f"/api/games/{a}/join")
    host.post(f"/api/games/{a}/start")
    mine = {g["id"]: g for g in host.get("/api/me/games").json()["games"]}
    assert set(mine) == {a, b}
    assert mine[a]["status"] == "live" and mine[b]["status"] == "open"
    to_act = mine[a]["to_act"]
    assert mine[a]["your_turn"] == (to_act == 0)
    assert {g["id"] for g in guest.get("/api/me/games").json()["games"]} == {a}


def test_unknown_game_is_404(client_factory: Factory) -> None:
    client = client_factory("Someone")
    for method, path in [
        ("get", "/api/games/999999"),
        ("post", "/api/games/999999/join"),
        ("post", "/api/games/999999/start"),
        ("get", "/api/games/999999/state"),
        ("get", "/api/games/999999/log"),
    ]:
        r = getattr(client, method)(path)
        assert r.status_code == 404, path
        assert r.json()["error"]["code"] == "not_found"
