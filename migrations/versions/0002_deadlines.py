"""deadlines: when the current decision began, reminders, the timeout policy

Revision ID: 0002
Revises: 0001
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("games") as batch:
        batch.add_column(
            sa.Column("timeout_policy", sa.String(length=10), nullable=False, server_default="bot")
        )
        batch.add_column(sa.Column("await_since", sa.DateTime(timezone=True), nullable=True))
        batch.add_column(
            sa.Column("reminded", sa.Boolean(), nullable=False, server_default=sa.false())
        )
        batch.create_index("ix_games_await_since", ["await_since"], unique=False)


def downgrade() -> None:
    with op.batch_alter_table("games") as batch:
        batch.drop_index("ix_games_await_since")
        batch.drop_column("reminded")
        batch.drop_column("await_since")
        batch.drop_column("timeout_policy")
