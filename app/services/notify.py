"""After-commit hooks: the realtime layer subscribes here to broadcast game changes."""

from __future__ import annotations

import logging
from collections.abc import Callable

log = logging.getLogger(__name__)

GameListener = Callable[[int, int], None]


class Notifier:
    """Calls every listener with (game_id, version) after a change to a game was committed.

    Listeners run synchronously in the thread that committed (a worker thread for HTTP requests),
    so they must be quick and thread-safe, e.g. `loop.call_soon_threadsafe(...)`. A failing
    listener is logged and never undoes or fails the request: the change is already durable.
    """

    def __init__(self) -> None:
        self.on_game_changed: list[GameListener] = []

    def game_changed(self, game_id: int, version: int) -> None:
        """Tell every listener that `game_id` changed (a move, or seats/status in the lobby)."""
        for listener in list(self.on_game_changed):
            try:
                listener(game_id, version)
            except Exception:
                log.exception("on_game_changed listener failed for game %s", game_id)


def notify(notifier: Notifier | None, game_id: int, version: int) -> None:
    """Call `notifier.game_changed` if there is a notifier."""
    if notifier is not None:
        notifier.game_changed(game_id, version)
