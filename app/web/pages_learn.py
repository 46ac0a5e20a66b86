"""The tutorials' page (/learn): a thin shell; static/js/pages/learn.mjs asks /api/learn."""

from __future__ import annotations

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse

from app.i18n import t_
from app.web.pages import _page

router = APIRouter(include_in_schema=False)


@router.get("/learn", response_class=HTMLResponse)
def learn_page(request: Request) -> HTMLResponse:
    """Learn to play: the lessons of both tutorials, played against bots on fixed games."""
    return _page(request, "learn.html", title=t_("Learn to play"))
