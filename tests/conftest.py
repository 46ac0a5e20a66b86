"""Shared fixtures: real Postgres and Redis when present (skip, or fail under CI), apps, clients."""

from __future__ import annotations

import io
import os
import secrets
import shutil
import socket
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from app.settings import Settings
from tests import loop_close, tiers
from tests.e2e import helpers as e2e_helpers

PG_HOST, PG_PORT = "127.0.0.1", 5432
# The cheapest password hashing Argon2 allows here (settings, and Passwords(**...) alike).
CHEAP_PASSWORDS = {"password_hash_time_cost": 1, "password_hash_memory_kib": 1024}
REDIS_HOST, REDIS_PORT = "127.0.0.1", 6379
# CI (.ci/run) sets this: a missing service must fail the run, not quietly skip half of it.
REQUIRE_SERVICES = os.environ.get("SEADRAGONS_REQUIRE_SERVICES") == "1"


def _reachable(host: str, port: int, timeout: float = 0.5) -> bool:
    try:
        with socket.create_connection((host, port), timeout=timeout):
            return True
    except OSError:
        return False


def service_missing(service: str, reason: str) -> None:
    """Skip the test, or fail it when SEADRAGONS_REQUIRE_SERVICES=1."""
    if REQUIRE_SERVICES:
        pytest.fail(f"{service} is required (SEADRAGONS_REQUIRE_SERVICES=1) but {reason}")
    pytest.skip(f"{service} unavailable: {reason}")


@pytest.fixture(scope="session")
def postgres_admin_url() -> str:
    """A URL to the `test` database on 127.0.0.1:5432 with rights to create databases."""
    override = os.environ.get("SEADRAGONS_TEST_POSTGRES_URL")
    candidates = (
        [override]
        if override
        else [f"postgresql://{user}@{PG_HOST}:{PG_PORT}/test" for user in ("postgres", "root")]
    )
    if not override and not _reachable(PG_HOST, PG_PORT):
        service_missing("Postgres", f"nothing listens on {PG_HOST}:{PG_PORT}")
    import psycopg

    errors = []
    for url in candidates:
        try:
            with psycopg.connect(url, connect_timeout=3):
                return url
        except psycopg.Error as exc:
            errors.append(f"{url}: {exc}".strip())
    service_missing("Postgres", "cannot connect: " + "; ".join(errors))
    raise AssertionError("unreachable")


DB_PREFIX = "seadragons_t_"
STALE_AFTER = 3 * 3600  # seconds; databases of test runs that died without cleaning up


def _drop_stale_databases(conn: Any) -> None:
    rows = conn.execute(
        "SELECT datname FROM pg_database d WHERE datname LIKE %s AND NOT EXISTS "
        "(SELECT 1 FROM pg_stat_activity a WHERE a.datname = d.datname)",
        (DB_PREFIX + "%",),
    ).fetchall()
    for (name,) in rows:
        stamp = name[len(DB_PREFIX) :].split("_")[0]
        if stamp.isdigit() and time.time() - int(stamp) > STALE_AFTER:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


@pytest.fixture(scope="session")
def postgres_url(postgres_admin_url: str) -> Iterator[str]:
    """A fresh empty Postgres database for this test session, dropped at its end."""
    import psycopg

    name = f"{DB_PREFIX}{int(time.time())}_{secrets.token_hex(4)}"
    with psycopg.connect(postgres_admin_url, autocommit=True) as conn:
        _drop_stale_databases(conn)
        conn.execute(f'CREATE DATABASE "{name}" TEMPLATE template0')
        # A commit need not wait for the WAL to reach the disk: only a crash of the Postgres
        # server itself could lose one, which no test does to this service. Commits then cost
        # what they cost the code, not the (shared, busy) disk.
        conn.execute(f'ALTER DATABASE "{name}" SET synchronous_commit = off')
    yield f"{postgres_admin_url.rsplit('/', 1)[0]}/{name}"
    with psycopg.connect(postgres_admin_url, autocommit=True) as conn:
        # FORCE: a leaked pool connection must not leave the database behind.
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


@pytest.fixture(scope="session")
def make_postgres_db(postgres_url: str) -> Callable[[], str]:
    """A factory of empty Postgres databases: each a fresh schema of the session's database.

    The URL sets `search_path` to the new schema, so everything (Alembic's version table too)
    lives there. A schema is far cheaper than a database to create, and goes with the database.
    """
    import psycopg

    def make() -> str:
        tiers.starts("postgres", "a Postgres database")  # also when asked for at run time
        schema = f"s_{secrets.token_hex(6)}"
        with psycopg.connect(postgres_url, autocommit=True) as conn:
            conn.execute(f'CREATE SCHEMA "{schema}"')
        return f"{postgres_url}?options=-csearch_path%3D{schema}"

    return make


def _migration_sql() -> str:
    """The SQL of every migration for Postgres, written once by Alembic (offline mode)."""
    from alembic import command

    from app.db.migrate import alembic_config

    out = io.StringIO()
    cfg = alembic_config("postgresql+psycopg://nobody@127.0.0.1/none")  # never connected to
    cfg.output_buffer = out
    command.upgrade(cfg, "head", sql=True)
    return out.getvalue()


@pytest.fixture(scope="session")
def make_migrated_postgres_db(make_postgres_db: Callable[[], str]) -> Callable[[], str]:
    """A factory of migrated Postgres databases: each a fresh schema holding the schema at head.

    The migrations' SQL is written once per run and replayed into each new schema, instead of
    an Alembic upgrade (loading and running ten revisions) per test. tests/db/test_migrations.py
    checks that such a copy is exactly what a real upgrade builds.
    """
    import psycopg

    sql = _migration_sql()

    def make() -> str:
        url = make_postgres_db()
        with psycopg.connect(url, autocommit=True) as conn:
            conn.execute(sql.encode())  # one round trip; the script has its own BEGIN/COMMIT
        return url

    return make


@pytest.fixture(scope="session")
def redis_url() -> str:
    """Redis on 127.0.0.1:6379: database 15 (to keep clear of a developer's data), one lower for
    each further worker of a parallel run, so workers share no keys and, as the app prefixes
    its channels with the database number, no pub/sub channels either."""
    if not _reachable(REDIS_HOST, REDIS_PORT):
        service_missing("Redis", f"nothing listens on {REDIS_HOST}:{REDIS_PORT}")
    # SEADRAGONS_TEST_REDIS_DB moves the base, so two runs side by side (two worktrees) share
    # no channels either.
    base = int(os.environ.get("SEADRAGONS_TEST_REDIS_DB", "15"))
    return f"redis://{REDIS_HOST}:{REDIS_PORT}/{base - tiers.worker_index()}"


@pytest.fixture(scope="session")
def migrated_sqlite_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A SQLite file brought to the newest schema once per run (per worker), to be copied."""
    from app.db.migrate import upgrade_to_head

    path = tmp_path_factory.mktemp("template") / "migrated.db"
    upgrade_to_head(f"sqlite:///{path}")
    return path


@pytest.fixture(params=["sqlite", "postgres"])
def database_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """A database of each kind at the newest schema: a copied SQLite file, or a fresh Postgres
    schema. The app's own upgrade at start then finds nothing to do."""
    if request.param == "sqlite":
        return request.getfixturevalue("sqlite_url")
    return request.getfixturevalue("make_migrated_postgres_db")()


@pytest.fixture(params=["sqlite", "postgres"])
def empty_database_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """An empty database of each kind (for the migrations' own tests)."""
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'empty.db'}"
    return request.getfixturevalue("make_postgres_db")()


@pytest.fixture
def make_settings(tmp_path: Path) -> Callable[..., Settings]:
    """Settings for a test app on a given database URL, with its data dir in tmp_path."""

    def make(url: str, **extra: Any) -> Settings:
        # Bots think in threads unless a test asks for worker processes: each app spawns its
        # own (a Python interpreter per app), which the in-process tests need not pay for.
        extra.setdefault("bot_processes", 0)
        # Argon2 at its cheapest (0.15 s a hash at the server's cost): no test's subject is
        # the cost, and tests/services/test_password_cost.py checks the setting itself.
        for name, value in CHEAP_PASSWORDS.items():
            extra.setdefault(name, value)
        return Settings(database_url=url, data_dir=tmp_path, secret_key="test-secret", **extra)

    return make


@pytest.fixture
def sqlite_url(tmp_path: Path, migrated_sqlite_file: Path) -> str:
    """A SQLite database file at the newest schema (a copy of the run's migrated file)."""
    path = tmp_path / "test.db"
    shutil.copyfile(migrated_sqlite_file, path)
    return f"sqlite:///{path}"


tiers.register_fast_profile()


@pytest.hookimpl(tryfirst=True)
def pytest_cmdline_main(config: pytest.Config) -> None:
    """A run of the whole suite or a tier uses every core (tests/tiers.py)."""
    tiers.default_workers(config)


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--screenshots",
        action="store_true",
        help="the browser tests save their screenshots in test-artifacts/ (without it, only "
        "a failed browser test's pages are saved)",
    )


def pytest_configure(config: pytest.Config) -> None:
    """The tiers' markers and kept bytecode (tests/tiers.py); an event loop's close that cannot
    hang a worker (tests/loop_close.py); screenshots when asked for (tests/e2e/helpers.py)."""
    tiers.keep_bytecode()
    tiers.configure(config)
    loop_close.install()
    e2e_helpers.SCREENSHOTS["wanted"] = bool(config.getoption("screenshots"))


@pytest.hookimpl(tryfirst=True)
def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    """`database_url` runs a test on SQLite and on Postgres, unless the test (or its module) is
    marked `one_database`: then on SQLite alone (docs/testing.md says which and why)."""
    if "database_url" in metafunc.fixturenames and metafunc.definition.get_closest_marker(
        tiers.ONE_DATABASE
    ):
        # As a parametrize mark, which takes precedence over the fixture's own parameters.
        sqlite_only = pytest.mark.parametrize("database_url", ["sqlite"], indirect=True)
        metafunc.definition.add_marker(sqlite_only)


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Mark each test with what it needs (its tier); run the browser tests last: they are the
    slowest, and they run an event loop of their own (tiers.run_order); group them for the
    workers (tiers.groups)."""
    tiers.mark_tiers(items)
    items.sort(key=tiers.run_order)


@pytest.hookimpl(optionalhook=True)
def pytest_xdist_make_scheduler(config: pytest.Config, log: Any) -> Any:
    """A parallel run of the whole suite sends long browser modules in groups (tiers.groups)."""
    return tiers.make_scheduler(config, log)


@pytest.hookimpl(wrapper=True)
def pytest_runtest_protocol(item: pytest.Item, nextitem: pytest.Item | None) -> Any:
    """Let helpers that start processes see which test is running (tiers.starts)."""
    tiers.set_current(item)
    try:
        return (yield)
    finally:
        tiers.set_current(None)
