"""Account settings for notices: the email address, its verification, on/off.

An address counts only once its owner opened the verification link (a signed token naming the
user and the address, sent through the outbox); changing the address starts over. Notices can
be switched off in the settings or by the one-click link in every notice email. Verification
emails are limited per user and hour, and per recipient address and day whatever the number of
accounts asking, so nobody can turn the server into a mail cannon aimed at one inbox.
"""

from __future__ import annotations

import hashlib
from datetime import timedelta
from typing import Any

from email_validator import EmailNotValidError, validate_email
from sqlalchemy import func, select
from sqlalchemy.orm import Session

from app.db.locks import serialise
from app.db.models.accounts import User
from app.db.models.notices import OutboxEmail
from app.i18n import t_
from app.services.accounts import tokens
from app.services.tables.caps import refuse_at
from app.shared.clock import now_in
from app.shared.errors import ServiceError

# RFC 5321 section 4.5.3.1: standard sizes, not tunable limits (mail servers refuse longer).
EMAIL_MAX = 254  # the address between a path's angle brackets (256 with them)
LOCAL_PART_MAX = 64  # the mailbox name before the @


def clean_email(text: str) -> str:
    """The address in the form mail is sent to; `invalid_email` if it is not one.

    `email-validator` checks the syntax (RFC 5321/5322: no control characters, no spaces, a
    domain that could exist, at most 64 characters before the @ and 254 in all) without asking
    DNS; the local part must be ASCII (plain SMTP servers cannot deliver to others), an
    international domain is kept in its ASCII form. An
    RFC 2047 encoded word ("=?utf-8?q?...?=") is valid syntax but mail programs decode it in the
    To: header into some other address: refused.
    """
    email = text.strip()
    if len(email) > EMAIL_MAX or "=?" in email:
        raise ServiceError("invalid_email", "that does not look like an email address")
    try:
        # strict: the local part's length too (LOCAL_PART_MAX); by default the library lets
        # longer ones through because a few exist in the wild, yet mail servers may refuse them.
        valid = validate_email(email, check_deliverability=False, allow_smtputf8=False, strict=True)
    except EmailNotValidError as exc:
        raise ServiceError(
            "invalid_email", t_("that is not an email address: {exc}", exc=exc)
        ) from None
    return valid.ascii_email or valid.normalized


def recipient_key(email: str) -> str:
    """What verification emails are counted by: the address, case folded, hashed."""
    return hashlib.sha256(email.lower().encode()).hexdigest()


def settings_of(user: User, mail_enabled: bool) -> dict[str, Any]:
    """What the account page shows."""
    return {
        "email": user.email,
        "email_verified": user.email is not None and user.email_verified_at is not None,
        "notices": user.notices,
        "email_enabled": mail_enabled,
        "guest": user.is_guest,
    }


def set_email(
    db: Session,
    user: User,
    email: str | None,
    *,
    mail_enabled: bool,
    per_hour: int,
    per_recipient_per_day: int | None = None,
) -> User:
    """Set (and send a verification link to) or remove the user's address.

    `per_hour`: verification emails one user may cause per hour; `per_recipient_per_day`: how
    many one address may receive per day, from all accounts together (None: no limit).
    """
    if user.is_guest:
        raise ServiceError("account_required", "register an account to get emails")
    if email is None:
        user.email, user.email_verified_at = None, None
        db.commit()
        return user
    email = clean_email(email)
    if not mail_enabled:
        raise ServiceError("email_disabled", "this server sends no email")
    if email == user.email and user.email_verified_at is not None:
        return user  # already verified: nothing to do
    since = now_in(db) - timedelta(hours=1)
    recent = db.scalar(
        select(func.count())
        .select_from(OutboxEmail)
        .where(
            OutboxEmail.user_id == user.id,
            OutboxEmail.kind == "verify",
            OutboxEmail.created_at > since,
        )
    )
    if (recent or 0) >= per_hour:
        raise ServiceError(
            "too_many_emails",
            t_(
                "at most {per_hour} verification emails an hour; try again later", per_hour=per_hour
            ),
        )
    key = recipient_key(email)
    if per_recipient_per_day is not None:
        _check_recipient(db, key, per_recipient_per_day)
    user.email, user.email_verified_at = email, None
    db.add(OutboxEmail(kind="verify", user_id=user.id, next_try_at=now_in(db), recipient=key))
    db.commit()
    return user


RECIPIENT_RETRY_S = 3600.0  # a hint: the window slides, the oldest email leaves it in a day


def _check_recipient(db: Session, key: str, per_day: int) -> None:
    """Refuse a verification email to an address that got `per_day` in the last day; holds the
    address's lock until the commit, so accounts asking at once are counted one after another."""
    serialise(db, f"verify-recipient:{key}")
    since = now_in(db) - timedelta(days=1)
    sent = db.scalar(
        select(func.count())
        .select_from(OutboxEmail)
        .where(
            OutboxEmail.recipient == key,
            OutboxEmail.kind == "verify",
            OutboxEmail.created_at > since,
        )
    )
    message = f"this address was sent {per_day} confirmation emails in the last day; try tomorrow"
    refuse_at(db, sent or 0, per_day, "too_many_emails", message, RECIPIENT_RETRY_S)


def set_notices(db: Session, user: User, enabled: bool) -> User:
    """Turn "your turn" emails on or off."""
    user.notices = enabled
    db.commit()
    return user


def verify_email(db: Session, secret: str, token: str, max_age_s: float) -> User:
    """Mark the address in a verification token as verified, if it is still the user's."""
    user_id, email = tokens.read_verify_token(secret, token, max_age_s)
    user = db.get(User, user_id)
    if user is None or user.email != email:
        raise ServiceError("bad_token", "this link is for an address the account no longer has")
    if user.email_verified_at is None:
        user.email_verified_at = now_in(db)
        db.commit()
    return user


def unsubscribe(db: Session, secret: str, token: str, enabled: bool = False) -> User:
    """The one-click unsubscribe (or, with `enabled`, its undo) of an email's token."""
    user = db.get(User, tokens.read_unsubscribe_token(secret, token))
    if user is None:
        raise ServiceError("bad_token", "this link is not valid")
    user.notices = enabled
    db.commit()
    return user
