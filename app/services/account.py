"""Account settings for notices (issue 14): the email address, its verification, on/off.

An address counts only once its owner opened the verification link (a signed token naming the
user and the address, sent through the outbox); changing the address starts over. Notices can
be switched off in the settings or by the one-click link in every notice email.
"""

from __future__ import annotations

import re
from datetime import timedelta
from typing import Any

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from app.db.models import OutboxEmail, User, utcnow
from app.services import tokens
from app.services.errors import ServiceError

# Deliberately plain: one @, no spaces or markup characters, a dotted domain. The verification
# link is the real test of an address.
EMAIL = re.compile(
    r"^[^@\s<>()\[\]\\,;:\"]{1,64}@[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?"
    r"(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)+$"
)
EMAIL_MAX = 254


def clean_email(text: str) -> str:
    """Trim and check an address; `invalid_email` if it does not look like one."""
    email = text.strip()
    if len(email) > EMAIL_MAX or not EMAIL.match(email):
        raise ServiceError("invalid_email", "that does not look like an email address")
    return email


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
    db: Session, user: User, email: str | None, *, mail_enabled: bool, per_hour: int
) -> User:
    """Set (and send a verification link to) or remove the user's address."""
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
    since = utcnow() - timedelta(hours=1)
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
            "too_many_emails", f"at most {per_hour} verification emails an hour; try again later"
        )
    user.email, user.email_verified_at = email, None
    db.add(OutboxEmail(kind="verify", user_id=user.id, next_try_at=utcnow()))
    db.commit()
    return user


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
        user.email_verified_at = utcnow()
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
