"""The Responses API as the openai SDK defines it: a real gateway process, driven by the SDK's
``client.responses`` and by raw HTTP, every body and every streamed event checked against the
SDK's types with fields they do not define refused."""

from __future__ import annotations

import json
import typing
from typing import Any

import httpx
import openai
import pytest
from openai.types.responses import (
    Response,
    ResponseCompletedEvent,
    ResponseContentPartAddedEvent,
    ResponseContentPartDoneEvent,
    ResponseCreatedEvent,
    ResponseInProgressEvent,
    ResponseOutputItemAddedEvent,
    ResponseOutputItemDoneEvent,
    ResponseTextDeltaEvent,
    ResponseTextDoneEvent,
)
from openai.types.responses.response_create_params import ResponseCreateParamsBase
from pydantic import BaseModel

from gateway.channels.responses_wire import ResponseCreateRequest
from tests.conftest import Process
from tests.gateway.test_openai_conformance import ERROR_FIELDS, strict

pytestmark = pytest.mark.integration

#: The events of one answered response, in the order OpenAI sends them (the delta repeats).
EVENT_TYPES: dict[str, type[BaseModel]] = {
    "response.created": ResponseCreatedEvent,
    "response.in_progress": ResponseInProgressEvent,
    "response.output_item.added": ResponseOutputItemAddedEvent,
    "response.content_part.added": ResponseContentPartAddedEvent,
    "response.output_text.delta": ResponseTextDeltaEvent,
    "response.output_text.done": ResponseTextDoneEvent,
    "response.content_part.done": ResponseContentPartDoneEvent,
    "response.output_item.done": ResponseOutputItemDoneEvent,
    "response.completed": ResponseCompletedEvent,
}


def client_for(platform: Process) -> openai.OpenAI:
    return openai.OpenAI(base_url=f"{platform.url}/v1", api_key="unused-locally", max_retries=0)


def post(platform: Process, body: Any) -> httpx.Response:
    return httpx.post(f"{platform.url}/v1/responses", json=body, timeout=30)


def checked(data: Any) -> Response:
    response = strict(Response, data)
    assert isinstance(response, Response)
    return response


def test_the_request_model_has_exactly_the_sdk_fields() -> None:
    sdk_fields = set(typing.get_type_hints(ResponseCreateParamsBase)) | {"stream"}
    assert set(ResponseCreateRequest.model_fields) == sdk_fields


# ------------------------------------------------------------------ plain responses


def test_a_plain_response_through_the_sdk_is_exactly_a_response(platform: Process) -> None:
    created = client_for(platform).responses.create(model="orchestrator", input="qual o preço da Apple?")
    assert created.status == "completed" and created.object == "response"
    assert "AAPL" in created.output_text
    assert created.id.startswith("resp_") and created.usage is not None and created.usage.total_tokens > 0

    raw = post(platform, {"model": "orchestrator", "input": "qual o preço da Nvidia?"})
    assert raw.status_code == 200 and raw.headers["x-run-id"].startswith("run-")
    body = checked(raw.json())
    assert [item.type for item in body.output] == ["message"]
    assert "NVDA" in body.output_text


def test_input_items_and_instructions_are_read_and_echoed(platform: Process) -> None:
    client = client_for(platform)
    created = client.responses.create(
        model="orchestrator:finance",
        instructions="Answer briefly.",
        input=[
            {"role": "developer", "content": "be kind"},
            {"type": "message", "role": "user", "content": [{"type": "input_text", "text": "preço da Vale"}]},
        ],
        temperature=0.2,
        max_output_tokens=200,
        metadata={"channel": "test"},
        store=True,
        tool_choice="auto",
        tools=[],
    )
    assert "VALE3" in created.output_text
    assert created.instructions == "Answer briefly." and created.metadata == {"channel": "test"}
    assert created.model == "orchestrator:finance" and created.temperature == 0.2
    assert client.responses.retrieve(created.id) == created


# ------------------------------------------------------------------ streams


def raw_events(platform: Process, body: dict[str, Any]) -> list[Any]:
    """Every event of a streamed response, each checked strictly against its SDK type, with its
    SSE ``event:`` name equal to its ``type``."""
    names: list[str] = []
    events: list[Any] = []
    with httpx.stream("POST", f"{platform.url}/v1/responses", json={**body, "stream": True}, timeout=30) as r:
        assert r.status_code == 200 and r.headers["content-type"].startswith("text/event-stream")
        for line in r.iter_lines():
            if line.startswith("event: "):
                names.append(line[7:])
            elif line.startswith("data: "):
                data = json.loads(line[6:])
                assert data["type"] == names[-1]
                events.append(strict(EVENT_TYPES[data["type"]], data))
    assert len(names) == len(events)
    return events


def test_a_stream_is_the_semantic_events_in_order(platform: Process) -> None:
    events = raw_events(platform, {"model": "orchestrator", "input": "preço da Apple e Nvidia"})
    kinds = [e.type for e in events]
    deltas = kinds.count("response.output_text.delta")
    assert deltas >= 1
    assert kinds == [
        "response.created",
        "response.in_progress",
        "response.output_item.added",
        "response.content_part.added",
        *["response.output_text.delta"] * deltas,
        "response.output_text.done",
        "response.content_part.done",
        "response.output_item.done",
        "response.completed",
    ]
    assert [e.sequence_number for e in events] == list(range(len(events)))
    text = "".join(e.delta for e in events if isinstance(e, ResponseTextDeltaEvent))
    done = next(e for e in events if isinstance(e, ResponseTextDoneEvent))
    created = events[0]
    completed = events[-1]
    assert isinstance(created, ResponseCreatedEvent) and isinstance(completed, ResponseCompletedEvent)
    assert created.response.status == "in_progress" and created.response.output == []
    assert completed.response.status == "completed" and completed.response.id == created.response.id
    assert text == done.text == completed.response.output_text
    assert "AAPL" in text and "NVDA" in text
    # stored before "completed" went out
    assert client_for(platform).responses.retrieve(completed.response.id) == completed.response


def test_a_stream_through_the_sdk(platform: Process) -> None:
    stream = client_for(platform).responses.create(
        model="orchestrator", input="qual o preço da Microsoft?", stream=True
    )
    events = list(stream)
    assert [e.type for e in events][:2] == ["response.created", "response.in_progress"]
    text = "".join(e.delta for e in events if e.type == "response.output_text.delta")
    assert "MSFT" in text
    final = events[-1]
    assert final.type == "response.completed" and final.response.output_text == text


# ------------------------------------------------------------------ conversations


def test_a_clarification_is_a_response_answered_by_the_next(platform: Process) -> None:
    client = client_for(platform)
    asked = client.responses.create(model="orchestrator", input="qual o preço da Nordea?")
    assert asked.status == "completed"
    assert "Qual deles?" in asked.output_text and "NDA-FI.HE" in asked.output_text
    answered = client.responses.create(model="orchestrator", input="2", previous_response_id=asked.id)
    assert "NDA-FI.HE" in answered.output_text and "Qual deles" not in answered.output_text
    assert answered.previous_response_id == asked.id
    assert client.responses.retrieve(asked.id).output_text == asked.output_text

    # a branch from the question (its session has moved on): it still sees the question
    branch = client.responses.create(model="orchestrator", input="a sueca", previous_response_id=asked.id)
    assert "NDA-SE.ST" in branch.output_text
    # and the first line goes on where it was
    follow = client.responses.create(
        model="orchestrator", input="e a Vale?", previous_response_id=answered.id
    )
    assert "VALE3" in follow.output_text


def test_a_streamed_clarification_is_answered_by_previous_response_id(platform: Process) -> None:
    client = client_for(platform)
    events = list(client.responses.create(model="orchestrator", input="qual o preço da Nordea?", stream=True))
    asked = events[-1]
    assert asked.type == "response.completed" and "Qual deles?" in asked.response.output_text
    answered = client.responses.create(
        model="orchestrator", input="1", previous_response_id=asked.response.id
    )
    assert "NDA-SE.ST" in answered.output_text


def test_a_response_not_stored_is_neither_retrievable_nor_continued(platform: Process) -> None:
    client = client_for(platform)
    unstored = client.responses.create(model="orchestrator", input="qual o preço da Nordea?", store=False)
    assert "Qual deles?" in unstored.output_text
    with pytest.raises(openai.NotFoundError):
        client.responses.retrieve(unstored.id)
    with pytest.raises(openai.NotFoundError) as refused:
        client.responses.create(model="orchestrator", input="2", previous_response_id=unstored.id)
    assert refused.value.param == "previous_response_id"


def test_a_deleted_response_is_gone(platform: Process) -> None:
    client = client_for(platform)
    asked = client.responses.create(model="orchestrator", input="qual o preço da Nordea?")
    raw = httpx.delete(f"{platform.url}/v1/responses/{asked.id}", timeout=10)
    assert raw.json() == {"id": asked.id, "object": "response.deleted", "deleted": True}
    with pytest.raises(openai.NotFoundError):
        client.responses.retrieve(asked.id)
    with pytest.raises(openai.NotFoundError):
        client.responses.delete(asked.id)
    with pytest.raises(openai.NotFoundError):
        client.responses.create(model="orchestrator", input="2", previous_response_id=asked.id)


def test_a_client_that_keeps_its_own_history_in_input_items(platform: Process) -> None:
    client = client_for(platform)
    asked = client.responses.create(model="orchestrator", input="qual o preço da Nordea?", store=False)
    answered = client.responses.create(
        model="orchestrator",
        store=False,
        input=[
            {"role": "user", "content": "qual o preço da Nordea?"},
            {"role": "assistant", "content": asked.output_text},
            {"role": "user", "content": "2"},
        ],
    )
    assert "NDA-FI.HE" in answered.output_text


# ------------------------------------------------------------------ refusals


def test_unknown_ids_are_404s_in_openais_shape(platform: Process) -> None:
    client = client_for(platform)
    with pytest.raises(openai.NotFoundError) as unknown:
        client.responses.create(model="orchestrator", input="oi", previous_response_id="resp_0000")
    assert unknown.value.param == "previous_response_id" and unknown.value.status_code == 404
    missing = httpx.get(f"{platform.url}/v1/responses/resp_0000", timeout=10)
    assert missing.status_code == 404 and set(missing.json()["error"]) == ERROR_FIELDS
    # a chat history point is not a response
    assert httpx.get(f"{platform.url}/v1/responses/conv-0", timeout=10).status_code == 404


def test_the_sdk_reads_a_refused_option(platform: Process) -> None:
    with pytest.raises(openai.BadRequestError) as refused:
        client_for(platform).responses.create(
            model="orchestrator",
            input="oi",
            tools=[{"type": "function", "name": "f", "parameters": {"type": "object"}, "strict": True}],
        )
    assert refused.value.param == "tools" and refused.value.status_code == 400


REFUSED: list[tuple[str, dict[str, Any], str]] = [
    ("a field the spec does not define", {"foo": 1}, "foo"),
    ("stream must be a boolean", {"stream": "yes"}, "stream"),
    ("input of the wrong type", {"input": 5}, "input"),
    ("no input items", {"input": []}, "input"),
    ("an input item that is not an object", {"input": ["oi"]}, "input"),
    ("tool_choice of the wrong type", {"tool_choice": 1}, "tool_choice"),
    ("no user message", {"input": [{"role": "assistant", "content": "oi"}]}, "input"),
    (
        "an item type it cannot read",
        {"input": [{"type": "function_call_output", "call_id": "c", "output": "x"}]},
        "input[0].type",
    ),
    (
        "an unknown message field",
        {"input": [{"role": "user", "content": "oi", "mood": "happy"}]},
        "input[0].mood",
    ),
    ("an unknown role", {"input": [{"role": "wizard", "content": "oi"}]}, "input[0].role"),
    (
        "an image it cannot see",
        {"input": [{"role": "user", "content": [{"type": "input_image", "image_url": "http://x/y.png"}]}]},
        "input[0].content[0].type",
    ),
    (
        "a text part without text",
        {"input": [{"role": "user", "content": [{"type": "input_text"}]}]},
        "input[0].content[0].text",
    ),
    ("tools", {"tools": [{"type": "web_search"}]}, "tools"),
    ("a tool choice it cannot make", {"tool_choice": "required"}, "tool_choice"),
    ("a format it cannot honour", {"text": {"format": {"type": "json_object"}}}, "text.format.type"),
    ("extra output data", {"include": ["message.output_text.logprobs"]}, "include"),
    ("background", {"background": True}, "background"),
    ("a conversation object", {"conversation": "conv_1"}, "conversation"),
    ("a prompt template", {"prompt": {"id": "pmpt_1"}}, "prompt"),
    ("log probabilities", {"top_logprobs": 2}, "top_logprobs"),
    ("stream_options without stream", {"stream_options": {"include_obfuscation": False}}, "stream_options"),
    ("temperature out of range", {"temperature": 3}, "temperature"),
    ("a metadata value that is not a string", {"metadata": {"a": 1}}, "metadata.a"),
]


@pytest.mark.parametrize(("case", "change", "param"), REFUSED, ids=[c[0] for c in REFUSED])
def test_invalid_requests_are_refused_naming_the_field(
    platform: Process, case: str, change: dict[str, Any], param: str
) -> None:
    response = post(platform, {"model": "orchestrator", "input": "oi", **change})
    assert response.status_code == 400, response.text
    body = response.json()
    assert set(body) == {"error"} and set(body["error"]) == ERROR_FIELDS, body
    assert body["error"]["type"] == "invalid_request_error" and body["error"]["param"] == param, body
    assert param in body["error"]["message"]


def test_an_unknown_model_is_a_404_naming_model(platform: Process) -> None:
    response = post(platform, {"model": "gpt-9", "input": "oi"})
    assert response.status_code == 404 and response.json()["error"]["param"] == "model"
