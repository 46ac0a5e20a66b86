"""Which language a person reads: their choice (the header's switch, kept in a cookie and, for an
account, in its settings), else what their browser asks for, else English."""

from __future__ import annotations

from babel import Locale, UnknownLocaleError

# The languages the site is translated into, with each one's name in itself (for the switch).
LANGUAGES: dict[str, str] = {"en": "English", "es": "Español"}
DEFAULT_LANGUAGE = "en"
# The switch's choice for this browser. An account's own setting is copied into it when the
# account signs in, so the account's choice wins over the browser's Accept-Language.
LANGUAGE_COOKIE = "sd_lang"
# Accept-Language is parsed only this far: a longer header is junk or an attack, not a browser.
ACCEPT_LANGUAGE_MAX_CHARS = 512


def supported(code: str | None) -> str | None:
    """`code` as one of LANGUAGES ("es-CL" -> "es"), or None if it names none of them."""
    if not code:
        return None
    try:
        locale = Locale.parse(code.strip().replace("-", "_"))
    except (ValueError, TypeError, UnknownLocaleError):
        return None
    return locale.language if locale.language in LANGUAGES else None


def _accepted(header: str) -> list[str]:
    """The header's languages, most wanted first (RFC 9110 quality values; q=0 means "not")."""
    ranked: list[tuple[float, int, str]] = []
    for index, part in enumerate(header[:ACCEPT_LANGUAGE_MAX_CHARS].split(",")):
        tag, _, params = part.strip().partition(";")
        quality = 1.0
        params = params.strip()
        if params.startswith("q="):
            try:
                quality = float(params[2:])
            except ValueError:
                continue
        if tag and quality > 0:
            ranked.append((-quality, index, tag.strip()))
    return [tag for _, _, tag in sorted(ranked)]


def choose_language(chosen: str | None, accept_language: str | None) -> str:
    """The language for a request: the chosen one if the site has it, else the first of the
    browser's that it has, else English."""
    picked = supported(chosen)
    if picked:
        return picked
    for tag in _accepted(accept_language or ""):
        if tag == "*":
            return DEFAULT_LANGUAGE
        picked = supported(tag)
        if picked:
            return picked
    return DEFAULT_LANGUAGE
