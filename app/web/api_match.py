"""Quick match ("Play now"): join a pool, keep waiting, leave, start with bots.

The waiting page learns it was matched by renewing its entry (`POST /api/match/{id}/wait`,
every few seconds): the renewal is what keeps a player waiting (a closed page stops within
SEADRAGONS_MATCH_ENTRY_SECONDS), its answer says where the table is, and it needs nothing but
the database, so it works the same whichever instance answers. A socket would need the same
renewal beside it, and a notice across instances for the one moment a table is made.
"""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Literal

from fastapi import APIRouter, Path, Request, Response
from pydantic import BaseModel, Field

from app.services.matching import pools
from app.services.matching.choice import ANY, Choice
from app.services.matching.rules import MatchRules
from app.services.tables.caps import address_key
from app.shared.http import client_address
from app.web.deps import MAX_INT, DbDep, NotifierDep, SettingsDep, UserDep
from app.web.errors import errors
from app.web.schemas import Body

router = APIRouter(prefix="/api/match", tags=["match"])

EntryId = Annotated[int, Path(ge=1, le=MAX_INT, description="a pool entry id")]


class MatchIn(Body):
    # 2 to 5 players, or "any": seated at the largest table the pool fills first.
    players: Literal[2, 3, 4, 5, "any"] = Field(examples=[3])
    expansion: bool = False
    # "live": a clock of SEADRAGONS_MATCH_LIVE_*; "daily": SEADRAGONS_MATCH_DAILY_SECONDS a turn.
    pace: Literal["live", "daily"] = "live"
    # Rated: accounts only (403 account_required for a guest).
    rated: bool = False


class EntryOut(BaseModel):
    id: int
    players: int | Literal["any"]
    expansion: bool
    pace: str
    rated: bool
    # "waiting", or "matched": `game_id` is the table (go to /games/{game_id}).
    status: Literal["waiting", "matched"]
    game_id: int | None
    # Players waiting for a table this entry could share, the caller included.
    waiting: int
    created_at: datetime
    # Before this, nobody is matched with the caller (they left games lately).
    ready_at: datetime
    # Renew before this (POST .../wait) or stop waiting.
    expires_at: datetime
    # From this moment the caller may start at once with bots (POST .../bots).
    bots_at: datetime

    @classmethod
    def of(cls, view: pools.EntryView) -> EntryOut:
        c = view.choice
        return cls(
            id=view.id,
            players="any" if c.players == ANY else c.players,
            expansion=c.expansion,
            pace=c.pace,
            rated=c.rated,
            status=view.status,  # type: ignore[arg-type]
            game_id=view.game_id,
            waiting=view.waiting,
            created_at=view.created_at,
            ready_at=view.ready_at,
            expires_at=view.expires_at,
            bots_at=view.bots_at,
        )


class EntriesOut(BaseModel):
    entries: list[EntryOut]


def _rules(settings: SettingsDep) -> MatchRules:
    return MatchRules.from_settings(settings)


@router.post(
    "", response_model=EntryOut, status_code=201, responses=errors(401, 403, 413, 422, 429, 503)
)
def join(
    body: MatchIn,
    request: Request,
    db: DbDep,
    user: UserDep,
    notifier: NotifierDep,
    settings: SettingsDep,
) -> EntryOut:
    """Wait in the pool of this choice, for the caller only (seated at once if the table
    fills). Limits: SEADRAGONS_MATCH_LIMITS_PER_USER / _PER_ADDRESS (429 too_many_joins),
    SEADRAGONS_MATCH_MAX_POOLS_PER_USER (429 too_many_pools),
    SEADRAGONS_MATCH_MAX_ENTRIES_PER_ADDRESS (429 too_many_entries)."""
    players = ANY if body.players == "any" else int(body.players)
    choice = Choice.checked(players, body.expansion, body.pace, body.rated)
    address = client_address(request)
    request.app.state.throttles.admit_match(user.id, address)
    key = address_key(settings.resolved_secret_key(), address)
    view = pools.join(db, user, choice, _rules(settings), address=key, notifier=notifier)
    return EntryOut.of(view)


@router.get("", response_model=EntriesOut, responses=errors(401, 503))
def mine(db: DbDep, user: UserDep, settings: SettingsDep) -> EntriesOut:
    """The caller's pool entries (waiting, or matched and not yet expired)."""
    return EntriesOut(entries=[EntryOut.of(v) for v in pools.entries(db, user, _rules(settings))])


@router.get("/{entry_id}", response_model=EntryOut, responses=errors(401, 404, 409, 422, 503))
def entry(entry_id: EntryId, db: DbDep, user: UserDep, settings: SettingsDep) -> EntryOut:
    """One of the caller's entries (404 not_found for anyone else's; 409 entry_expired)."""
    return EntryOut.of(pools.entry(db, user, entry_id, _rules(settings)))


@router.post(
    "/{entry_id}/wait", response_model=EntryOut, responses=errors(401, 403, 404, 409, 422, 503)
)
def wait(
    entry_id: EntryId, db: DbDep, user: UserDep, notifier: NotifierDep, settings: SettingsDep
) -> EntryOut:
    """Still waiting: the entry lives SEADRAGONS_MATCH_ENTRY_SECONDS more; the answer says
    whether a table was made (409 entry_expired when the page came back too late)."""
    return EntryOut.of(pools.stay(db, user, entry_id, _rules(settings), notifier))


@router.delete("/{entry_id}", status_code=204, responses=errors(401, 403, 404, 409, 422, 503))
def leave(entry_id: EntryId, db: DbDep, user: UserDep) -> Response:
    """Stop waiting (409 already_matched once seated: the table is made)."""
    pools.leave(db, user, entry_id)
    return Response(status_code=204)


@router.post(
    "/{entry_id}/bots", response_model=EntryOut, responses=errors(401, 403, 404, 409, 422, 503)
)
def bots(
    entry_id: EntryId, db: DbDep, user: UserDep, notifier: NotifierDep, settings: SettingsDep
) -> EntryOut:
    """After SEADRAGONS_MATCH_BOTS_AFTER_SECONDS of waiting: start now, bots in the empty
    seats (unrated). 409 too_early before that (with Retry-After)."""
    return EntryOut.of(pools.start_with_bots(db, user, entry_id, _rules(settings), notifier))
