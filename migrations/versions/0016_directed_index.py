"""directed index: a director's actions on a game, indexed on their own

A game's page lists what its directors did to it (deadlines extended, seats replaced, a
result adjudicated or the game aborted) and the withdrawals from its event (kinds `extend`,
`replace`, `adjudicate`, `abort` and `resign`). Without an index of its own that list read
every event of the game; this partial index holds only those rare events, in the order
the page lists them.

Revision ID: 0016
Revises: 0015
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0016"
down_revision = "0015"
branch_labels = None
depends_on = None

DIRECTED = sa.column("kind").in_(("extend", "replace", "adjudicate", "abort", "resign"))


def upgrade() -> None:
    op.create_index("ix_events_directed", "events", ["game_id", "seq"],
                    sqlite_where=DIRECTED, postgresql_where=DIRECTED)


def downgrade() -> None:
    op.drop_index("ix_events_directed", table_name="events")
