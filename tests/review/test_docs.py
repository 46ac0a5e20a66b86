"""docs/review.md's numbers and names are the code's."""

from __future__ import annotations

import re
from pathlib import Path

from app.review import chance
from app.review.labels import move_accuracy
from app.services.reviews import analysis
from app.settings import Settings

DOC = (Path(__file__).resolve().parents[2] / "docs" / "review.md").read_text()


def test_the_settings_named_exist_with_the_defaults_stated() -> None:
    named = set(re.findall(r"SEADRAGONS_(REVIEW_[A-Z_]+[A-Z])", DOC))
    fields = {f.upper() for f in Settings.model_fields}
    prefixes = {n for n in named if n.endswith("_")}  # "_MISTAKE_" shorthand is not a name
    assert named - prefixes <= fields
    s = Settings()
    assert f"`SEADRAGONS_REVIEW_ROUNDS`, default {s.review_rounds}" in DOC
    assert f"`SEADRAGONS_REVIEW_CONCURRENCY` ({s.review_concurrency})" in DOC
    assert f"`SEADRAGONS_REVIEW_NICE` ({s.review_nice}" in DOC
    flat = re.sub(r"\s+", " ", DOC)
    assert f"`SEADRAGONS_REVIEW_ROLLOUT_PLIES` actions (default {s.review_rollout_plies}:" in flat
    assert (
        "`SEADRAGONS_REVIEW_ROLLOUT_SAMPLE` of the legal actions "
        f"(default {s.review_rollout_sample}:" in flat
    )
    assert f"`SEADRAGONS_REVIEW_PRUNE_POINTS` (default `{s.review_prune_points:g}`: never)" in flat
    assert f"`SEADRAGONS_REVIEW_LEAF` (default `{s.review_leaf}`)" in flat
    assert (
        "`SEADRAGONS_REVIEW_ROLLOUT_TURNS` turns have begun since the decision's "
        f"(default {s.review_rollout_turns}:" in flat
    )
    thresholds = (s.review_inaccuracy_points, s.review_mistake_points, s.review_blunder_points)
    assert "`inaccuracy` from {:g}, `mistake` from {:g}, `blunder` from {:g}".format(
        *thresholds
    ) in re.sub(r"\s+", " ", DOC)


def test_the_model_and_the_job_are_described_as_they_are() -> None:
    text = re.sub(r"\s+", " ", DOC)
    start = chance.TEMP_END + chance.TEMP_SPAN
    assert f"from {start:g} VP at the start to {chance.TEMP_END:g} VP" in text
    assert f"cuts the game into {analysis.PARTS} parts" in text
    assert f"({analysis.MAX_ATTEMPTS} attempts" in text
    for drop, shown in ((5, "80 for a 5 point drop"), (10, "64 for 10"), (15, "51 for 15")):
        assert str(round(move_accuracy(drop))) in shown
        assert shown in text
