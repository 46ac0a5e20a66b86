"""The text of the emails the server sends: turn notices and address verification.

Plain text only (nothing a mail client could run), with absolute links built from
SEADRAGONS_PUBLIC_URL. Turn notices carry a one-click unsubscribe: a link in the text and the
RFC 8058 `List-Unsubscribe` / `List-Unsubscribe-Post` headers, both with a signed token.
"""

from __future__ import annotations

from datetime import datetime
from email import policy
from email.message import EmailMessage
from email.utils import make_msgid
from typing import Any
from urllib.parse import quote

from sqlalchemy.orm import Session

from app.db.models.accounts import User
from app.db.models.games import Game
from app.db.models.notices import OutboxEmail
from app.i18n import DEFAULT_LANGUAGE, LANGUAGES, t_, translate, use_language
from app.i18n.formats import format_moment
from app.services.accounts.tokens import unsubscribe_token, verify_token
from app.services.tables.names import names_key, seat_name

FALLBACK_URL = "http://localhost:8000"
# RFC 5322 allows lines of 998 characters. The default policy folds at 78 and, since a URL has no
# space to fold at, RFC 2047-encodes it instead, which RFC 2369 forbids in List-Unsubscribe (mail
# clients then find no link there). ASCII headers this short are therefore sent as they are.
MAIL_POLICY = policy.SMTP.clone(max_line_length=998)


def base_url(settings: Any) -> str:
    """Where players reach the server (no trailing slash)."""
    return (settings.public_url or FALLBACK_URL).rstrip("/")


def unsubscribe_url(settings: Any, secret: str, user_id: int) -> str:
    """The one-click unsubscribe link of a user."""
    token = quote(unsubscribe_token(secret, user_id))
    return f"{base_url(settings)}/account/unsubscribe?token={token}"


def compose(db: Session, row: OutboxEmail, settings: Any, secret: str) -> EmailMessage | None:
    """The message for an outbox row, or None when there is nothing to send any more, in the
    account's language (English if it never chose one)."""
    user = db.get(User, row.user_id)
    if user is None or not user.email:
        return None
    language = user.language if user.language in LANGUAGES else DEFAULT_LANGUAGE
    with use_language(language):
        return _compose(db, row, user, settings, secret)


def _compose(
    db: Session, row: OutboxEmail, user: User, settings: Any, secret: str
) -> EmailMessage | None:
    msg = EmailMessage(policy=MAIL_POLICY)
    msg["From"] = settings.smtp_from
    msg["To"] = user.email
    msg["Message-ID"] = make_msgid(domain="seadragons.local")
    if row.kind == "verify":
        token = quote(verify_token(secret, user.id, user.email))
        link = f"{base_url(settings)}/account/verify?token={token}"
        hours = settings.email_verify_hours
        msg["Subject"] = translate(t_("Confirm your email address · Sea Dragons Online"))
        body = t_(
            "Hello {name},\n\n"
            "To get an email when it is your turn at Sea Dragons Online, confirm this address:\n\n"
            "{link}\n\n"
            "The link works for {hours} hours. If you did not ask for this, ignore this email.\n",
            name=user.display_name,
            link=link,
            hours=format(hours, "g"),
        )
        msg.set_content(translate(body))
        return msg
    game = db.get(Game, row.game_id) if row.game_id is not None else None
    if row.kind != "turn" or game is None:
        return None
    others = [seat_name(names_key(game), s) for s in game.seats if s.user_id != user.id]
    table = f"{base_url(settings)}/games/{game.id}"
    stop = unsubscribe_url(settings, secret, user.id)
    msg["Subject"] = translate(t_("Your turn at table {id} · Sea Dragons Online", id=game.id))
    msg["List-Unsubscribe"] = f"<{stop}>"
    msg["List-Unsubscribe-Post"] = "List-Unsubscribe=One-Click"
    body = t_(
        "Hello {name},\n\n"
        "It is your turn at table {id} (with {others}).\n"
        "{deadline}\n"
        "Play now: {table}\n\n"
        "No more of these emails: {stop}\n",
        name=user.display_name,
        id=game.id,
        others=", ".join(others),
        deadline=_deadline_text(game),
        table=table,
        stop=stop,
    )
    msg.set_content(translate(body))
    return msg


def _deadline_text(game: Game) -> str:
    clock = game.clock or {}
    deadline = clock.get("deadline")
    if not deadline:
        return ""
    when = format_moment(datetime.fromisoformat(deadline))
    return translate(t_("Your turn runs out at {when}; then a bot plays it for you.\n", when=when))
