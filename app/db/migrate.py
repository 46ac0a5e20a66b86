"""Apply Alembic migrations programmatically (used at server start and by `seadragons migrate`)."""

from __future__ import annotations

from functools import cache
from pathlib import Path

from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import Engine, text

from app.db.session import make_engine
from app.settings import get_settings, normalize_database_url

# The repository root: migrations/ and alembic.ini live there (found when installed editable).
ROOT = Path(__file__).resolve().parents[2]
MIGRATIONS = ROOT / "migrations"
# Any fixed number: Postgres advisory lock key that serialises concurrent migrators.
_MIGRATION_LOCK = 0x5EAD2A60


def alembic_config(url: str | None = None) -> Config:
    """An Alembic Config pointing at migrations/ for `url` (default: the settings' database)."""
    url = normalize_database_url(url) if url else get_settings().resolved_database_url()
    cfg = _scripts()
    # ConfigParser interpolation: a literal % in a password must be doubled.
    cfg.set_main_option("sqlalchemy.url", url.replace("%", "%%"))
    return cfg


@cache
def head_revisions() -> frozenset[str]:
    """The newest migration ids the code knows (normally one): read from migrations/ once per
    process, as reading them means loading every revision's file."""
    return frozenset(ScriptDirectory.from_config(_scripts()).get_heads())


def _scripts() -> Config:
    """An Alembic Config that knows where the migrations are, and no database yet."""
    cfg = Config()
    cfg.set_main_option("script_location", str(MIGRATIONS))
    return cfg


def upgrade_to_head(url: str | None = None, engine: Engine | None = None) -> None:
    """Bring the database at `url` (or reached through `engine`) to the newest schema."""
    own = engine is None
    if engine is None:
        engine = make_engine(url or get_settings().resolved_database_url())
    try:
        cfg = alembic_config(engine.url.render_as_string(hide_password=False))
        with engine.begin() as connection:
            # Several server processes starting at once: one migrates, the others wait for its
            # lock and then find nothing to do.
            if connection.dialect.name == "postgresql":
                connection.execute(text("SELECT pg_advisory_xact_lock(:k)"), {"k": _MIGRATION_LOCK})
            elif connection.dialect.name == "sqlite":
                # pysqlite would run DDL outside any transaction; take the write lock up front so
                # the version check and the DDL are one atomic step (and roll back on failure).
                connection.exec_driver_sql("BEGIN IMMEDIATE")
            # At the head already (every start but the first after a release): nothing to load.
            if set(MigrationContext.configure(connection).get_current_heads()) == head_revisions():
                return
            cfg.attributes["connection"] = connection
            command.upgrade(cfg, "head")
    finally:
        if own:
            engine.dispose()
