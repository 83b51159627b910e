"""tournament problems: what kept the server from carrying an event on, until it does

When the server cannot pair, start or close an event (at a game's end or at a tick), it
keeps the problem in words and since when on the event's row, tells the directors once, and
the dashboard shows it; the next tick that carries the event on clears it.

Revision ID: 0015
Revises: 0014
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0015"
down_revision = "0014"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("tournaments") as table:
        table.add_column(sa.Column("problem", sa.Text(), nullable=True))
        table.add_column(sa.Column("problem_at", sa.DateTime(timezone=True), nullable=True))


def downgrade() -> None:
    # Plain DROP COLUMN (SQLite 3.35 and later too): a batch copy would drop and remake
    # `tournaments`, which the foreign keys of a database with data refuse.
    op.drop_column("tournaments", "problem_at")
    op.drop_column("tournaments", "problem")
