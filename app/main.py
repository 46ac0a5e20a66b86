"""The FastAPI application factory and the `seadragons serve` entry point."""

from __future__ import annotations

import gc
import logging
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

from fastapi import FastAPI
from fastapi.middleware.cors import CORSMiddleware
from fastapi.staticfiles import StaticFiles
from itsdangerous import Signer
from starlette.types import Receive, Scope, Send

from app.context import build_context
from app.db.migrate import head_revisions, upgrade_to_head
from app.db.session import make_engine
from app.i18n.middleware import LanguageMiddleware
from app.infra.redis_urls import readiness_client
from app.logging_setup import RequestContextMiddleware, uvicorn_log_config
from app.logging_setup import configure as configure_logging
from app.metrics import serve_metrics
from app.realtime import install as install_realtime
from app.realtime import watch_channel
from app.realtime.endpoint import SocketDoor
from app.realtime.work_hints import WorkHints
from app.roles import build_background
from app.services.notices.vapid import vapid_keys
from app.settings import Settings, get_settings
from app.shared.clock import SYSTEM_CLOCK, Clock
from app.shared.http import OriginPolicy
from app.web import (
    api_account,
    api_analysis,
    api_bots,
    api_clock,
    api_games,
    api_hints,
    api_learn,
    api_match,
    api_me,
    api_previews,
    api_push,
    api_ratings,
    api_rematch,
    api_replays,
    api_users,
    api_vacation,
    api_watch,
    errors,
    health,
    language,
    pages,
    pages_account,
    pages_install,
    pages_learn,
    pages_ratings,
    pages_watch,
)
from app.web.inputs import ControlCharacterMiddleware, RepeatedQueryMiddleware
from app.web.limits import BodyLimitMiddleware
from app.web.openapi_truth import install as install_openapi_truth
from app.web.security import OriginCheckMiddleware, SecurityHeadersMiddleware
from app.web.throttle import STORAGE_TIMEOUT_S, Throttles

log = logging.getLogger(__name__)


def _redis_client(url: str | None) -> object | None:
    """A Redis client for the readiness check (None without Redis: `shared_redis_url`)."""
    return readiness_client(url, STORAGE_TIMEOUT_S)


class SeaDragonsApp(FastAPI):
    """The FastAPI app, with a door for game sockets (app.realtime.endpoint.SocketDoor): their
    upgrades skip the HTTP stack, whose frames would stay in memory for a socket's life."""

    def __init__(self, *, socket_door: Any = None, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.socket_door = socket_door

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        door = self.socket_door
        if door is not None and door.matches(scope):
            scope["app"] = self
            await door(scope, receive, send)
            return
        await super().__call__(scope, receive, send)


def young_collections(threshold: int) -> None:
    """Collect the young generation after `threshold` allocations, not Python's 700: a move
    allocates thousands of containers that live until the game's next move (its state, each
    viewer kind's document), so at 700 most young collections walk live objects and promote
    them, to be walked again by the older generations' passes. (The older generations keep
    Python's own thresholds.)"""
    _young, *older = gc.get_threshold()
    gc.set_threshold(threshold, *older)


def create_app(settings: Settings | None = None, clock: Clock = SYSTEM_CLOCK) -> FastAPI:
    """Build the app: its context (app/context.py), pending migrations, the API. `clock`: where
    every service reads the time (tests move a FakeClock)."""
    settings = settings or get_settings()
    context = build_context(settings, clock)
    engine = context.engine
    if settings.migrate_on_start:
        upgrade_to_head(engine=engine)

    @asynccontextmanager
    async def lifespan(the_app: FastAPI) -> AsyncIterator[None]:
        # The background work this role runs (app/roles.py): bots, deadlines, mail, jobs and
        # analyses with role "all"; none with role "web" (workers do it, told by work hints).
        await the_app.state.background.start(settings.role)
        hints = None if settings.role == "all" else WorkHints(the_app.state.realtime)
        if hints is not None:
            hints.start()
        # Everything loaded so far (modules, content, compiled statements) lives as long as the
        # process: keep it out of the garbage collector's full passes, which otherwise walk it
        # again and again and show up as multi-millisecond pauses in move latency.
        gc.freeze()
        young_collections(settings.gc_young_threshold)
        try:
            yield
        finally:
            if hints is not None:
                hints.stop()
            await the_app.state.watch.stop()
            await the_app.state.realtime.delayed.stop()
            await the_app.state.background.stop()
        engine.dispose()

    app = SeaDragonsApp(
        title="Sea Dragons Online",
        version="0.1.0",
        summary="Accounts, lobby and games of Sea Dragons; see docs/api.md.",
        lifespan=lifespan,
        # Game sockets enter here, past the HTTP stack (app/realtime: the route and the hub).
        socket_door=SocketDoor(OriginPolicy(settings.allowed_origins, settings.public_origin())),
    )
    app.state.context = context
    app.state.settings = settings
    app.state.engine = engine
    app.state.schema_heads = set(head_revisions())
    app.state.redis = _redis_client(settings.shared_redis_url)
    app.state.sessionmaker = context.sessions
    app.state.notifier = context.notifier
    app.state.throttles = Throttles.from_settings(settings)
    app.state.login_throttle = app.state.throttles.login
    # For app/realtime: `app.state.chat_limiter.allow(user_id) -> None | seconds to wait`.
    app.state.chat_limiter = app.state.throttles.chat
    # Web Push (app/services/notices/push.py): the VAPID key (the web answers it, the jobs
    # sign with it) and the subscription limits.
    app.state.vapid = vapid_keys(settings)
    app.state.push_limits = api_push.PushLimits(settings)
    background = build_background(context, vapid=app.state.vapid)
    app.state.background = background
    app.state.bot_runner = background.bot_runner
    app.state.deadlines = background.deadlines
    app.state.mailer = background.mailer
    app.state.jobs = background.jobs
    app.state.analysis_jobs = background.analysis_jobs
    app.state.analysis_pool = background.analysis_pool
    app.state.push_relay = background.push_relay
    app.state.signer = Signer(settings.resolved_secret_key(), salt="seadragons.session")

    errors.install(app)
    install_openapi_truth(app, settings)  # the schema states what the server enforces
    # Middleware: the last added is the outermost. From the outside in: request id and log
    # context, security headers (on every answer, refusals included), the body size limit
    # (before anything reads a body), control characters in paths and queries, a query parameter
    # given twice, the Origin
    # check, CORS, and innermost the reader's language (so error answers are in it too).
    app.add_middleware(LanguageMiddleware)
    if settings.allowed_origins:
        app.add_middleware(
            CORSMiddleware,
            allow_origins=settings.allowed_origins,
            allow_credentials=True,
            allow_methods=["GET", "POST", "DELETE"],
            allow_headers=["content-type"],
        )
    app.add_middleware(
        OriginCheckMiddleware,
        allowed_origins=settings.allowed_origins,
        public_origin=settings.public_origin(),
    )
    app.add_middleware(RepeatedQueryMiddleware)
    app.add_middleware(ControlCharacterMiddleware)
    app.add_middleware(BodyLimitMiddleware, limit=settings.max_body_bytes)
    app.add_middleware(SecurityHeadersMiddleware)
    app.add_middleware(RequestContextMiddleware, access_log=settings.log_format == "json")

    app.include_router(api_users.router)
    app.include_router(api_games.router)
    app.include_router(api_games.invites_router)
    app.include_router(api_previews.router)  # placement outcomes from the engine
    app.include_router(api_hints.router)  # the expert's move, at unrated tables
    app.include_router(api_clock.router)  # extra time on a turn clock
    app.include_router(api_replays.router)  # replays of finished games from the engine
    app.include_router(api_bots.router)
    app.include_router(api_account.router)  # email notices
    app.include_router(api_vacation.router)  # vacation days (daily clocks stand still)
    app.include_router(api_me.router)  # your games
    app.include_router(api_match.router)  # quick match (play now)
    app.include_router(api_rematch.router)  # rematch
    app.include_router(api_analysis.router)  # game review
    app.include_router(pages_account.router)  # account page, email links
    app.include_router(api_push.router)  # push devices and the VAPID key
    app.include_router(pages_install.router)  # /manifest.webmanifest and /sw.js
    app.include_router(api_ratings.router)  # ratings, profiles, leaderboards, history
    app.include_router(pages_ratings.router)
    app.include_router(api_learn.router)  # tutorials and the rules page's examples
    app.include_router(pages_learn.router)
    app.include_router(health.router)
    app.include_router(language.router)  # the header's language switch
    install_realtime(app)  # with the rooms of spectators at tables with a spectator delay
    app.include_router(api_watch.router)  # live games at a glance
    app.include_router(pages_watch.router)
    watch_channel.install(app)
    app.include_router(pages.router)
    app.mount("/static", StaticFiles(directory=pages.STATIC_DIR), name="static")
    return app


def serve(host: str, port: int, workers: int = 1) -> int:
    """Run the server with uvicorn until SIGINT/SIGTERM; returns the exit code.

    On SIGTERM uvicorn stops accepting connections and lets requests in flight finish (their
    commits included) for up to SEADRAGONS_SHUTDOWN_GRACE_SECONDS, and every socket is closed
    with 1012 so clients reconnect at once. With `workers` > 1, that many processes share the
    port; they need the Redis bus (SEADRAGONS_REDIS_URL) to hear each other's moves, so starting
    them without one is refused.
    """
    import os
    import sys

    import uvicorn

    settings = get_settings()
    configure_logging(settings.log_format, settings.log_level)
    json_logs = settings.log_format == "json"
    forwarded = settings.forwarded_allow_ips.strip()
    options: dict[str, Any] = {
        "host": host,
        "port": port,
        # X-Forwarded-For/-Proto are believed only from the configured proxies: otherwise any
        # client could pick the address that per-address limits count.
        "proxy_headers": bool(forwarded),
        "forwarded_allow_ips": forwarded or None,
        # Frames past the realtime layer's own cap are refused by uvicorn before buffering.
        "ws_max_size": 256 * 1024,
        # Off by default: a compression context costs ~45 KiB per socket (docs/protocol.md).
        "ws_per_message_deflate": settings.ws_compression,
        "timeout_graceful_shutdown": settings.shutdown_grace_seconds,
        # JSON: our handler renders uvicorn's records too, and our access line carries the ids.
        "log_config": None if json_logs else uvicorn_log_config(),
        "access_log": not json_logs,
    }
    if settings.role == "web" and settings.shared_redis_url is None:
        print(
            "seadragons serve with SEADRAGONS_ROLE=web leaves bots, deadlines and jobs to "
            "`seadragons worker` processes, which hear of the work over the Redis bus; set "
            "SEADRAGONS_REDIS_URL=redis://HOST:6379/0 (or leave the role at `all`)",
            file=sys.stderr,
        )
        return 2
    if workers > 1 and not os.environ.get("PROMETHEUS_MULTIPROC_DIR"):
        # Each worker process keeps its own counters: without a shared directory /metrics would
        # report whichever worker answered. Set before the workers start (they inherit it).
        import tempfile

        os.environ["PROMETHEUS_MULTIPROC_DIR"] = tempfile.mkdtemp(prefix="seadragons-metrics-")
    if settings.metrics_port:
        serve_metrics(settings.metrics_host, settings.metrics_port)
        log.info("metrics on http://%s:%s/metrics", settings.metrics_host, settings.metrics_port)
    if workers <= 1:
        uvicorn.run(create_app(settings), **options)
        return 0
    if settings.shared_redis_url is None:
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
