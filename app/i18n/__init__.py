"""The languages people read the site in: which one a request gets, and its translations.

English is the source language (the text written in the code and templates); Spanish is a
gettext catalogue (`app/i18n/locale/es/LC_MESSAGES/messages.po`, extracted with Babel: see
docs/i18n.md). The language of the request being handled lives in a context variable set by
`LanguageMiddleware`, so services that build text for people (error messages, log lines, emails)
translate without the language threaded through every call.
"""

from __future__ import annotations

from app.engine.text import Text, t_
from app.i18n.catalogs import (
    gettext,
    ngettext,
    translate,
    translate_outcome,
    translate_reason,
)
from app.i18n.context import current_language, use_language
from app.i18n.languages import DEFAULT_LANGUAGE, LANGUAGE_COOKIE, LANGUAGES, choose_language

__all__ = [
    "DEFAULT_LANGUAGE",
    "LANGUAGES",
    "LANGUAGE_COOKIE",
    "Text",
    "choose_language",
    "current_language",
    "gettext",
    "ngettext",
    "t_",
    "translate",
    "translate_outcome",
    "translate_reason",
    "use_language",
]
