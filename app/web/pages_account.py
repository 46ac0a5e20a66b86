"""Account pages: settings, and the links in emails (verify, one-click unsubscribe).

The links carry a signed token and need no session: they work from any device. Unsubscribing
takes one click on the link (GET), and mail clients that support RFC 8058 send the same POST
themselves (`List-Unsubscribe-Post`). Both are idempotent; the page offers an undo.
"""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Query, Request
from fastapi.responses import HTMLResponse, PlainTextResponse

from app.i18n import t_, translate
from app.services.accounts import account
from app.shared.errors import ServiceError
from app.web.deps import DbDep, SettingsDep
from app.web.pages import templates

router = APIRouter(include_in_schema=False)
Token = Annotated[str, Query(max_length=512)]


def _page(request: Request, name: str, **ctx: object) -> HTMLResponse:
    # Titles and texts are marked where they are written and shown in the reader's language.
    shown = {
        k: translate(v) if isinstance(v, str) and k in ("title", "text") else v
        for k, v in ctx.items()
    }
    return templates.TemplateResponse(request, name, {"page": name.removesuffix(".html"), **shown})


def _message(
    request: Request, title: str, text: str, status: int = 200, **ctx: object
) -> HTMLResponse:
    response = _page(request, "account_link.html", title=title, text=text, **ctx)
    response.status_code = status
    return response


def _secret(request: Request) -> str:
    return request.app.state.settings.resolved_secret_key()


@router.get("/account", response_class=HTMLResponse)
def account_page(request: Request) -> HTMLResponse:
    """Account settings: email address for notices, notices on or off."""
    return _page(request, "account.html", title=t_("Account"))


@router.get("/account/verify", response_class=HTMLResponse)
def verify(request: Request, db: DbDep, settings: SettingsDep, token: Token) -> HTMLResponse:
    """The verification link: the address counts from now on."""
    try:
        user = account.verify_email(db, _secret(request), token, settings.email_verify_hours * 3600)
    except ServiceError as exc:
        return _message(request, t_("Link not valid"), exc.message, 400)
    return _message(
        request,
        t_("Address confirmed"),
        t_("{email} will get an email when it is your turn.", email=user.email),
    )


@router.get("/account/unsubscribe", response_class=HTMLResponse)
def unsubscribe_link(request: Request, db: DbDep, token: Token) -> HTMLResponse:
    """One click in the email: no more notices (the page can undo it)."""
    try:
        account.unsubscribe(db, _secret(request), token)
    except ServiceError as exc:
        return _message(request, t_("Link not valid"), exc.message, 400)
    return _message(
        request,
        t_("Unsubscribed"),
        t_('You will get no more "your turn" emails.'),
        undo_token=token,
    )


@router.post("/account/unsubscribe")
def unsubscribe_one_click(request: Request, db: DbDep, token: Token) -> PlainTextResponse:
    """RFC 8058: the mail client's own unsubscribe button posts here."""
    try:
        account.unsubscribe(db, _secret(request), token)
    except ServiceError as exc:
        return PlainTextResponse(translate(exc.message), status_code=400)
    return PlainTextResponse(translate(t_("unsubscribed")))


@router.post("/account/resubscribe", response_class=HTMLResponse)
def resubscribe(request: Request, db: DbDep, token: Token) -> HTMLResponse:
    """Undo an unsubscribe from its page."""
    try:
        account.unsubscribe(db, _secret(request), token, enabled=True)
    except ServiceError as exc:
        return _message(request, t_("Link not valid"), exc.message, 400)
    return _message(
        request, t_("Notices back on"), t_("You will get an email when it is your turn.")
    )
