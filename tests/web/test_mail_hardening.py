"""Email hardening against a real SMTP server (aiosmtpd): addresses, the one-click header as it
arrives on the wire, and the verification emails one inbox may receive."""

from __future__ import annotations

import email
import re
import socket
import time
from collections.abc import Callable, Iterator
from email.policy import default
from pathlib import Path
from typing import Any

import pytest
from aiosmtpd.controller import Controller
from fastapi.testclient import TestClient
from sqlalchemy import select

from app.db.models.notices import OutboxEmail
from app.main import create_app
from app.services.accounts.account import EMAIL_MAX, LOCAL_PART_MAX, clean_email
from app.settings import Settings
from app.shared.errors import ServiceError

PUBLIC = "http://play.example"


class RawInbox:
    """Keeps each message's bytes exactly as the SMTP server received them."""

    def __init__(self) -> None:
        self.raw: list[bytes] = []

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:
        self.raw.append(envelope.content)
        return "250 OK"

    def to(self, address: str) -> list[bytes]:
        return [m for m in self.raw if email.message_from_bytes(m, policy=default)["To"] == address]


@pytest.fixture
def inbox() -> Iterator[tuple[RawInbox, int]]:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    box = RawInbox()
    controller = Controller(box, hostname="127.0.0.1", port=port)
    controller.start()
    yield box, port
    controller.stop()


def _wait(check: Callable[[], Any], timeout: float = 20.0) -> Any:
    deadline = time.monotonic() + timeout
    while not (value := check()):
        assert time.monotonic() < deadline, "timed out waiting"
        time.sleep(0.05)
    return value


def _app(url: str, make_settings: Callable[..., Settings], port: int, **extra: Any) -> Any:
    return create_app(
        make_settings(
            url,
            smtp_url=f"smtp://127.0.0.1:{port}",
            public_url=PUBLIC,
            mail_sweep_seconds=0.1,
            notice_delay_seconds=0,
            **extra,
        )
    )


def _verify_rows(app: Any) -> list[OutboxEmail]:
    with app.state.sessionmaker() as db:
        return list(db.scalars(select(OutboxEmail).where(OutboxEmail.kind == "verify")))


def _account(client: TestClient, name: str) -> None:
    r = client.post("/api/users", json={"username": name, "password": "sea dragons!"})
    assert r.status_code == 201, r.text


@pytest.mark.parametrize(
    "address",
    [
        "a\x1bb@example.org",
        "a\x7fb@example.org",
        "=?utf-8?q?spy=40evil.example?=@example.org",
        "=?utf-8?b?c3B5QGV2aWwuZXhhbXBsZQ==?=@example.org",
        "a b@example.org",
        "nobody@localhost",
        "two@@example.org",
        "ü@example.org",  # plain SMTP cannot deliver to a non-ASCII mailbox
    ],
)
def test_addresses_that_are_not_plain_mailboxes_are_refused(address: str) -> None:
    with pytest.raises(ServiceError) as refused:
        clean_email(address)
    assert refused.value.code == "invalid_email"


def test_addresses_are_normalised_to_what_mail_is_sent_to() -> None:
    assert clean_email("  Nessie@Example.ORG ") == "Nessie@example.org"
    assert clean_email("x@bücher.example") == "x@xn--bcher-kva.example"


def test_a_local_part_over_64_or_an_address_over_254_characters_is_refused() -> None:
    """RFC 5321 section 4.5.3.1: a mailbox name has at most 64 octets, a path at most 256
    (254 characters of address between its angle brackets)."""
    assert clean_email("a" * LOCAL_PART_MAX + "@example.org").startswith("a" * LOCAL_PART_MAX)
    longest = "a" * LOCAL_PART_MAX + "@" + ".".join(["b" * 61] * 3) + ".org"
    assert len(longest) == EMAIL_MAX and clean_email(longest) == longest
    for address in (
        "a" * (LOCAL_PART_MAX + 1) + "@example.org",
        "a" * 100 + "@example.org",
        "a" * LOCAL_PART_MAX + "@" + ".".join(["b" * 61] * 3) + ".orgs",  # 255 characters
    ):
        with pytest.raises(ServiceError) as refused:
            clean_email(address)
        assert refused.value.code == "invalid_email", address


def test_docs_api_md_states_the_address_limits() -> None:
    text = " ".join((Path(__file__).parents[2] / "docs" / "api.md").read_text().split())
    assert f"of at most {LOCAL_PART_MAX} characters before the `@` and {EMAIL_MAX} in all" in text


def test_a_local_part_over_64_characters_is_refused_over_http(
    inbox: tuple[RawInbox, int], sqlite_url: str, make_settings: Callable[..., Settings]
) -> None:
    box, port = inbox
    with TestClient(_app(sqlite_url, make_settings, port)) as ann:
        _account(ann, "ann")
        for length in (65, 100):
            r = ann.post("/api/me/email", json={"email": "a" * length + "@example.org"})
            assert r.status_code == 422 and r.json()["error"]["code"] == "invalid_email", r.text
        assert ann.get("/api/me/account").json()["email"] is None
    assert box.raw == []


def test_an_encoded_word_address_is_refused_over_http(
    inbox: tuple[RawInbox, int], sqlite_url: str, make_settings: Callable[..., Settings]
) -> None:
    box, port = inbox
    with TestClient(_app(sqlite_url, make_settings, port)) as ann:
        _account(ann, "ann")
        r = ann.post("/api/me/email", json={"email": "=?utf-8?q?spy=40evil.example?=@example.org"})
        assert r.status_code == 422 and r.json()["error"]["code"] == "invalid_email"
        assert ann.get("/api/me/account").json()["email"] is None
    assert box.raw == []


def test_the_unsubscribe_header_arrives_unfolded_and_unencoded(
    inbox: tuple[RawInbox, int], sqlite_url: str, make_settings: Callable[..., Settings]
) -> None:
    """RFC 2369/8058: `List-Unsubscribe: <https://...>` on one line, as the SMTP server got it."""
    box, port = inbox
    app = _app(sqlite_url, make_settings, port)
    with TestClient(app) as ann, TestClient(app) as bob:
        _account(ann, "ann")
        ann.post("/api/me/email", json={"email": "ann@example.org"})
        [confirm] = _wait(lambda: box.to("ann@example.org"))
        link = re.search(rb"/account/verify\?token=\S+", confirm)
        assert link, confirm
        assert ann.get(link.group(0).decode()).status_code == 200
        bob.post("/api/session/guest", json={"name": "Bob"})
        game = ann.post("/api/games", json={"players": 2, "first_player": 0}).json()
        bob.post(f"/api/games/{game['id']}/join", json={"invite_code": game["invite_code"]})
        ann.post(f"/api/games/{game['id']}/start")
        notice = _wait(lambda: [m for m in box.to("ann@example.org") if b"Your turn" in m])[0]
    lines = notice.split(b"\r\n")
    header = [ln for ln in lines if ln.lower().startswith(b"list-unsubscribe:")]
    assert header == [
        ln
        for ln in lines
        if re.fullmatch(
            rb"List-Unsubscribe: <http://play\.example/account/"
            rb"unsubscribe\?token=[A-Za-z0-9_.%-]+>",
            ln,
        )
    ], header
    assert len(header) == 1 and b"=?" not in header[0]
    following = lines[lines.index(header[0]) + 1]
    assert not following.startswith((b" ", b"\t")), "the header is folded onto the next line"
    assert b"List-Unsubscribe-Post: List-Unsubscribe=One-Click" in lines
    # The link in the header is the one that works.
    url = header[0].split(b"<", 1)[1].rstrip(b">").decode()
    with TestClient(app) as anyone:
        assert anyone.post(url.removeprefix(PUBLIC)).text == "unsubscribed"


def test_one_address_gets_a_bounded_number_of_verification_emails(
    inbox: tuple[RawInbox, int], database_url: str, make_settings: Callable[..., Settings]
) -> None:
    """The report: 5 fresh accounts setting one outside address delivered 15 mails to it."""
    box, port = inbox
    app = _app(
        database_url,
        make_settings,
        port,
        email_verify_per_hour=3,
        email_verify_per_recipient_per_day=4,
        account_limits_per_address="",
    )
    answers = []
    with TestClient(app) as first:
        clients = [first, *(TestClient(app) for _ in range(4))]
        for i, client in enumerate(clients):
            _account(client, f"sender{i}")
            for variant in ("victim@example.org", "VICTIM@example.org", "victim@Example.ORG"):
                answers.append(client.post("/api/me/email", json={"email": variant}))
        accepted = [r for r in answers if r.status_code == 200]
        refused = [r for r in answers if r.status_code == 429]
        assert len(accepted) == 4 and len(refused) == len(answers) - 4, [
            (r.status_code, r.text) for r in answers
        ]
        assert {r.json()["error"]["code"] for r in refused} == {"too_many_emails"}
        assert all(int(r.headers["retry-after"]) >= 1 for r in refused)
        _wait(lambda: all(e.status != "pending" for e in _verify_rows(app)))
        assert len(_verify_rows(app)) == 4 and len(box.raw) == 4
        # Another address is not affected.
        assert clients[4].post("/api/me/email", json={"email": "me@example.org"}).is_success
        for client in clients[1:]:
            client.close()
