"""Text for people that is translated where it is shown, not where it is written.

A service refusing a request writes `t_("Seat {seat} is taken", seat=2)`: the result is the
English sentence (a `str`, so logs, tests and older callers see plain text) that also remembers
its template and values, so the edge that sends it (an error answer, a socket frame) can render
it in the reader's language with `translate`.
"""

from __future__ import annotations

from typing import Any


class Text(str):
    """An English sentence that knows the template and values it was made from."""

    template: str
    params: dict[str, Any]

    def __new__(cls, template: str, params: dict[str, Any]) -> Text:
        made = super().__new__(cls, template.format(**params) if params else template)
        made.template = template
        made.params = params
        return made


def t_(template: str, **params: Any) -> Text:
    """Mark `template` for translation (Babel extracts it), with `{name}` places for values."""
    return Text(template, params)
