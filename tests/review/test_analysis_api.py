"""GET/POST /api/games/{id}/analysis: served only after the end (R-60), the CLI's JSON."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient
from sqlalchemy import select

from app.db.models import Job
from app.main import create_app
from app.review import analyse_game
from app.review.source import record_from_db, review_settings
from app.services.reviews import analysis
from app.settings import Settings
from tests.web.conftest import client_factory, start_game

from .conftest import play_to_the_end

__all__ = ["client_factory", "start_game"]  # fixtures


@pytest.fixture
def app(database_url: str, make_settings: Callable[..., Settings]) -> Iterator[FastAPI]:
    """The app with quick, in-thread analyses (the runner is driven by the test)."""
    application = create_app(make_settings(database_url, review_rounds=1, review_concurrency=0))
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
    pending = {"status": "pending", "percent": 0, "position": 1, "wait_seconds": 60}
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
