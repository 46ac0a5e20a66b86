"""A placement's outcome speaks the reader's language: its notes (app.engine.preview), which the
placement bar shows and the ghost's sentence (static/js/lib/speech.mjs) reads aloud, are marked
text worded at the edge (app.i18n.translate_outcome: the previews API and the tutorial's)."""

from __future__ import annotations

import random

from app.engine import GameOptions, apply, legal_actions, new_game, preview, to_act
from app.i18n import translate_outcome, use_language


def _outcome_notes() -> dict[str, tuple]:
    """A state and placement for each note an outcome can carry (app.engine.preview)."""
    found: dict[str, tuple] = {}
    for seed in range(20):
        state = new_game(GameOptions(players=3, expansion=True), seed)
        rng = random.Random(seed)
        for _ in range(120):
            seat = to_act(state)
            if seat is None:
                break
            legal = legal_actions(state, seat)
            for action in [a for a in legal if a["type"] == "place"][:40]:
                for note in preview.outcome(state, seat, action)["notes"]:
                    found.setdefault(note, (state, seat, action))
            if len(found) == 3:
                return found
            state, _ = apply(state, rng.choice(legal), seat)
    return found


def test_an_outcomes_notes_are_read_in_the_readers_language() -> None:
    """The ghost's sentence (lib/speech.mjs) reads an outcome's notes aloud: they come worded in
    the reader's language (a dark blue ship, a tail at the end, tails moved at the next step)."""
    found = _outcome_notes()
    assert len(found) == 3, list(found)
    for english, (state, seat, action) in found.items():
        with use_language("es"):
            notes = translate_outcome(preview.outcome(state, seat, action))["notes"]
        assert english not in notes and all(notes), notes
        with use_language("en"):
            assert english in translate_outcome(preview.outcome(state, seat, action))["notes"]
