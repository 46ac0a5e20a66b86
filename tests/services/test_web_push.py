"""Web Push end to end: a local push service in the test receives what the server sends, checks
its VAPID signature (an ES256 JWT for the endpoint's origin, RFC 8292) and decrypts the payload
(aes128gcm, RFC 8291) with the browser's keys; gone devices are dropped, a hanging push service
delays no move, and a push that failed is retried through the job queue."""

from __future__ import annotations

import base64
import json
import os
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from datetime import timedelta
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import http_ece
import pytest
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.asymmetric.utils import encode_dss_signature
from fastapi import FastAPI
from fastapi.testclient import TestClient
from sqlalchemy import select

from app.db.models.accounts import User
from app.db.models.jobs import Job
from app.db.models.notices import OutboxEmail, PushSubscription
from app.main import create_app
from app.settings import Settings
from app.shared.clock import FakeClock


def b64u(raw: bytes) -> str:
    return base64.urlsafe_b64encode(raw).rstrip(b"=").decode()


def unb64u(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


@dataclass
class Browser:
    """A browser's push keys (RFC 8291): the payload is encrypted to these."""

    private: ec.EllipticCurvePrivateKey = field(
        default_factory=lambda: ec.generate_private_key(ec.SECP256R1())
    )
    auth: bytes = field(default_factory=lambda: os.urandom(16))

    def subscription(self, endpoint: str) -> dict[str, Any]:
        public = self.private.public_key().public_bytes(
            serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
        )
        return {"endpoint": endpoint, "keys": {"p256dh": b64u(public), "auth": b64u(self.auth)}}


@dataclass
class Received:
    path: str
    headers: dict[str, str]
    body: bytes


class PushService:
    """A push service on 127.0.0.1: keeps every request; answers `status`, or holds the request
    until `release` is set (at most 30 s) when `hang` is on."""

    def __init__(self) -> None:
        self.received: list[Received] = []
        self.status = 201
        self.hang = False
        self.release = threading.Event()
        self.arrived = threading.Event()
        service = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                length = int(self.headers.get("content-length", "0"))
                body = self.rfile.read(length)
                service.received.append(
                    Received(self.path, {k.lower(): v for k, v in self.headers.items()}, body)
                )
                service.arrived.set()
                if service.hang:
                    service.release.wait(30)
                try:
                    self.send_response(service.status)
                    self.send_header("content-length", "0")
                    self.end_headers()
                except OSError:
                    pass  # the sender gave up (its timeout)

            def log_message(self, *args: Any) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        self.origin = f"http://127.0.0.1:{self.server.server_address[1]}"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def close(self) -> None:
        self.release.set()
        self.server.shutdown()
        self.server.server_close()


@pytest.fixture
def push_service() -> Iterator[PushService]:
    service = PushService()
    yield service
    service.close()


def verify_vapid(request: Received, server_key: str, audience: str) -> dict[str, Any]:
    """The VAPID header's JWT checked as a push service would: signed (ES256) by the key in
    `k`, which is the server's, for this origin, not expired. Returns its claims."""
    scheme, _, params = request.headers["authorization"].partition(" ")
    assert scheme == "vapid"
    fields = dict(part.strip().split("=", 1) for part in params.split(","))
    assert fields["k"] == server_key
    head_b64, claims_b64, sig_b64 = fields["t"].split(".")
    header = json.loads(unb64u(head_b64))
    assert header == {"typ": "JWT", "alg": "ES256"}
    signature = unb64u(sig_b64)
    assert len(signature) == 64
    key = ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), unb64u(fields["k"]))
    der = encode_dss_signature(
        int.from_bytes(signature[:32], "big"), int.from_bytes(signature[32:], "big")
    )
    key.verify(der, f"{head_b64}.{claims_b64}".encode(), ec.ECDSA(hashes.SHA256()))
    claims = json.loads(unb64u(claims_b64))
    assert claims["aud"] == audience
    assert claims["exp"] > time.time()
    assert claims["sub"].startswith(("mailto:", "https:"))
    return claims


def decrypt(request: Received, browser: Browser) -> dict[str, Any]:
    assert request.headers["content-encoding"] == "aes128gcm"
    plain = http_ece.decrypt(
        request.body, private_key=browser.private, auth_secret=browser.auth, version="aes128gcm"
    )
    return json.loads(plain)


def _wait(check: Callable[[], Any], timeout: float = 20.0) -> Any:
    deadline = time.monotonic() + timeout
    while not (value := check()):
        assert time.monotonic() < deadline, "timed out waiting"
        time.sleep(0.02)
    return value


def _app(
    url: str, make_settings: Callable[..., Settings], clock: FakeClock, **extra: Any
) -> FastAPI:
    settings = make_settings(
        url,
        push_allow_insecure=True,  # the test's push service is http on loopback
        notice_delay_seconds=0,
        mail_sweep_seconds=3600,  # the relay runs when the test says
        jobs_workers=0,  # and the jobs too
        jobs_retry_seconds=60,
        **extra,
    )
    return create_app(settings, clock)


def _game(ann: TestClient, bob: TestClient) -> int:
    """A two-player game, Ann to act first."""
    game = ann.post("/api/games", json={"players": 2, "first_player": 0}).json()
    bob.post(f"/api/games/{game['id']}/join", json={"invite_code": game["invite_code"]})
    assert ann.post(f"/api/games/{game['id']}/start").status_code == 200
    return int(game["id"])


def _play_turn(client: TestClient, gid: int) -> None:
    turn = client.get(f"/api/games/{gid}/state").json()["view"]["turn"]["number"]
    while True:
        state = client.get(f"/api/games/{gid}/state").json()
        if state["view"]["turn"]["number"] != turn or state["status"] != "live":
            return
        body = {"version": state["version"], "action": state["legal_actions"][0]}
        assert client.post(f"/api/games/{gid}/actions", json=body).status_code == 200


def _rows(app: FastAPI, model: Any) -> list[Any]:
    with app.state.sessionmaker() as db:
        return list(db.scalars(select(model).order_by(model.id)))


def _send_pushes(app: FastAPI) -> int:
    """One relay pass, then every due job (what the background loops do on their own)."""
    app.state.push_relay.relay_due()
    return app.state.jobs.run_due()


def test_a_turn_is_pushed_signed_and_encrypted_with_public_words_only(
    push_service: PushService, sqlite_url: str, make_settings: Callable[..., Settings]
) -> None:
    clock = FakeClock()
    app = _app(sqlite_url, make_settings, clock)
    browser = Browser()
    with TestClient(app) as ann, TestClient(app) as bob:
        ann.post("/api/session/guest", json={"name": "Ann"})
        bob.post("/api/session/guest", json={"name": "Bob"})
        ann.post("/language", data={"language": "es"})  # her words in Spanish
        sub = browser.subscription(f"{push_service.origin}/push/ann-device")
        added = ann.post("/api/me/devices", json=sub)
        assert added.status_code == 201, added.text
        gid = _game(ann, bob)
        ann_state = ann.get(f"/api/games/{gid}/state").json()
        clock.advance(1)
        assert _send_pushes(app) == 1

        [request] = push_service.received
        assert request.path == "/push/ann-device"
        assert request.headers["ttl"] == str(24 * 3600)
        assert request.headers["topic"] == f"turn-{gid}"
        verify_vapid(request, app.state.vapid.public_key, push_service.origin)
        payload = decrypt(request, browser)
        # Exactly the public words: the game, its turn and seat, the link, title and line.
        assert payload == {
            "type": "turn",
            "game": gid,
            "turn": 1,
            "seat": 0,
            "url": f"/games/{gid}",
            "title": f"Te toca en la partida {gid}",
            "body": "Sea Dragons Online, con Bob",
            "lang": "es",
        }
        # nothing of the hidden state, not even by accident in the words.
        text = json.dumps(payload)
        hand = ann_state["view"].get("hand") or ann_state["view"]["players"][0].get("hand")
        for secret in ("hand", "deck", "snapshot", "legal", "cards", json.dumps(hand)):
            assert secret not in text
        [outbox] = _rows(app, OutboxEmail)
        assert (outbox.channel, outbox.status) == ("push", "sent")
        [device] = _rows(app, PushSubscription)
        assert device.last_ok_at is not None

        # The next turn goes through the move's own write (not the start's): Ann's turn 3.
        _play_turn(ann, gid)
        _play_turn(bob, gid)
        clock.advance(1)
        assert _send_pushes(app) == 1
        assert decrypt(push_service.received[-1], browser)["turn"] == 3

        # Finished notices and their jobs are pruned after MAIL_KEEP_DAYS, email sender or not.
        assert len(_rows(app, OutboxEmail)) == 2 and len(_rows(app, Job)) == 2
        clock.advance(8 * 86400)
        app.state.push_relay.relay_due()
        assert _rows(app, OutboxEmail) == [] and _rows(app, Job) == []
    app.state.engine.dispose()


@pytest.mark.parametrize("status", [201, 410])
def test_email_goes_only_when_no_device_took_it_or_after_the_set_delay(
    status: int,
    push_service: PushService,
    sqlite_url: str,
    make_settings: Callable[..., Settings],
) -> None:
    clock = FakeClock()
    app = _app(sqlite_url, make_settings, clock, push_email_after_seconds=600)
    push_service.status = status
    with TestClient(app) as ann, TestClient(app) as bob:
        ann.post("/api/users", json={"username": "ann", "password": "sea dragons!"})
        bob.post("/api/session/guest", json={"name": "Bob"})
        with app.state.sessionmaker() as db:  # a verified address, as the link would make it
            user = db.scalar(select(User).where(User.username == "ann"))
            assert user is not None
            user.email, user.email_verified_at = "ann@example.org", clock.now()
            db.commit()
        sub = Browser().subscription(f"{push_service.origin}/push/ann")
        assert ann.post("/api/me/devices", json=sub).status_code == 201
        _game(ann, bob)
        clock.advance(1)
        _send_pushes(app)
        [outbox] = _rows(app, OutboxEmail)
        assert (outbox.channel, outbox.status) == ("email", "pending")
        if status == 410:  # the device is gone: the email goes at once
            assert outbox.next_try_at == clock.now() and "no push device" in outbox.last_error
            assert _rows(app, PushSubscription) == []
        else:  # delivered: emailed too only if the turn is still hers in 10 minutes
            assert outbox.next_try_at == clock.now() + timedelta(seconds=600)
    app.state.engine.dispose()


@pytest.mark.parametrize("status", [404, 410])
def test_a_device_the_push_service_reports_gone_is_dropped(
    status: int,
    push_service: PushService,
    sqlite_url: str,
    make_settings: Callable[..., Settings],
) -> None:
    clock = FakeClock()
    app = _app(sqlite_url, make_settings, clock)
    push_service.status = status
    with TestClient(app) as ann, TestClient(app) as bob:
        ann.post("/api/session/guest", json={"name": "Ann"})
        bob.post("/api/session/guest", json={"name": "Bob"})
        sub = Browser().subscription(f"{push_service.origin}/push/gone")
        assert ann.post("/api/me/devices", json=sub).status_code == 201
        _game(ann, bob)
        clock.advance(1)
        _send_pushes(app)
        assert len(push_service.received) == 1
        assert _rows(app, PushSubscription) == []
        assert ann.get("/api/me/devices").json()["devices"] == []
        # No device took it, and a guest has no email: the notice failed, said why.
        [outbox] = _rows(app, OutboxEmail)
        assert outbox.status == "failed" and "no push device" in (outbox.last_error or "")
        [job] = _rows(app, Job)
        assert job.status == "done"
    app.state.engine.dispose()


def test_a_hanging_push_service_delays_no_move_and_the_push_is_retried(
    push_service: PushService, sqlite_url: str, make_settings: Callable[..., Settings]
) -> None:
    clock = FakeClock()
    app = _app(sqlite_url, make_settings, clock, push_timeout_seconds=1.0)
    push_service.hang = True
    browser = Browser()
    with TestClient(app) as ann, TestClient(app) as bob:
        ann.post("/api/session/guest", json={"name": "Ann"})
        bob.post("/api/session/guest", json={"name": "Bob"})
        assert (
            ann.post(
                "/api/me/devices", json=browser.subscription(f"{push_service.origin}/p")
            ).status_code
            == 201
        )
        gid = _game(ann, bob)
        clock.advance(1)
        assert app.state.push_relay.relay_due() == 1
        # The job's worker sends while the push service holds the request.
        worker = threading.Thread(target=app.state.jobs.run_one)
        began = time.monotonic()
        worker.start()
        assert push_service.arrived.wait(20)
        # Meanwhile Ann moves: the move's road neither waits for nor touches the push.
        state = ann.get(f"/api/games/{gid}/state").json()
        moved_at = time.monotonic()
        body = {"version": state["version"], "action": state["legal_actions"][0]}
        assert ann.post(f"/api/games/{gid}/actions", json=body).status_code == 200
        move_took = time.monotonic() - moved_at
        assert worker.is_alive(), "the push gave up before the move was made"
        assert move_took < 1.0
        worker.join(20)
        # The push timed out (the service still holds it): the job waits for its retry.
        assert 1.0 <= time.monotonic() - began < 20
        [job] = _rows(app, Job)
        assert job.status == "pending" and job.attempts == 1
        assert "Timeout" in (job.error or "")
        assert [o.status for o in _rows(app, OutboxEmail)] == ["pushing"]
        assert app.state.jobs.run_due() == 0  # not before its back-off
        # The push service is back; the clock passes the back-off: the retry delivers.
        push_service.hang = False
        push_service.release.set()
        still_hers = ann.get(f"/api/games/{gid}/state").json()["view"]["turn"]["number"] == 1
        clock.advance(60)
        assert app.state.jobs.run_due() == 1
        [job] = _rows(app, Job)
        assert job.status == "done" and job.attempts == 2
        [outbox] = _rows(app, OutboxEmail)
        if still_hers:
            assert outbox.status == "sent"
            assert decrypt(push_service.received[-1], browser)["game"] == gid
        else:  # her one decision ended the turn: nothing is left to tell her
            assert outbox.status == "skipped"
    app.state.engine.dispose()
