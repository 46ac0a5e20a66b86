"""Reads of the same thing that overlap in time share one read.

Sockets arrive together (a table's seats and spectators open at once, a crowd follows a link):
each needs the same rarely-changing answer (does the table delay its spectators; the chat
history), kept once read. Until the first read returns, every newcomer would read it again,
each a database call in a worker thread on the same two cores. Here the first caller reads and
the others await its answer, or its error.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Hashable
from typing import Any, TypeVar

T = TypeVar("T")


def mark_retrieved(future: asyncio.Future[Any]) -> None:
    """A done callback: an error nobody awaited is still marked seen (no warning when the
    future is collected)."""
    if not future.cancelled():
        future.exception()


class SharedReads:
    """One read in flight per key; callers that arrive meanwhile get its outcome."""

    def __init__(self) -> None:
        self._pending: dict[Hashable, asyncio.Future[Any]] = {}

    def in_flight(self, key: Hashable) -> bool:
        """A read of `key` is running now."""
        return key in self._pending

    async def read(self, key: Hashable, fetch: Callable[[], Awaitable[T]]) -> T:
        """`fetch()`'s answer, shared with every caller for `key` while it runs."""
        while (pending := self._pending.get(key)) is not None:
            try:
                # Shielded: a waiter that is cancelled (its socket closed) leaves the read be.
                return await asyncio.shield(pending)
            except asyncio.CancelledError:
                task = asyncio.current_task()
                if not pending.cancelled() or (task is not None and task.cancelling()):
                    raise  # this caller itself is cancelled
                # The reader was cancelled (its socket closed): read again, or wait for another.
        future: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        future.add_done_callback(mark_retrieved)
        self._pending[key] = future
        try:
            value = await fetch()
        except asyncio.CancelledError:
            future.cancel()  # the reader's own cancellation: the waiters read again
            raise
        except Exception as exc:
            future.set_exception(exc)
            raise
        else:
            future.set_result(value)
            return value
        finally:
            del self._pending[key]
