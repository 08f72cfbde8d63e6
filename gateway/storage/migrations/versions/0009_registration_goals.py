"""registration_goals: an MCP server's given description and goals survive a restart

The goals (and description) an admin gives when registering an MCP server were kept only by the
gateway that took them; after a restart, or on another gateway, they were generated again from
the tools. They are now stored with the registration (JSON; NULL for other domains).

Revision ID: 0009
Revises: 0008
Create Date: 2026-11-23
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0009"
down_revision = "0008"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("domain_registrations", sa.Column("mcp_registration", sa.JSON(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("domain_registrations") as batch:
        batch.drop_column("mcp_registration")
