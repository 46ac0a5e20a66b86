"""Real-time play: `WS /ws/games/{id}` with per-viewer patches, spectators, chat and presence.

`install(app)` mounts the endpoint and creates the hub (game sockets enter at the app's door,
`socket_door`, built with the app: main.SeaDragonsApp): the broadcast bus is chosen by
`SEADRAGONS_REDIS_URL` (unset or `memory://`: one process; `redis://`: every instance sharing
that Redis pushes every move). The protocol is documented in docs/protocol.md.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

from fastapi import FastAPI

from app.realtime.bus_url import channel_prefix, create_bus
from app.realtime.connection import SocketLimits
from app.realtime.endpoint import route
from app.realtime.hub import Hub
from app.services.live.store import SqlLiveStore


def hub_for(context: Any, chat_limiter: Any = None, *, sockets: bool = False) -> Hub:
    """The process's hub, from its context: its bus and the one after-commit listener that
    publishes every commit (a worker runs one with no sockets, to publish its bots' moves).
    `sockets`: it serves game sockets, spectators of delayed tables in rooms of their own."""
    settings = context.settings
    store = SqlLiveStore(context.sessions)
    return Hub(
        create_bus(settings.shared_redis_url),
        store,
        context.road,
        context.notifier,
        channel_prefix(settings.shared_redis_url),
        check_s=settings.room_check_seconds,
        heartbeat_s=settings.socket_heartbeat_seconds,
        session_recheck_s=settings.session_recheck_seconds,
        recent_bytes=settings.recent_action_bytes,
        limits=SocketLimits.from_settings(settings),
        retry_after_s=settings.unavailable_retry_after_seconds,
        chat_limiter=chat_limiter,
        run=context.run,
        delayed_sessions=context.sessions if sockets else None,
        delay_tick_s=settings.spectator_delay_tick_seconds,
    )


def install(app: FastAPI) -> Hub:
    """Mount the socket route and start/stop the hub with the app's lifespan."""
    context = app.state.context
    hub = hub_for(context, getattr(app.state, "chat_limiter", None), sockets=True)
    app.state.realtime = hub
    app.router.routes.append(route())

    inner = app.router.lifespan_context

    @asynccontextmanager
    async def lifespan(the_app: Any) -> AsyncIterator[Any]:
        # Started at startup, not on the first socket: a move made through this instance's
        # HTTP API must reach other instances' sockets even if nobody watches from here.
        await hub.start()
        try:
            async with inner(the_app) as state:
                yield state
        finally:
            await hub.stop()
            await context.close()  # after the last socket's move: the loop writer's connections

    app.router.lifespan_context = lifespan
    return hub


__all__ = ["Hub", "hub_for", "install"]
