"""Browser-facing defences: the Origin check on state-changing requests, security headers."""

from __future__ import annotations

from starlette.datastructures import MutableHeaders
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from app.metrics import count_error
from app.shared.http import OriginPolicy
from app.web.errors import error_response

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


class OriginCheckMiddleware:
    """403 `bad_origin` for a state-changing request from a page of another origin, and a
    refused handshake for a socket opened by one.

    The Origin header is checked (or, without one, the Referer's origin) against the request's
    own origin (scheme, host and port), SEADRAGONS_ALLOWED_ORIGINS and the public URL.
    SameSite=Lax cookies stop other sites, not other ports, schemes or subdomains of the same
    site; this stops them too. A request with neither header comes from a program (curl, a bot,
    the test clients), not from a page a visitor was lured to (browsers send Origin with every
    cross-origin POST and every WebSocket handshake), and is let through. Behind a proxy that
    ends TLS the request's scheme is the proxy's X-Forwarded-Proto only when the proxy is in
    SEADRAGONS_FORWARDED_ALLOW_IPS; otherwise set SEADRAGONS_PUBLIC_URL.
    """

    def __init__(self, app: ASGIApp, allowed_origins: list[str], public_origin: str | None):
        self.app = app
        self.policy = OriginPolicy(allowed_origins, public_origin)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        kind = scope["type"]
        checked = kind == "websocket" or (kind == "http" and scope.get("method") in STATE_CHANGING)
        if not checked or self.policy.allows(scope):
            await self.app(scope, receive, send)
            return
        if kind == "websocket":
            count_error("bad_origin", "ws")
            # Before accepting: the browser sees a refused handshake (HTTP 403), and learns nothing.
            await send({"type": "websocket.close", "code": 1008})
            return
        message = "requests that change something must come from this site's pages"
        await error_response("bad_origin", message, 403)(scope, receive, send)


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
