"""Every request and socket runs in the language its reader chose or their browser asked for."""

from __future__ import annotations

from http.cookies import CookieError, SimpleCookie

from starlette.types import ASGIApp, Receive, Scope, Send

from app.i18n.context import use_language
from app.i18n.languages import LANGUAGE_COOKIE, choose_language


def _header(scope: Scope, name: bytes) -> str | None:
    for key, value in scope.get("headers", ()):
        if key == name:
            return value.decode("latin-1")
    return None


def language_of(scope: Scope) -> str:
    """The language for this connection: the switch's cookie, else Accept-Language."""
    chosen = None
    cookie_header = _header(scope, b"cookie")
    if cookie_header:
        try:
            cookies = SimpleCookie(cookie_header)
        except CookieError:
            cookies = SimpleCookie()
        morsel = cookies.get(LANGUAGE_COOKIE)
        chosen = morsel.value if morsel else None
    return choose_language(chosen, _header(scope, b"accept-language"))


class LanguageMiddleware:
    """Sets the current language (app.i18n.context) for the request's whole handling."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        language = language_of(scope)
        scope.setdefault("state", {})["language"] = language
        with use_language(language):
            await self.app(scope, receive, send)
