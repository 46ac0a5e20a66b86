"""What makes the site installable and reachable with the tab closed: the web app manifest and
the service worker, both at the site's root (a worker's scope is its own path and below)."""

from __future__ import annotations

from fastapi import APIRouter
from fastapi.responses import FileResponse, JSONResponse

from app.i18n import current_language, t_, translate
from app.web.pages import STATIC_DIR

router = APIRouter(include_in_schema=False)

THEME_COLOUR = "#0c3553"
BACKGROUND_COLOUR = "#f4efe2"


@router.get("/sw.js")
def service_worker() -> FileResponse:
    """The service worker (static/sw.js): "your turn" pushes and their clicks. Revalidated on
    every load so a fixed worker reaches browsers at once."""
    return FileResponse(
        STATIC_DIR / "sw.js",
        media_type="text/javascript",
        headers={"Cache-Control": "no-cache", "Service-Worker-Allowed": "/"},
    )


@router.get("/manifest.webmanifest")
def manifest() -> JSONResponse:
    """The web app manifest: name, icons, start page, standalone display."""
    body = {
        "name": "Sea Dragons Online",
        "short_name": "Sea Dragons",
        "description": translate(t_("Play the board game Sea Dragons with friends and bots.")),
        "lang": current_language(),
        "id": "/",
        "start_url": "/",
        "scope": "/",
        "display": "standalone",
        "theme_color": THEME_COLOUR,
        "background_color": BACKGROUND_COLOUR,
        "icons": [
            {"src": "/static/img/icon-192.png", "sizes": "192x192", "type": "image/png"},
            {"src": "/static/img/icon-512.png", "sizes": "512x512", "type": "image/png"},
        ],
    }
    return JSONResponse(
        body, media_type="application/manifest+json", headers={"Cache-Control": "no-cache"}
    )
