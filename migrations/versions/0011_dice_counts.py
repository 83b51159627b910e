"""dice counts: running totals of every revealed die and shuffle, for /audit/dice

The totals of the games revealed so far are counted here from their logs; from then on
the transaction that reveals a game's seed adds its dice (`pbem db recount-dice` counts
them all again).

Revision ID: 0011
Revises: 0009
"""

from __future__ import annotations

import json
from collections import Counter

import sqlalchemy as sa
from alembic import op

revision = "0011"
down_revision = "0010"
branch_labels = None
depends_on = None


def upgrade() -> None:
    counts = op.create_table(
        "dice_counts",
        sa.Column("what", sa.String(length=8), nullable=False),
        sa.Column("sides", sa.Integer(), autoincrement=False, nullable=False),
        sa.Column("face", sa.Integer(), autoincrement=False, nullable=False),
        sa.Column("count", sa.BigInteger(), nullable=False),
        sa.PrimaryKeyConstraint("what", "sides", "face", name=op.f("pk_dice_counts")),
    )
    # The count as of this revision, in its own words: the application's code may change.
    events = sa.table(
        "events", sa.column("game_id"), sa.column("kind"), sa.column("payload", sa.Text)
    )
    revealed = sa.select(events.c.game_id).where(events.c.kind == "reveal")
    query = sa.select(events.c.kind, events.c.payload).where(
        events.c.kind.in_(("roll", "shuffle")), events.c.game_id.in_(revealed)
    )
    found: Counter[tuple[str, int, int]] = Counter()
    for kind, text in op.get_bind().execute(query):
        payload = json.loads(text)
        if kind == "roll":
            found.update(("die", int(payload["sides"]), int(v)) for v in payload["values"])
        elif payload["order"]:
            order = payload["order"]
            found["shuffle", len(order), int(order[0]) + 1] += 1
    rows = [
        {"what": what, "sides": sides, "face": face, "count": n}
        for (what, sides, face), n in sorted(found.items())
    ]
    if rows:
        op.bulk_insert(counts, rows)


def downgrade() -> None:
    op.drop_table("dice_counts")
