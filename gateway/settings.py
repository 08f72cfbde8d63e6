"""The gateway's one settings class, validated at start."""

from __future__ import annotations

from pathlib import Path

from pydantic import Field, SecretStr, field_validator

from shared.settings import ServiceSettings


class GatewaySettings(ServiceSettings):
    gateway_host: str = "127.0.0.1"
    gateway_port: int = Field(default=8000, ge=1, le=65535)
    database_url: str = "sqlite+aiosqlite:///var/orchestrator.sqlite3"
    redis_url: str | None = None
    #: Comma-separated bearer keys; when empty, /v1/* is open (local use).
    api_keys: str = ""
    #: Needed for POST/DELETE /v1/domains; when unset, runtime registration is disabled.
    admin_token: SecretStr | None = None
    max_body_bytes: int = Field(default=1_048_576, ge=1024)
    #: The orchestrator's confidence gate, on the intent adapter's calibrated scale (probability that
    #: the goal is right); bench/results/intent.md shows how the default was chosen.
    confidence_threshold: float = Field(default=0.7, ge=0.0, le=1.0)
    bootstrap_file: Path = Path("domains.bootstrap.json")
    domain_timeout_s: float = Field(default=10.0, gt=0)
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
    #: Enables the Telegram webhook channel; Telegram echoes it in a header on every update.
    telegram_webhook_secret: SecretStr | None = None
    #: Apply Alembic migrations at start (the default); tests of the migration itself turn it off.
    migrate_on_start: bool = True

    @field_validator("redis_url", mode="before")
    @classmethod
    def _blank_is_none(cls, value: object) -> object:
        return value or None

    def api_key_set(self) -> frozenset[str]:
        keys = {k.strip() for k in self.api_keys.split(",") if k.strip()}
        if self.admin_token is not None:
            keys.add(self.admin_token.get_secret_value())
        return frozenset(keys) if self.api_keys.strip() else frozenset()
