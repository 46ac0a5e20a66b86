"""Browser-facing defences: the Origin check on state-changing requests, security headers."""

from __future__ import annotations

import json
from urllib.parse import urlsplit

from starlette.datastructures import MutableHeaders
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from app.metrics import count_error

STATE_CHANGING = frozenset({"POST", "PUT", "PATCH", "DELETE"})
# No inline script, style or event handler; the page talks only to its own origin (in CSP 3,
# 'self' also covers ws:/wss: to the same host, which the game socket needs).
CSP = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'; "
    "object-src 'none'"
)
# FastAPI's own API explorer pages load their script from a CDN with an inline bootstrap; they
# show nothing user-supplied, so they get no CSP (they are still not framable).
NO_CSP_PATHS = ("/docs", "/redoc")
HEADERS = {
    b"x-content-type-options": b"nosniff",
    # Invite codes travel in page URLs (?code=...): never hand them to another site.
    b"referrer-policy": b"same-origin",
    b"x-frame-options": b"DENY",
}


def _origin_of(url: str) -> str | None:
    parts = urlsplit(url.strip())
    if not parts.scheme or not parts.netloc:
        return None
    return f"{parts.scheme}://{parts.netloc}".lower()


def origin_allowed(origin: str, host: str, allowed: frozenset[str]) -> bool:
    """A configured origin, or the origin of the host the request was sent to."""
    origin = origin.strip().rstrip("/").lower()
    if origin in allowed:
        return True
    parts = urlsplit(origin)
    return parts.scheme in ("http", "https") and bool(host) and parts.netloc == host.lower()


class OriginCheckMiddleware:
    """403 `bad_origin` for a state-changing request from a page of another origin.

    The Origin header is checked (or, without one, the Referer's origin) against the request's
    own host, SEADRAGONS_ALLOWED_ORIGINS and the public URL. SameSite=Lax cookies stop other
    sites, not other ports or subdomains of the same site; this stops them too. A request with
    neither header comes from a program (curl, a bot, the test clients), not from a page a
    visitor was lured to (browsers send Origin with every cross-origin POST), and is let through.
    """

    def __init__(self, app: ASGIApp, allowed_origins: list[str], public_origin: str | None):
        self.app = app
        allowed = {o.strip().rstrip("/").lower() for o in allowed_origins if o.strip()}
        if public_origin:
            allowed.add(public_origin)
        self.allowed = frozenset(allowed)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope.get("method") not in STATE_CHANGING:
            await self.app(scope, receive, send)
            return
        headers = dict(scope.get("headers", ()))
        source = headers.get(b"origin", b"").decode("latin-1")
        if not source and headers.get(b"referer"):
            source = _origin_of(headers[b"referer"].decode("latin-1")) or "null"
        host = headers.get(b"host", b"").decode("latin-1")
        if not source or origin_allowed(source, host, self.allowed):
            await self.app(scope, receive, send)
            return
        count_error("bad_origin")
        body = json.dumps(
            {
                "error": {
                    "code": "bad_origin",
                    "message": "requests that change something must come from this site's pages",
                }
            }
        ).encode()
        await send(
            {
                "type": "http.response.start",
                "status": 403,
                "headers": [
                    (b"content-type", b"application/json"),
                    (b"content-length", str(len(body)).encode()),
                ],
            }
        )
        await send({"type": "http.response.body", "body": body})


class SecurityHeadersMiddleware:
    """Adds the CSP, nosniff, Referrer-Policy and framing headers to every HTTP response."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        path: str = scope.get("path", "")
        with_csp = not path.startswith(NO_CSP_PATHS)

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = MutableHeaders(scope=message)
                for name, value in HEADERS.items():
                    headers[name.decode()] = value.decode()
                if with_csp:
                    headers["content-security-policy"] = CSP
            await send(message)

        await self.app(scope, receive, send_with_headers)
