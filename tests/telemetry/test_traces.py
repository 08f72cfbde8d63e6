"""One trace spans the gateway and the domains, across real processes, as an OTLP collector
receives it."""

from __future__ import annotations

import httpx

from tests.telemetry.conftest import ObservedPlatform
from tests.telemetry.otlp_receiver import ReceivedSpan

SERVER_KIND = 2  # opentelemetry.proto.trace.v1.Span.SPAN_KIND_SERVER
CLIENT_KIND = 3


def _turn(observed: ObservedPlatform, text: str, session: str) -> dict:
    response = httpx.post(
        f"{observed.gateway.url}/v1/runs",
        json={"input_text": text, "session_id": session},
        headers=observed.auth,
        timeout=60,
    )
    assert response.status_code == 200, response.text
    return dict(response.json())


def _tool_calls(spans: list[ReceivedSpan], session: str) -> list[ReceivedSpan]:
    return [
        s for s in spans if s.name == "execute_tool" and s.attributes.get("gen_ai.conversation.id") == session
    ]


def test_a_domain_call_is_one_trace_from_gateway_to_domain(observed: ObservedPlatform) -> None:
    session = "trace-one-call"
    run = _turn(observed, "qual o preço da Apple?", session)
    assert run["status"] == "completed", run
    step = run["steps"][0]

    def complete(spans: list[ReceivedSpan]) -> bool:
        # the turn's own spans end after the call and may come in a later export batch
        calls = _tool_calls(spans, session)
        if not calls or not any(s.parent_span_id == calls[0].span_id for s in spans):
            return False
        names = {s.name for s in spans if s.trace_id == calls[0].trace_id}
        return {"invoke_workflow", "parse_intent", "plan"} <= names

    spans = observed.receiver.wait_for(complete)
    call = _tool_calls(spans, session)[0]
    assert call.service == "orchestrator-gateway" and call.kind == CLIENT_KIND
    assert call.attributes["gen_ai.operation.name"] == "execute_tool"
    assert call.attributes["gen_ai.tool.name"] == step["capability"]
    # the domain continued the traceparent it was sent: same trace, child of the tool call
    server = next(s for s in spans if s.parent_span_id == call.span_id)
    assert server.service == f"domain-{step['domain']}"
    assert server.kind == SERVER_KIND and server.name == "POST /execute"
    assert server.trace_id == call.trace_id
    # the turn's own spans belong to the same trace: the workflow, the intent parse and the plan
    same_trace = {s.name: s for s in spans if s.trace_id == call.trace_id}
    workflow = same_trace["invoke_workflow"]
    assert workflow.attributes["gen_ai.operation.name"] == "invoke_workflow"
    assert workflow.attributes["gen_ai.conversation.id"] == session
    assert {"parse_intent", "plan"} <= same_trace.keys()
    assert same_trace["plan"].attributes["gen_ai.operation.name"] == "plan"
    # the caller sent no traceparent: the turn's span is the trace's root
    assert workflow.parent_span_id == ""
    assert same_trace["plan"].parent_span_id == workflow.span_id
    assert call.parent_span_id == workflow.span_id


def test_a_caller_traceparent_is_continued_by_the_gateway(observed: ObservedPlatform) -> None:
    trace_id, parent_id = "4bf92f3577b34da6a3ce929d0e0e4736", "00f067aa0ba902b7"
    response = httpx.post(
        f"{observed.gateway.url}/v1/runs",
        json={"input_text": "qual o preço da Apple?", "session_id": "trace-continued"},
        headers={**observed.auth, "traceparent": f"00-{trace_id}-{parent_id}-01"},
        timeout=60,
    )
    assert response.status_code == 200

    def arrived(spans: list[ReceivedSpan]) -> bool:
        names = {s.name for s in spans if s.trace_id == trace_id}
        return {"POST /v1/runs", "invoke_workflow", "execute_tool", "POST /execute"} <= names

    spans = {s.name: s for s in observed.receiver.wait_for(arrived) if s.trace_id == trace_id}
    server = spans["POST /v1/runs"]
    assert server.kind == SERVER_KIND and server.parent_span_id == parent_id
    assert server.attributes["http.route"] == "/v1/runs"
    assert spans["invoke_workflow"].parent_span_id == server.span_id


def test_parallel_calls_are_sibling_spans_of_one_trace(observed: ObservedPlatform) -> None:
    session = "trace-fan-out"
    run = _turn(observed, "preço da Apple e Microsoft", session)
    assert len(run["steps"]) >= 2, run

    def both(spans: list[ReceivedSpan]) -> bool:
        calls = _tool_calls(spans, session)
        children = [s for s in spans if s.parent_span_id in {c.span_id for c in calls}]
        return len(calls) >= 2 and len(children) >= 2

    spans = observed.receiver.wait_for(both)
    calls = _tool_calls(spans, session)
    assert len({c.trace_id for c in calls}) == 1
    assert len({c.span_id for c in calls}) == len(calls)
