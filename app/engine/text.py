"""Text for people that is translated where it is shown, not where it is written (the engine
writes its refusals with it; app/i18n renders them).

A service refusing a request writes `t_("Seat {seat} is taken", seat=2)`: the result is the
English sentence (a `str`, so logs, tests and older callers see plain text) that also remembers
its template and values, so the edge that sends it (an error answer, a socket frame) can render
it in the reader's language (`app.i18n.translate`). A value may itself be a `Text`: it is
translated too.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any


def _capitalised(text: str) -> str:
    return text[:1].upper() + text[1:]


class Text(str):
    """An English sentence that knows the template and values it was made from."""

    template: str
    params: dict[str, Any]
    capitalise: bool

    def __new__(cls, template: str, params: dict[str, Any], capitalise: bool = False) -> Text:
        english = template.format(**params) if params else template
        made = super().__new__(cls, _capitalised(english) if capitalise else english)
        made.template = template
        made.params = params
        made.capitalise = capitalise
        return made

    def __getnewargs__(self) -> tuple[str, dict[str, Any], bool]:  # type: ignore[override]
        # Pickled as its parts (hints are worded in a worker process, shown in the server).
        return (self.template, self.params, self.capitalise)

    def render(self, gettext: Callable[[str], str]) -> str:
        """This text with `gettext` applied to its template and to every value that is text."""
        values = {
            name: value.render(gettext) if isinstance(value, Text) else value
            for name, value in self.params.items()
        }
        translated = gettext(self.template)
        text = translated.format(**values) if values else translated
        return _capitalised(text) if self.capitalise else text


def t_(template: str, **params: Any) -> Text:
    """Mark `template` for translation (Babel extracts it), with `{name}` places for values."""
    return Text(template, params)


def N_(template: str) -> str:
    """Mark `template` for translation where it is one of several a caller picks from (Babel
    extracts it); `t_(template, ...)` then makes it a text."""
    return template


def sentence(message: str) -> Text:
    """`message` as a sentence: a capital first letter and a full stop, in any language."""
    return Text("{message}.", {"message": message}, capitalise=True)


# A rulings citation written in a message, " (R-21)", " (R-42, R-43)" or the last words of a
# parenthesis ("(use it before the first, R-57)"): the rulings' ids are for the code, its tests
# and the docs, and mean nothing to a player.
RULE_CITATION = re.compile(r" ?\(R-\d+(?:, R-\d+)*\)|, R-\d+(?:, R-\d+)*(?=\))")


def without_rule_ids(text: str) -> str:
    """`text` as a player reads it: without the rulings' ids the source cites."""
    return RULE_CITATION.sub("", text) if "R-" in text else text
