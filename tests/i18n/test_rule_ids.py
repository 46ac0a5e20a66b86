"""The rulings' ids ("(R-21)") stay in the source text, for the code, its tests and the docs, but
never reach a player: gettext, ngettext and translate drop them in every language, also from a
plain engine message wrapped in a sentence and from a value that is itself text."""

from __future__ import annotations

import pytest

from app.engine.text import sentence, t_, without_rule_ids
from app.i18n import gettext, ngettext, translate, use_language


@pytest.mark.parametrize(
    ("text", "shown"),
    [
        ("Touches your own Dragon at G7 (R-21).", "Touches your own Dragon at G7."),
        ("scored by R-45 and (R-42, R-43) rules", "scored by R-45 and rules"),
        (
            "two Missions (use it before the first, R-57).",
            "two Missions (use it before the first).",
        ),
        ("no citation here", "no citation here"),
    ],
)
def test_without_rule_ids(text: str, shown: str) -> None:
    assert without_rule_ids(text) == shown


@pytest.mark.parametrize("language", ["en", "es"])
def test_players_never_read_a_rulings_id(language: str) -> None:
    with use_language(language):
        assert "(R-" not in gettext("1 Mission a turn at most (R-26).")
        assert "(R-" not in ngettext("{n} Mission (R-26)", "{n} Missions (R-26)", 2)
        # A plain engine message (not marked text) inside a sentence.
        assert translate(sentence("cannot place: one Mission per turn (R-26)")) == (
            "Cannot place: one Mission per turn."
        )
        nested = t_("First finish the {kind} choice (R-25).", kind=t_("tail (R-50)"))
        assert "R-" not in translate(nested)
    with use_language("es"):
        assert gettext("1 Mission a turn at most (R-26).") == "Como máximo 1 Misión por turno."
