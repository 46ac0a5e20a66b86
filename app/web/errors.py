"""Every error leaves as `{"error": {"code", "message"}}` with a status chosen by its code; the
shape as the OpenAPI schema states it (`ErrorOut`, `errors(...)` for a route's responses)."""

from __future__ import annotations

import logging
import math
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from pydantic import BaseModel, Field
from sqlalchemy.exc import DataError, DisconnectionError, InterfaceError, OperationalError
from sqlalchemy.exc import TimeoutError as SATimeoutError
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.routing import Match

from app.i18n import translate, translate_reason
from app.logging_setup import bind_request
from app.metrics import count_error
from app.services.accounts.users import NAME_RULE, PASSWORD_RULE, USERNAME_RULE
from app.shared.errors import ServiceError

log = logging.getLogger(__name__)

# Stable code -> HTTP status. Codes not listed are 400.
STATUS: dict[str, int] = {
    # engine: out of order (retry after refreshing) vs. wrong in itself
    "not_your_turn": 409,
    "decision_pending": 409,
    "wrong_phase": 409,
    "game_over": 409,
    "bad_action": 422,
    "no_such_card": 422,
    "illegal_placement": 422,
    "cannot_afford": 422,
    "wrong_deck": 422,
    "bad_payment": 422,
    "not_allowed": 422,
    # services
    "stale_version": 409,
    "not_started": 409,
    "not_open": 409,
    "game_full": 409,
    "name_taken": 409,
    "seats_not_full": 409,
    "seat_has_bot": 409,
    # bot seats (app/services/tables/seats.py)
    "unknown_bot_level": 422,
    "no_such_seat": 404,
    "not_your_seat": 403,
    "not_a_bot": 409,
    "player_present": 409,
    "username_taken": 409,
    "already_signed_in": 409,
    "not_signed_in": 401,
    "bad_credentials": 401,
    "wrong_password": 403,
    "too_many_attempts": 429,
    "not_seated": 403,
    "not_host": 403,
    # Kept for clients of older servers; private games now answer `not_found` to strangers.
    "invite_required": 403,
    "bad_invite_code": 403,
    "bad_origin": 403,
    "session_changed": 409,
    "too_many_guests": 429,
    "too_many_accounts": 429,
    "too_many_tables": 429,
    "too_many_games": 429,
    "unavailable": 503,
    "no_such_invite": 404,
    "not_found": 404,
    "invalid_request": 422,
    "invalid_name": 422,
    "mixed_scripts": 422,
    "lookalike_name": 409,
    "invalid_username": 422,
    "invalid_password": 422,
    "invalid_options": 422,
    "body_too_large": 413,
    # notices and rematches
    "invalid_email": 422,
    "account_required": 403,
    "not_rated": 409,
    "email_disabled": 409,
    "too_many_emails": 429,
    "bad_token": 400,
    "not_finished": 409,
    # review requests (app/services/reviews/requests.py): the queue's bound and the account's
    "review_queue_full": 503,
    "review_user_limit": 429,
    # placement previews: a card with more legal placements than SEADRAGONS_OUTCOMES_MAX
    "too_many_outcomes": 422,
    # why not here, and hints
    "too_many_explains": 429,
    "too_many_hints": 429,
    "rated_table": 409,
    # tutorials (/api/learn): answers that are not the lesson's moves; a finished lesson
    "bad_answers": 422,
    "lesson_done": 409,
    "no_rematch": 404,
    "not_invited": 403,
    # extra time on a turn clock (app/services/tables/clocks.py extend)
    "no_extension": 409,
    "already_extended": 409,
    "time_is_up": 409,
    # vacation days (app/services/tables/vacations.py)
    "invalid_vacation": 422,
    "vacation_active": 409,
    "vacation_too_long": 409,
    "no_vacation": 409,
    # quick match (app/services/matching)
    "invalid_choice": 422,
    "too_many_pools": 429,
    "too_many_entries": 429,
    "too_many_joins": 429,
    "entry_expired": 409,
    "already_matched": 409,
    "too_early": 409,
    # push devices (app/services/notices/devices.py, app/web/api_push.py)
    "bad_subscription": 422,
    "push_endpoint_insecure": 422,
    "push_endpoint_private": 422,
    "push_device_taken": 409,
    "too_many_devices": 409,
    "no_such_device": 404,
    "subscription_too_large": 413,
    "too_many_subscriptions": 429,
    "internal_error": 500,
}

HTTP_CODES = {
    400: "bad_request",
    401: "not_signed_in",
    403: "forbidden",
    404: "not_found",
    405: "method_not_allowed",
    413: "body_too_large",
    415: "unsupported_media_type",
    429: "too_many_requests",
}


def error_response(
    code: str, message: str, status: int | None = None, **extra: Any
) -> JSONResponse:
    """The one error shape of the API (and one count in the errors-by-code metric)."""
    count_error(code)
    body: dict[str, Any] = {"code": code, "message": message, **extra}
    return JSONResponse({"error": body}, status_code=status or STATUS.get(code, 400))


def retry_after(response: JSONResponse, seconds: float | None) -> JSONResponse:
    """Add a Retry-After header (whole seconds, at least 1) when `seconds` is set."""
    if seconds is not None:
        response.headers["retry-after"] = str(max(1, math.ceil(seconds)))
    return response


async def _service_error(_request: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, ServiceError)
    bind_request(error_code=exc.code)
    extra = {"reason": translate_reason(exc.reason)} if exc.reason is not None else {}
    message = translate(exc.message)
    return retry_after(error_response(exc.code, message, **extra), exc.retry_after)


# The database does not answer (down, restarting, unreachable, or its pool exhausted): a
# condition to wait out, not a bug.
UNAVAILABLE_ERRORS = (OperationalError, InterfaceError, DisconnectionError, SATimeoutError)


async def _unavailable(request: Request, exc: Exception) -> JSONResponse:
    log.warning("database unavailable: %s", str(exc).splitlines()[0] if str(exc) else exc)
    settings = request.app.state.settings
    response = error_response(
        "unavailable", "the database is not reachable right now; try again shortly", 503
    )
    return retry_after(response, settings.unavailable_retry_after_seconds)


async def _data_error(_request: Request, exc: Exception) -> JSONResponse:
    # A value the database refuses to store (the edge checks should have caught it first):
    # the request's fault, and nothing was written.
    log.warning("database refused a value: %s", str(exc).splitlines()[0] if str(exc) else exc)
    return error_response("invalid_request", "the request holds a value that cannot be stored", 422)


METHODS = ("GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS")


def allowed_methods(request: Request) -> list[str]:
    """Every method some route serves at this request's path (for a 405's `Allow`)."""
    allowed = []
    for method in METHODS:
        scope = {**request.scope, "method": method}
        if any(route.matches(scope)[0] == Match.FULL for route in request.app.router.routes):
            allowed.append(method)
    return allowed


async def _http_error(request: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, StarletteHTTPException)
    if exc.status_code == 400:
        # FastAPI's "error parsing the body" (e.g. a form body it cannot read): as documented,
        # every unreadable body is `422 invalid_request`.
        return error_response("invalid_request", f"body: {exc.detail}", 422, details=[])
    code = HTTP_CODES.get(exc.status_code, f"http_{exc.status_code}")
    response = error_response(code, str(exc.detail), exc.status_code)
    if exc.headers:
        response.headers.update(exc.headers)
    if exc.status_code == 405:
        # Starlette names the methods of the first route at the path only; a path served by
        # several routes (GET and POST /api/games) allows them all.
        response.headers["allow"] = ", ".join(allowed_methods(request))
    return response


# A body field with its own rules keeps its own code when the schema refuses it (too long).
FIELD_CODES = {
    ("body", "name"): "invalid_name",
    ("body", "username"): "invalid_username",
    ("body", "password"): "invalid_password",
    ("body", "new_password"): "invalid_password",
    ("body", "level"): "unknown_bot_level",
    ("body", "email"): "invalid_email",
}


# A person's field refused by the schema (too short, too long) is answered with its rule in the
# reader's language, as the service words it; `details` keeps the schema's own words for code.
FIELD_RULES = {
    "invalid_name": NAME_RULE,
    "invalid_username": USERNAME_RULE,
    "invalid_password": PASSWORD_RULE,
}


async def _validation_error(_request: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, RequestValidationError)
    details = [
        {"loc": list(err.get("loc", ())), "msg": str(err.get("msg", ""))} for err in exc.errors()
    ]
    first = details[0] if details else {"loc": [], "msg": "invalid request"}
    where = ".".join(str(part) for part in first["loc"])
    code = FIELD_CODES.get(tuple(first["loc"]), "invalid_request")
    if code in FIELD_RULES:
        return error_response(code, translate(FIELD_RULES[code]), details=details)
    return error_response(
        code, f"{where}: {first['msg']}" if where else first["msg"], details=details
    )


async def _unexpected(_request: Request, exc: Exception) -> JSONResponse:
    log.exception("unhandled error", exc_info=exc)
    return error_response("internal_error", "something went wrong on the server", 500)


def install(app: FastAPI) -> None:
    """Register the handlers that give every error the same shape."""
    app.add_exception_handler(ServiceError, _service_error)
    app.add_exception_handler(StarletteHTTPException, _http_error)
    app.add_exception_handler(RequestValidationError, _validation_error)
    for kind in UNAVAILABLE_ERRORS:
        app.add_exception_handler(kind, _unavailable)
    app.add_exception_handler(DataError, _data_error)
    app.add_exception_handler(Exception, _unexpected)


class ErrorDetail(BaseModel):
    loc: list[str | int]
    msg: str


class ErrorBody(BaseModel):
    code: str = Field(examples=["stale_version"])
    message: str
    # Validation errors (422 invalid_request) only: what failed where.
    details: list[ErrorDetail] | None = None


class ErrorOut(BaseModel):
    """The one error shape: `{"error": {"code", "message"[, "details"]}}`."""

    error: ErrorBody


_MEANING = {
    401: "Not signed in, or wrong credentials",
    403: "Refused: not allowed (not the host, not seated), or `bad_origin`",
    404: "No such game, seat or invite (private games are 404 to strangers)",
    409: "Not now: the game or session is not in a state that allows it",
    413: "Request body over the limit",
    422: "Invalid request: validation (`invalid_request`, with details) or a rule refused",
    429: "Rate limit or cap reached; see Retry-After",
    503: "The database is unavailable; see Retry-After",
}


def errors(*statuses: int) -> dict[int | str, dict[str, Any]]:
    """OpenAPI `responses` for these error statuses, each with the error shape."""
    return {s: {"model": ErrorOut, "description": _MEANING[s]} for s in statuses}
