"""Which database errors mean "the database is away" (retry later) rather than a bug."""

from __future__ import annotations

from sqlalchemy import exc as sa_exc


def is_unavailable(error: BaseException) -> bool:
    """True for connection failures, dropped connections and pool timeouts.

    Such a failure says nothing about the request itself: answer `unavailable` (503 over HTTP, a
    retryable error frame on sockets) and let the client try again.
    """
    if isinstance(error, sa_exc.DBAPIError) and error.connection_invalidated:
        return True
    return isinstance(
        error,
        sa_exc.OperationalError
        | sa_exc.InterfaceError
        | sa_exc.DisconnectionError
        | sa_exc.TimeoutError,
    )
