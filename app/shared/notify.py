"""After-commit hooks: the realtime layer and the bot runner subscribe here."""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from app.shared.moves import Committed

log = logging.getLogger(__name__)

# (game_id, version, the committed move or None): None for lobby and seat changes, and for moves
# whose committer did not pass them along; listeners then read what they need themselves.
GameListener = Callable[[int, int, "Committed | None"], None]
# (user_id, SHA-256 hashes of the revoked session tokens; see
# app.services.accounts.users.token_hash)
SessionsListener = Callable[[int, frozenset[str]], None]


class Notifier:
    """Calls every listener after a change was committed.

    Listeners run synchronously in the thread that committed (a worker thread for HTTP requests),
    so they must be quick and thread-safe, e.g. `loop.call_soon_threadsafe(...)`. A failing
    listener is logged and never undoes or fails the request: the change is already durable.
    """

    def __init__(self) -> None:
        self.on_game_changed: list[GameListener] = []
        # Called after sessions were revoked and committed (logout, sign-in, a guest becoming
        # an account): sockets opened with those sessions should be closed.
        self.on_sessions_revoked: list[SessionsListener] = []

    def game_changed(self, game_id: int, version: int, committed: Committed | None = None) -> None:
        """Tell every listener that `game_id` changed (a move, or seats/status in the lobby)."""
        for listener in list(self.on_game_changed):
            try:
                listener(game_id, version, committed)
            except Exception:
                log.exception("on_game_changed listener failed for game %s", game_id)

    def sessions_revoked(self, user_id: int, token_hashes: frozenset[str]) -> None:
        """Tell every listener that these sessions of `user_id` no longer exist."""
        for listener in list(self.on_sessions_revoked):
            try:
                listener(user_id, token_hashes)
            except Exception:
                log.exception("on_sessions_revoked listener failed for user %s", user_id)


def notify(
    notifier: Notifier | None, game_id: int, version: int, committed: Committed | None = None
) -> None:
    """Call `notifier.game_changed` if there is a notifier."""
    if notifier is not None:
        notifier.game_changed(game_id, version, committed)
