"""Storage: the database with its read and write transactions, and the Alembic upgrade."""

from .database import Database

__all__ = ["Database"]
