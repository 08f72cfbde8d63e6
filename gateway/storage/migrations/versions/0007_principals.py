"""principals: API keys (stored hashed) and the tenant that owns each session

Every API key names a principal (tenant + role); keys created at runtime live in ``api_keys`` as
their SHA-256. A session belongs to the tenant that created it: sessions from before this
revision belong to the open mode's anonymous tenant, Telegram's to the Telegram tenant.

Revision ID: 0007
Revises: 0006
Create Date: 2026-11-23
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "api_keys",
        sa.Column("id", sa.String(length=40), nullable=False),
        sa.Column("tenant", sa.String(length=64), nullable=False),
        sa.Column("role", sa.String(length=16), nullable=False),
        sa.Column("key_hash", sa.String(length=64), nullable=False),
        sa.Column("label", sa.String(length=200), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("revoked_at", sa.DateTime(timezone=True), nullable=True),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_api_keys")),
        sa.UniqueConstraint("key_hash", name=op.f("uq_api_keys_key_hash")),
    )
    op.create_index(op.f("ix_api_keys_tenant"), "api_keys", ["tenant"], unique=False)
    # a server default fills the rows already there; SQLite needs batch mode to add the column
    with op.batch_alter_table("sessions") as batch:
        batch.add_column(
            sa.Column("tenant", sa.String(length=64), nullable=False, server_default="anonymous")
        )
    op.execute("UPDATE sessions SET tenant = 'telegram' WHERE channel = 'telegram'")
    op.create_index(op.f("ix_sessions_tenant"), "sessions", ["tenant"], unique=False)


def downgrade() -> None:
    op.drop_index(op.f("ix_sessions_tenant"), table_name="sessions")
    with op.batch_alter_table("sessions") as batch:
        batch.drop_column("tenant")
    op.drop_index(op.f("ix_api_keys_tenant"), table_name="api_keys")
    op.drop_table("api_keys")
