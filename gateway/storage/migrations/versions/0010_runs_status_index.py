"""runs_status_index: runs are found by status without reading every run

Added for the takeover scan of the gateway's own background queue, which the durable engine
replaced (its workflows are in DBOS's tables); runs are still selected by status, newest first,
by ``RunStore.list_runs`` (``GET /v1/runs?status=``).

Revision ID: 0010
Revises: 0009
Create Date: 2026-11-23
"""

from __future__ import annotations

from alembic import op

revision = "0010"
down_revision = "0009"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_index("ix_runs_status_created_at", "runs", ["status", "created_at"])


def downgrade() -> None:
    op.drop_index("ix_runs_status_created_at", table_name="runs")
