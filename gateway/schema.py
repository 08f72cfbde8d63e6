"""Every table the platform's database holds, for Alembic: the gateway's and the graph engine's."""

from __future__ import annotations

from execution.graph.checkpoint import metadata as graph_metadata
from gateway import storage  # noqa: F401  (registers the gateway's tables on Base.metadata)
from shared.db import Base

target_metadata = [Base.metadata, graph_metadata]
