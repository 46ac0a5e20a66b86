"""Blocking calls (the database's) run from the event loop in worker threads."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from anyio import CapacityLimiter, to_thread


async def in_thread(fn: Callable[..., Any], *args: Any) -> Any:
    """Run a blocking storage call in a worker thread."""
    return await to_thread.run_sync(fn, *args)


def thread_runner(at_once: int) -> Callable[..., Awaitable[Any]]:
    """Run blocking storage calls in worker threads, at most `at_once` at a time: the database
    pool's size, so that the live core's calls never make the pool open connections beyond
    it (it closes them again on return: at 50 busy games a new database session every ten
    moves), which cost more than a move waiting its turn on the event loop."""
    limiter: CapacityLimiter | None = None

    async def run(fn: Callable[..., Any], *args: Any) -> Any:
        nonlocal limiter
        if limiter is None:  # made in the running event loop
            limiter = CapacityLimiter(at_once)
        return await to_thread.run_sync(fn, *args, limiter=limiter)

    return run
