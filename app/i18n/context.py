"""The language of the work in hand (a request, a socket, an email being written)."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar, Token

from app.i18n.languages import DEFAULT_LANGUAGE

_language: ContextVar[str] = ContextVar("language", default=DEFAULT_LANGUAGE)


def current_language() -> str:
    """The language text built now should be in."""
    return _language.get()


def set_language(language: str) -> Token[str]:
    """Build text in `language` from now on, in this task (until `reset_language`): for code
    that lives as long as a socket, where a `with` block would keep a generator alive."""
    return _language.set(language)


def reset_language(token: Token[str]) -> None:
    """Undo `set_language`."""
    _language.reset(token)


@contextmanager
def use_language(language: str) -> Iterator[None]:
    """Build text in `language` inside the block (an email to an account, a socket's frames)."""
    token = _language.set(language)
    try:
        yield
    finally:
        _language.reset(token)
