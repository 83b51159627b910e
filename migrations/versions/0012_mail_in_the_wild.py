"""mail in the wild: failing addresses, held mails, inbound mails, bounces, mail commands

Revision ID: 0012
Revises: 0009
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0012"
down_revision = "0011"
branch_labels = None
depends_on = None

Id = sa.BigInteger().with_variant(sa.Integer(), "sqlite")
When = sa.DateTime(timezone=True)


def upgrade() -> None:
    with op.batch_alter_table("players") as batch:
        batch.add_column(sa.Column("mail_failing_at", When, nullable=True))
        batch.add_column(sa.Column("mail_failure", sa.String(length=300), nullable=True))
        batch.add_column(
            sa.Column("reply_answers", sa.String(length=10), nullable=False,
                      server_default="needed")
        )
    with op.batch_alter_table("outbox") as batch:
        batch.add_column(sa.Column("held_at", When, nullable=True))
    op.create_table(
        "inbound_mails",
        sa.Column("id", Id, nullable=False),
        sa.Column("digest", sa.String(length=64), nullable=False),
        sa.Column("source", sa.String(length=200), nullable=False),
        sa.Column("sender", sa.String(length=320), nullable=False),
        sa.Column("kind", sa.String(length=12), nullable=False),
        sa.Column("outcome", sa.Text(), nullable=False),
        sa.Column("received_at", When, nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_inbound_mails")),
        sa.UniqueConstraint("digest", name=op.f("uq_inbound_mails_digest")),
    )
    op.create_index(op.f("ix_inbound_mails_received_at"), "inbound_mails", ["received_at"])
    op.create_table(
        "mail_bounces",
        sa.Column("id", Id, nullable=False),
        sa.Column("outbox_id", Id, nullable=True),
        sa.Column("address", sa.String(length=320), nullable=False),
        sa.Column("kind", sa.String(length=8), nullable=False),
        sa.Column("status", sa.String(length=16), nullable=False),
        sa.Column("diagnostic", sa.String(length=500), nullable=False),
        sa.Column("received_at", When, nullable=False),
        sa.ForeignKeyConstraint(["outbox_id"], ["outbox.id"],
                                name=op.f("fk_mail_bounces_outbox_id_outbox")),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_mail_bounces")),
    )
    op.create_index(op.f("ix_mail_bounces_outbox_id"), "mail_bounces", ["outbox_id"])
    op.create_index(op.f("ix_mail_bounces_address"), "mail_bounces", ["address"])
    op.create_table(
        "mail_commands",
        sa.Column("id", Id, nullable=False),
        sa.Column("player_id", Id, nullable=False),
        sa.Column("commands", sa.Text(), nullable=False),
        sa.Column("created_at", When, nullable=False),
        sa.Column("done_at", When, nullable=True),
        sa.Column("outcome", sa.Text(), nullable=True),
        sa.ForeignKeyConstraint(["player_id"], ["players.id"],
                                name=op.f("fk_mail_commands_player_id_players")),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_mail_commands")),
    )
    op.create_index(op.f("ix_mail_commands_player_id"), "mail_commands", ["player_id"])


def downgrade() -> None:
    op.drop_index(op.f("ix_mail_commands_player_id"), table_name="mail_commands")
    op.drop_table("mail_commands")
    op.drop_index(op.f("ix_mail_bounces_address"), table_name="mail_bounces")
    op.drop_index(op.f("ix_mail_bounces_outbox_id"), table_name="mail_bounces")
    op.drop_table("mail_bounces")
    op.drop_index(op.f("ix_inbound_mails_received_at"), table_name="inbound_mails")
    op.drop_table("inbound_mails")
    # Plain DROP COLUMN (SQLite 3.35 and later too): a batch copy would drop and remake
    # `players`, which the foreign keys of a database with data refuse.
    op.drop_column("outbox", "held_at")
    for column in ("reply_answers", "mail_failure", "mail_failing_at"):
        op.drop_column("players", column)
