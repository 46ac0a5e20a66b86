"""Signed tokens in email links: address verification and one-click unsubscribe.

Both are signed with the server's secret key (itsdangerous), each with its own salt, so a token
of one kind never passes for the other. A verification token names the user and the address and
expires; an unsubscribe token names the user only and does not expire (old emails keep working).
"""

from __future__ import annotations

from itsdangerous import BadSignature, SignatureExpired, URLSafeSerializer, URLSafeTimedSerializer

from app.shared.errors import ServiceError

VERIFY_SALT = "seadragons.verify-email"
UNSUBSCRIBE_SALT = "seadragons.unsubscribe"


def verify_token(secret: str, user_id: int, email: str) -> str:
    """A link token proving that whoever opens it reads mail at `email`."""
    return URLSafeTimedSerializer(secret, salt=VERIFY_SALT).dumps({"u": user_id, "e": email})


def read_verify_token(secret: str, token: str, max_age_s: float) -> tuple[int, str]:
    """(user id, address) of a verification token; `bad_token` if forged, mangled or expired."""
    try:
        data = URLSafeTimedSerializer(secret, salt=VERIFY_SALT).loads(token, max_age=max_age_s)
    except SignatureExpired:
        msg = "this verification link has expired; ask for a new one"
        raise ServiceError("bad_token", msg) from None
    except BadSignature:
        raise ServiceError("bad_token", "this link is not valid") from None
    if not isinstance(data, dict) or not isinstance(data.get("u"), int):
        raise ServiceError("bad_token", "this link is not valid")
    return data["u"], str(data.get("e", ""))


def unsubscribe_token(secret: str, user_id: int) -> str:
    """A link token that turns off the notices of `user_id`."""
    return URLSafeSerializer(secret, salt=UNSUBSCRIBE_SALT).dumps({"u": user_id})


def read_unsubscribe_token(secret: str, token: str) -> int:
    """The user id of an unsubscribe token; `bad_token` if forged or mangled."""
    try:
        data = URLSafeSerializer(secret, salt=UNSUBSCRIBE_SALT).loads(token)
    except BadSignature:
        raise ServiceError("bad_token", "this link is not valid") from None
    if not isinstance(data, dict) or not isinstance(data.get("u"), int):
        raise ServiceError("bad_token", "this link is not valid")
    return data["u"]
