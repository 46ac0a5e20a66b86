"""The review in the replay page, against the real server: the page mounts the server's analysis
(GET /api/games/{id}/analysis) beside the replay: the graph is drawn, "Next mistake" steps the
replay to the marked move, and that move's better placement is outlined on the board. The
analysis answer is supplied by the test (a real one takes about a minute of CPU per game, which
tests/review measures and checks); here only the page's use of it is under test."""

from __future__ import annotations

import json
from typing import Any

import pytest

from tests.e2e.helpers import shot, watch_console
from tests.e2e.test_replay_real_server import _finished_expansion_game

pytestmark = pytest.mark.e2e


def _analysis_of(replay: dict[str, Any], mistake_at: int, best: dict[str, Any]) -> dict[str, Any]:
    """An analysis document in the server's shape for this replay, one mistake marked."""
    seats = len(replay["seats"])
    moves = []
    for i, f in enumerate(replay["frames"], start=1):
        marked = i == mistake_at
        win = {"played": 30.0, "best": 42.0 if marked else 30.0}
        moves.append(
            {
                "move": i,
                "seat": f["seat"],
                "turn": i,
                "played": f["action"],
                "best": best if marked else f["action"],
                "candidates": 2,
                "forced": False,
                "drop": 12.0 if marked else 0.0,
                "label": "mistake" if marked else None,
                "win": win,
                "margin": {"played": 0.0, "best": 3.0 if marked else 0.0},
                "chances": [100 / seats] * seats,
            }
        )
    players = [
        {
            "seat": s,
            "accuracy": 90.0,
            "decisions": 10,
            "inaccuracies": 0,
            "mistakes": 0,
            "blunders": 0,
        }
        for s in range(seats)
    ]
    players[replay["frames"][mistake_at - 1]["seat"]]["mistakes"] = 1
    winners = list(replay["final_scores"]["winners"])
    return {
        "format": 1,
        "game_id": replay["game_id"],
        "settings": {
            "rounds": 1,
            "thresholds": {"inaccuracy": 5.0, "mistake": 10.0, "blunder": 15.0},
        },
        "moves": moves,
        "players": players,
        "totals": [0] * seats,
        "winners": winners,
    }


def test_the_replay_shows_the_review_and_steps_to_a_mistake(browser: Any, real_server: str) -> None:
    host, game_id = _finished_expansion_game(real_server)
    replay = host.get(f"/api/games/{game_id}/replay").json()
    places = [i for i, f in enumerate(replay["frames"], start=1) if f["action"]["type"] == "place"]
    mistake_at, other = places[len(places) // 2], places[-1]
    best = replay["frames"][other - 1]["action"]
    analysis = _analysis_of(replay, mistake_at, best)
    last = len(replay["frames"])

    page = browser.new_page(viewport={"width": 1280, "height": 800})
    errors = watch_console(page)
    page.route(
        f"**/api/games/{game_id}/analysis",
        lambda route: route.fulfill(
            status=200, content_type="application/json", body=json.dumps(analysis)
        ),
    )
    page.goto(f"{real_server}/games/{game_id}/replay")
    page.wait_for_selector("#analysis canvas.analysis-graph")
    assert page.is_visible("#analysis")
    # Something is drawn on the graph (the seats' lines), not an empty canvas.
    inked = page.evaluate(
        """() => { const c = document.querySelector('#analysis canvas.analysis-graph');
        const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
        let n = 0; for (let i = 3; i < d.length; i += 4) if (d[i]) n++; return n; }"""
    )
    assert inked > 100
    # The graph fits its panel (no part of it cut off at the side).
    assert page.evaluate(
        """() => { const g = document.querySelector('#analysis canvas.analysis-graph')
          .getBoundingClientRect(); const p = document.getElementById('analysis')
          .getBoundingClientRect(); return g.left >= p.left && g.right <= p.right; }"""
    )
    page.click("#analysis button.analysis-next")
    page.wait_for_function(
        "t => document.getElementById('step-label').textContent === t",
        arg=f"Move {mistake_at} of {last}",
    )
    shown = page.evaluate("() => window.seadragons.review().best")
    assert shown is not None and shown["cells"] == best["cells"]
    assert page.inner_text("#analysis-best").startswith(f"Best: {best['card']}")
    assert "mistake" in page.inner_text("#analysis .analysis-move")
    shot(page, "review-replay-mistake-1280", full_page=False)
    # A move played as the expert would have: no outline, no "Best".
    page.keyboard.press("ArrowRight")
    page.wait_for_function(
        "t => document.getElementById('step-label').textContent === t",
        arg=f"Move {mistake_at + 1} of {last}",
    )
    assert page.evaluate("() => window.seadragons.review().best") is None
    assert page.inner_text("#analysis-best") == ""
    assert not errors, errors

    # While the analysis runs the panel says how far it is; before any, nothing is shown.
    running = browser.new_page(viewport={"width": 1280, "height": 800})
    running.route(
        f"**/api/games/{game_id}/analysis",
        lambda route: route.fulfill(
            status=202, content_type="application/json", body='{"status": "running", "percent": 40}'
        ),
    )
    running.goto(f"{real_server}/games/{game_id}/replay")
    running.wait_for_function(
        "() => document.getElementById('analysis').textContent.includes('analysing: 40%')"
    )
    running.close()

    # With none, "Analyse this game" asks for one and says the answer: busy, or a place in line.
    answers = iter(
        [
            (503, {"error": {"code": "review_queue_full", "message": "busy: 20 games in line"}}),
            (202, {"status": "pending", "percent": 0, "position": 2, "wait_seconds": 120}),
        ]
    )

    def analysis_api(route: Any) -> None:
        if route.request.method == "POST":
            status, body = next(answers)
        else:
            status, body = 202, {"status": "none"}
        route.fulfill(status=status, content_type="application/json", body=json.dumps(body))

    asking = browser.new_page(viewport={"width": 1280, "height": 800})
    asking.route(f"**/api/games/{game_id}/analysis", analysis_api)
    asking.goto(f"{real_server}/games/{game_id}/replay")
    asking.click("#analysis button#analyse")
    asking.wait_for_function(
        "() => document.getElementById('analysis').textContent.includes('busy: 20 games')"
    )
    asking.click("#analysis button#analyse")  # offered again: try later
    asking.wait_for_function(
        "() => document.getElementById('analysis').textContent"
        ".includes('analysis queued: number 2 in line, ready in about 2 min')"
    )
    assert asking.query_selector("#analysis button#analyse") is None  # asked: no button
    asking.close()
    page.close()
