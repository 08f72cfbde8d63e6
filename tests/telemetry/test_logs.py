"""Structured logs from real processes: one JSON object per line with the event's fields, and no
secret ever printed (API key, admin token, Telegram bot token)."""

from __future__ import annotations

import json
import time

import httpx

from tests.telemetry.conftest import ADMIN_TOKEN, API_KEY, TELEGRAM_TOKEN, ObservedPlatform


def _json_lines(text: str) -> list[dict]:
    return [json.loads(line) for line in text.splitlines() if line.startswith("{")]


def test_secrets_are_never_printed(observed: ObservedPlatform) -> None:
    for i, text in enumerate(["manda a cotação da Vale no meu telegram", "qual o preço da Apple?"]):
        response = httpx.post(
            f"{observed.gateway.url}/v1/runs",
            json={"input_text": text, "session_id": f"logs-secret-{i}"},
            headers=observed.auth,
            timeout=60,
        )
        assert response.status_code == 200
    # a refused key is logged by nobody either
    httpx.get(f"{observed.gateway.url}/metrics", headers={"Authorization": f"Bearer {API_KEY}x"}, timeout=10)
    time.sleep(0.5)  # let the processes write
    output = observed.output()
    assert output, "the processes logged nothing at DEBUG"
    for secret in (API_KEY, ADMIN_TOKEN, TELEGRAM_TOKEN, TELEGRAM_TOKEN.split(":")[1]):
        assert secret not in output


def test_a_turn_logs_json_lines_with_its_fields(observed: ObservedPlatform) -> None:
    session = "logs-fields"
    run = httpx.post(
        f"{observed.gateway.url}/v1/runs",
        json={"input_text": "qual o preço da Apple?", "session_id": session},
        headers=observed.auth,
        timeout=60,
    ).json()
    time.sleep(0.5)
    lines = _json_lines(observed.logs["gateway"].read_text())
    turn = next(line for line in lines if line.get("event") == "turn" and line.get("run_id") == run["run_id"])
    assert turn["session_id"] == session
    assert turn["status"] == "completed" and turn["duration_ms"] > 0
    assert len(turn["trace_id"]) == 32  # tracing is on: the line names its trace
    step = next(line for line in lines if line.get("event") == "step" and line.get("run_id") == run["run_id"])
    assert step["domain"] == run["steps"][0]["domain"]
    assert step["capability"] == run["steps"][0]["capability"]
    assert step["status"] == "completed" and "duration_ms" in step
    for line in lines:
        assert {"ts", "level", "logger", "message"} <= line.keys()
