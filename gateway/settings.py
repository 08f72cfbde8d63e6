"""The gateway's one settings class, validated at start."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Literal

from pydantic import Field, SecretStr, field_validator

from shared.settings import ServiceSettings


class GatewaySettings(ServiceSettings):
    gateway_host: str = "127.0.0.1"
    gateway_port: int = Field(default=8000, ge=1, le=65535)
    database_url: str = "sqlite+aiosqlite:///var/orchestrator.sqlite3"
    redis_url: str | None = None
    #: Comma-separated bearer keys, each its own tenant (role ``user``); with none here and none
    #: in the ``api_keys`` table, /v1/* is open (local use) and every caller is one tenant.
    api_keys: str = ""
    #: The ``admin`` tenant's key, with the admin role (domain registration, ``/v1/admin/keys``).
    admin_token: SecretStr | None = None
    #: How long a key found in the ``api_keys`` table is trusted without reading it again: a key
    #: revoked by another gateway or the CLI stops working within this (0: read on every request).
    auth_cache_s: float = Field(default=5.0, ge=0)
    max_body_bytes: int = Field(default=1_048_576, ge=1024)
    #: The orchestrator's confidence gate, on the intent adapter's calibrated scale (probability that
    #: the goal is right); bench/results/intent.md shows how the default was chosen.
    confidence_threshold: float = Field(default=0.7, ge=0.0, le=1.0)
    bootstrap_file: Path = Path("domains.bootstrap.json")
    domain_timeout_s: float = Field(default=10.0, gt=0)
    #: Operator ceilings on a manifest's execution policy (a manifest asking for more is clamped).
    domain_timeout_max_s: float = Field(default=30.0, gt=0)
    domain_attempts_max: int = Field(default=3, ge=1, le=10)
    #: Comma-separated ``domain.capability`` names that wait for the person's yes before they run
    #: (an approval gate), whatever their manifest's ``policy.confirm`` says.
    domain_confirm_capabilities: str = ""
    #: Comma-separated host names and CIDRs domains may live at; empty: any host but link-local
    #: and cloud metadata addresses (always refused).
    domain_allowed_hosts: str = ""
    #: No domain answer (``/execute``, ``/health``) is read past this; a manifest past the other.
    domain_max_answer_bytes: int = Field(default=4_194_304, ge=1024)
    domain_manifest_max_bytes: int = Field(default=262_144, ge=1024)
    #: JSON object of domain name -> secret: that domain's ``/execute`` calls are HMAC-signed
    #: (the domain sets the same value as ``DOMAIN_SIGNING_SECRET``).
    domain_secrets: SecretStr | None = None
    #: Every domain's manifest and health are re-checked this often (down ones more often).
    registry_refresh_s: float = Field(default=10.0, gt=0)
    model_name: str = "orchestrator"
    #: Execution policy: a plan's deadline, replans after recoverable failures, and the context
    #: policy's limits (0 = unlimited).
    run_deadline_s: float = Field(default=60.0, gt=0)
    max_replans: int = Field(default=1, ge=0, le=10)
    policy_max_steps: int = Field(default=64, ge=0)
    policy_max_domain_calls: int = Field(default=128, ge=0)
    policy_max_payload_bytes: int = Field(default=1_048_576, ge=0)
    #: Consecutive transport failures that open a domain's circuit, and how long it stays open.
    breaker_threshold: int = Field(default=5, ge=1)
    breaker_ttl_s: float = Field(default=30.0, gt=0)
    #: How long a message waits for the previous message of its session before a 409.
    session_lock_wait_s: float = Field(default=30.0, ge=0)
    #: A second message to a session while its turn runs: ``queue`` waits for the turn (up to
    #: ``SESSION_LOCK_WAIT_S``, then 409), ``reject`` answers 409 at once.
    double_texting: Literal["queue", "reject"] = "queue"
    #: Enables the Telegram webhook channel; Telegram echoes it in a header on every update.
    telegram_webhook_secret: SecretStr | None = None
    #: ``false``: no ``/metrics`` and none of the request and turn metrics (benchmarks compare).
    metrics_enabled: bool = True
    #: ``json``: one JSON object per log line (run_id, session_id, trace_id...); ``text``: readable.
    log_format: Literal["json", "text"] = "json"
    #: An OTLP/HTTP collector's base URL (``/v1/traces`` is added): spans are exported there;
    #: unset (and no ``OTEL_EXPORTER_OTLP_ENDPOINT``), tracing is off and costs nothing.
    otel_exporter_otlp_endpoint: str | None = None
    otel_service_name: str = "orchestrator-gateway"
    #: Apply Alembic migrations at start (the default); tests of the migration itself turn it off.
    migrate_on_start: bool = True
    #: A Redis session lock is a lease of this long, renewed every third of it while the turn
    #: runs: a gateway that dies frees its sessions within it.
    session_lock_lease_s: float = Field(default=10.0, gt=0)
    #: Connect and read timeout of each Redis call: an unreachable Redis is a 503, never a hang.
    redis_timeout_s: float = Field(default=2.0, gt=0)
    #: Each ``/ready`` check (database, Redis) counts as down after this long.
    ready_timeout_s: float = Field(default=2.0, gt=0)
    #: The longest text one chat message may carry, in characters (longer: 400).
    max_message_chars: int = Field(default=32_000, ge=1)
    #: HTTP server: a request's headers must arrive within this; an idle keep-alive connection
    #: is closed after the next; headers past the size are refused; a stop waits this long for
    #: running requests.
    http_header_timeout_s: float = Field(default=10.0, gt=0)
    #: ...and its body within this once the headers are in (slow-body connections are closed).
    http_body_timeout_s: float = Field(default=15.0, gt=0)
    http_keep_alive_s: int = Field(default=5, ge=1)
    http_max_header_bytes: int = Field(default=65_536, ge=1024)
    http_graceful_shutdown_s: int = Field(default=20, ge=0)
    #: Per-key quotas (0 = off): ``/v1`` requests per minute (a sliding window), and turns running
    #: at once (a background run counts from its 202 until it ends). With ``REDIS_URL`` every
    #: gateway shares the counters; without, each process counts its own. Over either: 429.
    rate_limit_per_min: int = Field(default=0, ge=0)
    max_concurrent_runs_per_key: int = Field(default=0, ge=0)
    #: A run's slot in Redis is a lease of this long, renewed while the run lasts: the slots of a
    #: gateway that dies free themselves within it.
    quota_slot_lease_s: float = Field(default=30.0, gt=0)
    #: Background runs (``POST /v1/runs`` with ``background``): this many run at once, this many
    #: more wait their turn; past that, 503 with ``Retry-After`` and nothing recorded.
    background_workers: int = Field(default=8, ge=1, le=1024)
    background_queue_max: int = Field(default=256, ge=1)
    #: A background run's claim (with ``REDIS_URL``) is a lease of this long, renewed every third
    #: of it by the gateway holding the run; once a dead gateway's claims lapse, another gateway's
    #: sweeper (every ``BACKGROUND_SWEEP_S``) takes its unfinished runs over. Runs older than the
    #: last setting are recorded ``failed`` instead of being run again.
    background_claim_lease_s: float = Field(default=30.0, gt=0)
    background_sweep_s: float = Field(default=5.0, gt=0)
    background_takeover_max_age_s: float = Field(default=3600.0, gt=0)

    @field_validator("redis_url", "otel_exporter_otlp_endpoint", mode="before")
    @classmethod
    def _blank_is_none(cls, value: object) -> object:
        return value or None

    def lock_wait_s(self) -> float:
        """How long a message waits for its session's running turn (the ``DOUBLE_TEXTING`` policy)."""
        return 0.0 if self.double_texting == "reject" else self.session_lock_wait_s

    def secret_values(self) -> list[str]:
        """Every secret this configuration holds, for the log formatter to mask."""
        found = [k.strip() for k in self.api_keys.split(",") if k.strip()]
        for secret in (self.admin_token, self.telegram_webhook_secret):
            if secret is not None:
                found.append(secret.get_secret_value())
        found.extend(secret.decode() for secret in self.domain_secret_map().values())
        return found

    def confirm_capabilities(self) -> frozenset[str]:
        return frozenset(n.strip() for n in self.domain_confirm_capabilities.split(",") if n.strip())

    def domain_secret_map(self) -> dict[str, bytes]:
        """``DOMAIN_SECRETS`` parsed; a malformed value fails the start, never signs with garbage."""
        if self.domain_secrets is None or not self.domain_secrets.get_secret_value().strip():
            return {}
        parsed = json.loads(self.domain_secrets.get_secret_value())
        if not isinstance(parsed, dict) or not all(
            isinstance(k, str) and isinstance(v, str) and v for k, v in parsed.items()
        ):
            raise ValueError("DOMAIN_SECRETS must be a JSON object of domain name -> non-empty secret")
        return {name: secret.encode() for name, secret in parsed.items()}
