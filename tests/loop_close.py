"""An event loop's close that cannot hang the suite.

When an async test ends, its runner (asyncio's, under anyio) cancels the tasks still running
and waits for all of them, without a deadline. A task that swallows its one cancellation (a
library that turns CancelledError into its own error, caught by a retry loop) then keeps the
worker waiting forever, after the test's own timeout has already fired: a run that never ends,
with nothing naming the task. `install()` replaces that wait, for the test processes only, by
one that cancels again and again for a bounded time, reports the tasks it had to cancel more
than once (a warning with each one's stack), and fails with their stacks if they still run.
"""

from __future__ import annotations

import asyncio
import asyncio.runners
import io
import warnings

ROUNDS = 20  # cancellations tried, each followed by a wait of ROUND_SECONDS
ROUND_SECONDS = 0.5


def _stack(task: asyncio.Task[object]) -> str:
    out = io.StringIO()
    task.print_stack(file=out)
    return out.getvalue()


def cancel_all_tasks(loop: asyncio.AbstractEventLoop) -> None:
    """What asyncio.runners._cancel_all_tasks does, but bounded (see the module's docstring)."""
    tasks = asyncio.all_tasks(loop)
    if not tasks:
        return
    pending = set(tasks)
    stubborn: set[asyncio.Task[object]] = set()
    for _ in range(ROUNDS):
        for task in pending:
            task.cancel()
        _, pending = loop.run_until_complete(asyncio.wait(pending, timeout=ROUND_SECONDS))
        if not pending:
            break
        stubborn |= pending
    if pending:
        stacks = "\n".join(_stack(task) for task in pending)
        raise RuntimeError(f"{len(pending)} task(s) would not stop when cancelled:\n{stacks}")
    if stubborn:
        names = ", ".join(sorted(task.get_name() for task in stubborn))
        warnings.warn(f"tasks needed more than one cancellation to stop: {names}", stacklevel=1)
    for task in tasks:
        if not task.cancelled() and task.exception() is not None:
            loop.call_exception_handler(
                {
                    "message": "unhandled exception during the event loop's shutdown",
                    "exception": task.exception(),
                    "task": task,
                }
            )


def install() -> None:
    """Use the bounded close in this process's asyncio runners (the tests' own)."""
    asyncio.runners._cancel_all_tasks = cancel_all_tasks  # type: ignore[attr-defined]
