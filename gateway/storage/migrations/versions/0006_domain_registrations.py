"""domain_registrations: runtime domain registrations survive a restart

``POST /v1/domains`` registrations were kept only in memory (and in Redis when configured); they
are now stored here and restored at start.

Revision ID: 0006
Revises: 0005
Create Date: 2026-11-23
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "domain_registrations",
        sa.Column("name", sa.String(length=64), nullable=False),
        sa.Column("base_url", sa.String(length=2048), nullable=False),
        sa.Column("registered_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("registered_by", sa.String(length=256), nullable=False),
        sa.PrimaryKeyConstraint("name", name=op.f("pk_domain_registrations")),
    )


def downgrade() -> None:
    op.drop_table("domain_registrations")
