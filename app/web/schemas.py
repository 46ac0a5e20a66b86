"""API request and response bodies (separate from the ORM models)."""

from __future__ import annotations

from datetime import datetime
from functools import cache
from types import UnionType
from typing import Annotated, Any, Literal, Union, get_args, get_origin

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from app.db.models.accounts import User
from app.db.models.games import Game, Seat
from app.engine import MAX_PLAYERS, MIN_PLAYERS
from app.services.accounts.users import (
    NAME_SCHEMA,
    PASSWORD_MAX,
    PASSWORD_MIN,
    USERNAME_INPUT,
)
from app.services.tables import clocks
from app.services.tables.names import bot_name, names_key, seat_name
from app.web.inputs import NO_CONTROL_PATTERN, check_text


class Body(BaseModel):
    """A request body: unknown fields are refused rather than silently ignored, values are
    taken as their JSON type says (strict: `0` is no boolean, `"3"` no number), and no text
    in it, nested or not, holds a control character (app/web/inputs.py).

    A whole number written with a fraction (`2.0`) is an integer, as JSON Schema reads it: the
    OpenAPI document cannot tell `2.0` from `2`, so neither does the server."""

    model_config = ConfigDict(extra="forbid", strict=True)

    @model_validator(mode="before")
    @classmethod
    def _whole_numbers_are_integers(cls, data: object) -> object:
        if not isinstance(data, dict):
            return data
        fields = _integer_fields(cls)
        return {
            k: int(v) if k in fields and type(v) is float and v.is_integer() else v
            for k, v in data.items()
        }

    # After each field's own validation (a before-validator cannot run on a discriminator):
    # the error is the field's, so a name keeps its own code (`invalid_name`).
    @field_validator("*", mode="after")
    @classmethod
    def _no_control_characters(cls, value: object) -> object:
        return check_text(value)


@cache
def _integer_fields(model: type[BaseModel]) -> frozenset[str]:
    """The fields of `model` that take an integer (alone or beside None), not a float."""

    def takes_int(annotation: object) -> bool:
        if annotation is int:
            return True
        args = get_args(annotation)
        return get_origin(annotation) in (Union, UnionType) and int in args and float not in args

    return frozenset(n for n, f in model.model_fields.items() if takes_int(f.annotation))


# The schema states the rules app/services/accounts/users.py checks (a pattern with Python `re`
# semantics, checked by the service with its own error code); anything longer is refused here.
class GuestIn(Body):
    name: str = Field(
        max_length=24,
        examples=["Nessie"],
        description="letters and digits of one script (or Latin with Han, Hiragana, Katakana, "
        "Bopomofo or Hangul), spaces and . ' - _; a name mixing other scripts is refused "
        "(422 mixed_scripts), a rule no pattern states",
        json_schema_extra={"pattern": NAME_SCHEMA},
    )


Password = Field(
    max_length=PASSWORD_MAX,
    examples=["correct horse battery"],
    json_schema_extra={"pattern": NO_CONTROL_PATTERN},
)


class CredentialsIn(Body):
    """A sign-in: any username and password within the limits (a wrong one is 401)."""

    username: str = Field(max_length=24, examples=["nessie"])
    password: str = Password


class RegisterIn(Body):
    """A new account: the username's characters (stored lower-case) and the password's length."""

    username: str = Field(
        max_length=24, examples=["nessie"], json_schema_extra={"pattern": USERNAME_INPUT}
    )
    password: str = Field(
        min_length=PASSWORD_MIN,
        max_length=PASSWORD_MAX,
        examples=["correct horse battery"],
        json_schema_extra={"pattern": NO_CONTROL_PATTERN},
    )


class NoClockIn(Body):
    mode: Literal["none"]


class LiveClockIn(Body):
    """A bank of `initial` seconds per player, plus `per_turn` at the start of each turn."""

    mode: Literal["live"]
    initial: int = Field(ge=1, examples=[600])
    per_turn: int = Field(ge=0, examples=[10])
    # Extra seconds the player to act may ask for once per turn (0: none); at most
    # SEADRAGONS_CLOCK_MAX_EXTENSION_SECONDS.
    extension: int = Field(default=0, ge=0, examples=[120])


class DailyClockIn(Body):
    """`per_turn` seconds for every turn (e.g. 86400 for a day)."""

    mode: Literal["daily"]
    per_turn: int = Field(ge=1, examples=[86400])
    extension: int = Field(default=0, ge=0, examples=[3600])  # as for a live clock
    # Seconds after a missed deadline before a bot takes the seat (and keeps it until its owner
    # takes it back); default SEADRAGONS_CLOCK_DAILY_GRACE_SECONDS, at most ..._MAX_GRACE_SECONDS.
    grace: int | None = Field(default=None, ge=0, examples=[86400])
    # The most unused time a seat carries over to its next turn; default
    # SEADRAGONS_CLOCK_DAILY_BANK_CAP_SECONDS, at most ..._MAX_BANK_CAP_SECONDS.
    bank_cap: int | None = Field(default=None, ge=0, examples=[172800])


ClockIn = Annotated[NoClockIn | LiveClockIn | DailyClockIn, Field(discriminator="mode")]


# The engine's rule for fixed layouts (GameOptions): each board 1-4 exactly once, in any order.
LAYOUTS_RULE = {
    "allOf": [
        {"contains": {"pattern": f"^{board}"}, "minContains": 1, "maxContains": 1}
        for board in "1234"
    ]
}
# The first player is a seat of the table: below `players`.
FIRST_PLAYER_RULE = {
    "allOf": [
        {
            "if": {"properties": {"players": {"const": n}}, "required": ["players"]},
            "then": {"properties": {"first_player": {"maximum": n - 1}}},
        }
        for n in range(2, 6)
    ]
    # A spectator delay is for rated tables, and not daily ones
    # (app/services/watching/spectator_delay.py).
    + [
        {
            "if": {
                "properties": {"spectator_delay": {"type": "object"}},
                "required": ["spectator_delay"],
            },
            "then": {
                "required": ["rated"],
                "properties": {
                    "rated": {"const": True},
                    "clock": {
                        "not": {
                            "type": "object",
                            "properties": {"mode": {"const": "daily"}},
                            "required": ["mode"],
                        }
                    },
                },
            },
        }
    ]
}


# Exactly one of the two is a number (the other absent or null), as the service checks.
ONE_DELAY_RULE = {
    "oneOf": [
        {"required": [field], "properties": {field: {"type": "integer"}}}
        for field in ("moves", "seconds")
    ]
}


class SpectatorDelayIn(Body):
    """Exactly one of the two; at most SEADRAGONS_SPECTATOR_DELAY_MAX_MOVES / _MAX_SECONDS."""

    model_config = ConfigDict(json_schema_extra=ONE_DELAY_RULE)

    moves: int | None = Field(default=None, ge=1, le=2**31 - 1, examples=[3])
    seconds: int | None = Field(default=None, ge=1, le=2**31 - 1, examples=[60])


class CreateGameIn(Body):
    model_config = ConfigDict(json_schema_extra=FIRST_PLAYER_RULE)

    players: int = Field(ge=MIN_PLAYERS, le=MAX_PLAYERS, examples=[3])
    expansion: bool = False
    visibility: Literal["public", "private"] = "public"
    # Passed to the engine's GameOptions: fixed realm layouts, a fixed first player.
    layouts: list[Annotated[str, Field(pattern=r"^[1-4][AB]$")]] | None = Field(
        default=None,
        min_length=4,
        max_length=4,
        examples=[["1A", "2B", "3A", "4B"]],
        json_schema_extra=LAYOUTS_RULE,
    )
    first_player: int | None = Field(default=None, ge=0, le=4)
    # The turn clock; the longest time is the server's SEADRAGONS_CLOCK_MAX_SECONDS.
    clock: ClockIn | None = None
    # Its result moves the players' ratings (accounts only: a guest gets 403 account_required).
    rated: bool = False
    # Rated live tables: spectators see the game this far behind
    # (app/services/watching/spectator_delay.py).
    spectator_delay: SpectatorDelayIn | None = None


class JoinIn(Body):
    invite_code: str | None = Field(default=None, max_length=64)


class ActionIn(Body):
    version: int = Field(ge=0, le=2**31 - 1, examples=[12])
    action: dict[str, Any] = Field(examples=[{"type": "pass"}])


class UserOut(BaseModel):
    id: int
    display_name: str
    username: str | None
    guest: bool

    @classmethod
    def of(cls, user: User) -> UserOut:
        """Build from the ORM row."""
        return cls(
            id=user.id,
            display_name=user.display_name,
            username=user.username,
            guest=user.is_guest,
        )


class PlayerOut(BaseModel):
    id: int
    display_name: str
    # An account's username (its profile is /u/{username}); None for a guest.
    username: str | None = None


class SeatOut(BaseModel):
    seat: int
    player: PlayerOut | None
    bot_level: str | None
    # The bot's own name while a bot plays the seat ("Marina"): two bots never share one.
    bot_name: str | None = None
    # The owner's name while a bot plays their seat (they can reclaim it); else None.
    stand_in_for: str | None = None
    # The owner left the live game (the host may hand the seat to a bot).
    left: bool = False
    # A rematch keeps this empty seat for that player until they accept or decline.
    reserved_for: PlayerOut | None = None

    @classmethod
    def of(cls, seat: Seat, names: int) -> SeatOut:
        """Build from the ORM row (`names`: its game's names key, app/services/tables/names.py)."""
        player = None
        if seat.user is not None:
            player = PlayerOut(
                id=seat.user.id, display_name=seat.user.display_name, username=seat.user.username
            )
        stand_in = player.display_name if player and seat.bot_level else None
        reserved = None
        if seat.reserved_for is not None and seat.reserved_user is not None:
            reserved = PlayerOut(id=seat.reserved_for, display_name=seat.reserved_user.display_name)
        return cls(
            seat=seat.seat,
            player=player,
            bot_level=seat.bot_level,
            bot_name=bot_name(names, seat.seat) if seat.bot_level else None,
            stand_in_for=stand_in,
            left=seat.left_at is not None,
            reserved_for=reserved,
        )


class GameOut(BaseModel):
    id: int
    status: Literal["open", "live", "finished", "cancelled"]
    visibility: Literal["public", "private"]
    players: int
    expansion: bool
    options: dict[str, Any]
    host_id: int
    seats: list[SeatOut]
    version: int
    to_act: int | None
    your_seat: int | None
    your_turn: bool
    # Shown to the players of the game only: they share it to invite others.
    invite_code: str | None
    final_scores: dict[str, Any] | None
    created_at: datetime
    started_at: datetime | None
    finished_at: datetime | None
    # The turn clock as everyone sees it (app/services/tables/clocks.py `public`); {"mode": "none"}.
    clock: dict[str, Any]
    # Every seat is held (by a person or a bot): an open table then waits for its host.
    full: bool = False
    # Names of the winners once finished (ties share the win); and the rematch table, if any.
    winners: list[str] | None = None
    rematch_of: int | None = None
    # A rated table: its result moves the players' ratings (accounts only).
    rated: bool = False

    @classmethod
    def of(cls, game: Game, user_id: int | None) -> GameOut:
        """Build from the ORM row, as seen by `user_id`."""
        mine = next((s for s in game.seats if user_id and s.user_id == user_id), None)
        your_seat = mine.seat if mine is not None else None
        return cls(
            id=game.id,
            status=game.status,  # type: ignore[arg-type]
            visibility=game.visibility,  # type: ignore[arg-type]
            players=game.players,
            expansion=bool(game.options.get("expansion", False)),
            options=game.options,
            host_id=game.host_id,
            seats=[SeatOut.of(s, names_key(game)) for s in game.seats],
            version=game.version,
            to_act=game.to_act,
            your_seat=your_seat,
            your_turn=game.status == "live" and your_seat is not None and game.to_act == your_seat,
            invite_code=game.invite_code if mine is not None else None,
            final_scores=game.final_scores,
            created_at=game.created_at,
            started_at=game.started_at,
            finished_at=game.finished_at,
            clock=clocks.public(game.clock),
            full=not any(s.is_empty for s in game.seats),
            winners=_winners(game),
            rematch_of=game.rematch_of,
            rated=game.rated,
        )


def _winners(game: Game) -> list[str] | None:
    if not game.final_scores:
        return None
    key = names_key(game)
    return [seat_name(key, game.seats[s]) for s in game.final_scores.get("winners", [])]


class GameListOut(BaseModel):
    games: list[GameOut]


class StateOut(BaseModel):
    game_id: int
    version: int
    status: str
    seat: int | None
    to_act: int | None
    view: dict[str, Any]
    legal_actions: list[dict[str, Any]]
    clock: dict[str, Any]


class ActionOut(BaseModel):
    version: int
    events: list[dict[str, Any]]


class OkOut(BaseModel):
    ok: bool = True
