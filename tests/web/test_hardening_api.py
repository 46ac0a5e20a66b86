"""Probes over HTTP: large integers, private games, Origin, headers, limits."""

from __future__ import annotations

from collections.abc import Callable, Iterator

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient

from app.main import create_app
from app.settings import Settings

Factory = Callable[..., TestClient]
BIG = 2**31  # one past the largest id a 32-bit column can hold


def test_large_integers_are_refused_not_500(client_factory: Factory) -> None:
    """on Postgres these used to raise inside the driver (500)."""
    client = client_factory("Counter")
    gid = client.post("/api/games", json={"players": 2}).json()["id"]
    for path in (
        f"/api/games/{BIG}",
        f"/api/games/{BIG}/state",
        f"/api/games/{BIG}/log",
        f"/api/games/{gid}/log?since={BIG}",
        "/api/games/99999999999999999999999",
    ):
        r = client.get(path)
        assert r.status_code in (404, 422), (path, r.text)
        assert r.json()["error"]["code"] in ("not_found", "invalid_request")
    for path, body in (
        (f"/api/games/{BIG}/join", None),
        (f"/api/games/{gid}/seats/{BIG}/bot", None),
        (f"/api/games/{gid}/actions", {"version": BIG, "action": {"type": "pass"}}),
    ):
        r = client.post(path, json=body)
        assert r.status_code in (404, 422), (path, r.text)
    assert client.delete(f"/api/games/{gid}/bots/{BIG}").status_code in (404, 422)
    assert client.get(f"/games/{BIG}").status_code in (404, 422)


def test_a_private_game_looks_missing_to_strangers_everywhere(
    client_factory: Factory,
) -> None:
    """no endpoint answers a stranger differently for a private game than for a
    game that does not exist; the access check comes before seats, status and roles."""
    host = client_factory("Host")
    game = host.post("/api/games", json={"players": 3, "visibility": "private"}).json()
    live = host.post("/api/games", json={"players": 2, "visibility": "private"}).json()
    assert host.post(f"/api/games/{live['id']}/bots").status_code == 200
    assert host.post(f"/api/games/{live['id']}/start").status_code == 200
    stranger = client_factory("Prober")
    probes = [
        ("GET", "{}", None),
        ("GET", "{}/state", None),
        ("GET", "{}/log", None),
        ("POST", "{}/join", {}),
        ("POST", "{}/join", {"invite_code": "guessed"}),
        ("POST", "{}/leave", None),
        ("POST", "{}/start", None),
        ("POST", "{}/bots", None),
        ("DELETE", "{}/bots/0", None),
        ("DELETE", "{}/bots/9", None),
        ("POST", "{}/seats/0/bot", None),
        ("POST", "{}/seats/9/bot", None),
        ("POST", "{}/seats/0/reclaim", None),
        ("POST", "{}/seats/9/reclaim", None),
        ("POST", "{}/actions", {"version": 0, "action": {"type": "pass"}}),
    ]
    missing = 999_999
    for method, path, body in probes:
        absent = stranger.request(method, "/api/games/" + path.format(missing), json=body)
        assert absent.status_code == 404, (method, path, absent.text)
        for gid in (game["id"], live["id"]):
            r = stranger.request(method, "/api/games/" + path.format(gid), json=body)
            assert r.status_code == 404, (method, path, gid, r.text)
            expected = absent.json()["error"]["message"].replace(str(missing), str(gid))
            assert r.json()["error"] == {"code": "not_found", "message": expected}
    # Nothing changed: the tables are as the host left them.
    assert host.get(f"/api/games/{game['id']}").json()["seats"][1]["player"] is None
    assert host.get(f"/api/games/{live['id']}").json()["version"] >= 0
    # With the code, the stranger may read and join as before.
    code = game["invite_code"]
    assert stranger.get(f"/api/games/{game['id']}?invite_code={code}").status_code == 200
    r = stranger.post(f"/api/games/{game['id']}/join", json={"invite_code": code})
    assert r.status_code == 200 and r.json()["your_seat"] == 1


def test_foreign_origins_cannot_change_anything(client_factory: Factory) -> None:
    """cookie-carrying POSTs from another origin (or port) are refused."""
    client = client_factory("Victim")
    gid = client.post("/api/games", json={"players": 2}).json()["id"]
    for headers in (
        {"origin": "http://evil.example"},
        {"origin": "http://testserver:8080"},  # another port of the same host
        {"origin": "null"},
        {"referer": "http://evil.example/page"},
    ):
        r = client.post("/api/games", json={"players": 2}, headers=headers)
        assert r.status_code == 403 and r.json()["error"]["code"] == "bad_origin", headers
        # Form-encoded empty bodies, as a cross-site <form> sends them.
        form = {**headers, "content-type": "application/x-www-form-urlencoded"}
        for path in (f"/api/games/{gid}/leave", "/api/session/logout"):
            r = client.post(path, content=b"", headers=form)
            assert r.status_code == 403, (path, headers)
    me = client.get("/api/me")
    assert me.status_code == 200  # still signed in: logout was refused
    assert len(client.get("/api/me/games").json()["games"]) == 1  # nothing created, not left
    # Its own pages, and programs without Origin or Referer, may.
    same = {"origin": "http://testserver"}
    assert client.post("/api/games", json={"players": 2}, headers=same).status_code == 201
    ref = {"referer": "http://testserver/games/1"}
    assert client.post("/api/games", json={"players": 2}, headers=ref).status_code == 201
    assert client.post("/api/games", json={"players": 2}).status_code == 201


def test_configured_and_public_origins_are_allowed(
    sqlite_url: str, make_settings: Callable[..., Settings]
) -> None:
    app = create_app(
        make_settings(
            sqlite_url,
            allowed_origins=["https://play.example"],
            public_url="https://dragons.example.org/",
        )
    )
    with TestClient(app) as c:
        for origin in ("https://play.example", "https://dragons.example.org"):
            r = c.post("/api/session/guest", json={"name": "Ann"}, headers={"origin": origin})
            assert r.status_code == 200, origin
        r = c.post("/api/session/guest", json={"name": "Ann"}, headers={"origin": "https://x.io"})
        assert r.status_code == 403
    app.state.engine.dispose()


def test_security_headers_on_pages_and_api(client_factory: Factory) -> None:
    """CSP without inline script, no framing, nosniff, a Referrer-Policy."""
    client = client_factory()
    for path in ("/", "/games/1", "/api/games", "/api/nothing", "/static/css/app.css"):
        r = client.get(path)
        csp = r.headers["content-security-policy"]
        assert "script-src 'self';" in csp and "'unsafe-inline'" not in csp, path
        assert "frame-ancestors 'none'" in csp and "object-src 'none'" in csp
        assert r.headers["x-content-type-options"] == "nosniff"
        assert r.headers["referrer-policy"] == "same-origin"


def test_cookie_is_secure_when_the_public_url_is_https(
    sqlite_url: str, make_settings: Callable[..., Settings]
) -> None:
    app = create_app(make_settings(sqlite_url, public_url="https://dragons.example.org"))
    with TestClient(app, base_url="https://testserver") as c:
        r = c.post("/api/session/guest", json={"name": "Ann"})
        assert "secure" in r.headers["set-cookie"].lower()
        page = c.get("/games/3").text
        assert 'data-public-url="https://dragons.example.org"' in page
    app.state.engine.dispose()
    plain = create_app(make_settings(sqlite_url))
    with TestClient(plain) as c:
        r = c.post("/api/session/guest", json={"name": "Ann"})
        assert "secure" not in r.headers["set-cookie"].lower()
    plain.state.engine.dispose()


@pytest.fixture
def limited_app(sqlite_url: str, make_settings: Callable[..., Settings]) -> Iterator[FastAPI]:
    settings = make_settings(
        sqlite_url,
        guest_limits_per_address="3/minute",
        account_limits_per_address="2/minute",
        max_open_tables_per_user=2,
    )
    app = create_app(settings)
    yield app
    app.state.engine.dispose()


def _client(app: FastAPI, address: str) -> TestClient:
    return TestClient(app, client=(address, 5000))


def test_new_guests_per_address_are_limited(limited_app: FastAPI) -> None:
    """429 with Retry-After past the limit; renames and other addresses are free."""
    clients = [_client(limited_app, "198.51.100.1") for _ in range(4)]
    for c in clients[:3]:
        assert c.post("/api/session/guest", json={"name": "Many"}).status_code == 200
    r = clients[3].post("/api/session/guest", json={"name": "Many"})
    assert r.status_code == 429 and r.json()["error"]["code"] == "too_many_guests"
    assert 1 <= int(r.headers["retry-after"]) <= 60
    assert clients[3].get("/api/me").status_code == 401  # no guest was made
    assert clients[0].post("/api/session/guest", json={"name": "Renamed"}).status_code == 200
    other = _client(limited_app, "198.51.100.2")
    assert other.post("/api/session/guest", json={"name": "Elsewhere"}).status_code == 200


def test_new_accounts_per_address_are_limited(limited_app: FastAPI) -> None:
    clients = [_client(limited_app, "198.51.100.3") for _ in range(3)]
    for i, c in enumerate(clients[:2]):
        body = {"username": f"acct_{i}", "password": "long enough"}
        assert c.post("/api/users", json=body).status_code == 201
    r = clients[2].post("/api/users", json={"username": "acct_2", "password": "long enough"})
    assert r.status_code == 429 and r.json()["error"]["code"] == "too_many_accounts"
    assert "retry-after" in r.headers


def test_open_tables_per_user_are_capped(limited_app: FastAPI) -> None:
    host = _client(limited_app, "198.51.100.4")
    host.post("/api/session/guest", json={"name": "Host"})
    ids = [host.post("/api/games", json={"players": 2}).json()["id"] for _ in range(2)]
    r = host.post("/api/games", json={"players": 2})
    assert r.status_code == 429 and r.json()["error"]["code"] == "too_many_tables"
    assert int(r.headers["retry-after"]) >= 1
    assert host.post(f"/api/games/{ids[0]}/leave").status_code == 200  # cancelled: frees one
    assert host.post("/api/games", json={"players": 2}).status_code == 201


def test_unreadable_bodies_are_invalid_requests(client_factory: Factory) -> None:
    """one contract, as docs/api.md says: every unreadable body is 422."""
    client = client_factory("Parser")
    for body in (b"{not json", b"\xff\xfe{", b""):
        r = client.post("/api/games", content=body, headers={"content-type": "application/json"})
        assert r.status_code == 422, body
        assert r.json()["error"]["code"] == "invalid_request"


def test_malformed_layout_ids_are_refused_not_500(client_factory: Factory) -> None:
    """Found by the schemathesis run: an empty layout id crashed the engine's option check."""
    client = client_factory("Layouts")
    for layouts in (["", "", "", ""], ["", "", ""], ["1A", "2A", "3A", "9Z"]):
        r = client.post("/api/games", json={"players": 3, "layouts": layouts})
        assert r.status_code == 422, (layouts, r.text)
        assert r.json()["error"]["code"] in ("invalid_request", "invalid_options")
    ok = client.post("/api/games", json={"players": 3, "layouts": ["1A", "2B", "3A", "4B"]})
    assert ok.status_code == 201
