"""A move as every layer speaks of it: the command that asks for it, the state a caller already
holds, and the committed move that comes back.

These are plain values: the play service commits them (app/services/play/road.py), the live
core fans them out (app/realtime), the bot runner reacts to them. Nothing here reads or writes.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import app.engine as rules

ActionId = str | int  # a socket frame's own id for its action, echoed in the ack


@dataclass(frozen=True)
class Known:
    """What a caller already holds about the game at the submitted version (the fast path).

    The state at a version never changes, so a room's copy is as good as the database's; the
    seat's ownership is re-checked by the database in the same UPDATE that takes the version.
    """

    state: Any
    seat: int
    bots: tuple[str | None, ...]  # per seat: the level of the bot playing it, if any
    # Whether the game may have a turn clock: then the move reads the game row in
    # its transaction to move the clock. A table created without one never gets one.
    clocked: bool = True


@dataclass(frozen=True)
class MoveCommand:
    """One move asked for, whatever its origin (a socket, HTTP, a bot, a tutorial's server).

    Exactly one of `user_id` (a person: the seat they own, which no bot may be playing) and
    `seat` (a seat the server plays: a bot, or a stand-in for a timed-out turn) is set.
    """

    game_id: int
    version: int  # the version the mover saw: the move applies to it or not at all
    action: rules.Action | dict[str, Any]
    user_id: int | None = None
    seat: int | None = None
    known: Known | None = None  # the state at `version`, if the caller holds it (no read)
    back: bool = False  # the mover's seat is marked "left": the move ends that, in its commit
    action_id: ActionId | None = None  # the mover's own id for it (a socket's), for the ack

    def __post_init__(self) -> None:
        if (self.user_id is None) == (self.seat is None):
            raise ValueError("a move is either a person's (user_id) or a server seat's (seat)")


@dataclass(frozen=True)
class Committed:
    """A move just committed, with what in-process listeners need to fan it out unread."""

    game_id: int
    version: int  # the version this move produced
    seat: int
    state: Any  # the engine state at `version` (never mutated: safe to share)
    events: list[dict[str, Any]]  # full events, secrets included: filter with `events_for`
    status: str
    to_act: int | None
    bots: tuple[str | None, ...]  # per seat: the level of the bot playing it now, if any
    clock: dict[str, Any]  # the public turn clock at `version` (mode "none" if none)
    timeout: bool = False  # a bot played it because the seat's clock ran out
    action: dict[str, Any] | None = None  # canonical, as stored: replaying it gives `state`
    at: str | None = None  # when it was committed (ISO 8601), as the log says
    user_id: int | None = None  # the person who moved (None: a seat the server plays)
    action_id: ActionId | None = None  # the mover's own id for it: its ack echoes this

    @property
    def bot_to_act(self) -> str | None:
        """The level of the bot that must decide now (None: a person, or nobody)."""
        if self.status != "live" or self.to_act is None or self.to_act >= len(self.bots):
            return None
        return self.bots[self.to_act]

    def events_for(self, viewer: int | None) -> list[dict[str, Any]]:
        """The events as `viewer` may see them (R-60)."""
        return [rules.event_for(ev, viewer) for ev in self.events]
