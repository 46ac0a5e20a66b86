"""The push devices API on SQLite and Postgres: bad input and abuse get a clear 4xx with a
stable code and store nothing; limits per user and per address; a player sees and removes only
their own devices; a move writes a push-channel notice for a player with a device."""

from __future__ import annotations

import base64
import os
from collections.abc import Callable
from typing import Any

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient
from sqlalchemy import func, select

from app.db.models.notices import OutboxEmail, PushSubscription
from app.main import create_app
from app.services.notices import devices
from app.settings import Settings
from app.shared.errors import ServiceError


def b64u(raw: bytes) -> str:
    return base64.urlsafe_b64encode(raw).rstrip(b"=").decode()


def sub(endpoint: str = "http://127.0.0.1:9/push/a", **keys: Any) -> dict[str, Any]:
    p256dh = b"\x04" + os.urandom(64)
    return {
        "endpoint": endpoint,
        "keys": {"p256dh": b64u(p256dh), "auth": b64u(os.urandom(16)), **keys},
    }


def _stored(app: FastAPI) -> int:
    with app.state.sessionmaker() as db:
        return int(db.scalar(select(func.count()).select_from(PushSubscription)) or 0)


def _code(response: Any) -> tuple[int, str]:
    return response.status_code, response.json()["error"]["code"]


def _app(url: str, make_settings: Callable[..., Settings], **extra: Any) -> FastAPI:
    extra.setdefault("push_allow_insecure", True)
    return create_app(make_settings(url, **extra))


def test_bad_subscriptions_are_refused_and_nothing_is_stored(
    database_url: str, make_settings: Callable[..., Settings]
) -> None:
    app = _app(
        database_url,
        make_settings,
        push_subscription_max_bytes=600,
        push_subscribe_limits_per_user="",  # this test is about the input, not the rate
        push_subscribe_limits_per_address="",
    )
    with TestClient(app) as ann:
        assert ann.post("/api/me/devices", json=sub()).status_code == 401  # nobody signed in
        ann.post("/api/session/guest", json={"name": "Ann"})
        cases: list[tuple[Any, int, str]] = [
            ({"endpoint": "http://127.0.0.1:9/x"}, 422, "invalid_request"),  # no keys
            ([sub()], 422, "invalid_request"),
            ({**sub(), "user_id": 2}, 422, "invalid_request"),  # no one else's
            # Keys of the wrong shape are refused by the schema (it states their patterns)...
            (sub(auth="short"), 422, "invalid_request"),
            (sub(p256dh="!!not base64!!"), 422, "invalid_request"),
            # ... and a key of the right shape that is no uncompressed point by the service.
            (sub(p256dh=b64u(b"\x05" + os.urandom(64))), 422, "bad_subscription"),
            (sub("not a url"), 422, "bad_subscription"),
            (sub("//no-scheme.example/x"), 422, "push_endpoint_insecure"),
            (sub("ftp://push.example/x"), 422, "push_endpoint_insecure"),
            (sub("http://user:pw@127.0.0.1/x"), 422, "bad_subscription"),
            ({**sub(), "expirationTime": "soon"}, 422, "invalid_request"),
        ]
        for body, status, code in cases:
            r = ann.post("/api/me/devices", json=body)
            assert _code(r) == (status, code), (body, r.text)
        big = sub("http://127.0.0.1/" + "y" * 700)
        assert _code(ann.post("/api/me/devices", json=big)) == (413, "subscription_too_large")
        not_json = ann.post(
            "/api/me/devices", content=b"{nope", headers={"content-type": "application/json"}
        )
        assert not_json.status_code == 422
        assert _stored(app) == 0
        assert ann.get("/api/me/devices").json()["devices"] == []
    app.state.engine.dispose()


def test_endpoints_must_be_https_on_a_public_address_outside_tests(
    database_url: str, make_settings: Callable[..., Settings]
) -> None:
    app = _app(database_url, make_settings, push_allow_insecure=False)
    with TestClient(app) as ann:
        ann.post("/api/session/guest", json={"name": "Ann"})
        for endpoint, code in (
            ("http://push.example/x", "push_endpoint_insecure"),
            ("https://127.0.0.1/x", "push_endpoint_private"),
            ("https://10.1.2.3/x", "push_endpoint_private"),
            ("https://[::1]/x", "push_endpoint_private"),
            ("https://169.254.169.254/latest", "push_endpoint_private"),
            ("https://localhost/x", "push_endpoint_private"),
        ):
            assert _code(ann.post("/api/me/devices", json=sub(endpoint))) == (422, code), endpoint
        assert _stored(app) == 0
    app.state.engine.dispose()


def test_a_name_is_checked_by_every_address_it_resolves_to() -> None:
    public = {"push.example": ["93.184.216.34"], "mixed.example": ["93.184.216.34", "10.0.0.1"]}

    def resolve(host: str) -> list[str]:
        return public.get(host, [])

    devices.check_endpoint("https://push.example/x", allow_insecure=False, resolve=resolve)
    for host in ("mixed.example", "unknown.example"):
        with pytest.raises(ServiceError) as refused:
            devices.check_endpoint(f"https://{host}/x", allow_insecure=False, resolve=resolve)
        assert refused.value.code == "push_endpoint_private"


def test_devices_are_listed_and_removed_by_their_owner_only(
    database_url: str, make_settings: Callable[..., Settings]
) -> None:
    app = _app(database_url, make_settings)
    with TestClient(app) as ann, TestClient(app) as bob:
        ann.post("/api/session/guest", json={"name": "Ann"})
        bob.post("/api/session/guest", json={"name": "Bob"})
        mine = sub("http://127.0.0.1:9/push/ann")
        r = ann.post(
            "/api/me/devices",
            json=mine,
            headers={"user-agent": "Mozilla/5.0 (Linux; Android 14) Firefox/130"},
        )
        assert r.status_code == 201
        out = r.json()
        [device] = out["devices"]
        assert out["added"] == device["id"] and device["label"] == "Firefox on Android"
        assert set(device) == {"id", "label", "created_at", "last_ok_at"}  # no endpoint, no keys
        # The same browser again: its keys refreshed, still one device.
        again = ann.post("/api/me/devices", json=sub("http://127.0.0.1:9/push/ann"))
        assert again.status_code == 201 and len(again.json()["devices"]) == 1
        # Another account cannot take over Ann's browser, nor see or remove her device.
        assert _code(bob.post("/api/me/devices", json=mine)) == (409, "push_device_taken")
        assert bob.get("/api/me/devices").json()["devices"] == []
        gone = bob.delete(f"/api/me/devices/{device['id']}")
        assert _code(gone) == (404, "no_such_device")
        assert _code(bob.delete("/api/me/devices/99999")) == (404, "no_such_device")
        assert bob.delete("/api/me/devices/0").status_code == 422
        assert _stored(app) == 1
        assert ann.delete(f"/api/me/devices/{device['id']}").json()["devices"] == []
        assert _stored(app) == 0
    app.state.engine.dispose()


def test_device_cap_and_subscription_floods_are_limited(
    database_url: str, make_settings: Callable[..., Settings]
) -> None:
    app = _app(
        database_url,
        make_settings,
        push_max_devices_per_user=2,
        push_subscribe_limits_per_user="4/hour",
        push_subscribe_limits_per_address="6/hour",
    )
    with TestClient(app) as ann, TestClient(app) as bob:
        ann.post("/api/session/guest", json={"name": "Ann"})
        bob.post("/api/session/guest", json={"name": "Bob"})
        assert ann.post("/api/me/devices", json=sub("http://127.0.0.1:9/1")).status_code == 201
        assert ann.post("/api/me/devices", json=sub("http://127.0.0.1:9/2")).status_code == 201
        assert _code(ann.post("/api/me/devices", json=sub("http://127.0.0.1:9/3"))) == (
            409,
            "too_many_devices",
        )
        # A flood, valid or not, is counted per user before anything is parsed.
        assert ann.post("/api/me/devices", json={"junk": 1}).status_code == 422
        flood = ann.post("/api/me/devices", json=sub("http://127.0.0.1:9/4"))
        assert _code(flood) == (429, "too_many_subscriptions") and "retry-after" in flood.headers
        # And per address: Bob shares Ann's address (4 of its 6 are spent).
        assert bob.post("/api/me/devices", json=sub("http://127.0.0.1:9/5")).status_code == 201
        assert bob.post("/api/me/devices", json=sub("http://127.0.0.1:9/6")).status_code == 201
        assert _code(bob.post("/api/me/devices", json=sub("http://127.0.0.1:9/7")))[1] == (
            "too_many_subscriptions"
        )
        assert _stored(app) == 4
        assert ann.get("/api/me/devices").json()["max_devices"] == 2
    app.state.engine.dispose()


def test_a_move_writes_a_push_notice_for_a_player_with_a_device(
    database_url: str, make_settings: Callable[..., Settings]
) -> None:
    app = _app(database_url, make_settings, jobs_workers=0, mail_sweep_seconds=3600)
    with TestClient(app) as ann, TestClient(app) as bob:
        ann.post("/api/session/guest", json={"name": "Ann"})
        bob.post("/api/session/guest", json={"name": "Bob"})
        assert ann.post("/api/me/devices", json=sub()).status_code == 201
        game = ann.post("/api/games", json={"players": 2, "first_player": 1}).json()
        gid = game["id"]
        bob.post(f"/api/games/{gid}/join", json={"invite_code": game["invite_code"]})
        ann.post(f"/api/games/{gid}/start")
        turn = bob.get(f"/api/games/{gid}/state").json()["view"]["turn"]["number"]
        while (state := bob.get(f"/api/games/{gid}/state").json())["view"]["turn"][
            "number"
        ] == turn:
            body = {"version": state["version"], "action": state["legal_actions"][0]}
            assert bob.post(f"/api/games/{gid}/actions", json=body).status_code == 200
        with app.state.sessionmaker() as db:
            rows = list(db.scalars(select(OutboxEmail)))
        # Bob (no device, no email) gets none; Ann's turn 2 goes by push.
        assert [(r.turn, r.channel, r.status) for r in rows] == [(2, "push", "pending")]
    app.state.engine.dispose()
