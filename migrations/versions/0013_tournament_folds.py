"""tournament folds: a tournament's log folded up to an event, stored so a new process loads it

One row per tournament, written by the transaction that appends an event whose seq is a
multiple of 50; only a cache (a new process folds on from it when the log still holds its
hash at its seq), so the table starts empty and the next such event fills it.

Revision ID: 0013
Revises: 0012
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0013"
down_revision = "0012"
branch_labels = None
depends_on = None

Id = sa.BigInteger().with_variant(sa.Integer(), "sqlite")


def upgrade() -> None:
    op.create_table(
        "tournament_folds",
        sa.Column("tournament_id", Id, nullable=False),
        sa.Column("seq", sa.Integer(), nullable=False),
        sa.Column("hash", sa.String(length=64), nullable=False),
        sa.Column("version", sa.String(length=40), nullable=False),
        sa.Column("state", sa.Text(), nullable=False),
        sa.ForeignKeyConstraint(["tournament_id"], ["tournaments.id"],
                                name=op.f("fk_tournament_folds_tournament_id_tournaments")),
        sa.PrimaryKeyConstraint("tournament_id", name=op.f("pk_tournament_folds")),
    )


def downgrade() -> None:
    op.drop_table("tournament_folds")
