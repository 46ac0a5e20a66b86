"""What an HTTP request and a socket's handshake are both read for, at the edge: the signed
session cookie, the caller's address, the Origin rule, control characters in paths and
queries. The web routes and the live core take these from here, so neither imports the other.
"""

from __future__ import annotations

import re
from urllib.parse import parse_qsl, urlsplit

from itsdangerous import BadSignature
from starlette.requests import HTTPConnection
from starlette.types import Scope

COOKIE = "sd_session"
CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f]")


def session_token(request: HTTPConnection) -> str | None:
    """The raw session token from the signed cookie, or None if absent or tampered with (an
    HTTP request's or a WebSocket's: both carry the cookie)."""
    cookie = request.cookies.get(COOKIE)
    if not cookie:
        return None
    try:
        return request.app.state.signer.unsign(cookie).decode()
    except BadSignature:
        return None


def client_address(request: HTTPConnection) -> str:
    """The caller's address for per-address limits (a trusted proxy's X-Forwarded-For applied
    by uvicorn, see SEADRAGONS_FORWARDED_ALLOW_IPS)."""
    return request.client.host if request.client else "unknown"


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


def has_control_characters(scope: Scope) -> bool:
    """Whether the decoded path or query string holds a control character."""
    if CONTROL.search(scope.get("path", "")):
        return True
    query = scope.get("query_string", b"").decode("utf-8", errors="replace")
    if not query:
        return False
    pairs = parse_qsl(query, keep_blank_values=True, errors="replace")
    return any(CONTROL.search(k) or CONTROL.search(v) for k, v in pairs)
