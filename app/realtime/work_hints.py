"""The work channel: how web-only processes tell worker processes that there is work.

A process of role "web" (app/roles.py) runs no bots and no jobs. When one of its commits leaves
work behind (a bot is to act, a game finished and its jobs are due, or a lobby change such as a
start or a seat handed to a bot) it publishes a `changed` hint on `{prefix}work`; every worker
(app/worker.py) listens there and pokes its bot runner and job runners. Hints only hurry the
work: the runners' own sweeps (bots, deadlines, jobs, mail) find everything from the database
anyway, and a turn is decided once across workers (their shared turn lease), moved once (the
version check and the held seat).
"""

from __future__ import annotations

import contextlib
import logging
import threading
from collections.abc import Callable

from app.realtime.codec import Changed
from app.realtime.hub import Hub
from app.shared.moves import Committed

log = logging.getLogger(__name__)


def work_channel(hub: Hub) -> str:
    """The channel workers listen on, under the hub's prefix (per Redis database)."""
    return f"{hub.prefix}work"


def leaves_work(move: Committed | None) -> bool:
    """Whether a commit may leave work for a worker: a bot to act, a finished game's jobs, or
    a lobby change (None: seats and status, read by the worker itself)."""
    return move is None or move.bot_to_act is not None or move.status == "finished"


class WorkHints:
    """Role web: publish a hint on the work channel after each commit that leaves work."""

    def __init__(self, hub: Hub) -> None:
        self.hub = hub
        self.channel = work_channel(hub)
        self.sent = 0  # hints published (tests)

    def start(self) -> None:
        """Listen to the process's commits (after the hub started: it owns the loop)."""
        self.hub.notifier.on_game_changed.append(self._on_change)

    def stop(self) -> None:
        """Stop listening."""
        with contextlib.suppress(ValueError):
            self.hub.notifier.on_game_changed.remove(self._on_change)

    def _on_change(self, game_id: int, version: int, move: Committed | None) -> None:
        loop = self.hub.loop
        if loop is None or loop.is_closed() or not leaves_work(move):
            return
        hint = self.hub.publish(self.channel, Changed(game_id, version))
        self.sent += 1
        if threading.get_ident() == self.hub._loop_thread:
            self.hub.spawn(hint)
            return
        try:
            loop.call_soon_threadsafe(self.hub.spawn, hint)
        except RuntimeError:  # the loop closed meanwhile (shutdown)
            hint.close()


async def listen(hub: Hub, on_hint: Callable[[int], None]) -> None:
    """A worker's loop: `on_hint(game_id)` for every hint on the work channel (and for nothing
    else: after the bus reconnected, the runners' sweeps catch up on hints that were lost)."""
    async with hub.bus.subscribe(work_channel(hub)) as sub:
        async for text in sub:
            received = hub.codec.decode(text)
            if received is not None and isinstance(received.message, Changed):
                try:
                    on_hint(received.message.game_id)
                except Exception:
                    log.exception("work hint for game %s failed", received.message.game_id)
