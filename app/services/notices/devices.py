"""A player's push devices: the Web Push subscriptions their browsers made, checked once here.

A subscription is `{"endpoint": "https://...", "keys": {"p256dh": ..., "auth": ...}}` as the
browser's `PushSubscription.toJSON()` gives it. It is refused, with nothing stored, when it is
malformed or too large, when its endpoint is not https or names a private or loopback address
(a push would then be a request from this server into its own network), when another account
holds the same browser, or past the per-user device cap. Requests themselves are rate-limited
per user and per address at the edge (app/web/api_push.py).
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import ipaddress
import socket
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from typing import Any
from urllib.parse import urlsplit

from sqlalchemy import delete, func, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from app.db.models.notices import PushSubscription
from app.i18n import t_
from app.shared.clock import now_in
from app.shared.errors import ServiceError

# The sizes RFC 8291 fixes: a P-256 public key (65 bytes, uncompressed) and a 16-byte secret.
P256DH_BYTES = 65
AUTH_BYTES = 16
ENDPOINT_MAX = 1024

Resolve = Callable[[str], list[str]]


def _resolve(host: str) -> list[str]:
    """Every address `host` resolves to (an IP literal: itself)."""
    try:
        infos = socket.getaddrinfo(host, None, proto=socket.IPPROTO_TCP)
    except OSError:
        return []
    return [str(info[4][0]) for info in infos]


@dataclass(frozen=True)
class Subscription:
    """A parsed subscription: where to push and the keys to encrypt to."""

    endpoint: str
    p256dh: str
    auth: str

    def info(self) -> dict[str, Any]:
        """The form pywebpush takes."""
        return {"endpoint": self.endpoint, "keys": {"p256dh": self.p256dh, "auth": self.auth}}


def _bad(message: str) -> ServiceError:
    return ServiceError("bad_subscription", message)


def _key(value: Any, size: int, name: str) -> str:
    if not isinstance(value, str) or len(value) > 2 * size:
        raise _bad(t_("the subscription's {name} key is missing or malformed", name=name))
    try:
        raw = base64.urlsafe_b64decode(value + "=" * (-len(value) % 4))
    except (binascii.Error, ValueError):
        raise _bad(t_("the subscription's {name} key is missing or malformed", name=name)) from None
    if len(raw) != size or (name == "p256dh" and raw[0] != 4):
        raise _bad(t_("the subscription's {name} key is missing or malformed", name=name))
    return value.rstrip("=")


def check_endpoint(endpoint: str, *, allow_insecure: bool, resolve: Resolve = _resolve) -> None:
    """Refuse an endpoint this server must not send to: not https, or on a private address
    (`allow_insecure`, for tests: http and loopback pass)."""
    parts = urlsplit(endpoint)
    if parts.scheme != "https" and not (allow_insecure and parts.scheme == "http"):
        raise ServiceError("push_endpoint_insecure", t_("a push endpoint must be an https URL"))
    host = parts.hostname
    if not host or parts.username or parts.password:
        raise _bad(t_("the subscription's endpoint is not a URL"))
    if allow_insecure:
        return
    addresses = _resolve_all(host, resolve)
    if not addresses or any(not ipaddress.ip_address(a).is_global for a in addresses):
        raise ServiceError(
            "push_endpoint_private", t_("a push endpoint must be on a public address")
        )


def _resolve_all(host: str, resolve: Resolve) -> list[str]:
    try:
        return [str(ipaddress.ip_address(host))]
    except ValueError:
        pass
    found = []
    for address in resolve(host):
        try:
            found.append(str(ipaddress.ip_address(address.split("%", 1)[0])))
        except ValueError:
            return []
    return found


def parse_subscription(
    data: Any, *, allow_insecure: bool, resolve: Resolve = _resolve
) -> Subscription:
    """The subscription in `data`, checked (raises `bad_subscription` and kin)."""
    if not isinstance(data, dict):
        raise _bad(t_("a subscription is a JSON object"))
    endpoint = data.get("endpoint")
    keys = data.get("keys")
    if not isinstance(endpoint, str) or not endpoint or len(endpoint) > ENDPOINT_MAX:
        raise _bad(t_("the subscription's endpoint is not a URL"))
    if any(ord(c) < 33 or ord(c) > 126 for c in endpoint):
        raise _bad(t_("the subscription's endpoint is not a URL"))
    if not isinstance(keys, dict):
        raise _bad(t_("the subscription's {name} key is missing or malformed", name="p256dh"))
    p256dh = _key(keys.get("p256dh"), P256DH_BYTES, "p256dh")
    auth = _key(keys.get("auth"), AUTH_BYTES, "auth")
    check_endpoint(endpoint, allow_insecure=allow_insecure, resolve=resolve)
    return Subscription(endpoint, p256dh, auth)


def endpoint_hash(endpoint: str) -> str:
    """The stored key of an endpoint."""
    return hashlib.sha256(endpoint.encode()).hexdigest()


def device_label(user_agent: str | None) -> str:
    """A short name for a device from its User-Agent ("Firefox on Android"), never the whole
    header (it is shown back, and kept)."""
    ua = (user_agent or "").lower()
    browser = next(
        (name for key, name in _BROWSERS if key in ua),
        "Browser",
    )
    system = next((name for key, name in _SYSTEMS if key in ua), "")
    return f"{browser} on {system}" if system else browser


_BROWSERS = (
    ("edg/", "Edge"),
    ("opr/", "Opera"),
    ("samsungbrowser", "Samsung Internet"),
    ("firefox", "Firefox"),
    ("chrom", "Chrome"),
    ("safari", "Safari"),
)
_SYSTEMS = (
    ("android", "Android"),
    ("iphone", "iPhone"),
    ("ipad", "iPad"),
    ("windows", "Windows"),
    ("mac os", "macOS"),
    ("cros", "ChromeOS"),
    ("linux", "Linux"),
)


def add_device(
    db: Session, user_id: int, sub: Subscription, label: str, *, max_devices: int
) -> PushSubscription:
    """Store `sub` as one of the user's devices (the same browser again: its keys refreshed).

    Refused: another account holds this browser (`push_device_taken`), or the user has
    `max_devices` already (`too_many_devices`). Not committed here.
    """
    digest = endpoint_hash(sub.endpoint)
    row = db.scalar(select(PushSubscription).where(PushSubscription.endpoint_hash == digest))
    if row is not None and row.user_id != user_id:
        raise ServiceError(
            "push_device_taken",
            t_("this browser gets another account's notices; remove it there first"),
        )
    if row is None:
        count = db.scalar(select(func.count()).where(PushSubscription.user_id == user_id))
        if (count or 0) >= max_devices:
            raise ServiceError(
                "too_many_devices",
                t_("you have {n} devices for notices already; remove one first", n=max_devices),
            )
        row = PushSubscription(
            user_id=user_id, endpoint=sub.endpoint, endpoint_hash=digest, created_at=now_in(db)
        )
        db.add(row)
    row.p256dh, row.auth, row.label = sub.p256dh, sub.auth, label[:80]
    try:
        db.flush()
    except IntegrityError:
        # The same browser stored by a request racing this one: theirs or someone else's.
        db.rollback()
        raced = db.scalar(select(PushSubscription).where(PushSubscription.endpoint_hash == digest))
        if raced is None or raced.user_id != user_id:
            raise ServiceError(
                "push_device_taken",
                t_("this browser gets another account's notices; remove it there first"),
            ) from None
        return raced
    return row


def devices_of(db: Session, user_id: int) -> list[PushSubscription]:
    """The user's devices, oldest first."""
    return list(
        db.scalars(
            select(PushSubscription)
            .where(PushSubscription.user_id == user_id)
            .order_by(PushSubscription.id)
        )
    )


def remove_device(db: Session, user_id: int, device_id: int) -> None:
    """Remove one of the user's devices; another's (or none) is `no_such_device`, so nobody
    learns which ids exist. Not committed here."""
    result = db.execute(
        delete(PushSubscription).where(
            PushSubscription.id == device_id, PushSubscription.user_id == user_id
        )
    )
    if result.rowcount != 1:
        raise ServiceError("no_such_device", t_("you have no device {id}", id=device_id))


def device_out(row: PushSubscription) -> dict[str, Any]:
    """A device as its owner sees it (never its endpoint or keys)."""
    return {
        "id": row.id,
        "label": row.label,
        "created_at": _iso(row.created_at),
        "last_ok_at": _iso(row.last_ok_at),
    }


def _iso(moment: datetime | None) -> str | None:
    return moment.isoformat() if moment is not None else None
