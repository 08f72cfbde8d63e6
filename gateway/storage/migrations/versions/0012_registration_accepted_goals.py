"""domain_registrations.accepted_goals: the goals of the manifest the admin accepted, so a
restarted gateway, or another one, holds a stored registration to them

Revision ID: 0012
Revises: 0011
Create Date: 2026-11-26
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0012"
down_revision = "0011"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("domain_registrations", sa.Column("accepted_goals", sa.JSON(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("domain_registrations") as batch:
        batch.drop_column("accepted_goals")
