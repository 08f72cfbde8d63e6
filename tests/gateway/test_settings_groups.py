"""The gateway's settings in groups (gateway/settings.py): every environment variable keeps its
flat name, and docs/operations.md's table of them is the one the settings classes write."""

from __future__ import annotations

import pytest

from gateway import settings_table
from gateway.settings import DomainCallSettings, GatewaySettings, RedisSettings

#: The variables the gateway read before its settings were grouped: none may change its name.
NAMES_BEFORE_GROUPING = {
    "GATEWAY_HOST", "GATEWAY_PORT", "DATABASE_URL", "REDIS_URL", "API_KEYS", "ADMIN_TOKEN",
    "AUTH_CACHE_S", "MAX_BODY_BYTES", "CONFIDENCE_THRESHOLD", "BOOTSTRAP_FILE", "DOMAIN_TIMEOUT_S",
    "DOMAIN_TIMEOUT_MAX_S", "DOMAIN_ATTEMPTS_MAX", "DOMAIN_CONFIRM_CAPABILITIES",
    "DOMAIN_ALLOWED_HOSTS", "DOMAIN_MAX_ANSWER_BYTES", "DOMAIN_MANIFEST_MAX_BYTES", "DOMAIN_SECRETS",
    "REGISTRY_REFRESH_S", "MODEL_NAME", "RUN_DEADLINE_S", "MAX_REPLANS", "POLICY_MAX_STEPS",
    "POLICY_MAX_DOMAIN_CALLS", "POLICY_MAX_PAYLOAD_BYTES", "BREAKER_THRESHOLD", "BREAKER_TTL_S",
    "SESSION_LOCK_WAIT_S", "DOUBLE_TEXTING", "TELEGRAM_WEBHOOK_SECRET", "METRICS_ENABLED",
    "LOG_FORMAT", "OTEL_EXPORTER_OTLP_ENDPOINT", "OTEL_SERVICE_NAME", "MIGRATE_ON_START",
    "SESSION_LOCK_LEASE_S", "REDIS_TIMEOUT_S", "READY_TIMEOUT_S", "MAX_MESSAGE_CHARS",
    "HTTP_HEADER_TIMEOUT_S", "HTTP_BODY_TIMEOUT_S", "HTTP_KEEP_ALIVE_S", "HTTP_MAX_HEADER_BYTES",
    "HTTP_GRACEFUL_SHUTDOWN_S", "RATE_LIMIT_PER_MIN", "MAX_CONCURRENT_RUNS_PER_KEY",
    "QUOTA_SLOT_LEASE_S", "LOG_LEVEL",
}  # fmt: skip


def test_every_variable_keeps_its_name() -> None:
    names = {name for row in settings_table.rows(GatewaySettings) for name in row.names}
    assert names >= NAMES_BEFORE_GROUPING, sorted(NAMES_BEFORE_GROUPING - names)


def test_a_grouped_value_is_read_from_its_flat_variable(monkeypatch: pytest.MonkeyPatch) -> None:
    for name, value in {
        "DOMAIN_TIMEOUT_S": "3.5",
        "DOMAIN_SECRETS": '{"weather": "s3"}',
        "HTTP_KEEP_ALIVE_S": "9",
        "POLICY_MAX_STEPS": "7",
        "BREAKER_TTL_S": "4",
        "REDIS_URL": "redis://127.0.0.1:6379/3",
        "SESSION_LOCK_WAIT_S": "0",
        "OTEL_SERVICE_NAME": "gw-2",
        "RUN_DEADLINE_S": "12",
    }.items():
        monkeypatch.setenv(name, value)
    settings = GatewaySettings(_env_file=None)
    assert settings.domain.timeout_s == 3.5
    assert settings.domain.secret_map() == {"weather": b"s3"}
    assert settings.http.keep_alive_s == 9
    assert settings.policy.max_steps == 7
    assert settings.breaker.ttl_s == 4
    assert settings.redis.url == "redis://127.0.0.1:6379/3"
    assert settings.session_lock.wait_s == 0 and settings.lock_wait_s() == 0
    assert settings.otel.service_name == "gw-2"
    assert settings.run_deadline_s == 12
    assert "s3" in settings.secret_values()


def test_flat_names_given_in_code_go_to_their_group(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DOMAIN_ATTEMPTS_MAX", "2")
    settings = GatewaySettings(domain_timeout_s=1.5, redis_url="", session_lock_wait_s=0)
    # the group still reads what was not given from the environment
    assert (settings.domain.timeout_s, settings.domain.attempts_max) == (1.5, 2)
    assert settings.redis.url is None  # blank is unset, as in the environment
    assert settings.session_lock.wait_s == 0
    explicit = GatewaySettings(redis=RedisSettings(url="redis://h:1"), redis_url="redis://other:2")
    assert explicit.redis.url == "redis://h:1"  # a group given whole wins


def test_bad_values_fail_in_their_group(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HTTP_KEEP_ALIVE_S", "0")
    with pytest.raises(ValueError, match="keep_alive_s"):
        GatewaySettings(_env_file=None)
    with pytest.raises(ValueError, match="DOMAIN_SECRETS"):
        DomainCallSettings.model_validate({"secrets": '["not", "an", "object"]'}).secret_map()


def test_the_docs_table_is_the_one_the_settings_write() -> None:
    assert settings_table.main(["--check"]) == 0, "run: python -m cli.settings_table"
    doc = settings_table.DOC.read_text(encoding="utf-8")
    assert "| `DOMAIN_TIMEOUT_S` | `10` |" in doc


def test_a_stale_table_is_found_and_rewritten() -> None:
    doc = settings_table.DOC.read_text(encoding="utf-8")
    stale = doc.replace("| `DOMAIN_TIMEOUT_S` | `10` |", "| `DOMAIN_TIMEOUT_S` | `99` |")
    assert stale != doc
    assert settings_table.with_table(stale) == doc
