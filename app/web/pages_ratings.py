"""Pages of ratings: a player's profile (/u/{username}) and the leaderboard; thin shells whose
scripts read GET /api/users/{username}/profile and GET /api/leaderboard."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Path, Request
from fastapi.responses import HTMLResponse

from app.i18n import t_
from app.web.pages import _page

router = APIRouter(include_in_schema=False)


@router.get("/u/{username}", response_class=HTMLResponse)
def profile_page(
    request: Request, username: Annotated[str, Path(min_length=1, max_length=32)]
) -> HTMLResponse:
    """A player's profile: ratings and their history, results, head-to-head."""
    return _page(request, "profile.html", title=f"{username}", username=username)


@router.get("/leaderboard", response_class=HTMLResponse)
def leaderboard_page(request: Request) -> HTMLResponse:
    """The best established ratings per variant."""
    return _page(request, "leaderboard.html", title=t_("Leaderboard"))
