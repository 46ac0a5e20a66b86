"""Chat in a game: what a line may be, storing it, and reading a game's recent lines.

Stored and sent as plain text: clients must escape it (textContent, never innerHTML). The
length limit is `CHAT_MAX_CHARS`, the column's; the game page's chat input gets it from the
server as its `maxlength`, so the client never cuts a line the server would take.
"""

from __future__ import annotations

import unicodedata
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from app.db.models.games import ChatMessage
from app.i18n import t_
from app.services.tables import lookalikes
from app.shared.errors import ServiceError

CHAT_MAX_CHARS = 500  # the chat_messages.text column holds this many
HISTORY = 50  # lines a socket is sent when it joins

# Bidirectional overrides and isolates: they can make a line display as something else.
_BIDI = frozenset("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")


def clean(text: str) -> str | None:
    """Chat text as stored: control characters and bidirectional overrides made spaces, other
    invisible format characters dropped (lookalikes.strip_invisible), spaces trimmed; None if
    empty or long."""
    spaced = "".join(
        " " if unicodedata.category(ch) in ("Cc", "Cs") or ch in _BIDI else ch for ch in text
    )
    kept = lookalikes.strip_invisible(spaced, keep=lookalikes.CHAT_JOINERS).strip()
    if not kept or len(kept) > CHAT_MAX_CHARS:
        return None
    return kept


def as_sent(row: ChatMessage, seat: int | None) -> dict[str, Any]:
    """A stored chat line as clients receive it."""
    return {
        "id": row.id,
        "user_id": row.user_id,
        "name": row.name,
        "seat": seat,
        "text": row.text,
        "at": row.created_at.isoformat(),
    }


def say(
    db: Session, game_id: int, user_id: int | None, name: str | None, text: str, seat: int | None
) -> dict[str, Any]:
    """Store a line (cleaned here) by a signed-in user; commits. Raises ServiceError."""
    if user_id is None or name is None:
        raise ServiceError("not_signed_in", "sign in (as a guest is enough) to chat")
    cleaned = clean(text)
    if cleaned is None:
        raise ServiceError(
            "bad_chat",
            t_("a chat line has 1 to {chat_max_chars} characters", chat_max_chars=CHAT_MAX_CHARS),
        )
    row = ChatMessage(game_id=game_id, user_id=user_id, name=name, text=cleaned)
    db.add(row)
    db.commit()
    return as_sent(row, seat)


def recent(
    db: Session, game_id: int, seats: dict[int, int], after: int = 0, limit: int = HISTORY
) -> list[dict[str, Any]]:
    """The last `limit` lines of a game with an id above `after`, oldest first (`seats`: user
    id -> seat, to say who spoke from which seat)."""
    rows = list(
        db.scalars(
            select(ChatMessage)
            .where(ChatMessage.game_id == game_id, ChatMessage.id > after)
            .order_by(ChatMessage.id.desc())
            .limit(limit)
        )
    )
    return [as_sent(r, seats.get(r.user_id)) for r in reversed(rows)]
