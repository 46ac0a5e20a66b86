"""Names that look like other names, and characters nobody sees.

Unicode's security mechanisms (UTS #39): a name is refused if it mixes scripts beyond what one
language writes together ("Ann" written with a Cyrillic A, U+0410), and a name that would sit at
a table where another name looks the same is refused there (their confusable skeletons are
equal). Invisible format characters (category Cf: U+200B, U+00AD, U+FEFF, ...) are dropped from
chat lines (names refuse them with every other character that is no letter, digit or space), so
two lines that read alike are alike.

The data is Unicode's (confusables.txt, Scripts.txt) as the `confusable-homoglyphs` package ships
it: each character with the characters it may be mistaken for, both ways, and a character that
looks like a sequence (m and "rn") with that sequence. Characters linked together form one class
(in confusables.txt, a prototype and the characters mapped to it); a skeleton writes each
character as its class's representative, so two strings look alike when their skeletons are
equal, as with the standard's own skeleton.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable
from functools import cache

from app.i18n import t_
from app.shared.errors import ServiceError

# Marks the data puts around right-to-left characters so that they display in a list.
_LRM = "\u200e"

# Common (digits, spaces, punctuation) and Inherited (combining marks) go with any script.
_ANY_SCRIPT = frozenset({"COMMON", "INHERITED"})
# UTS #39 5.2 "Highly Restrictive": one script, or Latin with scripts written together with Han.
_WRITTEN_TOGETHER = (
    frozenset({"LATIN", "HAN", "HIRAGANA", "KATAKANA"}),
    frozenset({"LATIN", "HAN", "BOPOMOFO"}),
    frozenset({"LATIN", "HAN", "HANGUL"}),
)

# Kept in chat (not in names): the joiners that shape emoji sequences and words in Persian and
# Indic scripts (UAX #31); every other format character is invisible there too.
CHAT_JOINERS = frozenset("\u200c\u200d")


def strip_invisible(text: str, keep: frozenset[str] = frozenset()) -> str:
    """`text` without format characters (category Cf), except those in `keep`."""
    return "".join(ch for ch in text if ch in keep or unicodedata.category(ch) != "Cf")


def scripts_of(text: str) -> frozenset[str]:
    """The scripts `text` is written in (upper-case names: LATIN, CYRILLIC, HAN, ...), without
    the characters every script shares."""
    from confusable_homoglyphs.categories import alias

    return frozenset(alias(ch) for ch in text) - _ANY_SCRIPT


def mixes_scripts(text: str) -> bool:
    """Whether `text` mixes scripts that no language writes together."""
    scripts = scripts_of(text)
    return len(scripts) > 1 and not any(scripts <= kind for kind in _WRITTEN_TOGETHER)


def skeleton(text: str) -> str:
    """What `text` looks like: equal for two strings a reader may take for one another."""
    table = _skeleton_table()
    once = "".join(table.get(ch, ch) for ch in unicodedata.normalize("NFD", text))
    # A sequence a character stood for may hold characters of other classes: map it again.
    return "".join(table.get(ch, ch) for ch in unicodedata.normalize("NFD", once))


def lookalike_in(name: str, others: Iterable[str]) -> str | None:
    """The first of `others` that may be taken for `name` (the same name included), if any."""
    mine = skeleton(strip_invisible(name))
    return next((o for o in others if skeleton(strip_invisible(o)) == mine), None)


def refuse_lookalike(name: str, others: Iterable[str]) -> None:
    """Refuse (`lookalike_name`) a name that looks like one of `others`, the names at a table."""
    other = lookalike_in(name, others)
    if other is not None:
        raise ServiceError(
            "lookalike_name",
            t_(
                "{name} looks like {other}, who sits at this table: choose another name",
                name=name,
                other=other,
            ),
        )


@cache
def _skeleton_table() -> dict[str, str]:
    """Character -> its class's representative (the least code point), or the sequence it looks
    like; built once from the package's data (about 10,000 characters)."""
    from confusable_homoglyphs.confusables import confusables_data

    parent: dict[str, str] = {}

    def root(ch: str) -> str:
        while parent.setdefault(ch, ch) != ch:
            parent[ch] = parent[parent[ch]]
            ch = parent[ch]
        return ch

    sequences: dict[str, str] = {}
    for key, entries in confusables_data.items():
        source = key.replace(_LRM, "")
        if len(source) != 1:
            continue  # a sequence: reached from the characters that look like it
        for entry in entries:
            target = entry["c"].replace(_LRM, "")
            if len(target) == 1:
                a, b = root(source), root(target)
                if a != b:
                    parent[max(a, b)] = min(a, b)
            elif target:
                sequences[source] = target
    table = {ch: root(ch) for ch in list(parent) if root(ch) != ch}
    table.update(sequences)
    return table
