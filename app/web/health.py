"""Operations endpoints: `/healthz` (alive), `/readyz` (ready to serve), `/metrics`."""

from __future__ import annotations

import logging
import secrets
from typing import Any

from alembic.runtime.migration import MigrationContext
from fastapi import APIRouter, Request, Response
from fastapi.responses import JSONResponse
from sqlalchemy import Engine, text

from app.metrics import render
from app.web.errors import error_response, errors, retry_after

log = logging.getLogger(__name__)
router = APIRouter(tags=["health"])


def _database(engine: Engine, heads: set[str]) -> str | None:
    """None if the database answers and is migrated to `heads`, else what is wrong."""
    try:
        with engine.connect() as conn:
            conn.execute(text("SELECT 1"))
            current = set(MigrationContext.configure(conn).get_current_heads())
    except Exception as exc:  # any driver error means "not ready", not a crash
        return f"the database is not reachable: {type(exc).__name__}"
    if current != heads:
        return f"the database schema is at {sorted(current)}, not {sorted(heads)}"
    return None


def _redis(client: Any) -> str | None:
    if client is None:
        return None
    try:
        client.ping()
    except Exception as exc:
        return f"Redis is not reachable: {type(exc).__name__}"
    return None


@router.get("/healthz")
def healthz() -> dict[str, bool]:
    """200 while the process serves requests (liveness); says nothing about its dependencies."""
    return {"ok": True}


@router.get("/readyz", responses=errors(503))
def readyz(request: Request) -> JSONResponse:
    """200 when the database answers with the newest schema and Redis (if configured) answers;
    `503 unavailable` naming what is missing otherwise (take the instance out of rotation)."""
    state = request.app.state
    problems = [p for p in (_database(state.engine, state.schema_heads), _redis(state.redis)) if p]
    if problems:
        log.warning("not ready: %s", "; ".join(problems))
        response = error_response("unavailable", "; ".join(problems), 503)
        return retry_after(response, state.settings.unavailable_retry_after_seconds)
    return JSONResponse({"ok": True})


@router.get("/metrics", include_in_schema=False)
def metrics(request: Request) -> Response:
    """Prometheus metrics on the public port: only with SEADRAGONS_METRICS_TOKEN set, and only
    for `Bearer <token>`; without a token they are not here at all (404, as for any unknown
    path): the separate listener of SEADRAGONS_METRICS_PORT serves them."""
    token = request.app.state.settings.metrics_token
    if not token:
        return error_response("not_found", "Not Found", 404)
    given = request.headers.get("authorization", "")
    if not secrets.compare_digest(given.encode(), f"Bearer {token}".encode()):
        return error_response("metrics_token_required", "send the metrics token", 401)
    body, content_type = render()
    return Response(body, media_type=content_type)
