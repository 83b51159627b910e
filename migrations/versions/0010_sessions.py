"""sessions: a generation per player that signing out raises; sign-in links used once

Revision ID: 0010
Revises: 0009
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0010"
down_revision = "0009"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("players") as batch:
        batch.add_column(sa.Column("session_generation", sa.Integer(), nullable=False,
                                   server_default="0"))
    op.create_table(
        "used_signins",
        sa.Column("nonce", sa.String(length=32), nullable=False),
        sa.Column("player_id", sa.BigInteger().with_variant(sa.Integer(), "sqlite"),
                  nullable=False),
        sa.Column("used_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["player_id"], ["players.id"],
                                name=op.f("fk_used_signins_player_id_players")),
        sa.PrimaryKeyConstraint("nonce", name=op.f("pk_used_signins")),
    )
    op.create_index(op.f("ix_used_signins_player_id"), "used_signins", ["player_id"])
    op.create_index(op.f("ix_used_signins_used_at"), "used_signins", ["used_at"])


def downgrade() -> None:
    op.drop_index(op.f("ix_used_signins_used_at"), table_name="used_signins")
    op.drop_index(op.f("ix_used_signins_player_id"), table_name="used_signins")
    op.drop_table("used_signins")
    op.drop_column("players", "session_generation")  # not a batch copy: see 0012
