"""The header's language switch: `POST /language` (a plain form, so it works before any script).

The choice is kept in a cookie for this browser and, for a signed-in account, in its settings;
signing in copies the account's choice into the cookie (`remember_language`), so the account's
language follows it to a new device.
"""

from __future__ import annotations

from urllib.parse import parse_qs, urlsplit

from fastapi import APIRouter, Request, Response
from fastapi.responses import RedirectResponse
from starlette.concurrency import run_in_threadpool

from app.db.models.accounts import User
from app.i18n import LANGUAGE_COOKIE, LANGUAGES
from app.settings import Settings
from app.shared.errors import ServiceError
from app.web.deps import DbDep, MaybeUserDep

router = APIRouter(include_in_schema=False)
LANGUAGE_COOKIE_DAYS = 365
# The form has two short fields; anything longer is not the switch.
FORM_MAX_BYTES = 2048


def remember_language(response: Response, settings: Settings, language: str) -> None:
    """Send the language cookie (readable by scripts: the client loads its catalogue by it)."""
    response.set_cookie(
        LANGUAGE_COOKIE,
        language,
        max_age=LANGUAGE_COOKIE_DAYS * 86400,
        samesite="lax",
        secure=settings.secure_cookies,
        path="/",
    )


def remember_account_language(response: Response, settings: Settings, user: User) -> None:
    """After signing in: the account's chosen language becomes this browser's."""
    if user.language in LANGUAGES:
        remember_language(response, settings, user.language)


def _back_to(target: str | None) -> str:
    # Only a path on this site: an absolute URL here would make the switch an open redirect.
    if not target or not target.startswith("/") or target.startswith("//"):
        return "/"
    parts = urlsplit(target)
    if parts.scheme or parts.netloc or "\\" in target:
        return "/"
    return target


@router.post("/language")
async def switch_language(request: Request, db: DbDep, user: MaybeUserDep) -> Response:
    """Read the site in `language` from now on, and go back to the page the switch was on."""
    body = await request.body()
    if len(body) > FORM_MAX_BYTES:
        raise ServiceError("bad_request", "that form is too long")
    fields = parse_qs(body.decode("utf-8", "replace"), max_num_fields=4)
    language = (fields.get("language") or [""])[0]
    if language not in LANGUAGES:
        raise ServiceError("bad_request", "that language is not offered")
    if user is not None:
        user.language = language
        await run_in_threadpool(db.commit)
    response = RedirectResponse(_back_to((fields.get("next") or [None])[0]), status_code=303)
    remember_language(response, request.app.state.settings, language)
    return response
