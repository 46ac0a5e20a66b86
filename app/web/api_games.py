"""Game routes: the lobby, the caller's state, actions and the move log."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from fastapi import APIRouter, Body, Query

from app.services.play import games
from app.services.tables import clocks, lobby, presence, seats
from app.services.watching import spectator_delay
from app.shared.moves import MoveCommand
from app.web.deps import (
    DbDep,
    GameId,
    LiveCapsDep,
    MaybeUserDep,
    NotifierDep,
    RoadDep,
    SettingsDep,
    SinceQuery,
    UserDep,
)
from app.web.errors import errors
from app.web.schemas import (
    ActionIn,
    ActionOut,
    CreateGameIn,
    GameListOut,
    GameOut,
    JoinIn,
    StateOut,
)

router = APIRouter(prefix="/api/games", tags=["games"])
# Invite links carry only the code (/join/{code}); this resolves it to its game.
invites_router = APIRouter(prefix="/api/invites", tags=["games"])

InviteQuery = Annotated[str | None, Query(max_length=64, description="needed for private games")]


@router.post(
    "",
    response_model=GameOut,
    status_code=201,
    responses=errors(401, 403, 413, 422, 429, 503),
)
def create_game(
    body: CreateGameIn, db: DbDep, user: UserDep, notifier: NotifierDep, settings: SettingsDep
) -> GameOut:
    """Open a table; the creator is its host and sits in seat 0 (a host has at most
    SEADRAGONS_MAX_OPEN_TABLES_PER_USER open tables: 429 too_many_tables)."""
    extra: dict[str, Any] = {}
    if body.layouts is not None:
        extra["layouts"] = body.layouts
    if body.first_player is not None:
        extra["first_player"] = body.first_player
    game = lobby.create_game(
        db,
        user,
        body.players,
        body.expansion,
        body.visibility,
        extra,
        notifier=notifier,
        clock=body.clock.model_dump(exclude_none=True) if body.clock is not None else None,
        max_clock_seconds=settings.clock_max_seconds,
        max_clock_extension=settings.clock_max_extension_seconds,
        daily_rules=clocks.DailyRules.of(settings),
        max_open=settings.max_open_tables_per_user,
        rated=body.rated,
        spectator_delay=spectator_delay.check_option(
            body.spectator_delay.model_dump(exclude_none=True) if body.spectator_delay else None,
            rated=body.rated,
            clock=body.clock.model_dump(exclude_none=True) if body.clock is not None else None,
            max_moves=settings.spectator_delay_max_moves,
            max_seconds=settings.spectator_delay_max_seconds,
        ),
    )
    return GameOut.of(game, user.id)


def _as_seen(db: Any, game: Any, user_id: int | None) -> GameOut:
    """The game object; for a spectator of a table with a spectator delay, its version and
    seat to act as far as the delay lets them see, and no clock meanwhile (its running seat
    and deadline are the live game's), as in their view
    (app/services/watching/spectator_delay.py)."""
    out = GameOut.of(game, user_id)
    if out.your_seat is None:
        behind = spectator_delay.held_back(db, game)
        if behind is not None:
            out.version, out.to_act = behind
            out.clock = {"mode": "none"}
    return out


@router.get("", response_model=GameListOut, responses=errors(422, 503))
def list_games(
    db: DbDep,
    user: MaybeUserDep,
    status: Literal["open", "live", "finished"] = "open",
) -> GameListOut:
    """Public games with the given status, newest first."""
    uid = user.id if user else None
    return GameListOut(games=[_as_seen(db, g, uid) for g in lobby.list_games(db, status)])


@router.get("/{game_id}", response_model=GameOut, responses=errors(404, 422, 503))
def get_game(
    game_id: GameId, db: DbDep, user: MaybeUserDep, invite_code: InviteQuery = None
) -> GameOut:
    """A game's seats and status."""
    uid = user.id if user else None
    return _as_seen(db, lobby.visible_game(db, game_id, uid, invite_code), uid)


@invites_router.get("/{code}", response_model=GameOut, responses=errors(404, 422, 503))
def game_by_invite(code: str, db: DbDep, user: MaybeUserDep) -> GameOut:
    """The game an invite code belongs to; the code grants access as it does for joining."""
    game = lobby.game_by_invite(db, code)
    return _as_seen(db, game, user.id if user else None)


@router.post(
    "/{game_id}/join", response_model=GameOut, responses=errors(401, 403, 404, 409, 413, 422, 503)
)
def join_game(
    game_id: GameId,
    db: DbDep,
    user: UserDep,
    notifier: NotifierDep,
    body: Annotated[JoinIn | None, Body()] = None,
) -> GameOut:
    """Take a free seat (private games need `invite_code`)."""
    code = body.invite_code if body else None
    return GameOut.of(lobby.join_game(db, game_id, user, code, notifier=notifier), user.id)


@router.post(
    "/{game_id}/leave", response_model=GameOut, responses=errors(401, 403, 404, 409, 422, 503)
)
def leave_game(game_id: GameId, db: DbDep, user: UserDep, notifier: NotifierDep) -> GameOut:
    """Give up one's seat before the start; in a live game, mark it left (a bot may stand in)."""
    return GameOut.of(seats.leave_game(db, game_id, user, notifier=notifier), user.id)


@router.post(
    "/{game_id}/cancel", response_model=GameOut, responses=errors(401, 403, 404, 409, 422, 503)
)
def cancel_game(game_id: GameId, db: DbDep, user: UserDep, notifier: NotifierDep) -> GameOut:
    """The host cancels a table not started yet (403 not_host for others, who may leave it;
    409 not_open once started)."""
    return GameOut.of(lobby.cancel_game(db, game_id, user, notifier=notifier), user.id)


@router.post(
    "/{game_id}/start",
    response_model=GameOut,
    responses=errors(401, 403, 404, 409, 422, 429, 503),
)
def start_game(
    game_id: GameId, db: DbDep, user: UserDep, notifier: NotifierDep, caps: LiveCapsDep
) -> GameOut:
    """Deal the game (host only, every seat taken; 429 too_many_games past the host's
    SEADRAGONS_MAX_LIVE_GAMES_PER_USER or the address's ..._PER_ADDRESS live games)."""
    game = lobby.start_game(db, game_id, user, notifier=notifier, live_caps=caps)
    return GameOut.of(game, user.id)


@router.get("/{game_id}/state", response_model=StateOut, responses=errors(404, 409, 422, 503))
def game_state(
    game_id: GameId, db: DbDep, user: MaybeUserDep, invite_code: InviteQuery = None
) -> dict[str, Any]:
    """The caller's view (a spectator's when not seated) and the actions they may take now."""
    presence.mark_seen(db, game_id, user.id if user else None)  # the bots' grace period
    return games.game_state(db, game_id, user.id if user else None, invite_code)


@router.post(
    "/{game_id}/actions",
    response_model=ActionOut,
    responses=errors(401, 403, 404, 409, 413, 422, 503),
)
def submit_action(
    game_id: GameId, body: ActionIn, db: DbDep, user: UserDep, road: RoadDep
) -> ActionOut:
    """Apply one action against `version`; answered only after the move is committed."""
    presence.mark_seen(db, game_id, user.id, back=True)  # a move also ends a "left" mark
    command = MoveCommand(game_id, body.version, body.action, user_id=user.id)
    move = road.commit_in(db, command)
    return ActionOut(version=move.version, events=move.events_for(move.seat))


@router.get("/{game_id}/log", responses=errors(404, 422, 503))
def game_log(
    game_id: GameId,
    db: DbDep,
    user: MaybeUserDep,
    invite_code: InviteQuery = None,
    since: SinceQuery = 0,
) -> dict[str, Any]:
    """The move log with readable text; after the end, the full record (never the seed)."""
    return games.game_log(db, game_id, user.id if user else None, invite_code, since)
