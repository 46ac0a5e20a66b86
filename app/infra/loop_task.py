"""One task on the event loop from the app's start to its stop: the sweeps that look at the
database every few seconds (turn deadlines, push notices, mail) start and stop alike."""

from __future__ import annotations

import asyncio
import contextlib


class LoopTask:
    """Runs `_run` as one task on the running loop, from `start` until `stop`."""

    _task: asyncio.Task[None] | None = None

    async def start(self) -> None:
        """Begin (at app startup); started already, nothing more."""
        if self._task is None:
            self._task = asyncio.get_running_loop().create_task(self._run())

    async def stop(self) -> None:
        """Stop (at app shutdown): the task is cancelled; a pass in a worker thread finishes
        there, its transaction committed or rolled back."""
        task, self._task = self._task, None
        if task is not None:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task

    async def _run(self) -> None:
        raise NotImplementedError
