"""rated games: each finished game's players, places and timeouts, as ratings read them

Revision ID: 0009
Revises: 0008
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0009"
down_revision = "0008"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "rated_games",
        sa.Column("game_id", sa.BigInteger().with_variant(sa.Integer(), "sqlite"),
                  nullable=False),
        sa.Column("kind", sa.String(length=40), nullable=False),
        sa.Column("finished_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("seats", sa.Text(), nullable=False),
        sa.Column("status", sa.String(length=24), nullable=False),
        sa.Column("adjudicated", sa.Boolean(), nullable=False),
        sa.Column("changed_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["game_id"], ["games.id"],
                                name=op.f("fk_rated_games_game_id_games")),
        sa.PrimaryKeyConstraint("game_id", name=op.f("pk_rated_games")),
    )
    op.create_index(op.f("ix_rated_games_finished_at"), "rated_games", ["finished_at"])


def downgrade() -> None:
    op.drop_index(op.f("ix_rated_games_finished_at"), table_name="rated_games")
    op.drop_table("rated_games")
