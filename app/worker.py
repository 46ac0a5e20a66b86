"""`seadragons worker`: the background work without HTTP or sockets (app/roles.py).

A worker builds the same context as `seadragons serve` (app/context.py), starts the role
"worker"'s parts (bots, deadlines, mail, jobs, analyses) and a hub without sockets, whose one
after-commit listener publishes every commit on the bus: web instances' sockets see a worker's
bot moves and timeouts as they see each other's. It listens on the work channel
(app/realtime/work_hints.py) for what web-only instances leave to do.

Any number of workers may run: a bot's turn is decided by the worker holding its lease in Redis
(`SET NX` with an expiry, so a killed worker's turn is taken by the next sweep elsewhere) and
moved once (the version check); jobs, deadlines and mail are claimed in the database with
leases. Workers need the Redis bus (`SEADRAGONS_REDIS_URL`) and a database shared with the web
instances; they do not migrate it, but wait until it is at the code's schema.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import logging
import signal
import sys
import time
from collections.abc import Awaitable, Callable
from typing import Any

from app.context import build_context
from app.db.migrate import head_revisions
from app.infra.redis_urls import async_client
from app.logging_setup import configure as configure_logging
from app.metrics import serve_metrics
from app.realtime import hub_for
from app.realtime.work_hints import listen as listen_for_work
from app.roles import build_background
from app.settings import Settings, get_settings
from app.shared.clock import SYSTEM_CLOCK, Clock
from app.web.health import _database

log = logging.getLogger(__name__)

SCHEMA_WAIT_S = 2.0  # between two looks at the schema while it is behind


def turn_lease_for(redis_url: str, prefix: str, hold_s: float) -> Callable[[int, int], Any]:
    """A shared lease per (game, version) in Redis: True for the first worker to ask."""
    client = async_client(redis_url, client_name="seadragons-worker")
    hold_ms = max(1000, int(hold_s * 1000))

    async def lease(game_id: int, version: int) -> bool:
        key = f"{prefix}turn:{game_id}:{version}"
        try:
            return bool(await client.set(key, "1", nx=True, px=hold_ms))
        except Exception as exc:  # Redis away: decide anyway (the version check keeps it once)
            log.warning("turn lease for game %s unavailable: %s", game_id, exc)
            return True

    lease.client = client  # type: ignore[attr-defined]
    return lease


async def wait_for_schema(engine: Any, stop: asyncio.Event) -> bool:
    """Wait until the database is migrated to the code's head (the web instances migrate);
    False if told to stop first."""
    heads = set(head_revisions())
    said = 0.0
    while not stop.is_set():
        problem = await asyncio.to_thread(_database, engine, heads)
        if problem is None:
            return True
        if time.monotonic() - said > 30:
            log.info("worker waiting: %s", problem)
            said = time.monotonic()
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(stop.wait(), SCHEMA_WAIT_S)
    return False


async def run(settings: Settings, stop: asyncio.Event, clock: Clock = SYSTEM_CLOCK) -> None:
    """Run the worker until `stop` is set."""
    context = build_context(settings, clock)
    try:
        if not await wait_for_schema(context.engine, stop):
            return
        hub = hub_for(context)
        assert settings.shared_redis_url is not None
        # Named per database too: deployments (and test runs) sharing a Redis keep apart.
        database = hashlib.sha256(settings.resolved_database_url().encode()).hexdigest()[:12]
        lease = turn_lease_for(
            settings.shared_redis_url,
            f"{hub.prefix}{database}:",
            settings.worker_turn_lease_seconds,
        )
        background = build_background(context, turn_lease=lease)
        await hub.start()
        await background.start("worker")

        def on_hint(game_id: int) -> None:
            background.bot_runner.poke(game_id)
            background.wake_jobs()

        listener = asyncio.create_task(listen_for_work(hub, on_hint), name="work-hints")
        log.info("worker %s started: %s", hub.instance, ", ".join(background.started))
        try:
            await stop.wait()
        finally:
            listener.cancel()
            with contextlib.suppress(BaseException):
                await listener
            await background.stop()
            await hub.stop()
            await _close(lease)
    finally:
        await context.close()
        context.engine.dispose()


async def _close(lease: Callable[[int, int], Awaitable[bool]]) -> None:
    with contextlib.suppress(Exception):
        await lease.client.aclose()  # type: ignore[attr-defined]


def main() -> int:
    """`seadragons worker`: run until SIGTERM or SIGINT; returns the exit code."""
    settings = get_settings()
    configure_logging(settings.log_format, settings.log_level)
    if settings.shared_redis_url is None:
        print(
            "seadragons worker: workers tell web instances about their moves over the Redis "
            "bus; set SEADRAGONS_REDIS_URL=redis://HOST:6379/0 (or run `seadragons serve` "
            "alone, which does the background work itself)",
            file=sys.stderr,
        )
        return 2
    if settings.metrics_port:  # bot decisions and moves happen here now: scrape them here
        serve_metrics(settings.metrics_host, settings.metrics_port)

    async def main_async() -> None:
        stop = asyncio.Event()
        loop = asyncio.get_running_loop()
        for sig in (signal.SIGTERM, signal.SIGINT):
            loop.add_signal_handler(sig, stop.set)
        await run(settings, stop)

    asyncio.run(main_async())
    return 0
