"""drop sessions.memory: the planner memory lives in the session's graph state

The column copied the graph state's ``memory`` on every turn and nothing read it.

Revision ID: 0004
Revises: 0003
Create Date: 2026-11-22
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("sessions") as batch:
        batch.drop_column("memory")


def downgrade() -> None:
    with op.batch_alter_table("sessions") as batch:
        batch.add_column(sa.Column("memory", sa.JSON(), nullable=False, server_default="{}"))
