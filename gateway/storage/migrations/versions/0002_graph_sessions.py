"""graph engine sessions and state versions (graph.checkpoint)

Revision ID: 0002
Revises: 0001
Create Date: 2026-11-22
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "graph_sessions",
        sa.Column("session_id", sa.String(200), nullable=False),
        sa.Column("graph_name", sa.String(200), nullable=False),
        sa.Column("status", sa.String(32), nullable=False),
        sa.Column("current_node", sa.String(200), nullable=True),
        sa.Column("next_nodes", sa.Text(), nullable=False),
        sa.Column("interrupt", sa.Text(), nullable=True),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("session_id"),
    )
    op.create_index("ix_graph_sessions_status", "graph_sessions", ["status"], unique=False)
    op.create_table(
        "graph_versions",
        sa.Column("session_id", sa.String(200), nullable=False),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column("node", sa.String(200), nullable=False),
        sa.Column("delta", sa.Text(), nullable=False),
        sa.Column("snapshot", sa.Text(), nullable=True),
        sa.Column("next_nodes", sa.Text(), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["session_id"], ["graph_sessions.session_id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("session_id", "version"),
    )


def downgrade() -> None:
    op.drop_table("graph_versions")
    op.drop_index("ix_graph_sessions_status", table_name="graph_sessions")
    op.drop_table("graph_sessions")
