"""A task that loses a cancellation still stops (app/shared/tasks.py): the Redis bus's reader
did, when redis-py took a cancellation in its reconnect for a failed attempt and retried, and
the bus's disconnect then waited for it for ever (tests/realtime/test_bus_outage.py hung in
about one run in four beside two CPU burners)."""

from __future__ import annotations

import asyncio

import pytest

from app.shared.tasks import cancel_until_done

pytestmark = pytest.mark.anyio


def _message() -> asyncio.Future[None]:
    """A read that waits for a message that never comes (until the task is cancelled)."""
    return asyncio.get_running_loop().create_future()


async def _reads_on(lost: int, cancels: list[int], started: asyncio.Event) -> str:
    """Like a reader around a library that retries what a cancellation interrupted: the first
    `lost` cancellations are taken for failures and the loop goes on."""
    started.set()
    while True:
        try:
            await _message()
        except asyncio.CancelledError:
            cancels.append(1)
            if len(cancels) > lost:
                raise


async def test_a_task_that_lost_its_cancellation_is_cancelled_again_until_it_ends() -> None:
    cancels: list[int] = []
    started = asyncio.Event()
    task = asyncio.create_task(_reads_on(2, cancels, started))
    await started.wait()
    task.cancel()  # what the bus did: one cancellation, then await the task
    done, _ = await asyncio.wait({task}, timeout=0.2)
    assert not done and cancels == [1]  # lost: awaiting it now would wait for ever
    await asyncio.wait_for(cancel_until_done(task, every_s=0.05), timeout=10)
    assert task.cancelled() and len(cancels) == 3


async def test_a_task_that_ends_with_an_error_is_stopped_quietly() -> None:
    started = asyncio.Event()

    async def fails() -> None:
        started.set()
        try:
            await _message()
        except asyncio.CancelledError:
            raise ConnectionError("the connection was closed under it") from None

    task = asyncio.create_task(fails())
    await started.wait()
    await asyncio.wait_for(cancel_until_done(task), timeout=10)
    assert isinstance(task.exception(), ConnectionError)
