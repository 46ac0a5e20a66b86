"""`seadragons simulate`: one JSON object, the same for the same seed apart from timing."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from app.engine import GameOptions, replay


def _run(*args: str) -> dict:
    out = subprocess.run(
        [sys.executable, "-m", "app.cli", "simulate", *args],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    assert out.count("\n") == 1  # exactly one JSON object on stdout
    return json.loads(out)


def _untimed(summary: dict) -> dict:
    return {k: v for k, v in summary.items() if "seconds" not in k and "per_s" not in k}


@pytest.mark.parametrize("players", [2, 5])
def test_simulate_is_deterministic(players, tmp_path):
    rec = tmp_path / "games.jsonl"
    a = _run("--players", str(players), "--games", "4", "--seed", "1", "--record", str(rec))
    b = _run("--players", str(players), "--games", "4", "--seed", "1")
    assert _untimed(a) == _untimed(b)
    assert a["games"] == 4 and len(a["win_share_by_seat"]) == players
    assert abs(sum(a["win_share_by_seat"]) - 1) < 1e-6
    assert {"gold", "ships", "missions", "most_missions", "realms", "total"} <= set(
        a["mean_scores"]
    )
    assert any("seconds" in k for k in a) and any("per_s" in k for k in a)
    # Each recorded game replays to the recorded final scores.
    lines = [json.loads(x) for x in rec.read_text().splitlines()]
    assert len(lines) == 4
    from app.engine import final_scores

    for line in lines:
        state = replay(
            GameOptions.from_dict(line["options"]),
            line["seed"],
            [tuple(m) for m in line["actions"]],
        )
        assert final_scores(state) == line["scores"]


def test_simulate_other_seed_differs():
    a = _run("--players", "3", "--games", "3", "--seed", "1")
    b = _run("--players", "3", "--games", "3", "--seed", "2")
    assert _untimed(a) != _untimed(b)


def test_simulate_expansion_reports_the_tails_category():
    a = _run("--players", "4", "--games", "3", "--seed", "1", "--expansion")
    b = _run("--players", "4", "--games", "3", "--seed", "1", "--expansion")
    assert _untimed(a) == _untimed(b)
    assert a["expansion"] is True and "tails" in a["mean_scores"]
