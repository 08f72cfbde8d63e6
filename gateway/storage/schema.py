"""Every table the gateway's database holds, for Alembic: the gateway's and the graph engine's.

All services declare their tables on one base (:class:`shared.db.Base`), so its metadata may also
hold another service's tables (the research domain's, when both are imported in one process):
the migrations compare against a copy holding only this database's tables.
"""

from __future__ import annotations

from typing import cast

from sqlalchemy import MetaData, Table

from gateway.storage.history import ConversationPointRow
from gateway.storage.liveness import GatewayLivenessRow
from gateway.storage.principals import ApiKeyRow
from gateway.storage.registrations import DomainRegistrationRow
from gateway.storage.standing import StandingFiringRow, StandingRequestRow
from gateway.storage.tables import ApprovalRow, RunRow, SessionRow
from gateway.storage.write_probe import WriteProbeRow
from graph.checkpoint import GRAPH_TABLES
from shared.db import NAMING

GATEWAY_TABLES: tuple[Table, ...] = (
    cast(Table, SessionRow.__table__),
    cast(Table, RunRow.__table__),
    cast(Table, DomainRegistrationRow.__table__),
    cast(Table, ApiKeyRow.__table__),
    cast(Table, ConversationPointRow.__table__),
    cast(Table, WriteProbeRow.__table__),
    cast(Table, ApprovalRow.__table__),
    cast(Table, StandingRequestRow.__table__),
    cast(Table, StandingFiringRow.__table__),
    cast(Table, GatewayLivenessRow.__table__),
)

target_metadata = MetaData(naming_convention=NAMING)
for _table in (*GATEWAY_TABLES, *GRAPH_TABLES):
    _table.to_metadata(target_metadata)
