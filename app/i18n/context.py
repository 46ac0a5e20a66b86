"""The language of the work in hand (a request, a socket, an email being written)."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar

from app.i18n.languages import DEFAULT_LANGUAGE

_language: ContextVar[str] = ContextVar("language", default=DEFAULT_LANGUAGE)


def current_language() -> str:
    """The language text built now should be in."""
    return _language.get()


@contextmanager
def use_language(language: str) -> Iterator[None]:
    """Build text in `language` inside the block (an email to an account, a socket's frames)."""
    token = _language.set(language)
    try:
        yield
    finally:
        _language.reset(token)
