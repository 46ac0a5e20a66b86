"""Alembic upgrades an empty database to the models' schema on SQLite and Postgres."""

from __future__ import annotations

import pytest
from alembic import command
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import inspect

from app.db.migrate import MIGRATIONS, alembic_config, upgrade_to_head
from app.db.models.base import Base
from app.db.session import make_engine

TABLES = {"users", "sessions", "games", "seats", "moves", "alembic_version"}


def _head() -> str:
    return ScriptDirectory.from_config(alembic_config("sqlite://")).get_current_head() or ""


def test_migrations_are_found_from_the_package() -> None:
    assert (MIGRATIONS / "env.py").exists()
    assert _head()


def test_upgrade_empty_database_to_head(empty_database_url: str) -> None:
    upgrade_to_head(empty_database_url)
    engine = make_engine(empty_database_url)
    try:
        assert set(inspect(engine).get_table_names()) >= TABLES
        with engine.connect() as conn:
            context = MigrationContext.configure(conn, opts={"compare_type": True})
            assert context.get_current_revision() == _head()
            # The migrations build exactly what the models describe: no drift.
            assert compare_metadata(context, Base.metadata) == []
    finally:
        engine.dispose()


def test_the_suites_migrated_copies_are_what_an_upgrade_builds(database_url: str) -> None:
    """The other tests get copies of one migration per run (tests/conftest.py): a copied SQLite
    file, or on Postgres the migrations' SQL replayed into a fresh schema. Such a copy must be
    at head with no drift from the models, as a real upgrade leaves it (the test above)."""
    engine = make_engine(database_url)
    try:
        assert set(inspect(engine).get_table_names()) >= TABLES
        with engine.connect() as conn:
            context = MigrationContext.configure(conn, opts={"compare_type": True})
            assert context.get_current_revision() == _head()
            assert compare_metadata(context, Base.metadata) == []
        upgrade_to_head(engine=engine)  # what the app does at start: finds nothing to do
        with engine.connect() as conn:
            assert MigrationContext.configure(conn).get_current_revision() == _head()
    finally:
        engine.dispose()


def test_upgrade_is_idempotent_and_through_an_engine(empty_database_url: str) -> None:
    engine = make_engine(empty_database_url)
    try:
        upgrade_to_head(engine=engine)
        upgrade_to_head(engine=engine)
        assert set(inspect(engine).get_table_names()) >= TABLES
    finally:
        engine.dispose()


def test_downgrade_to_base_and_back(empty_database_url: str) -> None:
    cfg = alembic_config(empty_database_url)
    command.upgrade(cfg, "head")
    command.downgrade(cfg, "base")
    engine = make_engine(empty_database_url)
    try:
        assert set(inspect(engine).get_table_names()) <= {"alembic_version"}
    finally:
        engine.dispose()
    command.upgrade(cfg, "head")


def test_cli_migrate_uses_the_environment(monkeypatch, tmp_path) -> None:  # type: ignore[no-untyped-def]
    from app.cli import main

    url = f"sqlite:///{tmp_path / 'cli.db'}"
    monkeypatch.setenv("SEADRAGONS_DATABASE_URL", url)
    assert main(["migrate"]) == 0
    engine = make_engine(url)
    try:
        assert set(inspect(engine).get_table_names()) >= TABLES
    finally:
        engine.dispose()


@pytest.mark.slow  # three migrating processes
def test_concurrent_upgrades_on_one_database(empty_database_url: str) -> None:
    """Several server processes starting at once must not trip over each other's migration."""
    import os
    import subprocess
    import sys

    env = {**os.environ, "SEADRAGONS_DATABASE_URL": empty_database_url}
    procs = [
        subprocess.Popen(
            [sys.executable, "-m", "app.cli", "migrate"], env=env, stderr=subprocess.PIPE
        )
        for _ in range(3)
    ]
    results = [(p.wait(60), p.stderr.read().decode() if p.stderr else "") for p in procs]
    assert [code for code, _ in results] == [0, 0, 0], results
    engine = make_engine(empty_database_url)
    try:
        assert set(inspect(engine).get_table_names()) >= TABLES
    finally:
        engine.dispose()
