"""Names of seats as people read them: a player's display name, or a bot's own name.

Every bot seat gets a name of its own, so with two or more bots the log, the banner and the score
table tell them apart by more than colour. The name is a pure function of the
game's names key and the seat: the same on every instance, after restarts and in replays. The key
is the game's id, except at a rematch, which keeps the names of the game it repeats
(`games.bot_names_of`): the same bots come back under the same names.
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


def names_key(game: Any) -> int:
    """What a game's bot names are derived from (app.db.models.games.Game): see the module doc."""
    return game.bot_names_of or game.id


def bot_name(key: int, seat: int) -> str:
    """A bot's own name from the game's `names_key`: distinct for every seat of one game."""
    return BOT_NAMES[(key * 5 + seat) % len(BOT_NAMES)]


def display_seat_name(key: int, seat: int, owner: str | None, bot_level: str | None) -> str:
    """How a seat is called: its owner's display name, else its bot's name and level (`key`:
    the game's `names_key`)."""
    if owner is not None:
        return owner
    if bot_level is not None:
        return f"{bot_name(key, seat)} ({bot_level} bot)"
    return f"Seat {seat + 1}"


def seat_name(key: int, seat: Any) -> str:
    """How a seat row (app.db.models.games.Seat) is called (`key`: its game's `names_key`)."""
    owner = seat.user.display_name if seat.user is not None else None
    return display_seat_name(key, seat.seat, owner, seat.bot_level)
