"""Every table the platform's database holds, in one ``MetaData`` for Alembic."""

from __future__ import annotations

from gateway import storage  # noqa: F401  (registers the gateway's tables on Base.metadata)
from shared.db import Base

target_metadata = Base.metadata
