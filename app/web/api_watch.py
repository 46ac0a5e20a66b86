"""Watching: the live public games' summaries over HTTP (the /watch channel's, on request).

The pages use the socket (`WS /ws/watch`, app/realtime/watch_channel.py); these answer the same
summaries to a script, filtered and sorted by the server.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from fastapi import APIRouter, Query, Request

from app.engine import MAX_PLAYERS, MIN_PLAYERS
from app.services.watching import watch
from app.web.deps import DbDep, SettingsDep
from app.web.errors import errors

router = APIRouter(prefix="/api/watch", tags=["watch"])


def _spectators(request: Request) -> dict[int, int]:
    channel = getattr(request.app.state, "watch", None)
    return channel.spectator_counts() if channel is not None else {}


def _boards(request: Request) -> watch.BoardCache:
    channel = getattr(request.app.state, "watch", None)
    return channel.boards if channel is not None else watch.BoardCache()


@router.get("", responses=errors(422, 503))
def live_games(
    request: Request,
    db: DbDep,
    settings: SettingsDep,
    players: Annotated[
        int | None, Query(ge=MIN_PLAYERS, le=MAX_PLAYERS, description="only games of this size")
    ] = None,
    expansion: Annotated[bool | None, Query(description="only with (or without) it")] = None,
    clock: Annotated[Literal["none", "live", "daily"] | None, Query()] = None,
) -> dict[str, Any]:
    """The most interesting live public games (at most SEADRAGONS_WATCH_MAX_GAMES), filtered,
    most interesting first: each a summary built from the spectator's view."""
    filters = watch.Filters(players, expansion, clock)
    games = watch.summaries(db, _spectators(request), settings.watch_max_games, _boards(request))
    return {"games": [g for g in games if filters.keep(g)]}


@router.get("/featured", responses=errors(503))
def featured(request: Request, db: DbDep, settings: SettingsDep) -> dict[str, Any]:
    """The featured game (what /tv shows): the channel's choice while it runs, else the most
    interesting live public game; `game` is null when none is live."""
    games = watch.summaries(db, _spectators(request), settings.watch_max_games, _boards(request))
    channel = getattr(request.app.state, "watch", None)
    chosen = channel.featured if channel is not None else None
    game = next((g for g in games if g["id"] == chosen), games[0] if games else None)
    return {"game": game}
