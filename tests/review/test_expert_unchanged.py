"""The review reuses the expert's search pieces (app/bots/expert.py `candidates`, `playout`); the
expert's own decisions must stay what they were before that split: same seeds, same moves."""

from __future__ import annotations

import pytest

from tests.review.expert_moves import expert_moves_digest

# Computed with the expert as it was before `candidates` and `playout` became functions.
BEFORE = "572c32d888ee9f2c85b83620f7f2022c57516d43c81a9bcef755840bdd5010e8"


@pytest.mark.slow  # expert searches on many seeds
def test_the_expert_chooses_the_same_moves_on_the_same_seeds() -> None:
    assert expert_moves_digest() == BEFORE
