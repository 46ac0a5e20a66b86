"""Logging: readable text by default, or JSON lines with the request id, game id and user id.

Every log record (ours, uvicorn's, SQLAlchemy's) goes through the standard `logging` module;
in JSON mode structlog's formatter renders it and adds the current request's context, which
`RequestContextMiddleware` opens per request and `bind_request` fills in as it becomes known
(the user once the session cookie is resolved).

Secrets that travel in URLs never reach a log line: invite codes (`/join/{code}`,
`/api/invites/{code}`, `?invite_code=`, `?code=`) and email link tokens (`?token=`) are replaced
by `[redacted]` in every record, ours and uvicorn's (its access and WebSocket lines), in both
formats (`RedactSecrets`, installed on every handler).
"""

from __future__ import annotations

import logging
import re
import time
import uuid
from contextvars import ContextVar, Token
from typing import Any

import structlog
from starlette.datastructures import MutableHeaders
from starlette.types import ASGIApp, Message, Receive, Scope, Send

log = logging.getLogger("seadragons.request")

# One mutable dict per request: the context is copied into worker threads, the dict is shared,
# so a value bound in a thread (the user, resolved in a sync dependency) shows in later lines.
_REQUEST: ContextVar[dict[str, Any] | None] = ContextVar("seadragons_request", default=None)
_GAME_PATH = re.compile(r"^/(?:api/|ws/)?games/(\d{1,10})(?:/|$)")
_CLIENT_ID = re.compile(r"^[A-Za-z0-9._-]{1,64}$")
TEXT_FORMAT = "%(levelname)s:%(name)s:%(message)s"

# A query value, or the path segment after a prefix, that grants access to something.
_SECRET_QUERY = re.compile(r"\b(invite_code|code|token)=[^&\s\"'#]+")
_SECRET_PATH = re.compile(r"(/api/invites/|/join/)[^/?\s\"'#]+")
REDACTED = "[redacted]"


def redact(text: str) -> str:
    """`text` with invite codes and link tokens replaced by [redacted]."""
    if "=" not in text and "/join/" not in text and "/api/invites/" not in text:
        return text  # the common case, checked cheaply
    text = _SECRET_QUERY.sub(lambda m: f"{m.group(1)}={REDACTED}", text)
    return _SECRET_PATH.sub(lambda m: f"{m.group(1)}{REDACTED}", text)


def _redact_value(value: Any) -> Any:
    return redact(value) if isinstance(value, str) else value


class RedactSecrets(logging.Filter):
    """Redacts the message, its arguments and a `path` field of every record it sees.

    Arguments are redacted one by one rather than merged into the message: uvicorn's access
    formatter unpacks them again.
    """

    def filter(self, record: logging.LogRecord) -> bool:
        """Always keeps the record; rewrites what it carries."""
        if isinstance(record.msg, str):
            record.msg = redact(record.msg)
        if isinstance(record.args, tuple):
            record.args = tuple(_redact_value(a) for a in record.args)
        elif isinstance(record.args, dict):
            record.args = {k: _redact_value(v) for k, v in record.args.items()}
        path = getattr(record, "path", None)
        if isinstance(path, str):
            record.path = redact(path)
        return True


def uvicorn_log_config() -> dict[str, Any]:
    """uvicorn's own text logging, with `RedactSecrets` on its handlers."""
    import copy

    import uvicorn

    config = copy.deepcopy(uvicorn.config.LOGGING_CONFIG)
    config.setdefault("filters", {})["redact"] = {"()": RedactSecrets}
    for handler in config["handlers"].values():
        handler.setdefault("filters", []).append("redact")
    return config


def bind_request(**values: Any) -> None:
    """Add values (e.g. `user_id`) to the current request's log context; no-op outside one."""
    ctx = _REQUEST.get()
    if ctx is not None:
        ctx.update(values)


def request_context() -> dict[str, Any]:
    """The current request's log context (empty outside a request)."""
    return dict(_REQUEST.get() or {})


def _add_request_context(_logger: Any, _name: str, event: dict[str, Any]) -> dict[str, Any]:
    for key, value in (_REQUEST.get() or {}).items():
        event.setdefault(key, value)
    return event


def configure(fmt: str = "text", level: str = "INFO") -> None:
    """Set up the root logger once per process: `text` (readable) or `json` (one object a line)."""
    root = logging.getLogger()
    for handler in list(root.handlers):
        root.removeHandler(handler)
    handler = logging.StreamHandler()
    if fmt == "json":
        handler.setFormatter(
            structlog.stdlib.ProcessorFormatter(
                foreign_pre_chain=[
                    structlog.stdlib.add_log_level,
                    structlog.stdlib.add_logger_name,
                    structlog.processors.TimeStamper(fmt="iso", utc=True),
                    structlog.stdlib.ExtraAdder(),
                    _add_request_context,
                ],
                processors=[
                    structlog.stdlib.ProcessorFormatter.remove_processors_meta,
                    structlog.processors.format_exc_info,
                    structlog.processors.JSONRenderer(),
                ],
            )
        )
    else:
        handler.setFormatter(logging.Formatter(TEXT_FORMAT))
    handler.addFilter(RedactSecrets())
    root.addHandler(handler)
    root.setLevel(level.upper())


def enter_request(scope: Scope) -> Token[dict[str, Any] | None]:
    """Give the request (or socket) in hand its log context: an id (a sane incoming
    X-Request-ID, else a new one) and its game, if the path names one. `leave_request` ends it."""
    incoming = dict(scope.get("headers", ())).get(b"x-request-id", b"").decode("latin-1")
    request_id = incoming if _CLIENT_ID.match(incoming) else uuid.uuid4().hex
    ctx: dict[str, Any] = {"request_id": request_id}
    game = _GAME_PATH.match(scope.get("path", ""))
    if game:
        ctx["game_id"] = int(game.group(1))
    return _REQUEST.set(ctx)


def leave_request(token: Token[dict[str, Any] | None]) -> None:
    """End the log context `enter_request` gave."""
    _REQUEST.reset(token)


class RequestContextMiddleware:
    """Pure ASGI: gives each request an id (a sane incoming X-Request-ID, else a new one),
    echoes it in the response, and, when `access_log` is on, logs one line per HTTP request."""

    def __init__(self, app: ASGIApp, access_log: bool = False) -> None:
        self.app = app
        self.access_log = access_log

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        token = enter_request(scope)
        request_id = _REQUEST.get()["request_id"]  # type: ignore[index]
        status = 0
        began = time.perf_counter()

        async def send_with_id(message: Message) -> None:
            nonlocal status
            if message["type"] == "http.response.start":
                status = message["status"]
                MutableHeaders(scope=message).append("x-request-id", request_id)
            await send(message)

        try:
            # A socket's frames pass untouched: it has no response headers to add the id to,
            # and a wrapper would cost a call on every frame for as long as the socket lives.
            await self.app(scope, receive, send_with_id if scope["type"] == "http" else send)
        finally:
            if self.access_log and scope["type"] == "http":
                method, path = scope.get("method"), redact(scope.get("path", ""))
                extra = {"method": method, "path": path, "status": status}
                extra["ms"] = round((time.perf_counter() - began) * 1000, 1)
                log.info("%s %s %s", method, path, status, extra=extra)
            leave_request(token)
