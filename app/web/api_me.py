"""The caller's home: their games grouped for the lobby's "Your games"."""

from __future__ import annotations

from fastapi import APIRouter
from pydantic import BaseModel

from app.services.accounts import home
from app.web.deps import DbDep, UserDep
from app.web.errors import errors
from app.web.schemas import GameOut

router = APIRouter(prefix="/api/me", tags=["lobby"])

FINISHED_SHOWN = 20


class HomeOut(BaseModel):
    # Live games where the caller must decide now, the one waiting longest first.
    waiting: list[GameOut]
    # The caller's other live games, then their open ones, newest first.
    playing: list[GameOut]
    # The caller's last finished games, newest first (`winners` names who won).
    finished: list[GameOut]
    waiting_count: int


@router.get("/home", response_model=HomeOut, responses=errors(401, 503))
def my_home(db: DbDep, user: UserDep) -> HomeOut:
    """My games: waiting for me first (with clocks), then the others, then finished ones."""
    groups = home.my_home(db, user, FINISHED_SHOWN)
    out = {k: [GameOut.of(g, user.id) for g in v] for k, v in groups.items()}
    return HomeOut(**out, waiting_count=len(out["waiting"]))
