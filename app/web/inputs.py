"""Text at the edge: no control characters in any request's path, query or JSON body.

A control character (Unicode category Cc: U+0000-U+001F, U+007F-U+009F) has no place in a name,
a password, an address, a code or an action, and some of them cannot be stored at all (Postgres
refuses U+0000 in text and JSON). They are refused before anything reads them: `422
invalid_request`, the request changes nothing. Bodies are checked by `app.web.schemas.Body`
(every field, nested values included); paths and query strings by `ControlCharacterMiddleware`.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import parse_qsl

from starlette.types import ASGIApp, Receive, Scope, Send

from app.metrics import count_error
from app.shared.http import CONTROL, has_control_characters
from app.web.errors import error_response

# For the OpenAPI schema of free text fields (passwords): no control character anywhere.
NO_CONTROL_PATTERN = r"^[^\x00-\x1f\x7f-\x9f]*$"
MESSAGE = "control characters (U+0000-U+001F, U+007F-U+009F) are not allowed"


def has_control(value: Any, depth: int = 0) -> bool:
    """Whether a string, or any key or string inside lists and dicts, holds a control character.

    Bodies are at most `SEADRAGONS_MAX_BODY_BYTES` and JSON nesting is bounded by the parser, so
    the walk is bounded too; past 64 levels the value is refused as if it held one.
    """
    if isinstance(value, str):
        return CONTROL.search(value) is not None
    if depth > 64:
        return True
    if isinstance(value, dict):
        return any(has_control(k, depth + 1) or has_control(v, depth + 1) for k, v in value.items())
    if isinstance(value, list | tuple):
        return any(has_control(v, depth + 1) for v in value)
    return False


def check_text(value: Any) -> Any:
    """A pydantic field validator: the value unchanged, or ValueError naming the rule."""
    if has_control(value):
        raise ValueError(MESSAGE)
    return value


class ControlCharacterMiddleware:
    """Pure ASGI: `422 invalid_request` for a path or query string with a control character.

    Both arrive percent-encoded (`%00`) and are decoded before the routes see them, so the check
    runs on the decoded text. A WebSocket handshake with one is refused (HTTP 403) likewise.
    """

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket") or not has_control_characters(scope):
            await self.app(scope, receive, send)
            return
        if scope["type"] == "websocket":
            count_error("invalid_request", "ws")
            await send({"type": "websocket.close", "code": 1008})
            return
        refusal = error_response("invalid_request", f"path or query: {MESSAGE}", 422)
        await refusal(scope, receive, send)


class RepeatedQueryMiddleware:
    """Pure ASGI: `422 invalid_request` for a query string naming a parameter twice.

    No endpoint takes a list in its query: `?since=1&since=9` would silently mean the last one,
    and a schema cannot say "one value, but several are fine".
    """

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        key = repeated_query_key(scope) if scope["type"] == "http" else None
        if key is None:
            await self.app(scope, receive, send)
            return
        refusal = error_response("invalid_request", f"query: {key!r} is given more than once", 422)
        await refusal(scope, receive, send)


def repeated_query_key(scope: Scope) -> str | None:
    """The first query parameter named more than once, if any."""
    query = scope.get("query_string", b"").decode("utf-8", errors="replace")
    seen: set[str] = set()
    for key, _value in parse_qsl(query, keep_blank_values=True, errors="replace"):
        if key in seen:
            return key
        seen.add(key)
    return None
