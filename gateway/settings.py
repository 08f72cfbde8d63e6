"""The gateway's settings, validated at start: :class:`GatewaySettings` and its groups.

Each family of variables with a common prefix is a small settings class of its own
(:class:`DomainCallSettings` reads ``DOMAIN_*``, :class:`HttpServerSettings` ``HTTP_*``...),
composed into :class:`GatewaySettings` by ``default_factory``: the environment variables keep their
flat names (``DOMAIN_TIMEOUT_S``), code reads ``settings.domain.timeout_s``. The constructor also
takes the flat names (``GatewaySettings(domain_timeout_s=1)``), as the environment spells them.

Every field is documented by the docstring under it (pydantic's ``use_attribute_docstrings``):
``python -m cli.settings_table`` writes the environment table of docs/operations.md from them.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Literal

from pydantic import Field, SecretStr, field_validator, model_validator
from pydantic_settings import BaseSettings, SettingsConfigDict

from shared.settings import ServiceSettings


def _group_config(prefix: str) -> SettingsConfigDict:
    return SettingsConfigDict(
        env_prefix=prefix,
        env_file=".env",
        env_file_encoding="utf-8",
        extra="ignore",
        use_attribute_docstrings=True,
    )


class DomainCallSettings(BaseSettings):
    """How the gateway calls domains, and what it accepts of them (``DOMAIN_*``)."""

    model_config = _group_config("DOMAIN_")

    timeout_s: float = Field(default=10.0, gt=0)
    """Default timeout of a call to a domain (a capability's ``policy.timeout_s`` applies per call)."""
    timeout_max_s: float = Field(default=30.0, gt=0)
    """Ceiling on a manifest's ``policy.timeout_s`` (a manifest asking for more is clamped)."""
    attempts_max: int = Field(default=3, ge=1, le=10)
    """Ceiling on a manifest's ``policy.attempts`` (a manifest asking for more is clamped)."""
    confirm_capabilities: str = ""
    """Comma-separated ``domain.capability`` names that wait for the person's yes before they run
    (an approval gate), whatever their manifest's ``policy.confirm`` says."""
    allowed_hosts: str = ""
    """Comma-separated host names and CIDRs domains may live at; empty: any host but link-local and
    cloud metadata addresses (always refused)."""
    max_answer_bytes: int = Field(default=4_194_304, ge=1024)
    """No domain answer (``/execute``, ``/health``) is read past this many bytes."""
    manifest_max_bytes: int = Field(default=262_144, ge=1024)
    """No manifest is read past this many bytes."""
    secrets: SecretStr | None = None
    """JSON object of domain name -> secret: that domain's ``/execute`` calls are HMAC-signed (the
    domain sets the same value as ``DOMAIN_SIGNING_SECRET``)."""

    def approvals(self) -> frozenset[str]:
        """``DOMAIN_CONFIRM_CAPABILITIES`` as a set of ``domain.capability`` names."""
        return frozenset(n.strip() for n in self.confirm_capabilities.split(",") if n.strip())

    def secret_map(self) -> dict[str, bytes]:
        """``DOMAIN_SECRETS`` parsed; a malformed value fails the start, never signs with garbage."""
        if self.secrets is None or not self.secrets.get_secret_value().strip():
            return {}
        parsed = json.loads(self.secrets.get_secret_value())
        if not isinstance(parsed, dict) or not all(
            isinstance(k, str) and isinstance(v, str) and v for k, v in parsed.items()
        ):
            raise ValueError("DOMAIN_SECRETS must be a JSON object of domain name -> non-empty secret")
        return {name: secret.encode() for name, secret in parsed.items()}


class HttpServerSettings(BaseSettings):
    """The gateway's HTTP server (``HTTP_*``)."""

    model_config = _group_config("HTTP_")

    header_timeout_s: float = Field(default=10.0, gt=0)
    """A request's headers must be complete this long after the connection opened or the previous
    response went out; else the connection is closed."""
    body_timeout_s: float = Field(default=15.0, gt=0)
    """A request's body must be complete this long after its headers; else the connection is closed."""
    keep_alive_s: int = Field(default=5, ge=1)
    """An idle keep-alive connection is closed after this."""
    max_header_bytes: int = Field(default=65_536, ge=1024)
    """Larger request headers get 400."""
    graceful_shutdown_s: int = Field(default=20, ge=0)
    """On SIGTERM, running requests get this long to finish."""


class PolicySettings(BaseSettings):
    """The context policy's limits on one run, 0 = unlimited (``POLICY_*``): past one, the run
    stops as ``failed`` with the reason."""

    model_config = _group_config("POLICY_")

    max_steps: int = Field(default=64, ge=0)
    """Steps a plan may have."""
    max_domain_calls: int = Field(default=128, ge=0)
    """Domain calls a run may make, retries included."""
    max_payload_bytes: int = Field(default=1_048_576, ge=0)
    """Size of a step's parameters or of a domain's output."""


class BreakerSettings(BaseSettings):
    """The per-domain circuit breaker (``BREAKER_*``)."""

    model_config = _group_config("BREAKER_")

    threshold: int = Field(default=5, ge=1)
    """Consecutive transport failures that open a domain's circuit."""
    ttl_s: float = Field(default=30.0, gt=0)
    """How long an open circuit stays open."""


class RedisSettings(BaseSettings):
    """Redis, shared by the gateways of one deployment (``REDIS_*``)."""

    model_config = _group_config("REDIS_")

    url: str | None = None
    """Session locks, quotas and the registry shared between gateways;
    unset: each gateway keeps its own."""
    timeout_s: float = Field(default=2.0, gt=0)
    """Connect and read timeout of each Redis call: an unreachable Redis is a 503, never a hang."""

    @field_validator("url", mode="before")
    @classmethod
    def _blank_is_none(cls, value: object) -> object:
        return value or None


class SessionLockSettings(BaseSettings):
    """One turn at a time per session (``SESSION_LOCK_*``)."""

    model_config = _group_config("SESSION_LOCK_")

    wait_s: float = Field(default=30.0, ge=0)
    """How long a message waits for the previous message of its session before a 409."""
    lease_s: float = Field(default=10.0, gt=0)
    """A Redis session lock is a lease of this long, renewed every third of it while the turn runs:
    a gateway that dies frees its sessions within it."""


class TracingSettings(BaseSettings):
    """OpenTelemetry tracing (``OTEL_*``)."""

    model_config = _group_config("OTEL_")

    exporter_otlp_endpoint: str | None = None
    """An OTLP/HTTP collector's base URL (``/v1/traces`` is added): spans are exported there; unset,
    tracing is off and costs nothing."""
    service_name: str = "orchestrator-gateway"
    """The ``service.name`` of the gateway's spans."""

    @field_validator("exporter_otlp_endpoint", mode="before")
    @classmethod
    def _blank_is_none(cls, value: object) -> object:
        return value or None


#: Field name in GatewaySettings -> the group class read into it (env prefix in its config).
GROUPS: dict[str, type[BaseSettings]] = {
    "domain": DomainCallSettings,
    "http": HttpServerSettings,
    "policy": PolicySettings,
    "breaker": BreakerSettings,
    "redis": RedisSettings,
    "session_lock": SessionLockSettings,
    "otel": TracingSettings,
}


class GatewaySettings(ServiceSettings):
    """Everything the gateway reads from its environment; the families with a common prefix are
    groups (see the module's docstring)."""

    model_config = SettingsConfigDict(
        env_file=".env", env_file_encoding="utf-8", extra="ignore", use_attribute_docstrings=True
    )

    gateway_host: str = "127.0.0.1"
    """The address the gateway listens on."""
    gateway_port: int = Field(default=8000, ge=1, le=65535)
    """The port the gateway listens on."""
    database_url: str = "sqlite+aiosqlite:///var/orchestrator.sqlite3"
    """Sessions, runs, keys and registrations: a SQLite file, or ``postgresql+asyncpg://...``."""
    api_keys: str = ""
    """Comma-separated bearer keys, each its own tenant (role ``user``); with none here and none in
    the ``api_keys`` table, /v1/* is open (local use) and every caller is one tenant."""
    admin_token: SecretStr | None = None
    """The ``admin`` tenant's key, with the admin role (domain registration, ``/v1/admin/keys``)."""
    auth_cache_s: float = Field(default=5.0, ge=0)
    """How long a key found in the ``api_keys`` table is trusted without reading it again: a key
    revoked by another gateway or the CLI stops working within this (0: read on every request)."""
    max_body_bytes: int = Field(default=1_048_576, ge=1024)
    """Larger request bodies get 413."""
    confidence_threshold: float = Field(default=0.7, ge=0.0, le=1.0)
    """The orchestrator's confidence gate, on the intent adapter's calibrated scale (probability
    that the goal is right); bench/results/intent.md shows how the default was chosen."""
    bootstrap_file: Path = Path("domains.bootstrap.json")
    """The domains loaded at start (``DOMAIN_URL_<NAME>`` overrides one's URL)."""
    registry_refresh_s: float = Field(default=10.0, gt=0)
    """Every domain's manifest and health are re-checked this often (down ones every second)."""
    model_name: str = "orchestrator"
    """The model id the OpenAI-compatible channels answer as."""
    run_deadline_s: float = Field(default=60.0, gt=0)
    """A plan's deadline: past it the run ends as ``timeout``."""
    max_replans: int = Field(default=1, ge=0, le=10)
    """Recoverable failures are replanned at most this often, then the failure is definitive."""
    double_texting: Literal["queue", "reject"] = "queue"
    """A second message to a session while its turn runs: ``queue`` waits for the turn (up to
    ``SESSION_LOCK_WAIT_S``, then 409), ``reject`` answers 409 at once."""
    telegram_webhook_secret: SecretStr | None = None
    """Enables the Telegram webhook channel; Telegram echoes it in a header on every update."""
    metrics_enabled: bool = True
    """``false``: no ``/metrics`` and none of the request and turn metrics."""
    log_format: Literal["json", "text"] = "json"
    """``json``: one JSON object per log line (run_id, session_id, trace_id...); ``text``: readable."""
    migrate_on_start: bool = True
    """Apply the database migrations at start."""
    ready_timeout_s: float = Field(default=2.0, gt=0)
    """Each ``/ready`` check (database, Redis) counts as down after this long."""
    max_message_chars: int = Field(default=32_000, ge=1)
    """The longest text one chat message may carry, in characters (longer: 400)."""
    rate_limit_per_min: int = Field(default=0, ge=0)
    """Per-key quota of ``/v1`` requests per minute, a sliding window (0 = off; over it: 429).
    With ``REDIS_URL`` every gateway shares the counters; without, each process counts its own."""
    max_concurrent_runs_per_key: int = Field(default=0, ge=0)
    """Per-key quota of turns running at once (0 = off; over it: 429); a background run counts
    from its 202 until it ends."""
    quota_slot_lease_s: float = Field(default=30.0, gt=0)
    """A run's slot in Redis is a lease of this long, renewed while the run lasts: the slots of a
    gateway that dies free themselves within it."""

    domain: DomainCallSettings = Field(default_factory=DomainCallSettings)
    http: HttpServerSettings = Field(default_factory=HttpServerSettings)
    policy: PolicySettings = Field(default_factory=PolicySettings)
    breaker: BreakerSettings = Field(default_factory=BreakerSettings)
    redis: RedisSettings = Field(default_factory=RedisSettings)
    session_lock: SessionLockSettings = Field(default_factory=SessionLockSettings)
    otel: TracingSettings = Field(default_factory=TracingSettings)

    @model_validator(mode="before")
    @classmethod
    def _flat_names(cls, values: Any) -> Any:
        """``GatewaySettings(domain_timeout_s=1)``: a group's value given by its flat (environment)
        name goes to that group, which still reads the rest of its values from the environment."""
        if not isinstance(values, dict):
            return values
        values = dict(values)
        for field, group in GROUPS.items():
            prefix = str(group.model_config.get("env_prefix", "")).lower()
            given = {
                key.removeprefix(prefix): values.pop(key)
                for key in [k for k in values if isinstance(k, str) and k.lower().startswith(prefix)]
                if key.removeprefix(prefix) in group.model_fields
            }
            if given and field not in values:
                values[field] = group(**given)
        return values

    def lock_wait_s(self) -> float:
        """How long a message waits for its session's running turn (the ``DOUBLE_TEXTING`` policy)."""
        return 0.0 if self.double_texting == "reject" else self.session_lock.wait_s

    def secret_values(self) -> list[str]:
        """Every secret this configuration holds, for the log formatter to mask."""
        found = [k.strip() for k in self.api_keys.split(",") if k.strip()]
        for secret in (self.admin_token, self.telegram_webhook_secret):
            if secret is not None:
                found.append(secret.get_secret_value())
        found.extend(secret.decode() for secret in self.domain.secret_map().values())
        return found
