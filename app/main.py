"""The FastAPI application factory and the `seadragons serve` entry point."""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

from fastapi import FastAPI, Request
from fastapi.middleware.cors import CORSMiddleware
from fastapi.responses import JSONResponse
from fastapi.staticfiles import StaticFiles
from itsdangerous import Signer
from sqlalchemy import text

from app.db.migrate import upgrade_to_head
from app.db.session import make_engine, make_sessionmaker
from app.realtime import install as install_realtime
from app.services.bot_runner import runner_for
from app.services.deadlines import sweeper_for
from app.services.mailer import sender_for
from app.services.notify import Notifier
from app.settings import Settings, get_settings
from app.web import (
    api_account,
    api_bots,
    api_games,
    api_me,
    api_rematch,
    api_users,
    errors,
    pages,
    pages_account,
)
from app.web.limits import BodyLimitMiddleware
from app.web.throttle import LoginThrottle

log = logging.getLogger(__name__)


def create_app(settings: Settings | None = None) -> FastAPI:
    """Build the app: connect, apply pending migrations, mount the API."""
    settings = settings or get_settings()
    engine = make_engine(settings.resolved_database_url())
    if settings.migrate_on_start:
        upgrade_to_head(engine=engine)

    @asynccontextmanager
    async def lifespan(the_app: FastAPI) -> AsyncIterator[None]:
        await the_app.state.bot_runner.start()  # plays bot seats; resumes waiting games
        await the_app.state.deadlines.start()  # turns that ran out (issue 14)
        await the_app.state.mailer.start()  # "your turn" emails (issue 14)
        try:
            yield
        finally:
            await the_app.state.mailer.stop()
            await the_app.state.deadlines.stop()
            await the_app.state.bot_runner.stop()
        engine.dispose()

    app = FastAPI(
        title="Sea Dragons Online",
        version="0.1.0",
        summary="Accounts, lobby and games of Sea Dragons; see docs/api.md.",
        lifespan=lifespan,
    )
    app.state.settings = settings
    app.state.engine = engine
    app.state.sessionmaker = make_sessionmaker(engine)
    app.state.notifier = Notifier()
    app.state.login_throttle = LoginThrottle(settings.redis_url)
    app.state.bot_runner = runner_for(app.state.sessionmaker, app.state.notifier, settings)
    app.state.deadlines = sweeper_for(app.state.sessionmaker, app.state.notifier, settings)
    app.state.mailer = sender_for(app.state.sessionmaker, settings)
    app.state.signer = Signer(settings.resolved_secret_key(), salt="seadragons.session")

    errors.install(app)
    if settings.allowed_origins:
        app.add_middleware(
            CORSMiddleware,
            allow_origins=settings.allowed_origins,
            allow_credentials=True,
            allow_methods=["GET", "POST"],
            allow_headers=["content-type"],
        )
    # Added last so it is the outermost: oversized bodies never reach CORS, routing or parsing.
    app.add_middleware(BodyLimitMiddleware, limit=settings.max_body_bytes)

    app.include_router(api_users.router)
    app.include_router(api_games.router)
    app.include_router(api_games.invites_router)
    app.include_router(api_bots.router)
    app.include_router(api_account.router)  # issue 14: email notices
    app.include_router(api_me.router)  # issue 14: your games
    app.include_router(api_rematch.router)  # issue 14: rematch
    app.include_router(pages_account.router)  # issue 14: account page, email links
    install_realtime(app)
    app.include_router(pages.router)
    app.mount("/static", StaticFiles(directory=pages.STATIC_DIR), name="static")

    @app.get("/healthz", tags=["health"])
    def healthz(request: Request) -> JSONResponse:
        """200 once the database answers; 503 otherwise."""
        try:
            with request.app.state.engine.connect() as conn:
                conn.execute(text("SELECT 1"))
        except Exception as exc:  # any driver error means "not ready", not a crash
            log.warning("health check failed: %s", exc)
            return errors.error_response("unavailable", "the database is not reachable", 503)
        return JSONResponse({"ok": True})

    return app


def serve(host: str, port: int, workers: int = 1) -> int:
    """Run the server with uvicorn until interrupted; returns the exit code.

    With `workers` > 1, that many processes share the port; they need the Redis bus
    (SEADRAGONS_REDIS_URL) to hear each other's moves, so starting them without one is refused.
    """
    import os
    import sys

    import uvicorn

    logging.basicConfig(level=logging.INFO)
    settings = get_settings()
    options: dict[str, Any] = {
        "host": host,
        "port": port,
        "proxy_headers": True,
        # Frames past the realtime layer's own cap are refused by uvicorn before buffering.
        "ws_max_size": 256 * 1024,
        # Off by default: a compression context costs ~45 KiB per socket (docs/protocol.md).
        "ws_per_message_deflate": settings.ws_compression,
    }
    if workers <= 1:
        uvicorn.run(create_app(settings), **options)
        return 0
    if not settings.redis_url or settings.redis_url.startswith("memory"):
        print(
            f"seadragons serve --workers {workers}: several processes need the Redis bus to "
            "hear each other's moves; set SEADRAGONS_REDIS_URL=redis://HOST:6379/0 "
            "(or run one worker)",
            file=sys.stderr,
        )
        return 2
    # Once, before the workers start, so they do not race: migrations and the cookie secret.
    engine = make_engine(settings.resolved_database_url())
    if settings.migrate_on_start:
        upgrade_to_head(engine=engine)
    engine.dispose()
    os.environ["SEADRAGONS_SECRET_KEY"] = settings.resolved_secret_key()
    os.environ["SEADRAGONS_MIGRATE_ON_START"] = "false"
    uvicorn.run("app.main:create_app", factory=True, workers=workers, **options)
    return 0
