"""Settings: database URL mapping, the generated secret key, allowed origins."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from app.settings import Settings, normalize_database_url


@pytest.mark.parametrize(
    ("given", "expected"),
    [
        ("postgresql://u:p@h:5432/db", "postgresql+psycopg://u:p@h:5432/db"),
        ("postgres://u@h/db", "postgresql+psycopg://u@h/db"),
        ("postgresql+psycopg://u@h/db", "postgresql+psycopg://u@h/db"),
        ("sqlite:///x.db", "sqlite:///x.db"),
    ],
)
def test_plain_postgres_urls_use_psycopg3(given: str, expected: str) -> None:
    assert normalize_database_url(given) == expected


def test_default_database_is_sqlite_in_the_data_dir(tmp_path: Path) -> None:
    url = Settings(data_dir=tmp_path / "d").resolved_database_url()
    assert url == f"sqlite:///{(tmp_path / 'd' / 'seadragons.db').resolve()}"
    assert (tmp_path / "d").is_dir()


def test_secret_key_is_generated_once_and_kept(tmp_path: Path) -> None:
    first = Settings(data_dir=tmp_path).resolved_secret_key()
    assert len(first) >= 40
    assert Settings(data_dir=tmp_path).resolved_secret_key() == first
    assert (tmp_path / "secret_key").stat().st_mode & 0o077 == 0
    assert Settings(data_dir=tmp_path, secret_key="given").resolved_secret_key() == "given"


def test_environment_variables(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("SEADRAGONS_DATABASE_URL", "postgresql://a@b/c")
    monkeypatch.setenv("SEADRAGONS_ALLOWED_ORIGINS", "https://a.example, https://b.example")
    monkeypatch.setenv("SEADRAGONS_REDIS_URL", "redis://127.0.0.1:6379/0")
    monkeypatch.setenv("SEADRAGONS_DATA_DIR", str(tmp_path))
    s = Settings()
    assert s.resolved_database_url() == "postgresql+psycopg://a@b/c"
    assert s.allowed_origins == ["https://a.example", "https://b.example"]
    assert s.redis_url == "redis://127.0.0.1:6379/0"
    assert s.data_dir == tmp_path
    monkeypatch.setenv("SEADRAGONS_ALLOWED_ORIGINS", '["https://c.example"]')
    assert Settings().allowed_origins == ["https://c.example"]


def test_the_pool_settings_reach_a_postgres_engine_only() -> None:
    from app.db.session import engine_for
    from app.settings import Settings

    pg = engine_for(
        Settings(database_url="postgresql://u@127.0.0.1/x", db_pool_size=7, db_max_overflow=3)
    )
    assert (pg.pool.size(), pg.pool._max_overflow) == (7, 3)
    lite = engine_for(Settings(database_url="sqlite://", db_pool_size=7))
    assert lite.url.get_backend_name() == "sqlite"  # built without the Postgres-only arguments


def test_a_postgres_pool_lends_the_connection_returned_last(postgres_url: str) -> None:
    # LIFO: a quiet server keeps reusing its warm connections (prepared statements, no idle
    # ping); FIFO cycled a single game's moves through every pooled connection.
    from app.db.session import engine_for

    engine = engine_for(Settings(database_url=postgres_url, db_pool_size=3, db_max_overflow=0))
    try:
        first, second = engine.connect(), engine.connect()
        first_raw, second_raw = (
            first.connection.dbapi_connection,
            second.connection.dbapi_connection,
        )
        second.close()
        first.close()  # returned last
        again = engine.connect()
        assert again.connection.dbapi_connection is first_raw is not second_raw
        again.close()
    finally:
        engine.dispose()


def test_the_server_collects_its_young_generation_at_the_configured_threshold(
    sqlite_url: str, make_settings: Any
) -> None:
    import gc

    from fastapi.testclient import TestClient

    from app.main import create_app

    before = gc.get_threshold()
    try:
        app = create_app(make_settings(sqlite_url, gc_young_threshold=1234))
        with TestClient(app):  # the lifespan runs at start-up
            assert gc.get_threshold() == (1234, *before[1:])  # the older generations as Python's
    finally:
        gc.set_threshold(*before)
    assert Settings().gc_young_threshold == 10_000


def test_socket_moves_are_written_from_the_loop_on_postgres_as_the_setting_says(
    make_postgres_db: Any, sqlite_url: str, make_settings: Any
) -> None:
    from app.main import create_app

    url = make_postgres_db()
    writer = create_app(make_settings(url, db_loop_connections=3)).state.context.road.loop_writer
    assert writer is not None and writer.connections == 3
    assert (
        create_app(make_settings(url, db_loop_connections=0)).state.context.road.loop_writer is None
    )
    # SQLite: every move from a worker thread, whatever the setting.
    assert create_app(make_settings(sqlite_url)).state.context.road.loop_writer is None
    assert Settings().db_loop_connections == 4
