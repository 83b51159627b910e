"""Run the Alembic migrations of migrations/ against a database."""

from __future__ import annotations

from pathlib import Path

from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import Engine

MIGRATIONS = Path(__file__).resolve().parents[2] / "migrations"


def alembic_config(url: str | None = None) -> Config:
    """An Alembic config pointing at this project's migrations."""
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    if url:
        config.set_main_option("sqlalchemy.url", url.replace("%", "%%"))
    return config


def upgrade(engine: Engine, revision: str = "head") -> None:
    """Bring the database up to a revision (head by default)."""
    config = alembic_config()
    with engine.begin() as connection:
        config.attributes["connection"] = connection
        command.upgrade(config, revision)


def revisions(engine: Engine) -> tuple[str | None, str | None]:
    """The database's schema revision and the newest one the code knows."""
    head = ScriptDirectory.from_config(alembic_config()).get_current_head()
    with engine.connect() as connection:
        current = MigrationContext.configure(connection).get_current_revision()
    return current, head
