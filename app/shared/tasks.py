"""Stopping a task that may not stop at the first cancellation."""

from __future__ import annotations

import asyncio

# How often a task still running is cancelled again.
RECANCEL_EVERY_S = 0.5


async def cancel_until_done(task: asyncio.Task[object], every_s: float = RECANCEL_EVERY_S) -> None:
    """Cancel `task` and wait until it ends, cancelling it again every `every_s` seconds.

    A cancellation can be lost inside a library: redis-py's async client may be cancelled in
    the middle of its reconnect, take that for a failed attempt and retry, so a task reading
    from Redis went on reading for ever and whoever awaited it (the bus's disconnect, at the
    server's shutdown) waited for ever too. Each new cancellation lands wherever the task waits
    next. What the task ended with (its cancellation or an error) is consumed here.
    """
    while not task.done():
        task.cancel()
        await asyncio.wait({task}, timeout=every_s)
    if not task.cancelled():
        task.exception()  # retrieved: a stopped reader's last error is no one's to raise
