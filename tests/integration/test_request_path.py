"""The whole request path over real HTTP: gateway process -> domain processes."""

from __future__ import annotations

import json

import httpx
import pytest

from tests.conftest import Process, start_fixture_domain

pytestmark = pytest.mark.integration


def run(platform: Process, text: str, session_id: str | None = None, **extra: object) -> dict:
    body: dict[str, object] = {"input_text": text, **extra}
    if session_id:
        body["session_id"] = session_id
    response = httpx.post(f"{platform.url}/v1/runs", json=body, timeout=30)
    assert response.status_code == 200, response.text
    return response.json()


def test_single_quote_runs_through_every_layer(platform: Process) -> None:
    trace = run(platform, "qual o preço da Petrobras?")
    assert trace["status"] == "completed"
    assert trace["intent"]["goal"] == "GET_QUOTE"
    assert trace["intent"]["entities"]["symbol_text"] in ("Petrobras", ["Petrobras"])
    assert trace["execution_intent"]["capability"] == "get_stock_price"
    assert [s["capability"] for s in trace["steps"]] == ["get_stock_price"]
    step = trace["steps"][0]
    assert step["status"] == "completed" and step["started_at"] and step["finished_at"]
    assert step["output"]["result"]["symbol"] == "PETR4.SA"
    assert "PETR4" in trace["answer"]
    # the stored trace is the one returned
    stored = httpx.get(f"{platform.url}/v1/runs/{trace['run_id']}", timeout=10).json()
    assert stored["run_id"] == trace["run_id"] and stored["steps"][0]["status"] == "completed"


def test_several_companies_become_parallel_steps_combined_as_report(platform: Process) -> None:
    trace = run(platform, "preço da Apple, Microsoft e Nvidia")
    assert trace["status"] == "completed"
    plan = trace["plan"]
    assert plan["execution_mode"] == "parallel" and plan["combine_mode"] == "report"
    assert [s["capability"] for s in plan["steps"]] == ["get_stock_price"] * 3
    assert all(s["depends_on"] == [] for s in plan["steps"])
    for ticker in ("AAPL", "MSFT", "NVDA"):
        assert ticker in trace["answer"]


def test_quote_then_notify_is_composed_from_manifest_metadata(
    platform: Process, domain_processes: dict
) -> None:
    trace = run(platform, "manda a cotação da Vale no meu telegram")
    steps = trace["plan"]["steps"]
    assert [s["capability"] for s in steps] == ["get_stock_price", "send_telegram_message"]
    assert steps[1]["depends_on"] == [1] and steps[1]["required"] is False
    assert steps[1]["params"]["message"] == "${1.explanation}"
    assert trace["status"] == "completed"
    assert [s["status"] for s in trace["steps"]] == ["completed", "completed"]
    outbox = httpx.get(f"{domain_processes['notifier'].url}/outbox", timeout=10).json()
    messages = outbox["messages"] if isinstance(outbox, dict) else outbox
    assert any("VALE3" in m["message"] for m in messages)


def test_ambiguous_company_asks_which_one(platform: Process) -> None:
    trace = run(platform, "qual o preço da Nordea?")
    assert trace["status"] == "waiting_input"
    symbols = {o["value"] for o in trace["output"]["clarification"]["options"]}
    assert symbols == {"NDA-SE.ST", "NDA-FI.HE"}
    assert trace["question"]["kind"] == "domain_clarification"


def test_unknown_company_fails_plainly_without_a_price(platform: Process) -> None:
    trace = run(platform, "qual o preço da Empresa Inexistente Zyxw?")
    assert trace["status"] == "failed"
    step = trace["steps"][0]
    assert step["output"]["status"] == "failure"
    assert "price" not in step["output"]["result"]


def test_top_movers_both_directions_run_both_capabilities(platform: Process) -> None:
    trace = run(platform, "maiores altas e baixas do Brasil")
    assert trace["intent"]["goal"] == "TOP_MOVERS"
    assert sorted(s["capability"] for s in trace["plan"]["steps"]) == ["get_top_gainers", "get_top_losers"]
    assert trace["status"] == "completed"


def test_out_of_scope_goes_to_the_fallback_answer_listing_goals(platform: Process) -> None:
    trace = run(platform, "qual é a receita de bolo de cenoura da minha avó?")
    assert trace["intent"]["goal"] is None
    assert trace["steps"][0]["domain"] == "general"
    assert trace["status"] == "completed"
    assert "GET_QUOTE" in str(trace["output"]) or "cotação" in trace["answer"].lower()


def test_models_list_pins_domains(platform: Process) -> None:
    models = httpx.get(f"{platform.url}/v1/models", timeout=10).json()
    ids = {m["id"] for m in models["data"]}
    assert {"orchestrator", "orchestrator:finance", "orchestrator:notifier", "orchestrator:general"} <= ids


def test_session_header_is_used_and_echoed(platform: Process) -> None:
    response = httpx.post(
        f"{platform.url}/v1/runs",
        json={"input_text": "cotação da Vale"},
        headers={"X-Session-Id": "my-session-42"},
        timeout=30,
    )
    assert response.headers["x-session-id"] == "my-session-42"
    assert response.json()["session_id"] == "my-session-42"


def test_openai_sdk_unmodified_sync_and_streaming(platform: Process) -> None:
    from openai import OpenAI

    client = OpenAI(base_url=f"{platform.url}/v1", api_key="unused-locally", max_retries=0)
    completion = client.chat.completions.create(
        model="orchestrator", messages=[{"role": "user", "content": "qual o preço da Apple?"}]
    )
    assert "AAPL" in (completion.choices[0].message.content or "")
    assert completion.usage is not None and completion.usage.total_tokens > 0

    stream = client.chat.completions.create(
        model="orchestrator",
        messages=[{"role": "user", "content": "qual o preço da Microsoft?"}],
        stream=True,
        stream_options={"include_usage": True},
    )
    text, usage, finish = "", None, None
    for chunk in stream:
        if chunk.usage is not None:
            usage = chunk.usage
        for choice in chunk.choices:
            text += choice.delta.content or ""
            finish = choice.finish_reason or finish
    assert "MSFT" in text and finish == "stop"
    assert usage is not None and usage.completion_tokens > 0


def test_openai_errors_have_the_openai_shape(platform: Process) -> None:
    bad = httpx.post(
        f"{platform.url}/v1/chat/completions", json={"model": "orchestrator", "messages": []}, timeout=10
    )
    assert bad.status_code == 400
    assert (
        bad.json()["error"]["param"] == "messages" and bad.json()["error"]["type"] == "invalid_request_error"
    )

    wrong_role = httpx.post(
        f"{platform.url}/v1/chat/completions",
        json={"model": "orchestrator", "messages": [{"role": "wizard", "content": "hi"}]},
        timeout=10,
    )
    assert wrong_role.status_code == 400 and wrong_role.json()["error"]["param"] == "messages[0].role"

    unknown = httpx.post(
        f"{platform.url}/v1/chat/completions",
        json={"model": "gpt-9", "messages": [{"role": "user", "content": "oi"}]},
        timeout=10,
    )
    assert unknown.status_code == 404 and unknown.json()["error"]["param"] == "model"

    huge = httpx.post(
        f"{platform.url}/v1/runs", content=b'{"input_text": "' + b"a" * 2_000_000 + b'"}', timeout=10
    )
    assert huge.status_code == 413 and huge.json()["error"]["code"] == "payload_too_large"

    missing = httpx.get(f"{platform.url}/v1/runs/run-does-not-exist", timeout=10)
    assert missing.status_code == 404 and "error" in missing.json()

    not_json = httpx.post(
        f"{platform.url}/v1/chat/completions",
        content=b'{"model": "orchestrator", messages: []}',
        headers={"Content-Type": "application/json"},
        timeout=10,
    )
    assert not_json.status_code == 400
    assert not_json.json()["error"] == {
        "message": "The request body is not valid JSON: "
        "Expecting property name enclosed in double quotes (at character 26)",
        "type": "invalid_request_error",
        "param": None,
        "code": "invalid_json",
    }


def test_a_domain_the_core_never_saw_works_after_runtime_registration(platform: Process) -> None:
    weather = start_fixture_domain("weather_domain")
    try:
        denied = httpx.post(
            f"{platform.url}/v1/domains",
            json={"name": "weather", "base_url": weather.url},
            timeout=10,
        )
        assert denied.status_code == 401
        registered = httpx.post(
            f"{platform.url}/v1/domains",
            json={"name": "weather", "base_url": weather.url},
            headers={"Authorization": "Bearer test-admin-token"},
            timeout=10,
        )
        assert registered.status_code == 201, registered.text
        names = {d["name"] for d in httpx.get(f"{platform.url}/v1/domains", timeout=10).json()["data"]}
        assert "weather" in names
        trace = run(platform, "como está o tempo em Oslo?")
        assert trace["intent"]["goal"] == "GET_WEATHER"
        assert trace["steps"][0]["domain"] == "weather"
        assert "Oslo" in trace["answer"] and trace["status"] == "completed"
        deleted = httpx.delete(
            f"{platform.url}/v1/domains/weather",
            headers={"Authorization": "Bearer test-admin-token"},
            timeout=10,
        )
        assert deleted.status_code == 200
        assert "weather" not in {
            d["name"] for d in httpx.get(f"{platform.url}/v1/domains", timeout=10).json()["data"]
        }
    finally:
        weather.stop()


def test_background_run_streams_its_events(platform: Process) -> None:
    started = httpx.post(
        f"{platform.url}/v1/runs",
        json={"input_text": "preço da Apple e Microsoft", "background": True},
        timeout=10,
    )
    assert started.status_code == 202
    run_id = started.json()["run_id"]
    events: list[dict] = []
    with httpx.stream("GET", f"{platform.url}/v1/runs/{run_id}/events", timeout=30) as response:
        assert response.headers["content-type"].startswith("text/event-stream")
        for line in response.iter_lines():
            if line.startswith("data: "):
                events.append(json.loads(line[6:]))
    kinds = [e["type"] for e in events]
    assert kinds[-1] == "run.finished" and events[-1]["status"] == "completed"
    step_statuses = [(e["step_id"], e["status"]) for e in events if e["type"] == "step"]
    assert (1, "executing") in step_statuses and (1, "completed") in step_statuses
    assert [e["seq"] for e in events if "seq" in e] == sorted(e["seq"] for e in events if "seq" in e)
    # a finished run replays from its stored trace
    with httpx.stream("GET", f"{platform.url}/v1/runs/{run_id}/events", timeout=30) as response:
        replay = [json.loads(line[6:]) for line in response.iter_lines() if line.startswith("data: ")]
    assert replay[-1]["type"] == "run.finished" and replay[-1]["answer"] == events[-1]["answer"]


def test_openai_stream_shows_step_progress_before_the_answer(platform: Process) -> None:
    chunks: list[dict] = []
    with httpx.stream(
        "POST",
        f"{platform.url}/v1/chat/completions",
        json={
            "model": "orchestrator",
            "stream": True,
            "messages": [{"role": "user", "content": "preço da Apple e Nvidia"}],
            "metadata": {"show_progress": True},
        },
        timeout=30,
    ) as response:
        for line in response.iter_lines():
            if line.startswith("data: ") and line != "data: [DONE]":
                chunks.append(json.loads(line[6:]))
    deltas = [c["choices"][0]["delta"] for c in chunks if c["choices"]]
    assert all(set(d) <= {"role", "content"} for d in deltas)  # standard deltas only
    text = "".join(d.get("content") or "" for d in deltas)
    # the capability's progress text in the person's language, never its id
    assert text.index("Consultando a cotação…") < text.index("AAPL")
    assert "get_stock_price" not in text
