"""Push devices: the server's public VAPID key, and a player's Web Push subscriptions.

Every new subscription counts against a rate limit per user and per address (a flood of
them, valid or not, is refused with 429 before anything is parsed), its body against
PUSH_SUBSCRIPTION_MAX_BYTES, and the stored devices against PUSH_MAX_DEVICES_PER_USER.
"""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Depends, Path, Request
from pydantic import BaseModel, Field

from app.i18n import t_
from app.services.notices import devices
from app.settings import Settings
from app.shared.errors import ServiceError
from app.shared.http import client_address
from app.web.deps import MAX_INT, DbDep, SettingsDep, UserDep
from app.web.errors import errors
from app.web.schemas import Body
from app.web.throttle import Limit, count_creation, count_use, make_storage, namespace_for

router = APIRouter(tags=["push"])


class PushKeyOut(BaseModel):
    # The server's VAPID public key (an uncompressed P-256 point, base64url): a browser's
    # `applicationServerKey`.
    public_key: str


# What RFC 8291 fixes, in base64url (padding allowed): a P-256 point, uncompressed (65 bytes,
# the first 0x04), and a 16-byte secret.
P256DH_PATTERN = "^B[A-Za-z0-9_-]{86}=?$"
AUTH_PATTERN = "^[A-Za-z0-9_-]{21}[AQgw](==)?$"


class KeysIn(Body):
    p256dh: str = Field(
        max_length=88,
        pattern=P256DH_PATTERN,
        examples=[
            "BE3waaLVcjy-ppR9yzGfqnLwtGnPHwgv9oTskIH6Emf7rJ1viZWhviKKWO2NvSAnfwr7zMQvulzXGOpuQfb860Q"
        ],
    )
    auth: str = Field(max_length=24, pattern=AUTH_PATTERN, examples=["Ym2sxgu-SiQeNEjfUYB7bw"])


class SubscriptionIn(Body):
    """A browser's `PushSubscription.toJSON()`."""

    # https on a public address: checked by the server, which resolves the name.
    endpoint: str = Field(
        max_length=devices.ENDPOINT_MAX, examples=["https://93.184.216.34/push/abc"]
    )
    keys: KeysIn
    expirationTime: int | None = None  # the browser's own name for it


class DeviceOut(BaseModel):
    id: int
    label: str
    created_at: str | None
    # When a push last reached it (null: not yet).
    last_ok_at: str | None


class DevicesOut(BaseModel):
    devices: list[DeviceOut]
    max_devices: int
    # After POST: the id of this browser's device (to remove it when notices are turned off here).
    added: int | None = None


class PushLimits:
    """New subscriptions per user and per address (the `PUSH_SUBSCRIBE_LIMITS_*` settings)."""

    def __init__(self, settings: Settings) -> None:
        store = make_storage(settings.shared_redis_url)
        ns = namespace_for(settings.resolved_database_url())
        self.per_user = Limit(store, "push-user", settings.push_subscribe_limits_per_user, ns)
        self.per_address = Limit(store, "push-addr", settings.push_subscribe_limits_per_address, ns)


async def _admitted(request: Request, user: UserDep, settings: SettingsDep) -> None:
    """Count the attempt, then bound its size: before the body is parsed or anything read."""
    limits: PushLimits = request.app.state.push_limits
    count_use(limits.per_user, user.id, "too_many_subscriptions", "new push devices")
    count_creation(
        limits.per_address, client_address(request), "too_many_subscriptions", "new push devices"
    )
    body = await request.body()  # read once; FastAPI parses the same bytes
    if len(body) > settings.push_subscription_max_bytes:
        raise ServiceError(
            "subscription_too_large",
            t_("a subscription is at most {n} bytes", n=settings.push_subscription_max_bytes),
        )


@router.get("/api/push/key", response_model=PushKeyOut, responses=errors(503))
def push_key(request: Request) -> PushKeyOut:
    """The key browsers subscribe with (public)."""
    return PushKeyOut(public_key=request.app.state.vapid.public_key)


def _devices_out(db: Any, user_id: int, settings: Settings) -> DevicesOut:
    rows = devices.devices_of(db, user_id)
    return DevicesOut(
        devices=[DeviceOut(**devices.device_out(r)) for r in rows],
        max_devices=settings.push_max_devices_per_user,
    )


@router.get("/api/me/devices", response_model=DevicesOut, responses=errors(401, 503))
def list_devices(db: DbDep, user: UserDep, settings: SettingsDep) -> DevicesOut:
    """The caller's push devices (never their endpoints or keys)."""
    return _devices_out(db, user.id, settings)


@router.post(
    "/api/me/devices",
    response_model=DevicesOut,
    status_code=201,
    dependencies=[Depends(_admitted)],
    responses=errors(401, 403, 409, 413, 422, 429, 503),
)
def add_device(
    body: SubscriptionIn, request: Request, db: DbDep, user: UserDep, settings: SettingsDep
) -> DevicesOut:
    """Store this browser's subscription as one of the caller's devices."""
    sub = devices.parse_subscription(body.model_dump(), allow_insecure=settings.push_allow_insecure)
    label = devices.device_label(request.headers.get("user-agent"))
    row = devices.add_device(
        db, user.id, sub, label, max_devices=settings.push_max_devices_per_user
    )
    added = row.id
    db.commit()
    return _devices_out(db, user.id, settings).model_copy(update={"added": added})


DeviceId = Annotated[int, Path(ge=1, le=MAX_INT, description="a device id")]


@router.delete(
    "/api/me/devices/{device_id}",
    response_model=DevicesOut,
    responses=errors(401, 403, 404, 422, 503),
)
def remove_device(
    device_id: DeviceId, db: DbDep, user: UserDep, settings: SettingsDep
) -> DevicesOut:
    """Remove one of the caller's devices (another's is 404 `no_such_device`)."""
    devices.remove_device(db, user.id, device_id)
    db.commit()
    return _devices_out(db, user.id, settings)
