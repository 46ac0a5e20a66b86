"""'Your turn' emails against a real SMTP server the test starts (aiosmtpd)."""

from __future__ import annotations

import email
import re
import socket
import ssl
import subprocess
import threading
import time
from collections.abc import Callable, Iterator
from email.message import EmailMessage, Message
from email.policy import default
from pathlib import Path
from typing import Any

import pytest
from aiosmtpd.controller import Controller
from fastapi import FastAPI
from fastapi.testclient import TestClient
from sqlalchemy import select

from app.db.models.notices import OutboxEmail
from app.main import create_app
from app.services.accounts import tokens
from app.services.notices.mailer import parse_smtp_url, send_message
from app.services.tables import presence
from app.settings import Settings

PUBLIC = "http://play.example"


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Inbox:
    """An aiosmtpd handler that keeps every message it receives."""

    def __init__(self) -> None:
        self.messages: list[Message] = []

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:
        self.messages.append(email.message_from_bytes(envelope.content, policy=default))
        return "250 OK"

    def to(self, address: str, subject: str) -> list[Message]:
        return [m for m in self.messages if m["To"] == address and subject in m["Subject"]]


@pytest.fixture
def smtp() -> Iterator[tuple[Inbox, int]]:
    """A real SMTP server on a free port (no TLS)."""
    inbox, port = Inbox(), _free_port()
    controller = Controller(inbox, hostname="127.0.0.1", port=port)
    controller.start()
    yield inbox, port
    controller.stop()


def _wait(check: Callable[[], Any], timeout: float = 20.0) -> Any:
    deadline = time.monotonic() + timeout
    while not (value := check()):
        assert time.monotonic() < deadline, "timed out waiting"
        time.sleep(0.05)
    return value


def _mail_app(
    url: str, make_settings: Callable[..., Settings], smtp_url: str, **extra: Any
) -> FastAPI:
    settings = make_settings(
        url,
        smtp_url=smtp_url,
        public_url=PUBLIC,
        mail_sweep_seconds=0.1,
        notice_delay_seconds=0,
        **extra,
    )
    return create_app(settings)


def _link(message: Message, path: str) -> str:
    body = message.get_body(("plain",)).get_content()  # type: ignore[union-attr]
    found = re.search(rf"{re.escape(PUBLIC)}({re.escape(path)}\S*)", body)
    assert found, body
    return found.group(1)


def _play_turn(client: TestClient, gid: int) -> None:
    """The caller plays first-legal decisions until the turn passes on."""
    first = client.get(f"/api/games/{gid}/state").json()
    turn = first["view"]["turn"]["number"]
    while True:
        state = client.get(f"/api/games/{gid}/state").json()
        if state["view"]["turn"]["number"] != turn or state["status"] != "live":
            return
        body = {"version": state["version"], "action": state["legal_actions"][0]}
        assert client.post(f"/api/games/{gid}/actions", json=body).status_code == 200


def _outbox(app: FastAPI, kind: str = "turn") -> list[OutboxEmail]:
    with app.state.sessionmaker() as db:
        return list(db.scalars(select(OutboxEmail).where(OutboxEmail.kind == kind)))


def test_verified_players_get_one_notice_per_turn_and_can_unsubscribe_in_one_click(
    smtp: tuple[Inbox, int], sqlite_url: str, make_settings: Callable[..., Settings]
) -> None:
    inbox, port = smtp
    app = _mail_app(sqlite_url, make_settings, f"smtp://127.0.0.1:{port}")
    with TestClient(app) as ann, TestClient(app) as bob:
        ann.post("/api/users", json={"username": "ann", "password": "sea dragons!"})
        bob.post("/api/session/guest", json={"name": "Bob"})
        r = ann.post("/api/me/email", json={"email": "ann@example.org"})
        assert r.status_code == 200 and r.json()["email_verified"] is False
        [confirm] = _wait(lambda: inbox.to("ann@example.org", "Confirm"))
        page = ann.get(_link(confirm, "/account/verify"))
        assert page.status_code == 200 and "Address confirmed" in page.text
        assert ann.get("/api/me/account").json()["email_verified"] is True

        game = ann.post("/api/games", json={"players": 2, "first_player": 0}).json()
        gid = game["id"]
        bob.post(f"/api/games/{gid}/join", json={"invite_code": game["invite_code"]})
        ann.post(f"/api/games/{gid}/start")
        [notice] = _wait(lambda: inbox.to("ann@example.org", "Your turn"))
        assert _link(notice, f"/games/{gid}") == f"/games/{gid}"
        assert notice["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
        assert notice["List-Unsubscribe"].startswith(f"<{PUBLIC}/account/unsubscribe?token=")

        # Turn 1 is Ann's: she plays it (several decisions, one turn), Bob plays turn 2.
        _play_turn(ann, gid)
        _play_turn(bob, gid)
        _wait(lambda: len(inbox.to("ann@example.org", "Your turn")) == 2)
        assert sorted(e.turn for e in _outbox(app)) == [1, 3]  # Bob (a guest) gets none

        # With the game open in a socket, no email: the notice is skipped when its time comes.
        _play_turn(ann, gid)
        with app.state.sessionmaker() as db:
            presence.mark_seen(db, gid, ann.get("/api/me").json()["id"], socket_until=_later())
        _play_turn(bob, gid)
        _wait(lambda: [e for e in _outbox(app) if e.turn == 5 and e.status == "skipped"])
        assert len(inbox.to("ann@example.org", "Your turn")) == 2

        # One click on the link in the email: no more notices.
        gone = TestClient(app).get(_link(notice, "/account/unsubscribe"))
        assert gone.status_code == 200 and "Unsubscribed" in gone.text
        assert ann.get("/api/me/account").json()["notices"] is False
        _play_turn(ann, gid)
        _play_turn(bob, gid)
        assert 7 not in [e.turn for e in _outbox(app)]
        # RFC 8058: the mail client's own button posts; the page's undo turns them back on.
        token = _link(notice, "/account/unsubscribe").split("token=")[1]
        undo = TestClient(app).post(f"/account/resubscribe?token={token}")
        assert undo.status_code == 200 and ann.get("/api/me/account").json()["notices"] is True
        posted = TestClient(app).post(f"/account/unsubscribe?token={token}")
        assert posted.status_code == 200 and ann.get("/api/me/account").json()["notices"] is False
        assert TestClient(app).get("/account/unsubscribe?token=forged").status_code == 400
    app.state.engine.dispose()


def _later() -> Any:
    from datetime import UTC, datetime, timedelta

    return datetime.now(UTC) + timedelta(minutes=5)


def test_addresses_are_checked_and_guests_and_mailless_servers_refuse(
    smtp: tuple[Inbox, int], sqlite_url: str, make_settings: Callable[..., Settings]
) -> None:
    _inbox, port = smtp
    app = _mail_app(sqlite_url, make_settings, f"smtp://127.0.0.1:{port}", email_verify_per_hour=2)
    with TestClient(app) as guest, TestClient(app) as ann:
        guest.post("/api/session/guest", json={"name": "Gus"})
        r = guest.post("/api/me/email", json={"email": "gus@example.org"})
        assert r.status_code == 403 and r.json()["error"]["code"] == "account_required"
        ann.post("/api/users", json={"username": "ann", "password": "sea dragons!"})
        for bad in ("ann", "ann@", "a b@example.org", "<x>@example.org", "x@" + "a" * 300 + ".org"):
            r = ann.post("/api/me/email", json={"email": bad})
            assert r.status_code == 422, bad
        assert ann.get("/api/me/account").json()["email"] is None
        assert ann.post("/api/me/email", json={"email": "a@example.org"}).status_code == 200
        assert ann.post("/api/me/email", json={"email": "b@example.org"}).status_code == 200
        r = ann.post("/api/me/email", json={"email": "c@example.org"})
        assert r.status_code == 429 and r.json()["error"]["code"] == "too_many_emails"
        assert ann.get("/api/me/account").json()["email"] == "b@example.org"
        # A link for an address the account no longer has does not verify the new one.
        me = ann.get("/api/me").json()["id"]
        old = tokens.verify_token("test-secret", me, "a@example.org")
        assert ann.get("/account/verify", params={"token": old}).status_code == 400
        assert ann.get("/api/me/account").json()["email_verified"] is False
        new = tokens.verify_token("test-secret", me, "b@example.org")
        assert ann.get("/account/verify", params={"token": new}).status_code == 200
        assert ann.get("/api/me/account").json()["email_verified"] is True
        assert ann.post("/api/me/email", json={"email": None}).json()["email"] is None
    app.state.engine.dispose()
    plain = create_app(make_settings(sqlite_url))
    with TestClient(plain) as ann:
        ann.post("/api/session/login", json={"username": "ann", "password": "sea dragons!"})
        assert ann.get("/api/me/account").json()["email_enabled"] is False
        r = ann.post("/api/me/email", json={"email": "a@example.org"})
        assert r.status_code == 409 and r.json()["error"]["code"] == "email_disabled"
    plain.state.engine.dispose()


def test_a_hanging_smtp_server_never_slows_a_move_and_retries_are_bounded(
    sqlite_url: str, make_settings: Callable[..., Settings]
) -> None:
    # A server that accepts connections and never says a word.
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(8)
    port = listener.getsockname()[1]
    held: list[socket.socket] = []
    stop = threading.Event()

    def accept() -> None:
        listener.settimeout(0.2)
        while not stop.is_set():
            try:
                held.append(listener.accept()[0])
            except TimeoutError:
                continue

    thread = threading.Thread(target=accept, daemon=True)
    thread.start()
    app = _mail_app(
        sqlite_url,
        make_settings,
        f"smtp://127.0.0.1:{port}",
        smtp_timeout_seconds=3,
        mail_max_attempts=2,
        mail_retry_seconds=0.2,
    )
    try:
        with TestClient(app) as ann, TestClient(app) as bob:
            ann.post("/api/users", json={"username": "ann", "password": "sea dragons!"})
            bob.post("/api/session/guest", json={"name": "Bob"})
            ann.post("/api/me/email", json={"email": "ann@example.org"})
            _wait(lambda: held)  # the sender is now stuck talking to the silent server
            game = ann.post("/api/games", json={"players": 2, "first_player": 0}).json()
            bob.post(f"/api/games/{game['id']}/join", json={"invite_code": game["invite_code"]})
            ann.post(f"/api/games/{game['id']}/start")
            slowest = 0.0
            for _ in range(4):
                began = time.monotonic()
                _play_turn(ann if _to_act(ann, game["id"]) == 0 else bob, game["id"])
                slowest = max(slowest, time.monotonic() - began)
            assert slowest < 2.5, f"a turn took {slowest:.2f} s while the mail server hung"
            [row] = _wait(lambda: [e for e in _outbox(app, "verify") if e.status == "failed"], 30)
            assert row.attempts == 2 and "timed out" in (row.last_error or "")
            print(f"\nslowest turn while SMTP hung: {slowest * 1000:.0f} ms")
    finally:
        stop.set()
        thread.join(5)
        for conn in held:
            conn.close()
        listener.close()
        app.state.engine.dispose()


def _to_act(client: TestClient, gid: int) -> int:
    return client.get(f"/api/games/{gid}/state").json()["to_act"]


# --- the SMTP client itself: STARTTLS as the URL says ----------------------------------------


def _certificate(tmp_path: Path) -> tuple[str, str]:
    cert, key = tmp_path / "cert.pem", tmp_path / "key.pem"
    subprocess.run(
        ["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1",
         "-subj", "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1",
         "-keyout", str(key), "-out", str(cert)],
        check=True,
        capture_output=True,
    )  # fmt: skip
    return str(cert), str(key)


def _message() -> EmailMessage:
    msg = EmailMessage()
    msg["From"], msg["To"], msg["Subject"] = "a@example.org", "b@example.org", "hello"
    msg.set_content("hi")
    return msg


def test_starttls_is_used_when_the_url_requires_it(tmp_path: Path) -> None:
    cert, key = _certificate(tmp_path)
    context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    context.load_cert_chain(cert, key)
    inbox, port = Inbox(), _free_port()
    controller = Controller(
        inbox, hostname="127.0.0.1", port=port, tls_context=context, require_starttls=True
    )
    controller.start()
    try:
        cfg = parse_smtp_url(f"smtp://127.0.0.1:{port}?starttls=require")
        send_message(cfg, _message(), 5, cert)
        assert [m["Subject"] for m in inbox.messages] == ["hello"]
        # An untrusted certificate is refused: nothing is sent.
        with pytest.raises(ssl.SSLError):
            send_message(cfg, _message(), 5, None)
        assert len(inbox.messages) == 1
    finally:
        controller.stop()


def test_a_password_is_never_sent_without_tls(smtp: tuple[Inbox, int]) -> None:
    inbox, port = smtp
    with pytest.raises(Exception, match="STARTTLS"):
        send_message(parse_smtp_url(f"smtp://ann:secret@127.0.0.1:{port}"), _message(), 5, None)
    with pytest.raises(Exception, match="STARTTLS"):
        send_message(
            parse_smtp_url(f"smtp://127.0.0.1:{port}?starttls=require"), _message(), 5, None
        )
    assert inbox.messages == []
    cfg = parse_smtp_url("smtps://u%40x:p%3Aw@mail.example")
    assert (cfg.port, cfg.user, cfg.password, cfg.tls) == (465, "u@x", "p:w", "implicit")
    assert "p:w" not in repr(cfg)
    with pytest.raises(ValueError):
        parse_smtp_url("http://mail.example")


def test_finished_emails_are_pruned_after_the_retention_and_pending_ones_kept(
    database_url: str, make_settings: Callable[..., Settings]
) -> None:
    """The outbox is bounded: finished rows older than
    MAIL_KEEP_DAYS are deleted, a bounded batch per pass; pending and recent rows stay."""
    from datetime import timedelta

    from app.db.models.accounts import User
    from app.db.models.base import utcnow
    from app.services.notices.mailer import MailSender

    settings = make_settings(database_url, mail_keep_days=7, mail_prune_batch=2)
    app = create_app(settings)
    now = utcnow()
    old, recent = now - timedelta(days=8), now - timedelta(days=6)
    with app.state.sessionmaker() as db:
        user = User(display_name="Old Mail")
        db.add(user)
        db.flush()
        rows = {
            "old sent": ("sent", old),
            "old skipped": ("skipped", old),
            "old failed": ("failed", old),
            "old pending": ("pending", old),
            "recent sent": ("sent", recent),
        }
        for label, (status, created) in rows.items():
            db.add(
                OutboxEmail(
                    kind="turn", user_id=user.id, status=status, created_at=created, dedupe=label
                )
            )
        db.commit()
    sender = MailSender(app.state.sessionmaker, settings)

    def left() -> set[str]:
        with app.state.sessionmaker() as db:
            return set(db.scalars(select(OutboxEmail.dedupe)))

    assert sender.prune(now) == 2  # the batch bound
    assert sender.prune(now) == 1
    assert sender.prune(now) == 0
    assert left() == {"old pending", "recent sent"}
