"""The finance domain as a real process: ``python -m domains.finance --port P`` over HTTP."""

from __future__ import annotations

import httpx
import pytest

from tests.conftest import start_domain


@pytest.mark.integration
def test_finance_runs_as_its_own_process() -> None:
    process = start_domain("finance")  # waits for /health; stopped below
    try:
        with httpx.Client(base_url=process.url, timeout=5.0) as client:
            assert client.get("/health").json()["domain"] == "finance"
            manifest = client.get("/manifest").json()
            assert {g["goal"] for g in manifest["goals"]} >= {"GET_QUOTE", "TOP_MOVERS"}
            response = client.post(
                "/execute",
                json={
                    "domain": "finance",
                    "capability": "get_stock_price",
                    "parameters": {"symbol_text": "Itau"},
                },
            )
            assert response.status_code == 200
            out = response.json()
            assert out["status"] == "success"
            assert out["result"]["symbol"] == "ITUB4.SA"
            assert out["explanation"].endswith("dados de amostra de 2026-11-20.")
    finally:
        process.stop()
    assert process.proc.returncode is not None
