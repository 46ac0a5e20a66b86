"""Alembic environment: runs migrations on a given connection or on the configured URL."""

from __future__ import annotations

from alembic import context
from sqlalchemy import Connection

from app.db.models.base import Base
from app.db.session import make_engine
from app.settings import get_settings

config = context.config
target_metadata = Base.metadata


def _run(connection: Connection) -> None:
    # render_as_batch: SQLite cannot ALTER most things; batch mode copies the table instead.
    context.configure(
        connection=connection,
        target_metadata=target_metadata,
        render_as_batch=connection.dialect.name == "sqlite",
        compare_type=True,
    )
    with context.begin_transaction():
        context.run_migrations()


def run_migrations_online() -> None:
    """Migrate through the connection passed in by app.db.migrate, or open one."""
    connection = config.attributes.get("connection")
    if connection is not None:
        _run(connection)
        return
    url = config.get_main_option("sqlalchemy.url") or get_settings().resolved_database_url()
    engine = make_engine(url)
    try:
        with engine.begin() as conn:
            _run(conn)
    finally:
        engine.dispose()


def run_migrations_offline() -> None:
    """Emit SQL for the configured URL without connecting (`alembic upgrade --sql`)."""
    url = config.get_main_option("sqlalchemy.url") or get_settings().resolved_database_url()
    context.configure(url=url, target_metadata=target_metadata, literal_binds=True)
    with context.begin_transaction():
        context.run_migrations()


if context.is_offline_mode():
    run_migrations_offline()
else:
    run_migrations_online()
