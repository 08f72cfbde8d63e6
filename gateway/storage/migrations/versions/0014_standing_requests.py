"""standing_requests and standing_firings: schedules and watches a person made in conversation or
through /v1/schedules, and one row per tick that fired (unique per request and tick)

Revision ID: 0014
Revises: 0013
Create Date: 2026-11-26
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0014"
down_revision = "0013"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "standing_requests",
        sa.Column("id", sa.String(length=64), nullable=False),
        sa.Column("tenant", sa.String(length=64), nullable=False),
        sa.Column("kind", sa.String(length=16), nullable=False),
        sa.Column("session_id", sa.String(length=128), nullable=False),
        sa.Column("channel", sa.String(length=32), nullable=False),
        sa.Column("deliver_to", sa.String(length=32), nullable=False),
        sa.Column("label", sa.String(length=256), nullable=False),
        sa.Column("request_text", sa.Text(), nullable=False),
        sa.Column("recurrence", sa.String(length=512), nullable=True),
        sa.Column("interval_seconds", sa.Integer(), nullable=True),
        sa.Column("condition", sa.Text(), nullable=True),
        sa.Column("last_condition", sa.Boolean(), nullable=True),
        sa.Column("timezone", sa.String(length=64), nullable=False),
        sa.Column("language", sa.String(length=8), nullable=False),
        sa.Column("status", sa.String(length=16), nullable=False),
        sa.Column("next_fire_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_standing_requests")),
    )
    op.create_index(op.f("ix_standing_requests_tenant"), "standing_requests", ["tenant"])
    op.create_index(
        "ix_standing_requests_status_next_fire_at", "standing_requests", ["status", "next_fire_at"]
    )
    op.create_table(
        "standing_firings",
        sa.Column("id", sa.String(length=128), nullable=False),
        sa.Column("standing_id", sa.String(length=64), nullable=False),
        sa.Column("tenant", sa.String(length=64), nullable=False),
        sa.Column("tick", sa.DateTime(timezone=True), nullable=False),
        sa.Column("status", sa.String(length=16), nullable=False),
        sa.Column("run_id", sa.String(length=64), nullable=True),
        sa.Column("condition_met", sa.Boolean(), nullable=True),
        sa.Column("result", sa.Text(), nullable=False),
        sa.Column("gateway_id", sa.String(length=128), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("finished_at", sa.DateTime(timezone=True), nullable=True),
        sa.ForeignKeyConstraint(
            ["standing_id"],
            ["standing_requests.id"],
            name=op.f("fk_standing_firings_standing_id_standing_requests"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_standing_firings")),
        sa.UniqueConstraint("standing_id", "tick", name="uq_standing_firings_standing_id_tick"),
    )
    op.create_index(op.f("ix_standing_firings_standing_id"), "standing_firings", ["standing_id"])
    op.create_index(op.f("ix_standing_firings_tenant"), "standing_firings", ["tenant"])


def downgrade() -> None:
    op.drop_table("standing_firings")
    op.drop_table("standing_requests")
