"""Tables before the game: create, list, join, leave, start."""

from __future__ import annotations

import secrets
from typing import Any

from sqlalchemy import select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session, selectinload

import app.engine as rules
from app.db.models.accounts import User
from app.db.models.games import Game, Seat
from app.i18n import t_
from app.infra import turn_notices as notices
from app.services.tables import caps, clocks, lookalikes, vacations
from app.shared.clock import now_in
from app.shared.errors import ServiceError
from app.shared.notify import Notifier, notify
from app.shared.state_cache import states_of

STATUSES = ("open", "live", "finished", "cancelled")
LIST_LIMIT = 100


def get_game(db: Session, game_id: int) -> Game:
    """The game with its seats, freshly read; `not_found` if there is none."""
    game = db.scalar(
        select(Game)
        .where(Game.id == game_id)
        .options(selectinload(Game.seats))
        .execution_options(populate_existing=True)
    )
    if game is None:
        raise ServiceError("not_found", t_("there is no game {game_id}", game_id=game_id))
    return game


def seat_of(game: Game, user_id: int | None) -> Seat | None:
    """The seat `user_id` owns in `game`, if any."""
    if user_id is None:
        return None
    return next((s for s in game.seats if s.user_id == user_id), None)


def check_access(game: Game, user_id: int | None, invite_code: str | None) -> None:
    """Private games are visible only to their players and to holders of the invite code.

    To anyone else a private game does not exist (`not_found`, worded as for a missing game), so
    probing ids tells nothing; every service checks this before anything else about the game.
    """
    seated = seat_of(game, user_id) is not None
    if not may_see(game.visibility, game.invite_code, seated, invite_code):
        raise ServiceError("not_found", t_("there is no game {id}", id=game.id))


def may_see(visibility: str, game_code: str, seated: bool, invite_code: str | None) -> bool:
    """`check_access`'s rule on the facts alone, for callers that read only those columns."""
    if visibility == "public" or seated:
        return True
    return bool(invite_code) and secrets.compare_digest(invite_code.encode(), game_code.encode())


def visible_game(
    db: Session, game_id: int, user_id: int | None, invite_code: str | None = None
) -> Game:
    """`get_game` followed by `check_access`: the game if the caller may know it exists."""
    game = get_game(db, game_id)
    check_access(game, user_id, invite_code)
    return game


def game_by_invite(db: Session, code: str) -> Game:
    """The game whose invite code is `code` (the code names its game); `no_such_invite` if none.

    Holding the code grants what `check_access` grants it: reading the game and joining it.
    """
    known = code and len(code) <= 64  # codes are 12 characters; longer ones need no query
    game_id = db.scalar(select(Game.id).where(Game.invite_code == code)) if known else None
    if game_id is None:
        raise ServiceError("no_such_invite", "that invite link does not match any table")
    return get_game(db, game_id)


def game_options(players: int, expansion: bool, extra: dict[str, Any]) -> dict[str, Any]:
    """Check options with the engine's GameOptions and return its dict form."""
    if not 2 <= players <= 5:
        raise ServiceError("invalid_options", "a game has 2 to 5 players")
    try:
        options = rules.GameOptions.from_dict({"players": players, "expansion": expansion, **extra})
    except (ValueError, TypeError, KeyError, IndexError) as exc:
        raise ServiceError("invalid_options", t_("bad game options: {exc}", exc=exc)) from None
    return options.to_dict()


def create_game(
    db: Session,
    host: User,
    players: int,
    expansion: bool = False,
    visibility: str = "public",
    extra_options: dict[str, Any] | None = None,
    notifier: Notifier | None = None,
    clock: dict[str, Any] | None = None,
    max_clock_seconds: int = 30 * 86400,
    *,
    max_clock_extension: int | None = None,
    daily_rules: clocks.DailyRules | None = None,
    max_open: int | None = None,
    rated: bool = False,
    spectator_delay: dict[str, int] | None = None,
) -> Game:
    """Open a new table with `host` in seat 0 and the other seats empty; `clock` as in clocks.py.

    `max_open`: how many open tables one host may have at once (`too_many_tables` past it).
    `rated`: its result moves the players' ratings (app/services/ratings/results.py): accounts only.
    `spectator_delay`: how far behind its spectators see it
    (app/services/watching/spectator_delay.py).
    """
    if visibility not in ("public", "private"):
        raise ServiceError("invalid_options", "visibility is 'public' or 'private'")
    if rated:
        check_may_sit_rated(host)
    options = game_options(players, expansion, extra_options or {})
    if spectator_delay:  # checked by app/services/watching/spectator_delay.py; not an engine option
        options["spectator_delay"] = spectator_delay
    stored_clock = clocks.new_clock(clock, max_clock_seconds, max_clock_extension, daily_rules)
    if max_open is not None:
        caps.check_open_tables(db, host, max_open)
    game = Game(
        host_id=host.id,
        status="open",
        visibility=visibility,
        invite_code=secrets.token_urlsafe(9),
        players=players,
        options=options,
        version=0,
        clock=stored_clock,
        rated=rated,
    )
    game.seats = [Seat(seat=i) for i in range(players)]
    game.seats[0].user_id = host.id
    game.seats[0].joined_at = now_in(db)
    db.add(game)
    db.commit()
    notify(notifier, game.id, game.version)
    return get_game(db, game.id)


def check_may_sit_rated(user: User) -> None:
    """A rated table seats accounts only: a guest has no rating for its result to move."""
    if user.is_guest:
        raise ServiceError(
            "account_required", "rated tables are for accounts: register to play rated games"
        )


def lock_open_game(db: Session, game_id: int) -> Game:
    """Take the game's row lock (Postgres) or the write lock (SQLite) while it is open.

    A no-op UPDATE locks on both engines, so join, leave and start on one table are serialised
    and each sees the others' committed seats.
    """
    result = db.execute(
        update(Game)
        .where(Game.id == game_id, Game.status == "open")
        .values(version=Game.version)
        .execution_options(synchronize_session=False)
    )
    if result.rowcount != 1:
        game = get_game(db, game_id)  # raises not_found
        db.rollback()
        raise ServiceError(
            "not_open", t_("game {id} is {status}, not open", id=game.id, status=game.status)
        )
    return get_game(db, game_id)


def join_game(
    db: Session,
    game_id: int,
    user: User,
    invite_code: str | None = None,
    notifier: Notifier | None = None,
) -> Game:
    """Take the lowest empty seat; joining a game one already sits in changes nothing."""
    game = visible_game(db, game_id, user.id, invite_code)
    if seat_of(game, user.id) is not None:
        return game
    if game.rated:
        check_may_sit_rated(user)
    game = lock_open_game(db, game_id)
    if seat_of(game, user.id) is not None:
        db.rollback()
        return game
    # A rematch keeps seats for its players: one's own first, never someone else's.
    kept = [s for s in game.seats if s.is_empty and s.reserved_for == user.id]
    free = next(iter(kept), None) or next((s for s in game.seats if s.is_free_for(None)), None)
    if free is None:
        db.rollback()
        raise ServiceError(
            "game_full", t_("every seat of game {game_id} is taken", game_id=game_id)
        )
    # Two names alike at one table: nobody could tell who moved or said what.
    others = [s.user.display_name for s in game.seats if s.user is not None]
    try:
        check_name_free_at_table(game, user)
        lookalikes.refuse_lookalike(user.display_name, others)
    except ServiceError:
        db.rollback()
        raise
    free.reserved_for = None
    free.user_id = user.id
    free.joined_at = now_in(db)
    try:
        db.commit()
    except IntegrityError:  # the same user joining twice at once: the unique (game, user) wins
        db.rollback()
        return get_game(db, game_id)
    notify(notifier, game_id, game.version)
    return get_game(db, game_id)


def check_name_free_at_table(game: Game, user: User) -> None:
    """Two players at one table never share a name ("Alice" and "alice" read alike in the log
    and the scores): a second one must pick another name (`name_taken`). Case-insensitive only;
    look-alike letters are the names service's to refuse."""
    mine = user.display_name.casefold()
    for seat in game.seats:
        other = seat.user
        if other is not None and other.id != user.id and other.display_name.casefold() == mine:
            raise ServiceError(
                "name_taken",
                t_(
                    "someone at this table is already called {name}: change your name to join",
                    name=other.display_name,
                ),
            )


def leave_game(db: Session, game_id: int, user: User, notifier: Notifier | None = None) -> Game:
    """Give up one's seat before the start; the host passes on, and an empty table is cancelled."""
    game = visible_game(db, game_id, user.id)
    if seat_of(game, user.id) is None:
        raise ServiceError("not_seated", t_("you have no seat in game {game_id}", game_id=game_id))
    game = lock_open_game(db, game_id)
    seat = seat_of(game, user.id)
    if seat is None:
        db.rollback()
        raise ServiceError("not_seated", t_("you have no seat in game {game_id}", game_id=game_id))
    seat.user_id = None
    seat.joined_at = None
    humans = [s for s in game.seats if s.user_id is not None]
    if not humans:
        game.status = "cancelled"
    elif game.host_id == user.id:
        game.host_id = humans[0].user_id  # type: ignore[assignment]
    db.commit()
    notify(notifier, game_id, game.version)
    return get_game(db, game_id)


def cancel_game(db: Session, game_id: int, user: User, notifier: Notifier | None = None) -> Game:
    """The host calls off a table before the start: it is `cancelled`, gone from the lobby and
    from everyone's games; its players are told through the usual change notice."""
    game = visible_game(db, game_id, user.id)
    if game.host_id != user.id:
        raise ServiceError("not_host", "only the host can cancel the table")
    game = lock_open_game(db, game_id)  # a started (or already cancelled) game: not_open
    if game.host_id != user.id:
        db.rollback()
        raise ServiceError("not_host", "only the host can cancel the table")
    game.status = "cancelled"
    db.commit()
    notify(notifier, game_id, game.version)
    return get_game(db, game_id)


def start_game(
    db: Session,
    game_id: int,
    user: User,
    notifier: Notifier | None = None,
    *,
    live_caps: caps.LiveCaps | None = None,
) -> Game:
    """Deal the game: host only, every seat taken; the seed is drawn here with `secrets`.

    `live_caps`: the host's and the starting address's live games (`too_many_games` past them).
    """
    game = visible_game(db, game_id, user.id)
    if game.host_id != user.id:
        raise ServiceError("not_host", "only the host can start the game")
    game = lock_open_game(db, game_id)
    if game.host_id != user.id:
        db.rollback()
        raise ServiceError("not_host", "only the host can start the game")
    if any(s.is_empty for s in game.seats):
        db.rollback()
        raise ServiceError("seats_not_full", "every seat must be taken before the start")
    if live_caps is not None:
        live_caps.check(db, game.host_id)
        game.started_from = live_caps.address
    state = deal(db, game)
    db.commit()
    states_of(db).put(game.id, 0, state)
    notify(notifier, game_id, game.version)
    return get_game(db, game_id)


def deal(db: Session, game: Game) -> Any:
    """Deal a full table in the caller's transaction (not committed here): the seed, the first
    state, the clock started, the first turn's notice; returns the engine state. The seed is
    drawn here with `secrets` and never leaves the server (R-60)."""
    seed = secrets.randbits(62)  # fits a signed BIGINT
    state = rules.new_game(rules.GameOptions.from_dict(game.options), seed)
    game.seed = seed
    game.snapshot = rules.state_to_json(state)
    game.to_act = rules.to_act(state)
    game.version = 0
    game.status = "live"
    game.started_at = now_in(db)
    away = vacations.away_of(db, [s.user_id for s in game.seats if s.user_id], game.started_at)
    game.clock, game.due_at = clocks.start(
        game.clock,
        game.players,
        state,
        game.started_at,
        {s.seat: away[s.user_id] for s in game.seats if s.user_id in away},
    )
    notices.enqueue_turn(db, game, game.to_act, state.turn.number)
    return state


def list_games(db: Session, status: str = "open", limit: int = LIST_LIMIT) -> list[Game]:
    """Public games with `status`, newest first."""
    if status not in STATUSES:
        raise ServiceError(
            "invalid_request", t_("status is one of {statuses}", statuses=", ".join(STATUSES))
        )
    return list(
        db.scalars(
            select(Game)
            .where(Game.status == status, Game.visibility == "public")
            .options(selectinload(Game.seats))
            .order_by(Game.id.desc())
            .limit(limit)
        )
    )


def my_games(db: Session, user: User, limit: int = LIST_LIMIT) -> list[Game]:
    """Every game `user` has a seat in (open, live and finished), newest first."""
    return list(
        db.scalars(
            select(Game)
            .join(Seat, Seat.game_id == Game.id)
            .where(Seat.user_id == user.id, Game.status != "cancelled")
            .options(selectinload(Game.seats))
            .order_by(Game.id.desc())
            .limit(limit)
        )
    )
