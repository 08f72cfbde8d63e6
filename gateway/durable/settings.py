"""The durable engine's settings (``DURABLE_*``) and the background runs' (``BACKGROUND_*``)."""

from __future__ import annotations

from itertools import accumulate, count, takewhile

from pydantic import Field
from pydantic_settings import BaseSettings, SettingsConfigDict


class DurableSettings(BaseSettings):
    """How this gateway process takes part in the durable engine (DBOS Transact)."""

    model_config = SettingsConfigDict(env_prefix="DURABLE_", env_file=".env", extra="ignore")

    #: Where the engine keeps its workflows and their steps (a SQLAlchemy URL, async or sync
    #: driver). Empty: on PostgreSQL the gateway's own database (schema ``dbos``); on SQLite a file
    #: of its own beside the gateway's (``gateway.sqlite3`` -> ``gateway-dbos.sqlite3``), since
    #: SQLite has one writer per file and the engine's polls would hold up the turns' commits;
    #: but a gateway file that still holds unfinished workflows of the engine (a deployment from
    #: before this setting) keeps them there until none is left.
    database_url: str = ""
    #: This process's executor id; empty: a new one per process. A fixed one must differ between
    #: gateways: a gateway restarted under the same id resumes its own unfinished workflows at once
    #: (without it, they are taken over once its liveness lease lapses).
    executor_id: str = Field(default="", max_length=100)
    #: The code version the workflows are recorded under; a workflow is resumed only by a gateway
    #: of the same version. Change it when a release changes what a workflow does step by step.
    application_version: str = Field(default="1", min_length=1, max_length=64)
    #: Each gateway's liveness lease: renewed every third of it; once it lapses (the process died)
    #: another gateway resumes the dead one's unfinished workflows.
    liveness_lease_s: float = Field(default=15.0, gt=0)
    #: How often each gateway looks for lapsed leases (and at start).
    recovery_interval_s: float = Field(default=5.0, gt=0)
    #: How often each gateway's engine polls the queue of background runs: a run waits up to this
    #: long for a worker even when one is free (half of it on average). Each poll is a few queries
    #: of the database, so a shorter one costs idle CPU on every gateway (DBOS's own loops poll
    #: once a second too: its queue list, its internal queue, on SQLite its notifications).
    queue_poll_s: float = Field(default=1.0, gt=0)


class BackgroundSettings(BaseSettings):
    """Background runs (``POST /v1/runs`` with ``background: true``)."""

    model_config = SettingsConfigDict(env_prefix="BACKGROUND_", env_file=".env", extra="ignore")

    #: Background runs running at once on each gateway (the queue's per-gateway concurrency).
    workers: int = Field(default=8, ge=1, le=1024)
    #: Background runs waiting for a worker, over all gateways; past that, 503 with
    #: ``Retry-After`` and nothing recorded.
    queue_max: int = Field(default=256, ge=1)
    #: How long a background run's step keeps retrying a domain it could not reach (the request
    #: was never delivered: connection refused, open circuit) before the step fails; 0: no wait.
    #: The window is per attempt of the step (a capability whose policy allows another attempt
    #: waits again); each try is bounded by the call's own timeout. Interactive turns never wait.
    undelivered_retry_s: float = Field(default=60.0, ge=0, le=86400)
    #: The first wait between those tries.
    undelivered_interval_s: float = Field(default=0.5, gt=0, le=3600)
    #: Each wait between those tries is this many times the one before.
    undelivered_backoff: float = Field(default=1.5, ge=1, le=10)

    def undelivered_attempts(self) -> int:
        """Tries of an undelivered step whose waits add up to at most the retry window."""
        waits = (self.undelivered_interval_s * self.undelivered_backoff**i for i in count())
        window = self.undelivered_retry_s
        return 1 + sum(1 for _ in takewhile(lambda spent: spent <= window, accumulate(waits)))
