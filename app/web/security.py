"""Browser-facing defences: the Origin check on state-changing requests, security headers."""

from __future__ import annotations

from urllib.parse import urlsplit

from starlette.datastructures import MutableHeaders
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from app.metrics import count_error
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


def _origin_of(url: str) -> str | None:
    parts = urlsplit(url.strip())
    if not parts.scheme or not parts.netloc:
        return None
    return f"{parts.scheme}://{parts.netloc}".lower()


# The scheme a page has when it talks to us over this request's scheme (sockets: ws/wss).
PAGE_SCHEME = {"http": "http", "https": "https", "ws": "http", "wss": "https"}


def origin_allowed(origin: str, scheme: str, host: str, allowed: frozenset[str]) -> bool:
    """A configured origin, or exactly this server's origin: the request's scheme, host and port.

    A page at https://host:8301 is another origin than http://host:8301 (and may be another
    program listening there): scheme, host and port must all match, as browsers compare them.
    """
    origin = origin.strip().rstrip("/").lower()
    if origin in allowed:
        return True
    page_scheme = PAGE_SCHEME.get(scheme.lower())
    if page_scheme is None or not host:
        return False
    return _without_default_port(origin) == _without_default_port(f"{page_scheme}://{host}")


DEFAULT_PORTS = {"http": ":80", "https": ":443"}


def _without_default_port(origin: str) -> str:
    """`https://h:443` and `https://h` are one origin."""
    origin = origin.lower()
    scheme = origin.split("://", 1)[0]
    port = DEFAULT_PORTS.get(scheme)
    return origin.removesuffix(port) if port else origin


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


class OriginPolicy:
    """Which origins may send state-changing requests and open sockets (OriginCheckMiddleware's
    rule; game sockets apply it at the app's door, app/realtime/endpoint.py)."""

    def __init__(self, allowed_origins: list[str], public_origin: str | None) -> None:
        allowed = {o.strip().rstrip("/").lower() for o in allowed_origins if o.strip()}
        if public_origin:
            allowed.add(public_origin)
        self.allowed = frozenset(allowed)

    def allows(self, scope: Scope) -> bool:
        """Whether the request's Origin (or Referer) is its own origin or an allowed one."""
        headers = dict(scope.get("headers", ()))
        source = headers.get(b"origin", b"").decode("latin-1")
        if not source and headers.get(b"referer"):
            source = _origin_of(headers[b"referer"].decode("latin-1")) or "null"
        if not source:
            return True
        host = headers.get(b"host", b"").decode("latin-1")
        return origin_allowed(source, scope.get("scheme", "http"), host, self.allowed)


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
