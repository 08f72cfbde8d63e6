"""Durable execution for the gateway on DBOS Transact: the engine's launch on the gateway's own
database (:mod:`.engine`), one liveness lease per gateway and the takeover of a dead one's
workflows (:mod:`.liveness`), plan steps as checkpointed steps (:mod:`.steps`), and the
settings (:mod:`.settings`). docs/operations.md, "Background runs", tells the operator's side."""

from gateway.durable.engine import DurableEngine, EngineUnavailable, current_engine, launch_engine
from gateway.durable.settings import BackgroundSettings, DurableSettings
from gateway.durable.steps import durable_availability, durable_steps

__all__ = [
    "BackgroundSettings",
    "DurableEngine",
    "DurableSettings",
    "EngineUnavailable",
    "current_engine",
    "durable_availability",
    "durable_steps",
    "launch_engine",
]
