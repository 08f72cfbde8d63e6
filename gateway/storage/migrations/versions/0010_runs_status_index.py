"""runs_status_index: unfinished runs are found by status without reading every run

The background takeover scan (``RunStore.unfinished_run_ids``) selects runs by status, oldest
first; without an index it read the whole ``runs`` table on every scan.

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
