"""``GET /metrics`` on the gateway (behind the API key) and on a domain, after real turns."""

from __future__ import annotations

import httpx
from prometheus_client.parser import text_string_to_metric_families

from tests.telemetry.conftest import ObservedPlatform


def _samples(text: str) -> dict[tuple[str, frozenset[tuple[str, str]]], float]:
    return {
        (sample.name, frozenset(sample.labels.items())): sample.value
        for family in text_string_to_metric_families(text)
        for sample in family.samples
    }


def _value(samples: dict, name: str, **labels: str) -> float:
    return float(samples.get((name, frozenset(labels.items())), 0.0))


def _scrape(observed: ObservedPlatform) -> dict:
    response = httpx.get(f"{observed.gateway.url}/metrics", headers=observed.auth, timeout=10)
    assert response.status_code == 200
    assert response.headers["content-type"].startswith("text/plain")
    return _samples(response.text)


def test_metrics_need_the_api_key(observed: ObservedPlatform) -> None:
    assert httpx.get(f"{observed.gateway.url}/metrics", timeout=10).status_code == 401


def test_a_turn_moves_the_turn_step_intent_and_request_metrics(observed: ObservedPlatform) -> None:
    before = _scrape(observed)
    response = httpx.post(
        f"{observed.gateway.url}/v1/runs",
        json={"input_text": "preço da Apple e Microsoft", "session_id": "metrics-fan-out"},
        headers=observed.auth,
        timeout=60,
    )
    run = response.json()
    assert run["status"] == "completed", run
    after = _scrape(observed)

    def grew(name: str, by: int = 1, **labels: str) -> bool:
        return _value(after, name, **labels) - _value(before, name, **labels) == by

    assert grew("orchestrator_turns_total", status="completed")
    assert grew("orchestrator_turn_duration_seconds_count")
    assert grew("orchestrator_intent_confidence_count")
    step = run["steps"][0]
    same_capability = sum(1 for s in run["steps"] if s["capability"] == step["capability"])
    domain, capability = step["domain"], step["capability"]
    assert grew(
        "orchestrator_steps_total", same_capability, domain=domain, capability=capability, status="completed"
    )
    assert grew(
        "orchestrator_step_duration_seconds_count", same_capability, domain=domain, capability=capability
    )
    assert grew("http_requests_total", service="gateway", route="/v1/runs", method="POST", status="200")
    assert grew("http_request_duration_seconds_count", service="gateway", route="/v1/runs", method="POST")
    # read live at scrape time
    assert _value(after, "orchestrator_circuit_breaker_state", domain="finance") == 0.0
    assert _value(after, "orchestrator_registry_size", kind="domains") == 3.0
    assert ("orchestrator_background_queue_depth", frozenset()) in after
    assert _value(after, "orchestrator_active_sessions") == 0.0


def test_route_templates_not_paths(observed: ObservedPlatform) -> None:
    for run_id in ("run-nope-1", "run-nope-2"):
        httpx.get(f"{observed.gateway.url}/v1/runs/{run_id}", headers=observed.auth, timeout=10)
    samples = _scrape(observed)
    route = {"service": "gateway", "route": "/v1/runs/{run_id}", "method": "GET", "status": "404"}
    assert _value(samples, "http_requests_total", **route) >= 2
    assert not any("run-nope" in str(labels) for _, labels in samples)


def test_out_of_scope_and_clarification_counters(observed: ObservedPlatform) -> None:
    before = _scrape(observed)
    answers = [
        httpx.post(
            f"{observed.gateway.url}/v1/runs",
            json={"input_text": text, "session_id": f"metrics-rates-{i}"},
            headers=observed.auth,
            timeout=60,
        ).json()
        for i, text in enumerate(["qual o preço da Nordea?", "asdkjh qwe zxcmnb"])
    ]
    after = _scrape(observed)
    waiting = sum(1 for a in answers if a["status"] == "waiting_input")
    out_of_scope = sum(1 for a in answers if a["intent"] is not None and a["intent"]["goal"] is None)
    assert waiting >= 1
    clarifications = "orchestrator_clarifications_total"
    assert _value(after, clarifications) - _value(before, clarifications) == waiting
    oos = "orchestrator_out_of_scope_total"
    assert _value(after, oos) - _value(before, oos) == out_of_scope


def test_every_domain_serves_its_own_metrics(observed: ObservedPlatform) -> None:
    httpx.post(
        f"{observed.gateway.url}/v1/runs",
        json={"input_text": "qual o preço da Apple?", "session_id": "metrics-domain"},
        headers=observed.auth,
        timeout=60,
    )
    finance = observed.domains["finance"]
    response = httpx.get(f"{finance.url}/metrics", timeout=10)
    assert response.status_code == 200
    samples = _samples(response.text)
    execute = {"service": "finance", "route": "/execute", "method": "POST", "status": "200"}
    assert _value(samples, "http_requests_total", **execute) >= 1
