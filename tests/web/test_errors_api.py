"""Every error has the shape {"error": {"code", "message"}}; bodies are size-limited."""

from __future__ import annotations

from collections.abc import Callable, Iterator

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient

from app.main import create_app
from app.settings import Settings

# SQLite alone: nothing checked here differs by dialect (docs/testing.md, Postgres).
pytestmark = pytest.mark.one_database

Factory = Callable[..., TestClient]


def _is_error(r, status: int, code: str) -> None:  # type: ignore[no-untyped-def]
    assert r.status_code == status, r.text
    body = r.json()
    assert set(body) == {"error"}
    assert body["error"]["code"] == code
    assert isinstance(body["error"]["message"], str) and body["error"]["message"]


def test_unknown_path_and_method(client_factory: Factory) -> None:
    client = client_factory()
    _is_error(client.get("/api/nothing-here"), 404, "not_found")
    _is_error(client.delete("/api/me"), 405, "method_not_allowed")
    _is_error(client.get("/api/games/not-a-number"), 422, "invalid_request")


def test_malformed_json_and_wrong_types(client_factory: Factory) -> None:
    client = client_factory("Someone")
    r = client.post(
        "/api/session/guest", content=b"{not json", headers={"content-type": "application/json"}
    )
    _is_error(r, 422, "invalid_request")
    _is_error(client.post("/api/games", json={"players": "many"}), 422, "invalid_request")
    _is_error(client.post("/api/games", json=[1, 2]), 422, "invalid_request")
    r = client.post("/api/games", json={"players": "x"})
    assert r.json()["error"]["details"][0]["loc"] == ["body", "players"]


def test_json_endpoints_refuse_other_content_types(client_factory: Factory) -> None:
    # A cross-site <form enctype="text/plain"> cannot forge a JSON call (besides SameSite=Lax).
    client = client_factory("Someone")
    r = client.post("/api/games", content=b'{"players": 2}', headers={"content-type": "text/plain"})
    assert r.status_code == 422
    assert r.json()["error"]["code"] == "invalid_request"
    assert client.get("/api/me/games").json()["games"] == []


def test_oversized_body_is_refused_before_parsing(client_factory: Factory) -> None:
    client = client_factory("Someone")
    big = b'{"name": "' + b"a" * (70 * 1024) + b'"}'
    r = client.post("/api/session/guest", content=big, headers={"content-type": "application/json"})
    _is_error(r, 413, "body_too_large")

    def chunks() -> Iterator[bytes]:
        yield b'{"name": "'
        for _ in range(80):
            yield b"a" * 1024
        yield b'"}'

    r = client.post(
        "/api/session/guest", content=chunks(), headers={"content-type": "application/json"}
    )
    _is_error(r, 413, "body_too_large")


@pytest.fixture
def crashing_app(sqlite_url: str, make_settings: Callable[..., Settings]) -> FastAPI:
    app = create_app(make_settings(sqlite_url))

    @app.get("/api/boom")
    def boom() -> None:
        raise RuntimeError("kaboom")

    return app


def test_unexpected_exception_is_a_json_500(crashing_app: FastAPI) -> None:
    with TestClient(crashing_app, raise_server_exceptions=False) as client:
        r = client.get("/api/boom")
    _is_error(r, 500, "internal_error")
    assert "kaboom" not in r.text


def test_healthz(client_factory: Factory) -> None:
    r = client_factory().get("/healthz")
    assert r.status_code == 200 and r.json() == {"ok": True}
