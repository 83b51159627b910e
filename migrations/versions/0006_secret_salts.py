"""secret salts: log format 2 commits to secret payloads with a salt kept per event

Also: outbox.failed_at marks a mail set aside because it cannot be built or sent, and
games.imported a game rebuilt from another server's log (its dice seed not drawn here).

Revision ID: 0006
Revises: 0005
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("events") as batch:
        batch.add_column(sa.Column("salt", sa.String(length=64), nullable=True))
    with op.batch_alter_table("outbox") as batch:
        batch.add_column(sa.Column("failed_at", sa.DateTime(timezone=True), nullable=True))
    with op.batch_alter_table("games") as batch:
        batch.add_column(
            sa.Column("imported", sa.Boolean(), server_default=sa.false(), nullable=False)
        )


def downgrade() -> None:
    with op.batch_alter_table("games") as batch:
        batch.drop_column("imported")
    with op.batch_alter_table("outbox") as batch:
        batch.drop_column("failed_at")
    with op.batch_alter_table("events") as batch:
        batch.drop_column("salt")
