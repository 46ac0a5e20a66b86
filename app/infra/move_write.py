"""One move's write, as SQL: the game's row moved on by one version, the move's row, and the
turn notice of the seat to act next.

Every move commits these statements; most moves commit nothing else. `games._commit` runs them
through its Session when the move needs more in its transaction (a clock, a finish, a seat
coming back), and otherwise alone (`write_alone`): on a pooled connection of the driver, with
the statements compiled once per database, because a Session's set-up, bookkeeping and
statement handling cost about three times the write itself (docs/benchmarks.md), on the
path every socket move takes.

On Postgres the three are one statement: the INSERTs take the game's id from the UPDATE's
RETURNING, so they insert nothing when the UPDATE matched nothing (another move took the version,
the game ended, or the seat changed hands). One statement is atomic on its own, so it runs in
autocommit: one round trip to the server, where a transaction around it costs three (psycopg
sends BEGIN, the statement and COMMIT, each waiting for its answer). SQLite runs them one by one
in one transaction.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from sqlalchemy import Engine, bindparam, exists, insert, select, update
from sqlalchemy import exc as sa_exc
from sqlalchemy.engine import Dialect
from sqlalchemy.sql import ClauseElement

from app.db.models.games import Game, Move, Seat
from app.infra import turn_notices as notices

GAMES = Game.__table__
SEATS = Seat.__table__
MOVES = Move.__table__
MOVE_COLUMNS = ("game_id", "seq", "seat", "action", "events", "created_at", "timeout")


@lru_cache(maxsize=16)
def update_statement(check_owner: bool, columns: tuple[str, ...]) -> Any:
    """The conditional UPDATE of a move: it matches only the version the mover saw, a live
    game, and (with `check_owner`) a seat still the mover's with no bot on it."""
    where = [
        GAMES.c.id == bindparam("gid"),
        GAMES.c.version == bindparam("seen"),
        GAMES.c.status == "live",
    ]
    if check_owner:
        where.append(
            exists().where(
                SEATS.c.game_id == bindparam("gid"),
                SEATS.c.seat == bindparam("seat_no"),
                SEATS.c.user_id == bindparam("owner"),
                SEATS.c.bot_level.is_(None),
            )
        )
    return update(GAMES).where(*where).values({c: bindparam(c) for c in columns})


INSERT_MOVE = insert(MOVES).values({name: bindparam(name) for name in MOVE_COLUMNS})


@lru_cache(maxsize=32)
def postgres_statement(check_owner: bool, columns: tuple[str, ...], notice: bool) -> Any:
    """Postgres: the UPDATE, the move's INSERT and (with `notice`) the turn notice's INSERT as
    one statement. It returns a row exactly when the move went in."""
    moved = update_statement(check_owner, columns).returning(GAMES.c.id).cte("moved")
    values = [
        moved.c.id,
        *(bindparam(f"m_{name}", type_=MOVES.c[name].type) for name in MOVE_COLUMNS[1:]),
    ]
    insert_move = insert(MOVES).from_select(list(MOVE_COLUMNS), select(*values))
    statement = insert_move.returning(MOVES.c.seq)  # a row back: the move is in
    if notice:
        statement = statement.add_cte(notices.turn_notice_insert(moved.c.id, moved).cte("notice"))
    return statement


@dataclass(frozen=True)
class MoveRow:
    """What one move writes: `values` of the game's row (its version among them), the move's
    row, and `notice`: (seat, turn) of a turn that starts, for its notice."""

    game_id: int
    seen: int  # the version the move was decided on
    seat: int
    owner: int | None  # the seat's owner, re-checked by the UPDATE (None: a server's own move)
    values: dict[str, Any]
    move: dict[str, Any]
    notice: tuple[int, int] | None

    def update_params(self) -> dict[str, Any]:
        """The UPDATE's parameters."""
        return {
            "gid": self.game_id,
            "seen": self.seen,
            "seat_no": self.seat,
            "owner": self.owner,
            **self.values,
        }

    def notice_params(self) -> dict[str, Any]:
        """The turn notice's parameters (only with a notice)."""
        assert self.notice is not None
        seat, turn = self.notice
        return notices.turn_notice_params(self.game_id, seat, turn, self.move["created_at"])


class _Compiled:
    """A statement compiled once for one database, run on the driver's own cursor."""

    def __init__(self, statement: ClauseElement, dialect: Dialect) -> None:
        compiled = statement.compile(dialect=dialect)
        self.sql = compiled.string
        self.compiled = compiled
        self.positions = compiled.positiontup  # the order of `?` parameters, if positional
        self.processors = {}
        for name, bind in compiled.binds.items():
            processor = bind.type.dialect_impl(dialect).bind_processor(dialect)
            if processor is not None:
                self.processors[name] = processor

    def params(self, values: dict[str, Any]) -> Any:
        """The driver's parameters: every bind's value (the statement's literals too), as
        the column types convert them."""
        params = self.compiled.construct_params(values)
        for name, processor in self.processors.items():
            params[name] = processor(params[name])
        if self.positions is not None:
            return tuple(params[name] for name in self.positions)
        return params


class MoveWriter:
    """The compiled statements of a move for one engine's database."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        self.dialect = engine.dialect
        self.postgres = engine.dialect.name == "postgresql"
        self._compiled: dict[tuple[Any, ...], _Compiled] = {}

    def _get(self, key: tuple[Any, ...], build: Any) -> _Compiled:
        compiled = self._compiled.get(key)
        if compiled is None:
            compiled = self._compiled[key] = _Compiled(build(), self.dialect)
        return compiled

    def postgres_call(self, row: MoveRow) -> tuple[str, Any]:
        """Postgres: the move's one statement (compiled once per shape) and its parameters."""
        notice = row.notice is not None
        check_owner = row.owner is not None
        columns = tuple(row.values)
        compiled = self._get(
            ("pg", check_owner, columns, notice),
            lambda: postgres_statement(check_owner, columns, notice),
        )
        values = row.update_params() | {f"m_{k}": v for k, v in row.move.items()}
        if notice:
            values |= row.notice_params()
        return compiled.sql, compiled.params(values)

    def write_alone(self, row: MoveRow) -> bool:
        """Write and commit the move in a transaction of its own; False if the database refused
        the version, status or seat (nothing written). Raises SQLAlchemy's errors, as a Session
        would (IntegrityError: another move took this version)."""
        dbapi_error = self.dialect.loaded_dbapi.Error
        try:
            connection = self.engine.raw_connection()
        except dbapi_error as exc:  # no connection to be had (the database away)
            raise self._translated(exc, None, None, "") from exc
        cursor = None
        statement = ""
        try:
            columns = tuple(row.values)
            check_owner = row.owner is not None
            if self.postgres:
                # The pool lends connections idle (it rolls back on return), so autocommit may
                # be switched on here; it is switched off again before the connection goes back.
                connection.driver_connection.autocommit = True
            cursor = connection.cursor()
            if self.postgres:
                statement, params = self.postgres_call(row)
                cursor.execute(statement, params)  # committed by itself
                return cursor.fetchone() is not None
            else:
                compiled = self._get(
                    ("update", check_owner, columns),
                    lambda: update_statement(check_owner, columns),
                )
                statement = compiled.sql
                cursor.execute(statement, compiled.params(row.update_params()))
                moved = cursor.rowcount == 1
                if moved:
                    compiled = self._get(("move",), lambda: INSERT_MOVE)
                    statement = compiled.sql
                    cursor.execute(statement, compiled.params({"game_id": row.game_id, **row.move}))
                    if row.notice is not None:
                        compiled = self._get(("notice",), notices.turn_notice_insert)
                        statement = compiled.sql
                        cursor.execute(statement, compiled.params(row.notice_params()))
            if moved:
                connection.commit()
            else:
                connection.rollback()
            return moved
        except dbapi_error as exc:
            raise self._translated(exc, connection, cursor, statement) from exc
        finally:
            if cursor is not None:
                cursor.close()
            if self.postgres:
                self._transactions_again(connection)
            connection.close()  # back to the pool (which rolls back anything left open)

    def _transactions_again(self, connection: Any) -> None:
        """Autocommit off again before the connection goes back to the pool (Sessions expect
        transactions); a connection that cannot take that is invalidated, never lent again."""
        driver = connection.driver_connection
        if driver is None or not driver.autocommit:
            return
        try:
            driver.autocommit = False
        except self.dialect.loaded_dbapi.Error as exc:
            connection.invalidate(exc)

    def _translated(
        self, exc: Exception, connection: Any, cursor: Any, statement: str
    ) -> sa_exc.DBAPIError:
        """The driver's error as SQLAlchemy's (what callers and `is_unavailable` know); a lost
        connection is invalidated, so the pool never lends it again."""
        lost = self.dialect.is_disconnect(exc, connection, cursor)
        if connection is None:
            pass
        elif lost:
            connection.invalidate(exc)
        else:
            try:
                connection.rollback()
            except self.dialect.loaded_dbapi.Error:
                connection.invalidate(exc)
                lost = True
        return sa_exc.DBAPIError.instance(
            statement,
            None,
            exc,
            self.dialect.loaded_dbapi.Error,
            hide_parameters=True,
            connection_invalidated=lost,
            dialect=self.dialect,
        )
