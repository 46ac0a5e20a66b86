"""Apply Alembic migrations programmatically (used at server start and by `seadragons migrate`)."""

from __future__ import annotations

from pathlib import Path

from alembic import command
from alembic.config import Config
from sqlalchemy import Engine

from app.settings import get_settings, normalize_database_url

# The repository root: migrations/ and alembic.ini live there (found when installed editable).
ROOT = Path(__file__).resolve().parents[2]
MIGRATIONS = ROOT / "migrations"


def alembic_config(url: str | None = None) -> Config:
    """An Alembic Config pointing at migrations/ for `url` (default: the settings' database)."""
    url = normalize_database_url(url) if url else get_settings().resolved_database_url()
    cfg = Config()
    cfg.set_main_option("script_location", str(MIGRATIONS))
    # ConfigParser interpolation: a literal % in a password must be doubled.
    cfg.set_main_option("sqlalchemy.url", url.replace("%", "%%"))
    return cfg


def upgrade_to_head(url: str | None = None, engine: Engine | None = None) -> None:
    """Bring the database at `url` (or reached through `engine`) to the newest schema."""
    if engine is not None:
        cfg = alembic_config(engine.url.render_as_string(hide_password=False))
        with engine.begin() as connection:
            cfg.attributes["connection"] = connection
            command.upgrade(cfg, "head")
        return
    command.upgrade(alembic_config(url), "head")
