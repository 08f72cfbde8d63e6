"""drop run_steps: a run's steps live in runs.trace (one copy, written once per turn)

The table was a projection of the trace's steps that nothing read, written on every turn.

Revision ID: 0003
Revises: 0002
Create Date: 2026-11-22
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.drop_table("run_steps")


def downgrade() -> None:
    op.create_table(
        "run_steps",
        sa.Column("run_id", sa.String(64), nullable=False),
        sa.Column("step_id", sa.Integer(), nullable=False),
        sa.Column("domain", sa.String(64), nullable=False),
        sa.Column("capability", sa.String(128), nullable=False),
        sa.Column("status", sa.String(32), nullable=False),
        sa.Column("attempts", sa.Integer(), nullable=False),
        sa.Column("started_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("finished_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("output", sa.JSON(), nullable=True),
        sa.Column("error", sa.Text(), nullable=True),
        sa.ForeignKeyConstraint(
            ["run_id"], ["runs.id"], name=op.f("fk_run_steps_run_id_runs"), ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("run_id", "step_id", name=op.f("pk_run_steps")),
    )
