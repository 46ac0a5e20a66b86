"""One chat limit: the column's length, the service's check and the page's input agree."""

from __future__ import annotations

from collections.abc import Callable

from fastapi.testclient import TestClient

from app.db.models.games import ChatMessage
from app.services.tables import chat


def test_the_chat_limit_is_the_columns_and_the_page_input_takes_it_from_the_server(
    client_factory: Callable[..., TestClient],
) -> None:
    assert ChatMessage.__table__.c.text.type.length == chat.CHAT_MAX_CHARS
    assert chat.clean("x" * chat.CHAT_MAX_CHARS) is not None
    assert chat.clean("x" * (chat.CHAT_MAX_CHARS + 1)) is None
    html = client_factory().get("/games/1").text
    assert f'id="chat-input" maxlength="{chat.CHAT_MAX_CHARS}"' in html
