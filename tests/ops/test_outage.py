"""A database that goes away answers `503 unavailable` with Retry-After."""

from __future__ import annotations

from collections.abc import Callable

import httpx
import pytest
from fastapi.testclient import TestClient

from app.db.session import make_engine, make_sessionmaker
from app.main import create_app
from app.settings import Settings
from tests.ops.private_services import private_postgres, wait_until


def _unavailable(r: httpx.Response) -> None:
    assert r.status_code == 503, r.text
    assert r.json()["error"]["code"] == "unavailable"
    assert r.headers["retry-after"] == "5"


@pytest.mark.server
def test_a_stopped_database_is_503_then_service_resumes(
    make_settings: Callable[..., Settings],
) -> None:
    """A private Postgres cluster, stopped and started again under a running app."""
    with private_postgres() as pg:
        app = create_app(make_settings(pg.url))
        with TestClient(app, raise_server_exceptions=False) as c:
            assert c.post("/api/session/guest", json={"name": "Ann"}).status_code == 200
            gid = c.post("/api/games", json={"players": 2}).json()["id"]
            pg.stop()
            _unavailable(c.get(f"/api/games/{gid}"))
            _unavailable(c.get("/api/me"))
            _unavailable(c.post("/api/games", json={"players": 2}))
            _unavailable(c.post(f"/api/games/{gid}/leave"))
            _unavailable(c.get("/readyz"))
            assert c.get("/healthz").status_code == 200  # alive, just not ready
            pg.start()
            wait_until(lambda: c.get("/readyz").status_code == 200, 30, "readiness")
            assert c.get(f"/api/games/{gid}").status_code == 200
            assert c.get("/api/me").json()["display_name"] == "Ann"
        app.state.engine.dispose()


def test_an_exhausted_pool_is_503(sqlite_url: str, make_settings: Callable[..., Settings]) -> None:
    """Every connection busy past the pool timeout: wait and retry, not a bug."""
    app = create_app(make_settings(sqlite_url))
    tiny = make_engine(sqlite_url, pool_size=1, max_overflow=0, pool_timeout=0.2)
    app.state.sessionmaker = make_sessionmaker(tiny)
    with TestClient(app, raise_server_exceptions=False) as c, tiny.connect():
        _unavailable(c.get("/api/games"))
    tiny.dispose()
    app.state.engine.dispose()
