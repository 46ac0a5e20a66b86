"""Pausing games only bots play while nobody attends them (for app/services/botseats/runner.py).

A game whose every seat a bot plays costs CPU for as long as it runs. Its bots play on while
one of its players (a seat's owner) is around: seen within `pause_after_s` by a request or an
open socket (app/services/tables/presence.py `attended`). Otherwise the game is paused: it stays
live,
its bots stop at their next decision, and they go on within `check_s` of a player coming back
(opening its page is enough). Games paused before a restart are found by the runner's sweep,
which leaves out games nobody attends.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable

from anyio import to_thread
from sqlalchemy.orm import Session, sessionmaker

from app.services.tables.presence import attended

log = logging.getLogger(__name__)

# A game found attended is not asked again for this long (at most), while its bots play on.
ATTENDED_CACHE_S = 10.0
TRACKED = 2000  # paused games watched here (oldest dropped: the sweep finds those)
CHECK_BATCH = 500


class Attendance:
    """Which games' bots should play on, and the paused games to resume; one per runner."""

    def __init__(
        self, sessions: sessionmaker[Session], pause_after_s: float, check_s: float = 2.0
    ) -> None:
        self.sessions = sessions
        self.pause_after_s = pause_after_s  # 0: never pause
        self.check_s = check_s
        self.paused: dict[int, None] = {}  # game ids, oldest first
        self.pauses = 0
        self.resumes = 0
        self._confirmed: dict[int, float] = {}  # game id -> loop time it was found attended

    @property
    def enabled(self) -> bool:
        """Whether games are paused at all."""
        return self.pause_after_s > 0

    def present(self, game_ids: list[int]) -> dict[int, bool]:
        """(Blocking) whether someone attends each live game among `game_ids`."""
        with self.sessions() as db:
            return attended(db, game_ids, self.pause_after_s)

    async def plays_on(self, game_id: int) -> bool:
        """Whether the bots of `game_id` should decide now; if not, the game is paused."""
        if not self.enabled:
            return True
        loop = asyncio.get_running_loop()
        keep = min(ATTENDED_CACHE_S, self.pause_after_s / 4)
        if loop.time() - self._confirmed.get(game_id, float("-inf")) < keep:
            return True
        found = await to_thread.run_sync(self.present, [game_id])
        if found.get(game_id) is False:
            self.pause(game_id)
            return False
        # Attended, or no longer live (submitting the move will say so).
        self._confirmed[game_id] = loop.time()
        return True

    def pause(self, game_id: int) -> None:
        """Remember `game_id` as paused (its bots wait for a player to come back)."""
        if game_id in self.paused:
            return
        self.paused[game_id] = None
        self.pauses += 1
        log.info(
            "game %s paused: nobody has been at the table for %g s; its bots play on when a "
            "player is back",
            game_id,
            self.pause_after_s,
        )
        while len(self.paused) > TRACKED:
            del self.paused[next(iter(self.paused))]

    def forget(self, game_id: int) -> None:
        """The runner stopped driving `game_id`: its cached answer goes."""
        self._confirmed.pop(game_id, None)

    async def resume_forever(self, poke: Callable[[int], None]) -> None:
        """Every `check_s`: poke the paused games someone attends again; drop ended ones."""
        while True:
            await asyncio.sleep(self.check_s)
            ids = list(self.paused)[:CHECK_BATCH]
            if not ids:
                continue
            try:
                found = await to_thread.run_sync(self.present, ids)
            except Exception:
                log.exception("looking for paused games to resume failed")
                continue
            for game_id in ids:
                if found.get(game_id) is False:
                    continue  # still nobody there
                self.paused.pop(game_id, None)
                if game_id in found:
                    self.resumes += 1
                    log.info("game %s resumed: a player is back", game_id)
                    poke(game_id)
