"""Allowed origins: CORS with credentials for the configured origins only."""

from __future__ import annotations

from collections.abc import Callable

from fastapi.testclient import TestClient

from app.main import create_app
from app.settings import Settings


def test_allowed_origins_get_cors_headers(
    sqlite_url: str, make_settings: Callable[..., Settings]
) -> None:
    app = create_app(make_settings(sqlite_url, allowed_origins=["https://play.example"]))
    with TestClient(app) as client:
        ok = client.options(
            "/api/games",
            headers={"origin": "https://play.example", "access-control-request-method": "POST"},
        )
        assert ok.headers["access-control-allow-origin"] == "https://play.example"
        assert ok.headers["access-control-allow-credentials"] == "true"
        other = client.get("/api/games", headers={"origin": "https://evil.example"})
        assert "access-control-allow-origin" not in other.headers
    app.state.engine.dispose()


def test_no_cors_by_default(sqlite_url: str, make_settings: Callable[..., Settings]) -> None:
    app = create_app(make_settings(sqlite_url))
    with TestClient(app) as client:
        r = client.get("/api/games", headers={"origin": "https://play.example"})
        assert r.status_code == 200 and "access-control-allow-origin" not in r.headers
    app.state.engine.dispose()
