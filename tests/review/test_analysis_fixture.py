"""The JS tests' analysis is the one the review computes now (tests/js/analysis.test.mjs)."""

from __future__ import annotations

import pytest

from tests.review.analysis_fixture import FIXTURE, build, text


@pytest.mark.slow  # re-runs the expert over the fixture
def test_the_fixture_is_current() -> None:
    document = build()
    assert FIXTURE.read_text() == text(document)
    assert any(m.get("label") for m in document["moves"])  # the markers have something to show
