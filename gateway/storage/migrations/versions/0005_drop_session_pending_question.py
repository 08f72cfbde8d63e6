"""drop sessions.pending_question: the pending question lives in the session's graph state

The column copied the graph state's ``question`` on every turn; the sessions API now reads it
from the state, so the question is stored once.

Revision ID: 0005
Revises: 0004
Create Date: 2026-11-23
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("sessions") as batch:
        batch.drop_column("pending_question")


def downgrade() -> None:
    with op.batch_alter_table("sessions") as batch:
        batch.add_column(sa.Column("pending_question", sa.JSON(), nullable=True))
