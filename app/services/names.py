"""Names of seats as people read them: a player's display name, or a bot's own name.

Every bot seat gets a name of its own, so with two or more bots the log, the banner and the score
table tell them apart by more than colour (issue 13, point 3). The name is a pure function of the
game and the seat: the same on every instance, after restarts and in replays.
"""

from __future__ import annotations

from typing import Any

BOT_NAMES = (
    "Marina",
    "Finn",
    "Coral",
    "Nautilus",
    "Pearl",
    "Kelp",
    "Moray",
    "Triton",
    "Nerissa",
    "Barnacle",
    "Skipper",
    "Lagoon",
)


def bot_name(game_id: int, seat: int) -> str:
    """A bot's own name: distinct for every seat of one game (fewer seats than names)."""
    return BOT_NAMES[(game_id * 5 + seat) % len(BOT_NAMES)]


def display_seat_name(game_id: int, seat: int, owner: str | None, bot_level: str | None) -> str:
    """How a seat is called: its owner's display name, else its bot's name and level."""
    if owner is not None:
        return owner
    if bot_level is not None:
        return f"{bot_name(game_id, seat)} ({bot_level} bot)"
    return f"Seat {seat + 1}"


def seat_name(game_id: int, seat: Any) -> str:
    """How a seat row (app.db.models.Seat) is called."""
    owner = seat.user.display_name if seat.user is not None else None
    return display_seat_name(game_id, seat.seat, owner, seat.bot_level)
