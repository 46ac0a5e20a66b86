"""The watching pages: /watch (every live public game, small boards) and /tv (the featured one)."""

from __future__ import annotations

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse

from app.i18n import t_
from app.web.pages import _page

router = APIRouter(include_in_schema=False)


@router.get("/watch", response_class=HTMLResponse)
def watch_page(request: Request) -> HTMLResponse:
    """Live public games with their boards, filters and the spectator counts."""
    return _page(request, "watch.html", title=t_("Watch"))


@router.get("/tv", response_class=HTMLResponse)
def tv_page(request: Request) -> HTMLResponse:
    """The featured game, large, switching to the next best when it ends."""
    return _page(request, "tv.html", title=t_("Sea Dragons TV"))
