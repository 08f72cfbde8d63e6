"""The log formatters: JSON fields, the readable variant, and secrets masked wherever they appear."""

from __future__ import annotations

import json
import logging

import pytest

from shared.telemetry.logs import JsonFormatter, TextFormatter, secrets_from_env, setup_logging


def _record(message: str, *args: object, **fields: object) -> logging.LogRecord:
    record = logging.LogRecord("gateway.turns", logging.INFO, __file__, 1, message, args, None)
    for name, value in fields.items():
        setattr(record, name, value)
    return record


def test_secret_named_variables_are_masked_in_messages_arguments_and_fields() -> None:
    env = {
        "API_KEYS": "sk-first-key-123,sk-second-key-456",
        "TELEGRAM_BOT_TOKEN": "98765:bot-token-abcdef",
        "LLM_API_KEY": "llm-key-000000",
        "DATABASE_URL": "sqlite:///not-a-secret.db",
        "SHORT_TOKEN": "abc",  # too short to mask without masking ordinary words
    }
    secrets = secrets_from_env(env)
    assert sorted(secrets) == sorted(
        ["sk-first-key-123", "sk-second-key-456", "98765:bot-token-abcdef", "llm-key-000000"]
    )
    formatter = JsonFormatter(secrets)
    record = _record(
        "POST https://api.telegram.org/bot%s/sendMessage with %s",
        "98765:bot-token-abcdef",
        {"authorization": "Bearer sk-second-key-456"},
        capability="llm-key-000000",
    )
    line = formatter.format(record)
    for secret in secrets:
        assert secret not in line
    assert json.loads(line)["message"].startswith("POST https://api.telegram.org/bot***/sendMessage")


def test_bearer_credentials_are_masked_even_when_unknown() -> None:
    line = JsonFormatter().format(_record("header Authorization: Bearer sk-never-configured"))
    assert "sk-never-configured" not in line and "Bearer ***" in line


def test_text_format_is_readable_with_the_fields_after_the_message() -> None:
    line = TextFormatter().format(_record("turn completed", run_id="run-1", status="completed"))
    assert line.endswith("INFO gateway.turns: turn completed run_id=run-1 status=completed")


def test_set_up_logging_writes_json_lines_with_secrets_masked_and_tracebacks_kept(
    capfd: pytest.CaptureFixture[str],
) -> None:
    root = logging.getLogger()
    handlers, level = list(root.handlers), root.level
    try:
        setup_logging("INFO", "json", secrets=["sk-configured-secret"])
        log = logging.getLogger("gateway.turns")
        arguments = {"key": "sk-configured-secret"}
        log.info("turn of %s", arguments, extra={"run_id": "run-1"})
        try:
            raise ValueError("Bearer sk-in-a-traceback")
        except ValueError:
            log.exception("turn failed")
    finally:
        for handler in list(root.handlers):
            root.removeHandler(handler)
        for handler in handlers:
            root.addHandler(handler)
        root.setLevel(level)
    lines = [json.loads(line) for line in capfd.readouterr().err.splitlines() if line.startswith("{")]
    assert [(line["message"], line.get("run_id")) for line in lines] == [
        ("turn of {'key': '***'}", "run-1"),
        ("turn failed", None),
    ]
    assert "ValueError: Bearer ***" in lines[1]["exception"]
    assert "sk-in-a-traceback" not in lines[1]["exception"]
