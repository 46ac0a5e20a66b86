"""The outbox's rows, for the email sender and the push relay alike: due notices claimed so that,
of several instances sweeping the same outbox, exactly one handles each row; finished rows
deleted in bounded batches."""

from __future__ import annotations

from typing import Any

from sqlalchemy import ColumnElement, delete, select, update
from sqlalchemy.orm import Session

from app.db.models.notices import OutboxEmail


def claim_due(
    db: Session,
    due: list[ColumnElement[bool]],
    batch: int,
    claim: dict[str, Any],
    still: list[ColumnElement[bool]] | None = None,
) -> list[int]:
    """Claim up to `batch` pending rows matching `due`, oldest `next_try_at` first: each is set
    to `claim` by a compare-and-set that holds only while it is still pending (and `still`),
    so one instance wins it (on Postgres rows another instance holds are skipped, SKIP LOCKED;
    on SQLite the write lock serialises the claims). Returns the ids won; the caller commits."""
    query = (
        select(OutboxEmail.id)
        .where(OutboxEmail.status == "pending", *due)
        .order_by(OutboxEmail.next_try_at, OutboxEmail.id)
        .limit(batch)
    )
    if db.get_bind().dialect.name == "postgresql":
        query = query.with_for_update(skip_locked=True)
    claimed = []
    for outbox_id in list(db.scalars(query)):
        result = db.execute(
            update(OutboxEmail)
            .where(OutboxEmail.id == outbox_id, OutboxEmail.status == "pending", *(still or ()))
            .values(**claim)
            .execution_options(synchronize_session=False)
        )
        if result.rowcount == 1:
            claimed.append(outbox_id)
    return claimed


def delete_oldest(db: Session, model: Any, where: list[ColumnElement[bool]], batch: int) -> int:
    """Delete at most `batch` rows of `model` (a table with an `id`) matching `where`, lowest id
    first, in one statement; how many went. The caller commits."""
    oldest = select(model.id).where(*where).order_by(model.id).limit(batch).scalar_subquery()
    result = db.execute(
        delete(model).where(model.id.in_(oldest)).execution_options(synchronize_session=False)
    )
    return int(result.rowcount or 0)
