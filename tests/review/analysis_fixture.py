"""The analysis the JS tests read (tests/js/fixtures/analysis.json), from the real review.

`python -m tests.review.analysis_fixture` rewrites it; tests/review/test_analysis_fixture.py
checks it is what the review computes now, so the client is tested on the real format.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from app.review import ReviewSettings, analyse_game
from tests.review.conftest import greedy_game

FIXTURE = Path(__file__).resolve().parents[1] / "js" / "fixtures" / "analysis.json"


def build() -> dict[str, Any]:
    """A 3-player game's analysis, one round per decision (quick, and with labelled moves)."""
    return analyse_game(greedy_game(3, 11), ReviewSettings(rounds=1))


def text(document: dict[str, Any]) -> str:
    return json.dumps(document, sort_keys=True, separators=(",", ":")) + "\n"


if __name__ == "__main__":
    FIXTURE.write_text(text(build()))
