"""Shared fixtures: an app on SQLite and on PostgreSQL, an SMTP sink, a CLI runner."""

from __future__ import annotations

import functools
import os
import secrets
import shutil
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import replace
from pathlib import Path
from typing import Any

import hypothesis
import pytest
import sqlalchemy as sa
from flask.testing import FlaskCliRunner
from sqlalchemy.engine import make_url
from sqlalchemy.orm import Session

from pbem.cli import main
from pbem.config import load_settings
from pbem.db import Database, migrate
from pbem.models import Base
from pbem.web.app import create_app

POSTGRES_ENV = "PBEM_TEST_POSTGRES_URL"
TEST_KEY = "the tests' key: 32 bytes or longer"  # a server refuses a shorter one
IN_CI = os.environ.get("CI", "").lower() == "true"

# CI replays the same examples every run and does not time them: a shared, busy machine
# must not turn a slow example into a failure. Locally Hypothesis explores anew each time.
hypothesis.settings.register_profile("ci", derandomize=True, deadline=None, database=None)
hypothesis.settings.register_profile("dev", deadline=None)
hypothesis.settings.load_profile("ci" if IN_CI else "dev")

# Every test fails with its name once it runs past pyproject's `timeout` (600 s); a test of
# the slow set (`-m slow`) may take longer: the longest recorded Mad Dog game is some minutes.
SLOW_TIMEOUT = 1800


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Give the slow set its own time limit, unless a test names one."""
    for item in items:
        if item.get_closest_marker("slow") and not item.get_closest_marker("timeout"):
            item.add_marker(pytest.mark.timeout(SLOW_TIMEOUT))


@functools.cache
def sized_columns(cls: type) -> tuple[tuple[str, int], ...]:
    """The attributes of a model whose column has a length, with that length."""
    mapper = sa.inspect(cls)
    return tuple(
        (mapper.get_property_by_column(column).key, column.type.length)
        for column in mapper.columns
        if getattr(column.type, "length", None) is not None
    )


def check_string_lengths(session: Session, _context: Any, _instances: Any) -> None:
    """Fail a flush that puts a string longer than its column (PostgreSQL refuses it)."""
    for obj in (*session.new, *session.dirty):
        for key, length in sized_columns(type(obj)):
            value = getattr(obj, key, None)
            if isinstance(value, str) and len(value) > length:
                raise AssertionError(
                    f"{type(obj).__name__}.{key} gets {len(value)} characters, "
                    f"its column holds {length}: bound it where it is written"
                )


@pytest.fixture(autouse=True)
def strings_fit_their_columns() -> Iterator[None]:
    """SQLite stores a string of any length: make an overflow fail on SQLite too."""
    sa.event.listen(Session, "before_flush", check_string_lengths)
    yield
    sa.event.remove(Session, "before_flush", check_string_lengths)


def postgres_admin_url() -> str | None:
    """The server to create test databases on, or None (a failure in CI)."""
    url = os.environ.get(POSTGRES_ENV)
    if not url:
        if IN_CI:
            pytest.fail(f"{POSTGRES_ENV} is not set, and CI needs the PostgreSQL tests")
        return None
    return url


def psycopg_url(url: str) -> sa.URL:
    """The URL with the psycopg 3 driver named."""
    parsed = make_url(url)
    return parsed.set(drivername="postgresql+psycopg")


@contextmanager
def fresh_postgres_database() -> Iterator[str]:
    """A new, empty PostgreSQL database of its own, dropped on leaving."""
    admin = postgres_admin_url()
    if admin is None:
        pytest.skip(f"PostgreSQL tests need {POSTGRES_ENV} (CI sets it)")
    admin_url = psycopg_url(admin)
    name = f"pbem_test_{secrets.token_hex(6)}"
    try:
        engine = sa.create_engine(admin_url, isolation_level="AUTOCOMMIT")
        with engine.connect() as conn:
            conn.exec_driver_sql(f'CREATE DATABASE "{name}"')
    except sa.exc.OperationalError as e:
        if IN_CI:
            pytest.fail(f"PostgreSQL at {admin} is unreachable: {e}")
        pytest.skip(f"PostgreSQL at {admin} is unreachable: {e}")
    url = admin_url.set(database=name).render_as_string(hide_password=False)
    try:
        yield url
    finally:
        with engine.connect() as conn:
            conn.exec_driver_sql(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        engine.dispose()


@pytest.fixture(scope="session")
def postgres_database() -> Iterator[str]:
    """A fresh PostgreSQL database for this test run (per worker), dropped at the end."""
    with fresh_postgres_database() as url:
        yield url


@pytest.fixture(scope="session")
def migrated_postgres(postgres_database: str) -> str:
    """The run's PostgreSQL database, migrated to head once."""
    db = Database(postgres_database)
    migrate.upgrade(db.engine)
    db.dispose()
    return postgres_database


def empty_tables(url: str) -> None:
    """Delete every row, keeping the schema."""
    db = Database(url)
    with db.engine.begin() as conn:
        names = ", ".join(f'"{t.name}"' for t in Base.metadata.sorted_tables)
        conn.exec_driver_sql(f"TRUNCATE {names} RESTART IDENTITY CASCADE")
    db.dispose()


@pytest.fixture(scope="session")
def migrated_sqlite(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """An empty SQLite database migrated to head once, for each test to copy."""
    path = tmp_path_factory.mktemp("template") / "migrated.db"
    db = Database(f"sqlite:///{path}")
    migrate.upgrade(db.engine)
    db.dispose()  # the last connection checkpoints the WAL into the file
    return path


@pytest.fixture(params=["sqlite", "postgresql"])
def database_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """A migrated, empty database of each kind."""
    if request.param == "sqlite":
        path = tmp_path / "test.db"
        shutil.copyfile(request.getfixturevalue("migrated_sqlite"), path)
        return f"sqlite:///{path}"
    url = request.getfixturevalue("migrated_postgres")
    empty_tables(url)
    return str(url)


@pytest.fixture
def settings(database_url: str, tmp_path: Path) -> Any:
    """Settings for a test app: its own instance folder, a fixed base URL."""
    instance = tmp_path / "instance"
    base = load_settings({"PBEM_INSTANCE_PATH": str(instance), "PBEM_SECRET_KEY": TEST_KEY})
    return replace(base, database_url=database_url, base_url="http://pbem.test")


class PbemCliRunner(FlaskCliRunner):
    """Flask's CLI runner, invoking the `pbem` command (inside the test's app) by default."""

    def invoke(self, cli: Any = None, args: Any = None, **kwargs: Any) -> Any:
        return super().invoke(cli or main, args, **kwargs)


def make_app(settings: Any) -> Any:
    """A test app whose CLI runner runs `pbem` commands."""
    app = create_app({"SETTINGS": settings, "TESTING": True})
    app.test_cli_runner_class = PbemCliRunner
    return app


@pytest.fixture
def app(settings: Any) -> Iterator[Any]:
    """The app on a migrated database."""
    app = make_app(settings)
    yield app
    app.extensions["pbem"].db.dispose()


@pytest.fixture
def client(app: Any) -> Any:
    """A test client."""
    return app.test_client()


@pytest.fixture
def runner(app: Any) -> Any:
    """A CLI runner for the app's commands."""
    return app.test_cli_runner()


@pytest.fixture
def smtp_sink() -> Iterator[Any]:
    """A running SMTP sink on 127.0.0.1."""
    from tests.smtp_sink import SmtpSink

    sink = SmtpSink().start()
    yield sink
    sink.stop()
