"""Logging set-up for every service: one JSON object per line (``LOG_FORMAT=json``, the default)
or a readable line (``LOG_FORMAT=text``), with the current trace id, and secrets masked.

Events carry their fields as ``extra``: ``log.info("turn finished", extra=event_fields(run_id=...))``.

>>> import json, logging
>>> formatter = JsonFormatter(secrets=["s3cret-value"])
>>> record = logging.LogRecord("x", logging.INFO, "f", 1, "key is %s", ("s3cret-value",), None)
>>> record.run_id = "run-1"
>>> line = json.loads(formatter.format(record))
>>> line["message"], line["run_id"]
('key is ***', 'run-1')
"""

from __future__ import annotations

import json
import logging
import os
import re
from collections.abc import Iterable, Mapping
from datetime import UTC, datetime
from typing import Any

from shared.telemetry.tracing import current_trace_id

#: The event fields a log line may carry (``extra=``), in the order they are written.
EVENT_FIELDS = (
    "event",
    "run_id",
    "session_id",
    "trace_id",
    "domain",
    "capability",
    "status",
    "duration_ms",
    "attempts",
    "steps",
    "domain_wait_ms",
)
#: Environment variables whose values are secrets by their name.
_SECRET_NAME = re.compile(r"(TOKEN|SECRET|PASSWORD|API_KEYS?|PRIVATE_KEY|CREDENTIALS?)$", re.IGNORECASE)
#: Values this short are not masked: too likely to appear by chance in ordinary text.
_MIN_SECRET_LENGTH = 6
#: a backslash ends the token too: masking runs on encoded JSON, where it starts an escape
_BEARER = re.compile(r"(?i)(bearer\s+)[^\s\"',\\]+")
_MASK = "***"


def secrets_from_env(environ: Mapping[str, str] | None = None) -> list[str]:
    """The values of secret-named variables (``API_KEYS`` split on commas)."""
    env = os.environ if environ is None else environ
    found: list[str] = []
    for name, value in env.items():
        if _SECRET_NAME.search(name):
            found.extend(v.strip() for v in value.split(",") if len(v.strip()) >= _MIN_SECRET_LENGTH)
    return found


class _Redactor:
    def __init__(self, secrets: Iterable[str]):
        # longest first: a secret that contains another is masked whole
        self.secrets = sorted({s for s in secrets if len(s) >= _MIN_SECRET_LENGTH}, key=len, reverse=True)

    def __call__(self, text: str) -> str:
        for secret in self.secrets:
            if secret in text:
                text = text.replace(secret, _MASK)
        return _BEARER.sub(r"\1" + _MASK, text) if "earer" in text else text


def event_fields(record: logging.LogRecord) -> dict[str, Any]:
    fields = {name: getattr(record, name) for name in EVENT_FIELDS if getattr(record, name, None) is not None}
    if "trace_id" not in fields:
        trace_id = current_trace_id()
        if trace_id is not None:
            fields["trace_id"] = trace_id
    return fields


class JsonFormatter(logging.Formatter):
    def __init__(self, secrets: Iterable[str] = ()):
        super().__init__()
        self.redact = _Redactor(secrets)

    def format(self, record: logging.LogRecord) -> str:
        line: dict[str, Any] = {
            "ts": datetime.fromtimestamp(record.created, UTC).isoformat(timespec="milliseconds"),
            "level": record.levelname,
            "logger": record.name,
            "message": record.getMessage(),
            **event_fields(record),
        }
        if record.exc_info:
            line["exception"] = self.formatException(record.exc_info)
        return self.redact(json.dumps(line, ensure_ascii=False, default=str))


class TextFormatter(logging.Formatter):
    def __init__(self, secrets: Iterable[str] = ()):
        super().__init__("%(asctime)s %(levelname)s %(name)s: %(message)s")
        self.redact = _Redactor(secrets)

    def format(self, record: logging.LogRecord) -> str:
        text = super().format(record)
        fields = event_fields(record)
        if fields:
            text += " " + " ".join(f"{k}={v}" for k, v in fields.items())
        return self.redact(text)


def setup_logging(level: str = "INFO", log_format: str | None = None, secrets: Iterable[str] = ()) -> None:
    """Configure the root logger once for the process: ``log_format`` is ``json`` or ``text``
    (default: ``LOG_FORMAT``, else json); ``secrets`` (plus the secret-named environment
    variables) are masked in every line. Lines are written by the logging thread: a
    ``QueueHandler`` to a listener thread was measured (bench/results/gateway_turn.md, perf2
    round 2) to spare the caller a few microseconds a line and cost the process more (a thread
    wake-up per line)."""
    chosen = (log_format or os.environ.get("LOG_FORMAT") or "json").lower()
    masked = [*secrets, *secrets_from_env()]
    handler = logging.StreamHandler()
    handler.setFormatter(TextFormatter(masked) if chosen == "text" else JsonFormatter(masked))
    root = logging.getLogger()
    for old in list(root.handlers):
        root.removeHandler(old)
    root.addHandler(handler)
    root.setLevel(level.upper())
    # uvicorn's loggers have handlers of their own: route them through ours instead
    for name in ("uvicorn", "uvicorn.error", "uvicorn.access"):
        logging.getLogger(name).handlers = []
        logging.getLogger(name).propagate = True
