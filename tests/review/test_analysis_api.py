"""GET/POST /api/games/{id}/analysis: served only after the end (R-60), the CLI's JSON."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient
from sqlalchemy import select, update

from app.db.models.games import Game
from app.db.models.jobs import Job
from app.main import create_app
from app.review import analyse_game
from app.review.source import record_from_db, review_settings
from app.services.reviews import analysis
from app.settings import Settings
from tests.web.conftest import client_factory, start_game

from .conftest import play_to_the_end

# The wait told for the one analysis ahead: the setting's default, whatever it is.
ONE_AHEAD = Settings.model_fields["review_expected_seconds"].default

__all__ = ["client_factory", "start_game"]  # fixtures


@pytest.fixture
def app(database_url: str, make_settings: Callable[..., Settings]) -> Iterator[FastAPI]:
    """The app with quick, in-thread analyses (the runner is driven by the test)."""
    application = create_app(
        make_settings(
            database_url,
            review_rounds=1,
            review_rollout_plies=8,  # the subject is the API, not the search: the smallest one
            review_rollout_sample=4,
            review_concurrency=0,
            review_queue_max=2,
            review_per_user=1,
        )
    )
    yield application
    application.state.engine.dispose()


@pytest.mark.slow  # the expert analyses a whole game
def test_analysis_only_after_the_end(
    app: FastAPI, start_game: Callable[..., tuple[int, list[TestClient]]]
) -> None:
    game_id, (host, guest) = start_game(2)
    outsider = TestClient(app)
    url = f"/api/games/{game_id}/analysis"
    with app.state.sessionmaker() as db:
        play_to_the_end(db, game_id, stop_before=30)
    # During the game: refused for everyone, seated or not, and nothing about an analysis.
    assert outsider.post(url).status_code == 401  # asking takes an account (guests too)
    for client in (host, guest, outsider):
        for method in (client.get, client.post) if client is not outsider else (client.get,):
            r = method(url)
            assert r.status_code == 409, r.text
            assert r.json() == {
                "error": {"code": "not_finished", "message": r.json()["error"]["message"]}
            }
            assert "percent" not in r.text and "analys" not in r.text.replace(url, "")
    with app.state.sessionmaker() as db:
        assert list(db.scalars(select(Job).where(Job.kind == analysis.KIND))) == []
        play_to_the_end(db, game_id)

    r = guest.get(url)
    assert (r.status_code, r.json()) == (202, {"status": "none"})  # asked for by nobody yet
    r = guest.post(url)
    pending = {"status": "pending", "percent": 0, "position": 1, "wait_seconds": ONE_AHEAD}
    assert (r.status_code, r.json()) == (202, pending)
    assert app.state.analysis_jobs.run_due() == 1
    r = outsider.get(url)  # a public game's analysis, like its record, is for everyone
    assert r.status_code == 200
    with app.state.sessionmaker() as db:
        expected = analyse_game(record_from_db(db, game_id), review_settings(app.state.settings))
    assert r.json() == json.loads(json.dumps(expected))
    assert host.post(url).json() == {"status": "done", "percent": 100}


def test_an_unknown_game_is_not_found(app: FastAPI) -> None:
    client = TestClient(app)
    assert client.get("/api/games/987654/analysis").status_code == 404
    assert client.get("/api/games/0/analysis").status_code in (404, 422)


def test_the_queue_answers_busy_and_bounds_each_account(
    app: FastAPI, start_game: Callable[..., tuple[int, list[TestClient]]]
) -> None:
    """A full queue: 503 with Retry-After and the line's length, in the reader's language; an
    account past its bound: 429. (The games are marked finished: the queue reads the status.)"""
    started = [start_game(2) for _ in range(3)]
    with app.state.sessionmaker() as db:
        ids = [game_id for game_id, _ in started]
        db.execute(update(Game).where(Game.id.in_(ids)).values(status="finished"))
        db.commit()
    (g1, (ann, bob)), (g2, (cid, _)), (g3, (dan, _)) = started
    r = ann.post(f"/api/games/{g1}/analysis")
    assert (r.status_code, r.json()["position"]) == (202, 1)
    r = ann.post(f"/api/games/{g2}/analysis")
    assert r.status_code == 429 and r.json()["error"]["code"] == "review_user_limit"
    assert r.headers["retry-after"] == str(round(ONE_AHEAD))
    assert bob.post(f"/api/games/{g1}/analysis").json()["position"] == 1  # the same job
    assert cid.post(f"/api/games/{g2}/analysis").json()["position"] == 2
    r = dan.post(f"/api/games/{g3}/analysis", headers={"Accept-Language": "es"})
    assert r.status_code == 503 and r.headers["retry-after"] == str(round(ONE_AHEAD))
    error = r.json()["error"]
    assert error["code"] == "review_queue_full"
    assert "2" in error["message"] and "queue" not in error["message"]  # Spanish
    assert dan.get(f"/api/games/{g3}/analysis").json() == {"status": "none"}
