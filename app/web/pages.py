"""HTML pages of the browser client and the static card data its scripts need.

Pages are thin shells: each renders a Jinja2 template that loads one ES module from /static,
and the module talks to the JSON API (and the WebSocket) itself. Mount with
`app.include_router(pages.router)` and
`app.mount("/static", StaticFiles(directory=pages.STATIC_DIR), name="static")`.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, JSONResponse
from fastapi.templating import Jinja2Templates

from app.engine.bonus import tile_value
from app.engine.content import content, expansion_content
from app.engine.expansion import TRACK_LENGTH
from app.i18n import t_, translate
from app.i18n.templating import install_i18n
from app.services.chat import CHAT_MAX_CHARS
from app.web.deps import GameId

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
def lobby_page(request: Request) -> HTMLResponse:
    """The lobby: identity, create a table, open tables, live games, my games."""
    return _page(request, "lobby.html", title=t_("Lobby"))


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


@cache
def client_content() -> dict[str, Any]:
    """The printed card data the client needs to draw cards (shapes, missions, reefs)."""
    c = content()
    x = expansion_content()
    return {
        "shapes": {k: [list(sq) for sq in v] for k, v in c.shapes.items()},
        "pattern_shape": dict(c.pattern_shape),
        "pattern_deck": dict(c.pattern_deck),
        "missions": {
            k: {"ships": m.ships, "vp": m.vp, "reef": m.reef} for k, m in c.missions.items()
        },
        "reefs": {
            k: {
                "kind": r.kind,
                "ships": list(r.ships),
                "realm": r.realm,
                "gold": r.gold,
                "tracks": list(r.tracks),
            }
            for k, r in c.reefs.items()
        },
        # Treasures of the Deep: what each Hidden Treasure does, and the Bonus tiles' text; a
        # tile's `vp` is what it pays per item at each player count, as the engine scores it,
        # so a table shows its own value only.
        "treasures": dict(x.treasures),
        "bonus_tiles": {
            k: {
                "kind": t["kind"],
                "values": t["values"],
                "text": t["text"],
                "vp": {str(n): tile_value(t, n) for n in TRACK_LENGTH},
            }
            for k, t in x.bonus_tiles.items()
        },
    }


@router.get("/content.json")
def content_json() -> JSONResponse:
    """Static card data; public (it is printed on the cards), cacheable for an hour."""
    return JSONResponse(client_content(), headers={"cache-control": "public, max-age=3600"})
