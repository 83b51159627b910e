"""The schema comes only from migrations: upgrade head works, and models agree with it."""

from __future__ import annotations

import pytest
import sqlalchemy as sa
from alembic import command
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from alembic.script import ScriptDirectory

from pbem.db import Database, migrate
from pbem.log import tally
from pbem.models import Base

from .pbem.log.test_tally import counted_from_scratch
from .pbem.pipe import resign_until_over, start, svc_of


@pytest.fixture(params=["sqlite", "postgresql"])
def empty_database(request, tmp_path):
    """An empty database of each kind (no tables at all)."""
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'empty.db'}"
    return request.getfixturevalue("postgres_database_for_migrations")


@pytest.fixture
def postgres_database_for_migrations(postgres_database):
    """The run's PostgreSQL database with every table dropped."""
    db = Database(postgres_database)
    with db.engine.begin() as conn:
        conn.exec_driver_sql("DROP SCHEMA public CASCADE")
        conn.exec_driver_sql("CREATE SCHEMA public")
    db.dispose()
    yield postgres_database
    db = Database(postgres_database)
    migrate.upgrade(db.engine)  # leave it migrated for the tests that share it
    db.dispose()


def test_upgrade_head_creates_every_table_on_an_empty_database(empty_database):
    db = Database(empty_database)
    try:
        migrate.upgrade(db.engine)
        tables = set(sa.inspect(db.engine).get_table_names())
        assert {t.name for t in Base.metadata.sorted_tables} <= tables
        assert "alembic_version" in tables
    finally:
        db.dispose()


def test_the_models_and_the_migrations_agree(empty_database):
    db = Database(empty_database)
    try:
        migrate.upgrade(db.engine)
        with db.engine.connect() as conn:
            differences = compare_metadata(MigrationContext.configure(conn), Base.metadata)
        assert differences == [], f"models differ from migrations: {differences}"
    finally:
        db.dispose()


def test_upgrading_twice_changes_nothing(empty_database):
    db = Database(empty_database)
    try:
        migrate.upgrade(db.engine)
        migrate.upgrade(db.engine)
        with db.engine.connect() as conn:
            assert MigrationContext.configure(conn).get_current_revision() is not None
    finally:
        db.dispose()


def test_sqlite_runs_in_wal_mode_with_full_sync(tmp_path):
    db = Database(f"sqlite:///{tmp_path / 'wal.db'}")
    try:
        with db.engine.connect() as conn:
            assert conn.exec_driver_sql("PRAGMA journal_mode").scalar() == "wal"
            assert conn.exec_driver_sql("PRAGMA synchronous").scalar() == 2  # FULL
            assert conn.exec_driver_sql("PRAGMA busy_timeout").scalar() >= 5000
    finally:
        db.dispose()


def test_the_upgrade_that_keeps_dice_totals_counts_the_games_revealed_before_it(app):
    resign_until_over(app, start(app))
    resign_until_over(app, start(app))
    engine = svc_of(app).db.engine
    script = ScriptDirectory.from_config(migrate.alembic_config())
    (counts,) = [r for r in script.walk_revisions() if r.path.endswith("_dice_counts.py")]
    config = migrate.alembic_config()
    with engine.begin() as conn:
        config.attributes["connection"] = conn
        command.downgrade(config, str(counts.down_revision))
    try:
        assert "dice_counts" not in sa.inspect(engine).get_table_names()
    finally:
        migrate.upgrade(engine)

    with svc_of(app).db.read() as session:
        assert tally.read(session) == counted_from_scratch(app) != {}


def test_the_latest_migrations_go_down_and_up_again_on_a_database_with_a_running_event(app):
    """A downgrade must not remake a table that others point at (the foreign keys of a
    database with data refuse it): the event, its games and its log survive both ways."""
    from .pbem.tournaments.test_service import held_now, new_event, started

    public_id, _ = new_event(app, rounds=2)
    games = [t.game for t in started(app, public_id).state.tables]
    engine = svc_of(app).db.engine
    config = migrate.alembic_config()
    with engine.begin() as conn:
        config.attributes["connection"] = conn
        command.downgrade(config, "0013")
    try:
        columns = {c["name"] for c in sa.inspect(engine).get_columns("tournaments")}
        assert "problem" not in columns
        indexes = {i["name"] for i in sa.inspect(engine).get_indexes("events")}
        assert not {"ix_events_departures", "ix_events_directed"} & indexes
    finally:
        migrate.upgrade(engine)

    assert [t.game for t in held_now(app, public_id).state.tables] == games
