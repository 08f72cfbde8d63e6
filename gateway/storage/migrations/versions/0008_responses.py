"""conversation_points: Responses API responses and chat-history points, each a session version

A chat client that resends its history, and a Responses API client that names a
``previous_response_id``, continue the session (or a fork of it) at the version the named turn
ended on; a stored response's body is kept for ``GET /v1/responses/{id}``.

Revision ID: 0008
Revises: 0007
Create Date: 2026-11-23
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0008"
down_revision = "0007"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "conversation_points",
        sa.Column("key", sa.String(length=128), nullable=False),
        sa.Column("session_id", sa.String(length=128), nullable=False),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column("run_id", sa.String(length=64), nullable=False),
        sa.Column("tenant", sa.String(length=64), nullable=False),
        sa.Column("response", sa.JSON(), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("key", name=op.f("pk_conversation_points")),
    )


def downgrade() -> None:
    op.drop_table("conversation_points")
