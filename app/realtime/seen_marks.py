"""Seated users' "seen, with a socket open" marks as sockets open, written together.

A table's seats open their sockets within milliseconds of each other; one transaction each
would be one worker thread each, on the cores the game's first moves need. Here a mark that
arrives while a write is in flight waits for the next write, which takes every mark that
arrived meanwhile: one transaction for all of them, and no delay added to a mark that arrives
alone.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import Any

from app.realtime.shared_reads import mark_retrieved


class SeenMarks:
    """Opening marks of this instance, written by one writer in batches."""

    def __init__(
        self,
        write: Callable[[dict[int, list[int]]], Awaitable[Any]],
        spawn: Callable[[Awaitable[Any]], None],
    ) -> None:
        self.write = write  # one transaction for {game id: user ids}
        self.spawn = spawn
        self._waiting: dict[int, set[int]] = {}
        self._next: asyncio.Future[None] | None = None  # settled when the waiting marks are in
        self._writing = False
        self.writes = 0  # transactions so far (the tests read it)

    async def mark(self, game_id: int, user_id: int) -> None:
        """Mark `user_id` seen in `game_id` with a socket open; returns once it is written
        (raises what the write raised)."""
        self._waiting.setdefault(game_id, set()).add(user_id)
        if self._next is None:
            self._next = asyncio.get_running_loop().create_future()
            self._next.add_done_callback(mark_retrieved)
        batch = self._next
        if not self._writing:
            self._writing = True
            self.spawn(self._write_all())
        try:
            await asyncio.shield(batch)
        except asyncio.CancelledError:
            task = asyncio.current_task()
            if batch.cancelled() and not (task is not None and task.cancelling()):
                # The writer was cancelled (the hub stopping), not this caller: a failed mark,
                # which callers handle like any other, not a cancellation of their own.
                raise RuntimeError("the presence writer stopped before this mark") from None
            raise

    async def _write_all(self) -> None:
        try:
            while self._waiting:
                seen = {game: sorted(users) for game, users in self._waiting.items()}
                batch, self._waiting, self._next = self._next, {}, None
                assert batch is not None
                try:
                    self.writes += 1
                    await self.write(seen)
                except asyncio.CancelledError:
                    batch.cancel()
                    raise
                except Exception as exc:
                    batch.set_exception(exc)
                else:
                    batch.set_result(None)
        finally:
            self._writing = False
            if self._next is not None and self._waiting:
                # Cancelled (the hub stopping): the marks that arrived meanwhile are not
                # written either; their sockets are being closed.
                self._next.cancel()
                self._next, self._waiting = None, {}
