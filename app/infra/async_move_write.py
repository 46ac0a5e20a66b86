"""A move's one Postgres statement sent from the event loop (psycopg's async connections).

A socket move that writes nothing but its own statement (`games.writes_alone`) is decided by the
engine and written without leaving the event loop. The hand-over to a worker thread and back
(a queue, a condition, a wake-up of the loop, the two threads taking turns at the GIL) cost
about a tenth of a move's CPU at 20 busy games, and the move's answer waited for both hops
(docs/benchmarks.md). While the database answers, the loop serves other games. Every other
move (a clock to move, a finish, SQLite) takes the worker-thread road (`MoveWriter.write_alone`
or the Session).

The statement is the one `MoveWriter` compiles (move_write.postgres_statement), run in
autocommit on a few connections of its own (`SEADRAGONS_DB_LOOP_CONNECTIONS`) that nothing else
uses. Errors are raised as SQLAlchemy's, as on the thread road, so callers and
`app.db.errors.is_unavailable` know them; a connection that failed is closed, never used again,
and the next write connects afresh.
"""

from __future__ import annotations

import asyncio
import contextlib
from typing import Any

import psycopg
from sqlalchemy import Engine
from sqlalchemy import exc as sa_exc

from app.infra.move_write import MoveRow, MoveWriter


class AsyncMoveWriter:
    """Writes moves on at most `connections` connections of its own, from one event loop."""

    def __init__(
        self,
        engine: Engine,
        connections: int,
        wait_s: float | None = None,
        statements: MoveWriter | None = None,
    ) -> None:
        assert engine.dialect.name == "postgresql"
        self.engine = engine
        self.connections = connections
        # How long a move waits for one of the connections before it is answered `unavailable`
        # (a database that stopped answering holds them all): the pool's own checkout timeout.
        self.wait_s = wait_s if wait_s is not None else engine.pool.timeout()  # type: ignore[attr-defined]
        # The session road's writer for this engine (the context's): one set of compiled
        # statements for both.
        self._statements = statements or MoveWriter(engine)
        args, kwargs = engine.dialect.create_connect_args(engine.url)
        kwargs.setdefault("connect_timeout", max(1, round(self.wait_s)))  # a silent host too
        self._connect_args = (tuple(args), dict(kwargs))
        self._idle: list[psycopg.AsyncConnection[Any]] = []
        self._slots: asyncio.Semaphore | None = None  # made in the running loop
        self.opened = 0  # connections opened so far (tests read it)

    async def write(self, row: MoveRow) -> bool:
        """Write the move in one statement, committed by itself; False if the database refused
        the version, status or seat (nothing written). Raises SQLAlchemy's errors."""
        if self._slots is None:
            self._slots = asyncio.Semaphore(self.connections)
        try:
            if self._slots.locked():  # (a free one is taken at once, without a timer)
                await asyncio.wait_for(self._slots.acquire(), self.wait_s)
            else:
                await self._slots.acquire()
        except TimeoutError:
            raise sa_exc.TimeoutError(
                f"no loop connection free within {self.wait_s:g} s ({self.connections} in use)"
            ) from None
        try:
            connection = await self._lend()
            sql = ""
            try:
                sql, params = self._statements.postgres_call(row)
                async with connection.cursor() as cursor:
                    await cursor.execute(sql, params)
                    moved = await cursor.fetchone() is not None
            except BaseException as exc:
                # Whatever happened (the database away, a cancelled wait mid-statement), the
                # connection's state is unknown: it is closed, never lent again.
                await self._discard(connection)
                if isinstance(exc, psycopg.Error):
                    raise self._translated(exc, sql) from exc
                raise
            self._idle.append(connection)
            return moved
        finally:
            self._slots.release()

    async def _lend(self) -> psycopg.AsyncConnection[Any]:
        if self._idle:
            return self._idle.pop()
        args, kwargs = self._connect_args
        try:
            connection = await psycopg.AsyncConnection.connect(*args, **kwargs, autocommit=True)
        except psycopg.Error as exc:  # no connection to be had (the database away)
            raise self._translated(exc, "") from exc
        self.opened += 1
        return connection

    async def _discard(self, connection: psycopg.AsyncConnection[Any]) -> None:
        with contextlib.suppress(Exception):
            await connection.close()

    def _translated(self, exc: psycopg.Error, sql: str) -> sa_exc.DBAPIError:
        """The driver's error as SQLAlchemy's (IntegrityError: another move took the version;
        a lost connection marked as invalidated, which `is_unavailable` reads)."""
        lost = isinstance(exc, psycopg.OperationalError) or self.engine.dialect.is_disconnect(
            exc, None, None
        )
        return sa_exc.DBAPIError.instance(
            sql,
            None,
            exc,
            psycopg.Error,
            hide_parameters=True,
            connection_invalidated=lost,
            dialect=self.engine.dialect,
        )

    async def close(self) -> None:
        """Close the idle connections (at shutdown)."""
        idle, self._idle = self._idle, []
        for connection in idle:
            await self._discard(connection)
