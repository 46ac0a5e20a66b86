"""The tests' event loops close in bounded time (tests/loop_close.py): a task that swallows a
cancellation is cancelled again (and named in a warning); one that never stops fails the close
with its stack instead of keeping the worker waiting forever."""

from __future__ import annotations

import asyncio
import warnings

import pytest

from tests import loop_close


async def _swallows(times: int, started: asyncio.Event) -> None:
    """Ignore the first `times` cancellations, as a retry loop around a library that turns
    CancelledError into its own error does."""
    started.set()
    ignored = 0
    while True:
        try:
            # Not a wait for anything: a task with nothing to do until it is cancelled.
            await asyncio.get_running_loop().create_future()
        except asyncio.CancelledError:
            if ignored == times:
                raise
            ignored += 1


def _leave_behind(times: int) -> None:
    async def main() -> None:
        started = asyncio.Event()
        asyncio.get_running_loop().create_task(_swallows(times, started), name="stubborn")
        await started.wait()

    asyncio.run(main())


def test_a_task_that_swallows_a_cancellation_is_cancelled_again_and_named() -> None:
    loop_close.install()
    with pytest.warns(UserWarning, match="more than one cancellation to stop: stubborn"):
        _leave_behind(times=2)


def test_a_task_that_never_stops_fails_the_close_with_its_stack(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    loop_close.install()
    monkeypatch.setattr(loop_close, "ROUNDS", 3)
    monkeypatch.setattr(loop_close, "ROUND_SECONDS", 0.01)
    with pytest.raises(RuntimeError, match=r"1 task\(s\) would not stop(.|\n)*_swallows"):
        _leave_behind(times=10**6)


def test_tasks_that_stop_close_quietly() -> None:
    loop_close.install()
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        _leave_behind(times=0)
