"""'Your turn' by Web Push: from the outbox to the player's devices, through the job queue.

A move that starts a person's turn writes its notice to the outbox in its own transaction
(app/infra/turn_notices.py), on the "push" channel when the player has a push device. Nothing
more happens on the move's path. Then, on every instance:

    PushRelay       every MAIL_SWEEP_SECONDS, the push notices older than NOTICE_DELAY_SECONDS
                    (a player back at the table within it gets none) are claimed (a
                    compare-and-set: one instance wins) and handed to the job queue
    push_turn job   (app/infra/jobs.py) the notice is checked again (still their turn, no
                    socket open), then sent to each device with PUSH_TIMEOUT_SECONDS; a device
                    the push service reports gone (404, 410) is dropped. Delivered to none and
                    tries left: the job is retried with back-off. None took it in the end: the
                    notice goes back to the email channel (sent if they have a verified address).

The payload is public words only (R-60): the game, its turn and seat, the table's link and a
title and line in the player's language; never a card, a hand or anything of the state.
"""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

import requests
from sqlalchemy import delete, update
from sqlalchemy.orm import Session, sessionmaker

from app.db.models.accounts import User
from app.db.models.games import Game
from app.db.models.jobs import Job
from app.db.models.notices import OutboxEmail, PushSubscription
from app.i18n import DEFAULT_LANGUAGE, LANGUAGES, t_, translate, use_language
from app.infra import jobs
from app.infra.loop_task import LoopTask
from app.infra.turn_notices import still_due, wants_notices
from app.services.notices.devices import Subscription, check_endpoint, devices_of
from app.services.notices.outbox import claim_due, delete_oldest
from app.services.notices.vapid import VapidKeys, vapid_keys
from app.services.tables.names import names_key, seat_name
from app.shared.clock import clock_in, now_in

log = logging.getLogger(__name__)

KIND = "push_turn"
PRUNE_EVERY = timedelta(minutes=10)
# How long a push service keeps a notice for a device that is offline: a daily game's turn.
TTL_SECONDS = 24 * 3600


class PushNotDelivered(Exception):
    """No device took the notice this try (the job is retried)."""


def turn_payload(db: Session, row: OutboxEmail) -> dict[str, Any]:
    """What a "your turn" push carries: public words only, in the player's language."""
    game = db.get(Game, row.game_id)
    user = db.get(User, row.user_id)
    assert game is not None and user is not None
    seat = next((s.seat for s in game.seats if s.user_id == user.id), None)
    others = [seat_name(names_key(game), s) for s in game.seats if s.user_id != user.id]
    language = user.language if user.language in LANGUAGES else DEFAULT_LANGUAGE
    with use_language(language):
        title = translate(t_("Your turn in game {id}", id=game.id))
        body = translate(t_("Sea Dragons Online, with {others}", others=", ".join(others)))
    return {
        "type": "turn",
        "game": game.id,
        "turn": row.turn,
        "seat": seat,
        "url": f"/games/{game.id}",
        "title": title,
        "body": body,
        "lang": language,
    }


@dataclass(frozen=True)
class Outcome:
    """What one device's push service answered: "ok", "gone" or "failed" (with why)."""

    status: str
    detail: str = ""


Send = Callable[[Subscription, bytes, str], Outcome]


class PushSender:
    """Sends one payload to one device, signed with the server's VAPID key."""

    def __init__(self, settings: Any, keys: VapidKeys | None = None) -> None:
        self.settings = settings
        self.keys = keys or vapid_keys(settings)

    def __call__(self, sub: Subscription, data: bytes, topic: str) -> Outcome:
        # Imported at the first push, not with the app: pywebpush brings aiohttp along, about
        # 0.4 CPU-s of every process's start (web, worker, CLI; docs/benchmarks.md), and most
        # processes never send a push.
        from pywebpush import WebPushException, webpush

        try:
            # Again at send time: the name may point somewhere else now.
            check_endpoint(sub.endpoint, allow_insecure=self.settings.push_allow_insecure)
            webpush(
                sub.info(),
                data=data,
                vapid_private_key=self.keys.signer,
                vapid_claims={"sub": self.keys.subject},  # a fresh dict: webpush fills it in
                content_encoding="aes128gcm",
                ttl=TTL_SECONDS,
                timeout=self.settings.push_timeout_seconds,
                headers={"Urgency": "high", "Topic": topic},
            )
        except WebPushException as exc:
            code = exc.response.status_code if exc.response is not None else None
            if code in (404, 410):
                return Outcome("gone", str(code))
            return Outcome("failed", f"push service answered {code}")
        except requests.RequestException as exc:
            return Outcome("failed", type(exc).__name__)
        except Exception as exc:  # a refused endpoint, a bad key: this device, not the others
            return Outcome("failed", f"{type(exc).__name__}: {exc}"[:200])
        return Outcome("ok")


def push_job(settings: Any, send: Send) -> jobs.Handler:
    """The `push_turn` job's handler, sending with `send` (a PushSender; tests pass their own)."""
    sender = send

    def handle(db: Session, ctx: jobs.JobContext) -> None:
        outbox_id = int((ctx.payload or {})["outbox"])
        row = db.get(OutboxEmail, outbox_id)
        if row is None or row.status != "pushing":
            return
        now = now_in(db)
        reason = still_due(db, row, now)
        if reason is not None:
            row.status, row.last_error = "skipped", reason
            return
        devices = [
            (d.id, Subscription(d.endpoint, d.p256dh, d.auth)) for d in devices_of(db, row.user_id)
        ]
        data = json.dumps(turn_payload(db, row), separators=(",", ":")).encode()
        topic = f"turn-{row.game_id}"
        db.commit()  # no transaction held while the push services answer
        outcomes = {device_id: sender(sub, data, topic) for device_id, sub in devices}
        _record(db, outcomes)
        if any(o.status == "ok" for o in outcomes.values()):
            _delivered(db, outbox_id, settings)
            return
        failed = [o.detail for o in outcomes.values() if o.status == "failed"]
        if failed and ctx.attempt < settings.push_max_attempts:
            db.commit()  # the gone devices stay gone
            raise PushNotDelivered("; ".join(failed)[:500])
        _to_email(db, outbox_id, "; ".join(failed) or "no push device")

    return handle


def _record(db: Session, outcomes: dict[int, Outcome]) -> None:
    gone = [i for i, o in outcomes.items() if o.status == "gone"]
    ok = [i for i, o in outcomes.items() if o.status == "ok"]
    if gone:
        db.execute(delete(PushSubscription).where(PushSubscription.id.in_(gone)))
        log.info("push devices %s are gone; dropped", gone)
    if ok:
        db.execute(
            update(PushSubscription)
            .where(PushSubscription.id.in_(ok))
            .values(last_ok_at=now_in(db))
        )


def _delivered(db: Session, outbox_id: int, settings: Any) -> None:
    row = db.get(OutboxEmail, outbox_id)
    assert row is not None
    now = now_in(db)
    after = settings.push_email_after_seconds
    if after is not None and wants_notices(db.get(User, row.user_id)):
        # Emailed too if the turn is still theirs then (the sender checks still_due).
        row.channel, row.status = "email", "pending"
        row.next_try_at = now + timedelta(seconds=after)
    else:
        row.status, row.sent_at, row.last_error = "sent", now, None


def _to_email(db: Session, outbox_id: int, why: str) -> None:
    row = db.get(OutboxEmail, outbox_id)
    assert row is not None
    if wants_notices(db.get(User, row.user_id)):
        row.channel, row.status, row.next_try_at = "email", "pending", now_in(db)
        row.last_error = f"push: {why}"[:500]
    else:
        row.status, row.last_error = "failed", f"push: {why}"[:500]


class PushRelay(LoopTask):
    """Hands due push notices to the job queue; one per instance, with the app's lifespan."""

    def __init__(
        self, sessions: sessionmaker[Session], settings: Any, wake_jobs: Callable[[], None]
    ) -> None:
        self.sessions = sessions
        self.settings = settings
        self.wake_jobs = wake_jobs
        self._next_prune: datetime | None = None

    async def _run(self) -> None:
        loop = asyncio.get_running_loop()
        while True:
            try:
                if await loop.run_in_executor(None, self.relay_due):
                    self.wake_jobs()
            except Exception:
                log.exception("push relay pass failed")
            await asyncio.sleep(self.settings.mail_sweep_seconds)

    def relay_due(self, now: datetime | None = None) -> int:
        """Claim the due push notices and enqueue their jobs (blocking); how many."""
        s = self.settings
        now = now or clock_in(self.sessions).now()
        ready = now - timedelta(seconds=s.notice_delay_seconds)
        with self.sessions() as db:
            claimed = claim_due(
                db,
                [
                    OutboxEmail.channel == "push",
                    OutboxEmail.next_try_at <= now,
                    OutboxEmail.created_at <= ready,
                ],
                s.mail_batch,
                {"status": "pushing", "attempts": OutboxEmail.attempts + 1},
            )
            for outbox_id in claimed:
                jobs.enqueue(
                    db,
                    KIND,
                    str(outbox_id),
                    {"outbox": outbox_id},
                    max_attempts=s.push_max_attempts,
                )
            relayed = len(claimed)
            db.commit()
        # Pruning scans finished rows: every few minutes is plenty, not every pass.
        if self._next_prune is None or now >= self._next_prune:
            self._next_prune = now + PRUNE_EVERY
            self.prune(now)
        return relayed

    def prune(self, now: datetime) -> int:
        """Delete finished push notices and their done or failed jobs older than
        `MAIL_KEEP_DAYS`, at most `MAIL_PRUNE_BATCH` of each a pass (the email sender prunes the
        email channel's, and runs only with SMTP): one row per pushed turn does not pile up.
        Their keys name turns long past, which no move can enqueue again."""
        s = self.settings
        cutoff = now - timedelta(days=s.mail_keep_days)
        with self.sessions() as db:
            gone = delete_oldest(
                db,
                OutboxEmail,
                [
                    OutboxEmail.channel == "push",
                    OutboxEmail.status.in_(("sent", "skipped", "failed")),
                    OutboxEmail.created_at < cutoff,
                ],
                s.mail_prune_batch,
            )
            gone_jobs = delete_oldest(
                db,
                Job,
                [Job.kind == KIND, Job.status.in_(("done", "failed")), Job.updated_at < cutoff],
                s.mail_prune_batch,
            )
            db.commit()
            return gone + gone_jobs
