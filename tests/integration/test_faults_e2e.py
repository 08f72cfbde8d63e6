"""Domain faults through the gateway (issue 4): a domain that dies after registering fails its
steps fast and plainly, the optional ones are skipped, and the run still answers."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from tests.conftest import Process, start_domain
from tests.integration.test_gateway_config import in_process, settings_for

pytestmark = pytest.mark.integration


async def test_a_dead_optional_domain_does_not_sink_the_answer(
    tmp_path: Path, domain_processes: dict[str, Process]
) -> None:
    notifier = start_domain("notifier", {"NOTIFIER_OUTBOX_PATH": str(tmp_path / "outbox.sqlite3")})
    domains = {**domain_processes, "notifier": notifier}
    async with in_process(settings_for(tmp_path, domains, domain_timeout_s=1.0)) as client:
        notifier.stop(sig="kill")
        started = time.perf_counter()
        trace = (
            await client.post("/v1/runs", json={"input_text": "manda a cotação da Vale no meu telegram"})
        ).json()
        elapsed = time.perf_counter() - started
        assert [s["capability"] for s in trace["steps"]] == ["get_stock_price", "send_telegram_message"]
        quote, notify = trace["steps"]
        assert quote["status"] == "completed"
        assert notify["status"] in ("failed", "skipped")
        assert trace["status"] == "completed"
        assert "VALE3" in trace["answer"]
        assert elapsed < 5  # fails fast: no hanging on the dead domain


async def test_a_dead_required_domain_fails_plainly_and_fast(
    tmp_path: Path, domain_processes: dict[str, Process]
) -> None:
    finance = start_domain("finance")
    domains = {**domain_processes, "finance": finance}
    async with in_process(settings_for(tmp_path, domains, domain_timeout_s=1.0)) as client:
        finance.stop(sig="kill")
        for _ in range(2):
            started = time.perf_counter()
            trace = (await client.post("/v1/runs", json={"input_text": "qual o preço da Apple?"})).json()
            assert time.perf_counter() - started < 5
            assert trace["status"] == "failed"
            assert trace["steps"][0]["status"] == "failed"
            assert "finance" in trace["answer"]
            assert "Traceback" not in str(trace) and "httpx" not in trace["answer"]
