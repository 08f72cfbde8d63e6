"""gateway_liveness: one lease per gateway process, so a survivor takes over the durable
workflows of a gateway that died (gateway/durable/liveness.py)

Revision ID: 0015
Revises: 0014
Create Date: 2026-11-26
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0015"
down_revision = "0014"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "gateway_liveness",
        sa.Column("executor_id", sa.String(length=128), nullable=False),
        sa.Column("application_version", sa.String(length=64), nullable=False),
        sa.Column("expires_at_ms", sa.BigInteger(), nullable=False),
        sa.Column("recovered_by", sa.String(length=128), nullable=True),
        sa.PrimaryKeyConstraint("executor_id", name=op.f("pk_gateway_liveness")),
    )
    op.create_index(op.f("ix_gateway_liveness_expires_at_ms"), "gateway_liveness", ["expires_at_ms"])


def downgrade() -> None:
    op.drop_index(op.f("ix_gateway_liveness_expires_at_ms"), table_name="gateway_liveness")
    op.drop_table("gateway_liveness")
