"""write_probe: one row /ready rewrites, so a database that answers reads but refuses writes (a
full disk, a read-only file or server) is not ready

Revision ID: 0011
Revises: 0010
Create Date: 2026-11-26
"""

from __future__ import annotations

from datetime import UTC, datetime

import sqlalchemy as sa
from alembic import op

revision = "0011"
down_revision = "0010"
branch_labels = None
depends_on = None


def upgrade() -> None:
    probe = op.create_table(
        "write_probe",
        sa.Column("id", sa.String(length=16), nullable=False),
        sa.Column("checked_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_write_probe")),
    )
    op.bulk_insert(probe, [{"id": "ready", "checked_at": datetime.now(UTC)}])


def downgrade() -> None:
    op.drop_table("write_probe")
