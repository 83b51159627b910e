"""tournaments: their hash-chained logs, seeding secrets, entrants, and games' tournament

Revision ID: 0008
Revises: 0007
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0008"
down_revision = "0007"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "tournaments",
        sa.Column("id", sa.BigInteger().with_variant(sa.Integer(), "sqlite"), nullable=False),
        sa.Column("public_id", sa.String(length=32), nullable=False),
        sa.Column("name", sa.String(length=100), nullable=False),
        sa.Column("kind", sa.String(length=40), nullable=False),
        sa.Column("system", sa.String(length=20), nullable=False),
        sa.Column("status", sa.String(length=12), nullable=False),
        sa.Column("director_id", sa.BigInteger().with_variant(sa.Integer(), "sqlite"),
                  nullable=False),
        sa.Column("head_seq", sa.Integer(), nullable=False),
        sa.Column("head_hash", sa.String(length=64), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["director_id"], ["players.id"],
                                name=op.f("fk_tournaments_director_id_players")),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_tournaments")),
        sa.UniqueConstraint("public_id", name=op.f("uq_tournaments_public_id")),
    )
    op.create_index(op.f("ix_tournaments_director_id"), "tournaments", ["director_id"])
    op.create_table(
        "tournament_events",
        sa.Column("tournament_id", sa.BigInteger().with_variant(sa.Integer(), "sqlite"),
                  nullable=False),
        sa.Column("seq", sa.Integer(), autoincrement=False, nullable=False),
        sa.Column("kind", sa.String(length=16), nullable=False),
        sa.Column("payload", sa.Text(), nullable=False),
        sa.Column("at", sa.String(length=40), nullable=False),
        sa.Column("hash", sa.String(length=64), nullable=False),
        sa.ForeignKeyConstraint(["tournament_id"], ["tournaments.id"],
                                name=op.f("fk_tournament_events_tournament_id_tournaments")),
        sa.PrimaryKeyConstraint("tournament_id", "seq", name=op.f("pk_tournament_events")),
    )
    op.create_table(
        "tournament_secrets",
        sa.Column("tournament_id", sa.BigInteger().with_variant(sa.Integer(), "sqlite"),
                  nullable=False),
        sa.Column("seed", sa.String(length=64), nullable=False),
        sa.ForeignKeyConstraint(["tournament_id"], ["tournaments.id"],
                                name=op.f("fk_tournament_secrets_tournament_id_tournaments")),
        sa.PrimaryKeyConstraint("tournament_id", name=op.f("pk_tournament_secrets")),
    )
    op.create_table(
        "tournament_entrants",
        sa.Column("tournament_id", sa.BigInteger().with_variant(sa.Integer(), "sqlite"),
                  nullable=False),
        sa.Column("player_id", sa.BigInteger().with_variant(sa.Integer(), "sqlite"),
                  nullable=False),
        sa.Column("status", sa.String(length=12), nullable=False),
        sa.ForeignKeyConstraint(["player_id"], ["players.id"],
                                name=op.f("fk_tournament_entrants_player_id_players")),
        sa.ForeignKeyConstraint(["tournament_id"], ["tournaments.id"],
                                name=op.f("fk_tournament_entrants_tournament_id_tournaments")),
        sa.PrimaryKeyConstraint("tournament_id", "player_id", name=op.f("pk_tournament_entrants")),
    )
    op.create_index(op.f("ix_tournament_entrants_player_id"), "tournament_entrants",
                    ["player_id"])
    with op.batch_alter_table("games") as batch:
        batch.add_column(sa.Column("tournament_id",
                                   sa.BigInteger().with_variant(sa.Integer(), "sqlite"),
                                   nullable=True))
        batch.create_index("ix_games_tournament_id", ["tournament_id"])
        batch.create_foreign_key("fk_games_tournament_id_tournaments", "tournaments",
                                 ["tournament_id"], ["id"])


def downgrade() -> None:
    with op.batch_alter_table("games") as batch:
        batch.drop_constraint("fk_games_tournament_id_tournaments", type_="foreignkey")
        batch.drop_index("ix_games_tournament_id")
        batch.drop_column("tournament_id")
    op.drop_index(op.f("ix_tournament_entrants_player_id"), table_name="tournament_entrants")
    op.drop_table("tournament_entrants")
    op.drop_table("tournament_secrets")
    op.drop_table("tournament_events")
    op.drop_index(op.f("ix_tournaments_director_id"), table_name="tournaments")
    op.drop_table("tournaments")
