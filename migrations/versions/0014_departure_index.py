"""departure index: the events by which a seat left a game, indexed on their own

Every load of a game asks which seats timed out and forfeited or were withdrawn (kinds
`timeout` and `resign`). Without an index of its own that question read every event of the
game; this partial index holds only those rare events, so it reads only them.

Revision ID: 0014
Revises: 0013
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0014"
down_revision = "0013"
branch_labels = None
depends_on = None

DEPARTING = sa.column("kind").in_(("timeout", "resign"))


def upgrade() -> None:
    op.create_index("ix_events_departures", "events", ["game_id"],
                    sqlite_where=DEPARTING, postgresql_where=DEPARTING)


def downgrade() -> None:
    op.drop_index("ix_events_departures", table_name="events")
