"""HTML pages of the browser client and the static card data its scripts need.

Pages are thin shells: each renders a Jinja2 template that loads one ES module from /static,
and the module talks to the JSON API (and the WebSocket) itself. Mount with
`app.include_router(pages.router)` and
`app.mount("/static", StaticFiles(directory=pages.STATIC_DIR), name="static")`.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

from fastapi import APIRouter, Request
from fastapi import Path as PathParam
from fastapi.responses import HTMLResponse, JSONResponse
from fastapi.templating import Jinja2Templates

from app.engine import client_content
from app.i18n import t_, translate
from app.i18n.templating import install_i18n
from app.services.accounts import home
from app.services.tables.chat import CHAT_MAX_CHARS
from app.web.deps import MAX_INT, DbDep, GameId, MaybeUserDep

ROOT = Path(__file__).resolve().parents[2]
TEMPLATES_DIR = ROOT / "templates"
STATIC_DIR = ROOT / "static"

templates = Jinja2Templates(directory=str(TEMPLATES_DIR))
install_i18n(templates.env)
router = APIRouter(include_in_schema=False)


def _page(request: Request, name: str, **ctx: Any) -> HTMLResponse:
    # The public URL (if set) is what invite links must carry, not the address this page was
    # opened with (which may be 127.0.0.1 on the host's own machine).
    settings = getattr(request.app.state, "settings", None)
    public_url = (settings.public_url if settings else None) or ""
    page = {"page": name.removesuffix(".html"), "public_url": public_url}
    if isinstance(ctx.get("title"), str):  # marked where written, shown in the reader's language
        ctx["title"] = translate(ctx["title"])
    return templates.TemplateResponse(request, name, {**page, **ctx})


@router.get("/", response_class=HTMLResponse)
def lobby_page(request: Request, db: DbDep, user: MaybeUserDep) -> HTMLResponse:
    """The lobby: identity, play now, create a table, open tables, live games, my games. A
    returning player (with open or live games) finds their games first, then play now."""
    settings = request.app.state.settings
    return _page(
        request,
        "lobby.html",
        title=t_("Lobby"),
        returning=user is not None and home.has_current_games(db, user),
        match_live_minutes=_whole(settings.match_live_initial_seconds / 60),
        match_live_per_turn=settings.match_live_per_turn_seconds,
        match_daily_hours=_whole(settings.match_daily_seconds / 3600),
        refresh_ms=round(settings.lobby_refresh_seconds * 1000),
    )


def _whole(value: float) -> float | int:
    """10.0 reads 10; 2.5 stays 2.5."""
    return int(value) if float(value).is_integer() else round(value, 1)


@router.get("/play/{entry_id}", response_class=HTMLResponse)
def match_page(
    request: Request, entry_id: Annotated[int, PathParam(ge=1, le=MAX_INT)]
) -> HTMLResponse:
    """Waiting in a quick-match pool: the script renews the entry (POST /api/match/{id}/wait)
    while the page is open and goes to the table once seated."""
    return _page(request, "match.html", title=t_("Play now"), entry_id=entry_id)


@router.get("/join/{code}", response_class=HTMLResponse)
def join_page(request: Request, code: str) -> HTMLResponse:
    """An invite link: the script looks the code up (GET /api/invites/{code}) and joins."""
    return _page(request, "join.html", title=t_("Join a table"), code=code[:64])


@router.get("/games/{game_id}", response_class=HTMLResponse)
def game_page(request: Request, game_id: GameId) -> HTMLResponse:
    """The game table, for a seated player or a spectator."""
    return _page(
        request,
        "game.html",
        title=t_("Game {id}", id=game_id),
        game_id=game_id,
        chat_max=CHAT_MAX_CHARS,
    )


@router.get("/games/{game_id}/replay", response_class=HTMLResponse)
def replay_page(request: Request, game_id: GameId) -> HTMLResponse:
    """Step through a game's move log."""
    return _page(
        request, "replay.html", title=t_("Replay of game {id}", id=game_id), game_id=game_id
    )


@router.get("/rules", response_class=HTMLResponse)
def rules_page(request: Request) -> HTMLResponse:
    """A summary of the rules."""
    return _page(request, "rules.html", title=t_("Rules"))


@router.get("/content.json")
def content_json() -> JSONResponse:
    """Static card data; public (it is printed on the cards), cacheable for an hour."""
    return JSONResponse(client_content(), headers={"cache-control": "public, max-age=3600"})
