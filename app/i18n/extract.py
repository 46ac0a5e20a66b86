"""What needs translating: every marked string in the code and templates (as `pybabel extract`
finds them with babel.cfg), so a test can fail when the Spanish catalogue lacks one."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

from babel.messages.extract import extract_from_dir

ROOT = Path(__file__).resolve().parents[2]
# The Python functions whose string arguments are text for people (the rest are Babel's
# defaults: _, gettext, ngettext, ...). The second argument of ServiceError, EngineError and
# the engine's Reason is text for people, as is the engine's `_bad` (a bad action's message).
KEYWORDS = {
    "_": None,
    "gettext": None,
    "ngettext": (1, 2),
    "t_": None,
    "N_": None,
    "ServiceError": (2,),
    "EngineError": (2,),
    "Reason": (2,),
    "_bad": (1,),
}
METHOD_MAP = [
    ("app/**.py", "python"),
    ("templates/**.html", "jinja2.ext:babel_extract"),
]
OPTIONS = {"templates/**.html": {"extensions": "jinja2.ext.i18n"}}
# A placeholder a translation must keep: {name} (t_) or %(name)s (templates).
PLACEHOLDER = re.compile(r"\{(\w+)\}|%\((\w+)\)s")


def marked_messages(root: Path = ROOT) -> Iterator[tuple[str, str | tuple[str, ...], int]]:
    """(file, message, line) for every marked message under `root`."""
    for filename, lineno, message, _comments, _context in extract_from_dir(
        str(root), METHOD_MAP, OPTIONS, keywords=KEYWORDS, comment_tags=("Translators:",)
    ):
        yield filename, message, lineno


def placeholders(text: str) -> set[str]:
    """The names a message fills in, whichever syntax it uses."""
    return {a or b for a, b in PLACEHOLDER.findall(text)}
