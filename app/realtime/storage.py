"""What the live core needs from storage: the `LiveStore` and `MoveCommitter` interfaces
(no SQL here; the types they speak are app.shared's).

The server's implementations are app.services.live.store.SqlLiveStore and the play service's
one road (app.services.play.road.MoveRoad); the in-process tests use in-memory ones. Every
LiveStore method is synchronous and may block: the live core calls them in worker threads,
never on the event loop; `MoveCommitter.commit` is awaited on the loop.
"""

from __future__ import annotations

from typing import Any, Protocol

from app.shared.moves import Committed, MoveCommand
from app.shared.snapshots import GameSnap, Mark, Viewer

__all__ = ["GameSnap", "LiveStore", "Mark", "MoveCommitter", "Viewer"]


class MoveCommitter(Protocol):
    """Where a socket's move is committed: the same road as every other move."""

    async def commit(self, command: MoveCommand) -> Committed:
        """Decide and commit one move; raises ServiceError when refused, nothing changed. The
        committed move reaches the rooms through the after-commit listener, not the caller."""
        ...


class LiveStore(Protocol):
    """Reads and writes of the live core, each its own transaction."""

    def authorise(self, game_id: int, token: str | None, invite_code: str | None) -> Viewer:
        """Who holds the token, if they may watch the game; raises ServiceError."""
        ...

    def check_session(self, viewer: Viewer) -> None:
        """Raise ServiceError `not_signed_in` unless the viewer's session is still valid."""
        ...

    def live_sessions(self, token_hashes: list[str]) -> set[str]:
        """Which of these sessions are still valid."""
        ...

    def load_game(self, game_id: int, since: int | None) -> GameSnap:
        """The game now, with its moves after version `since`; raises ServiceError."""
        ...

    def current_marks(self, game_ids: list[int]) -> dict[int, Mark]:
        """Version, status and seats of these games."""
        ...

    def say(self, game_id: int, viewer: Viewer, text: str, seat: int | None) -> dict[str, Any]:
        """Store a chat line; raises ServiceError (`bad_chat`, `not_signed_in`)."""
        ...

    def chat_since(
        self, game_id: int, seats: dict[int, int], after: int = 0
    ) -> list[dict[str, Any]]:
        """Recent chat lines of a game after id `after`, oldest first."""
        ...

    def mark_seen_many(self, seen: dict[int, list[int]], socket_ttl_s: float | None = None) -> None:
        """Mark seated users present (game id -> user ids)."""
        ...

    def socket_closed(self, game_id: int, user_id: int) -> None:
        """A user's last socket on a game closed here."""
        ...

    def cache_state(self, game_id: int, version: int, state: Any) -> None:
        """Keep a state computed here (a replayed move) for other readers in this process."""
        ...
