"""The email sender: sends the outbox in the background, with bounded retries.

Requests and moves only add rows to `outbox_emails` in their own transaction; every instance runs
one `MailSender`, which every `SEADRAGONS_MAIL_SWEEP_SECONDS` claims due rows (an UPDATE that
succeeds for one instance only; `SKIP LOCKED` on Postgres), then sends them one by one on a
thread of its own, so a slow or dead SMTP server delays nothing but mail. A failed send is
retried after `MAIL_RETRY_SECONDS`, doubling, up to `MAIL_MAX_ATTEMPTS` tries; then the row is
`failed`. A claimed row carries a lease: if the instance dies mid-send, another retries it after
the lease (so such a crash may, rarely, send an email twice). Finished rows are deleted after
`MAIL_KEEP_DAYS` (every few minutes, a bounded batch at a time).

`SEADRAGONS_SMTP_URL`: `smtp://[user[:password]@]host[:port][?starttls=auto|require|never]`
(port 587 by default; STARTTLS when the server offers it, and a password is only ever sent after
STARTTLS; `require` refuses servers without it, `never` is for local relays) or
`smtps://...` (TLS from the first byte, port 465). Unset: no emails at all.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import smtplib
import ssl
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from email.message import EmailMessage
from typing import Any
from urllib.parse import parse_qs, unquote, urlsplit

from sqlalchemy import or_, update
from sqlalchemy.orm import Session, sessionmaker

from app.db.models.notices import OutboxEmail
from app.infra.loop_task import LoopTask
from app.infra.turn_notices import still_due
from app.services.notices.compose import compose
from app.services.notices.outbox import claim_due, delete_oldest
from app.shared.clock import clock_in, now_in

log = logging.getLogger(__name__)

PRUNE_EVERY = timedelta(minutes=10)


@dataclass(frozen=True)
class SmtpConfig:
    """Where and how to send, parsed from SEADRAGONS_SMTP_URL."""

    host: str
    port: int
    user: str | None
    password: str | None
    tls: str  # "implicit" (smtps) | "auto" | "require" | "never" (STARTTLS policy)

    def __repr__(self) -> str:  # never print the password
        return f"SmtpConfig({self.host}:{self.port}, user={self.user!r}, tls={self.tls})"


def parse_smtp_url(url: str) -> SmtpConfig:
    """Parse an smtp:// or smtps:// URL (raises ValueError naming what is wrong)."""
    parts = urlsplit(url)
    if parts.scheme not in ("smtp", "smtps") or not parts.hostname:
        raise ValueError("SEADRAGONS_SMTP_URL must look like smtp://user:pass@host:587")
    query = parse_qs(parts.query)
    tls = "implicit" if parts.scheme == "smtps" else query.get("starttls", ["auto"])[0]
    if tls not in ("implicit", "auto", "require", "never"):
        raise ValueError("starttls is auto, require or never")
    return SmtpConfig(
        host=parts.hostname,
        port=parts.port or (465 if parts.scheme == "smtps" else 587),
        user=unquote(parts.username) if parts.username else None,
        password=unquote(parts.password) if parts.password else None,
        tls=tls,
    )


def send_message(cfg: SmtpConfig, msg: EmailMessage, timeout: float, ca_file: str | None) -> None:
    """Deliver one message over SMTP (blocking; raises on any failure)."""
    context = ssl.create_default_context(cafile=ca_file)
    smtp: smtplib.SMTP
    if cfg.tls == "implicit":
        smtp = smtplib.SMTP_SSL(cfg.host, cfg.port, timeout=timeout, context=context)
    else:
        smtp = smtplib.SMTP(cfg.host, cfg.port, timeout=timeout)
    with smtp:
        smtp.ehlo()
        if cfg.tls in ("auto", "require"):
            if smtp.has_extn("starttls"):
                smtp.starttls(context=context)
                smtp.ehlo()
            elif cfg.tls == "require" or cfg.password:
                # Never send a password in the clear.
                raise smtplib.SMTPNotSupportedError("the SMTP server does not offer STARTTLS")
        if cfg.user:
            smtp.login(cfg.user, cfg.password or "")
        smtp.send_message(msg)


@dataclass
class MailStats:
    """Counters for logs and tests."""

    sent: int = 0
    skipped: int = 0
    retried: int = 0
    failed: int = 0


class MailSender(LoopTask):
    """Sends due outbox rows; one per instance; start/stop with the app's lifespan."""

    def __init__(self, sessions: sessionmaker[Session], settings: Any) -> None:
        self.sessions = sessions
        self.settings = settings
        self.smtp = parse_smtp_url(settings.smtp_url) if settings.smtp_url else None
        self.secret = settings.resolved_secret_key()
        self.stats = MailStats()
        self._executor: ThreadPoolExecutor | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self._wake = asyncio.Event()
        self._next_prune = datetime.min.replace(tzinfo=UTC)

    @property
    def enabled(self) -> bool:
        """Whether this server sends email at all (SEADRAGONS_SMTP_URL is set)."""
        return self.smtp is not None

    async def start(self) -> None:
        """Begin sending (at app startup); nothing happens without an SMTP URL."""
        if self.smtp is None or self._task is not None:
            return
        if not self.settings.public_url:
            log.warning("SEADRAGONS_PUBLIC_URL is unset: email links point to localhost")
        self._executor = ThreadPoolExecutor(1, thread_name_prefix="mail")
        self._wake = asyncio.Event()
        self._loop = asyncio.get_running_loop()
        await super().start()
        log.info("sending email through %r", self.smtp)

    async def stop(self) -> None:
        """Stop sending (at app shutdown); a send in flight finishes on its own thread."""
        self._loop = None
        await super().stop()
        if self._executor is not None:
            self._executor.shutdown(wait=False, cancel_futures=True)
            self._executor = None

    def wake(self) -> None:
        """Look at the outbox now rather than at the next sweep (from any thread)."""
        loop = self._loop
        if loop is not None and not loop.is_closed():
            with contextlib.suppress(RuntimeError):  # the loop closed meanwhile
                loop.call_soon_threadsafe(self._wake.set)

    async def _run(self) -> None:
        loop = asyncio.get_running_loop()
        while True:
            try:
                await loop.run_in_executor(self._executor, self.send_due)
            except Exception:
                log.exception("mail sweep failed")
            self._wake.clear()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._wake.wait(), self.settings.mail_sweep_seconds)

    # --- one pass ----------------------------------------------------------------------------

    def send_due(self, now: datetime | None = None) -> int:
        """Claim and send the due rows (blocking); returns how many were handled."""
        now = now or clock_in(self.sessions).now()
        ids = self._claim(now)
        for email_id in ids:
            self._send_one(email_id)
        # Pruning scans the finished rows: every few minutes is plenty, not every sweep.
        if now >= self._next_prune:
            self._next_prune = now + PRUNE_EVERY
            self.prune(now)
        return len(ids)

    def prune(self, now: datetime) -> int:
        """Delete finished rows older than `MAIL_KEEP_DAYS`, at most `MAIL_PRUNE_BATCH` a pass.

        Only finished rows go (pending ones are still to send). Their dedupe keys name turns
        long past, which no new move can enqueue again, so deleting them cannot bring back a
        duplicate notice. Returns how many rows were deleted.
        """
        s = self.settings
        cutoff = now - timedelta(days=s.mail_keep_days)
        with self.sessions() as db:
            gone = delete_oldest(
                db,
                OutboxEmail,
                [OutboxEmail.status != "pending", OutboxEmail.created_at < cutoff],
                s.mail_prune_batch,
            )
            db.commit()
            return gone

    def _claim(self, now: datetime) -> list[int]:
        s = self.settings
        lease = now + timedelta(seconds=3 * s.smtp_timeout_seconds + 30)
        notice_ready = now - timedelta(seconds=s.notice_delay_seconds)
        with self.sessions() as db:
            claimed = claim_due(
                db,
                [
                    OutboxEmail.channel == "email",  # push notices go by the job queue
                    OutboxEmail.next_try_at <= now,
                    or_(OutboxEmail.kind != "turn", OutboxEmail.created_at <= notice_ready),
                ],
                s.mail_batch,
                {"attempts": OutboxEmail.attempts + 1, "next_try_at": lease},
                still=[OutboxEmail.next_try_at <= now],
            )
            db.commit()
            return claimed

    def _send_one(self, email_id: int) -> None:
        assert self.smtp is not None
        s = self.settings
        with self.sessions() as db:
            row = db.get(OutboxEmail, email_id)
            if row is None:
                return
            now = now_in(db)
            reason = still_due(db, row, now) if row.kind == "turn" else None
            msg = None if reason else compose(db, row, s, self.secret)
            if msg is None:
                row.status, row.last_error = "skipped", (reason or "nothing to send")[:500]
                self.stats.skipped += 1
                db.commit()
                return
            attempts = row.attempts
            db.commit()  # release the connection while talking to the SMTP server
        try:
            send_message(self.smtp, msg, s.smtp_timeout_seconds, s.smtp_ca_file)
        except Exception as exc:
            self._failed(email_id, attempts, exc)
            return
        with self.sessions() as db:
            db.execute(
                update(OutboxEmail)
                .where(OutboxEmail.id == email_id)
                .values(status="sent", sent_at=now_in(db), last_error=None)
            )
            db.commit()
        self.stats.sent += 1

    def _failed(self, email_id: int, attempts: int, exc: Exception) -> None:
        s = self.settings
        final = attempts >= s.mail_max_attempts
        log.warning(
            "email %s failed (try %d of %d): %s", email_id, attempts, s.mail_max_attempts, exc
        )
        values: dict[str, Any] = {"last_error": str(exc)[:500]}
        if final:
            values["status"] = "failed"
            self.stats.failed += 1
        else:
            values["next_try_at"] = clock_in(self.sessions).now() + timedelta(
                seconds=s.mail_retry_seconds * 2 ** (attempts - 1)
            )
            self.stats.retried += 1
        with self.sessions() as db:
            db.execute(update(OutboxEmail).where(OutboxEmail.id == email_id).values(**values))
            db.commit()


def sender_for(sessions: sessionmaker[Session], settings: Any) -> MailSender:
    """The app's sender, configured by the `SEADRAGONS_SMTP_*` and `MAIL_*` settings."""
    return MailSender(sessions, settings)
