"""Jinja2 in the reader's language: `{{ _("...") }}` and `{% trans %}` in every template."""

from __future__ import annotations

from jinja2 import Environment

from app.i18n.catalogs import gettext, ngettext
from app.i18n.context import current_language
from app.i18n.formats import format_datetime, format_number
from app.i18n.languages import LANGUAGES


def install_i18n(env: Environment) -> None:
    """Give `env` the gettext callables of the current language, and what the header's language
    switch and `<html lang>` need."""
    env.add_extension("jinja2.ext.i18n")
    # New-style gettext escapes its result and formats `%(name)s` itself, so a translation can
    # never inject markup through a value.
    env.install_gettext_callables(gettext, ngettext, newstyle=True)  # type: ignore[attr-defined]
    env.globals["current_language"] = current_language
    env.globals["LANGUAGES"] = LANGUAGES
    env.filters["datetime"] = format_datetime
    env.filters["number"] = format_number
