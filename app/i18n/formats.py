"""Dates and numbers the way the reader's language writes them (Babel's CLDR data)."""

from __future__ import annotations

from datetime import UTC, datetime

from babel.dates import format_date, format_time
from babel.dates import format_datetime as _format_datetime
from babel.numbers import format_decimal

from app.i18n.context import current_language


def format_datetime(moment: datetime | None, format: str = "medium") -> str:
    """`moment` in the current language ("1 dic 2026, 16:42:00" in Spanish), "" for None."""
    if moment is None:
        return ""
    return _format_datetime(moment, format=format, locale=current_language())


def format_number(number: float | int) -> str:
    """`number` with the current language's separators (1,234.5 / 1234,5)."""
    return format_decimal(number, locale=current_language())


def format_moment(moment: datetime) -> str:
    """A date and a time to the minute in UTC ("1 dic 2026, 16:42 UTC" in Spanish)."""
    language = current_language()
    day = format_date(moment, "medium", locale=language)
    return f"{day}, {format_time(moment, 'short', tzinfo=UTC, locale=language)} UTC"
