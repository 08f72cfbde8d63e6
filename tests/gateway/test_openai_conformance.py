"""Chat Completions against the OpenAI API as the openai SDK defines it: a real gateway process,
driven by the SDK and by raw HTTP, every body and every streamed chunk checked against the SDK's
types with fields they do not define refused."""

from __future__ import annotations

import json
import typing
from typing import Any

import httpx
import openai
import pytest
from openai.types import Model
from openai.types.chat import ChatCompletion, ChatCompletionChunk
from openai.types.chat.completion_create_params import CompletionCreateParamsBase
from pydantic import BaseModel

from gateway.channels.openai_wire import ChatCompletionRequest
from gateway.errors import BODY_MUST_BE_JSON
from tests.conftest import Process

pytestmark = pytest.mark.integration

ERROR_FIELDS = {"message", "type", "param", "code"}


# ------------------------------------------------------------------ strict checking


def _models_in(annotation: Any) -> list[type[BaseModel]]:
    """The pydantic models an annotation may hold (through Optional, List, Union, Annotated)."""
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return [annotation]
    found: list[type[BaseModel]] = []
    for arg in typing.get_args(annotation):
        found.extend(_models_in(arg))
    return found


def extra_fields(model: type[BaseModel], data: Any, path: str = "$") -> list[str]:
    """Paths in ``data`` that ``model`` (recursively) does not define."""
    if not isinstance(data, dict):
        return []
    known = {field.alias or name: field for name, field in model.model_fields.items()}
    extra: list[str] = []
    for key, value in data.items():
        field = known.get(key)
        if field is None:
            extra.append(f"{path}.{key}")
            continue
        candidates = _models_in(field.annotation)
        items = value if isinstance(value, list) else [value]
        for index, item in enumerate(items):
            where = f"{path}.{key}[{index}]" if isinstance(value, list) else f"{path}.{key}"
            # a union of models: the item must fit one of them
            options: list[list[str]] = [extra_fields(c, item, where) for c in candidates]
            if options and all(options):
                closest: list[str] = min(options, key=len)
                extra.extend(closest)
    return extra


def strict(model: type[BaseModel], data: Any) -> BaseModel:
    """``data`` validated as ``model``, with any field the model does not define refused."""
    assert extra_fields(model, data) == [], f"fields {model.__name__} does not define"
    return model.model_validate(data)


def test_the_strict_checker_refuses_an_unknown_nested_field() -> None:
    chunk: dict[str, Any] = {
        "id": "c",
        "object": "chat.completion.chunk",
        "created": 1,
        "model": "m",
        "choices": [{"index": 0, "delta": {"content": "x", "progress": {}}, "finish_reason": None}],
    }
    assert extra_fields(ChatCompletionChunk, chunk) == ["$.choices[0].delta.progress"]
    del chunk["choices"][0]["delta"]["progress"]
    assert extra_fields(ChatCompletionChunk, chunk) == []


def test_the_request_model_has_exactly_the_sdk_fields() -> None:
    sdk_fields = set(CompletionCreateParamsBase.__annotations__) | {"stream"}
    assert set(ChatCompletionRequest.model_fields) == sdk_fields


# ------------------------------------------------------------------ helpers


def post(platform: Process, body: Any, **kwargs: Any) -> httpx.Response:
    if "content" not in kwargs:
        kwargs["json"] = body
    return httpx.post(f"{platform.url}/v1/chat/completions", timeout=30, **kwargs)


def user(text: str) -> list[dict[str, Any]]:
    return [{"role": "user", "content": text}]


def stream_chunks(platform: Process, body: dict[str, Any]) -> tuple[list[ChatCompletionChunk], list[str]]:
    """Every chunk, each checked strictly, and the raw ``data:`` lines (``[DONE]`` included)."""
    lines: list[str] = []
    with httpx.stream(
        "POST", f"{platform.url}/v1/chat/completions", json={**body, "stream": True}, timeout=30
    ) as response:
        assert response.status_code == 200
        assert response.headers["content-type"].startswith("text/event-stream")
        lines = [line[6:] for line in response.iter_lines() if line.startswith("data: ")]
    assert lines and lines[-1] == "[DONE]" and lines.count("[DONE]") == 1
    chunks = [strict(ChatCompletionChunk, json.loads(line)) for line in lines[:-1]]
    return [c for c in chunks if isinstance(c, ChatCompletionChunk)], lines


def streamed_text(chunks: list[ChatCompletionChunk]) -> str:
    return "".join(choice.delta.content or "" for c in chunks for choice in c.choices)


def assert_refused(response: httpx.Response, param: str | None, status: int = 400) -> dict[str, Any]:
    assert response.status_code == status, response.text
    body = response.json()
    assert set(body) == {"error"} and set(body["error"]) == ERROR_FIELDS, body
    error: dict[str, Any] = body["error"]
    assert error["type"] == "invalid_request_error" and error["param"] == param, error
    return error


# ------------------------------------------------------------------ plain answers


def test_a_plain_answer_is_exactly_a_chat_completion(platform: Process) -> None:
    response = post(platform, {"model": "orchestrator", "messages": user("qual o preço da Apple?")})
    assert response.status_code == 200
    completion = strict(ChatCompletion, response.json())
    assert isinstance(completion, ChatCompletion)
    assert completion.object == "chat.completion" and len(completion.choices) == 1
    assert "AAPL" in (completion.choices[0].message.content or "")
    assert completion.choices[0].finish_reason == "stop"
    assert completion.usage is not None and completion.usage.total_tokens > 0
    assert response.headers["x-run-id"].startswith("run-")


def test_the_fields_the_spec_defines_are_accepted(platform: Process) -> None:
    body = {
        "model": "orchestrator",
        "messages": [
            {"role": "developer", "content": "be brief"},
            {"role": "system", "content": [{"type": "text", "text": "answer in Portuguese"}]},
            {"role": "user", "content": "qual o preço da Vale?", "name": "ana"},
            {
                "role": "assistant",
                "tool_calls": [
                    {"id": "call_1", "type": "function", "function": {"name": "f", "arguments": "{}"}}
                ],
            },
            {"role": "tool", "tool_call_id": "call_1", "content": "{}"},
            {"role": "user", "content": [{"type": "text", "text": "qual o preço da Apple?"}]},
        ],
        "temperature": 0.2,
        "top_p": 1,
        "max_tokens": 200,
        "max_completion_tokens": 200,
        "n": 1,
        "seed": 7,
        "user": "user-1",
        "stop": ["\n\n"],
        "presence_penalty": 0,
        "frequency_penalty": 0.5,
        "logit_bias": {"50256": -100},
        "tools": [{"type": "function", "function": {"name": "f", "parameters": {"type": "object"}}}],
        "tool_choice": "auto",
        "parallel_tool_calls": True,
        "response_format": {"type": "text"},
        "metadata": {"channel": "test"},
        "store": False,
        "stream": False,
    }
    response = post(platform, body)
    assert response.status_code == 200, response.text
    completion = strict(ChatCompletion, response.json())
    assert isinstance(completion, ChatCompletion)
    assert "AAPL" in (completion.choices[0].message.content or "")


def test_the_sdk_sends_spec_options_and_reads_errors(platform: Process) -> None:
    client = openai.OpenAI(base_url=f"{platform.url}/v1", api_key="unused-locally", max_retries=0)
    completion = client.chat.completions.create(
        model="orchestrator:finance",
        messages=[{"role": "user", "content": "what is the price of Microsoft?"}],
        temperature=0,
        seed=1,
        user="someone",
        max_tokens=50,
    )
    assert "MSFT" in (completion.choices[0].message.content or "")
    with pytest.raises(openai.BadRequestError) as refused:
        client.chat.completions.create(
            model="orchestrator", messages=[{"role": "user", "content": "oi"}], n=2
        )
    assert refused.value.param == "n" and refused.value.status_code == 400


# ------------------------------------------------------------------ streams


def test_every_streamed_chunk_is_a_standard_chunk_and_usage_comes_last(platform: Process) -> None:
    chunks, _ = stream_chunks(
        platform,
        {
            "model": "orchestrator",
            "messages": user("preço da Apple e Nvidia"),
            "stream_options": {"include_usage": True},
        },
    )
    assert chunks[0].choices[0].delta.role == "assistant"
    assert {c.id for c in chunks} == {chunks[0].id} and all(
        c.object == "chat.completion.chunk" for c in chunks
    )
    finishes = [choice.finish_reason for c in chunks for choice in c.choices if choice.finish_reason]
    assert finishes == ["stop"]
    usage_chunk = chunks[-1]
    assert usage_chunk.choices == [] and usage_chunk.usage is not None
    assert (
        usage_chunk.usage.total_tokens
        == usage_chunk.usage.prompt_tokens + usage_chunk.usage.completion_tokens
    )
    assert all(c.usage is None for c in chunks[:-1])
    text = streamed_text(chunks)
    # progress is opt-in: by default the stream is the answer only
    assert "AAPL" in text and "NVDA" in text
    assert "Consultando" not in text and "get_stock_price" not in text


def test_without_include_usage_no_usage_chunk(platform: Process) -> None:
    chunks, _ = stream_chunks(platform, {"model": "orchestrator", "messages": user("preço da Vale")})
    assert all(c.usage is None and c.choices for c in chunks)


def test_opted_in_progress_is_human_text_in_the_persons_language(platform: Process) -> None:
    portuguese, _ = stream_chunks(
        platform,
        {
            "model": "orchestrator",
            "messages": user("qual o preço da Apple e da Nvidia?"),
            "metadata": {"show_progress": True},
        },
    )
    text = streamed_text(portuguese)
    # one line per kind of step, before the answer, never a capability id
    assert text.startswith("Consultando a cotação…\n\n") and text.count("Consultando a cotação…") == 1
    assert text.index("Consultando a cotação…") < text.index("AAPL")
    assert "get_stock_price" not in text and "[" not in text.split("AAPL")[0]

    english, _ = stream_chunks(
        platform,
        {
            "model": "orchestrator",
            "messages": user("what is the price of Apple?"),
            "metadata": {"show_progress": "true"},  # OpenAI's metadata values are strings
        },
    )
    text = streamed_text(english)
    assert text.startswith("Getting the quote…\n\n") and "AAPL" in text


def test_a_stream_through_the_sdk(platform: Process) -> None:
    client = openai.OpenAI(base_url=f"{platform.url}/v1", api_key="unused-locally", max_retries=0)
    stream = client.chat.completions.create(
        model="orchestrator",
        messages=[{"role": "user", "content": "qual o preço da Microsoft?"}],
        stream=True,
        metadata={"show_progress": "true"},
    )
    text = "".join(choice.delta.content or "" for chunk in stream for choice in chunk.choices)
    assert text.startswith("Consultando a cotação…") and "MSFT" in text


# ------------------------------------------------------------------ refusals

REFUSED: list[tuple[str, dict[str, Any], str]] = [
    ("stream must be a boolean", {"stream": "yes"}, "stream"),
    ("a user message needs content", {"messages": [{"role": "user"}]}, "messages[0].content"),
    ("content null", {"messages": [{"role": "user", "content": None}]}, "messages[0].content"),
    ("content of the wrong type", {"messages": [{"role": "user", "content": 5}]}, "messages[0].content"),
    (
        "an assistant message without content or tool_calls",
        {"messages": [{"role": "assistant"}, {"role": "user", "content": "oi"}]},
        "messages[0].content",
    ),
    (
        "a tool message needs tool_call_id",
        {"messages": [{"role": "user", "content": "oi"}, {"role": "tool", "content": "x"}]},
        "messages[1].tool_call_id",
    ),
    (
        "a field user messages do not have",
        {"messages": [{"role": "user", "content": "oi", "tool_call_id": "x"}]},
        "messages[0].tool_call_id",
    ),
    (
        "an unknown message field",
        {"messages": [{"role": "user", "content": "oi", "mood": "happy"}]},
        "messages[0].mood",
    ),
    (
        "a text part without text",
        {"messages": [{"role": "user", "content": [{"type": "text"}]}]},
        "messages[0].content[0].text",
    ),
    ("an unknown role", {"messages": [{"role": "wizard", "content": "oi"}]}, "messages[0].role"),
    ("no messages", {"messages": []}, "messages"),
    ("n above 1", {"n": 2}, "n"),
    ("n below 1", {"n": 0}, "n"),
    ("temperature of the wrong type", {"temperature": "hot"}, "temperature"),
    ("temperature out of range", {"temperature": 3}, "temperature"),
    ("max_tokens as a float", {"max_tokens": 1.5}, "max_tokens"),
    ("stop of the wrong type", {"stop": [1]}, "stop"),
    ("a nested metadata value", {"metadata": {"a": {"b": 1}}}, "metadata.a"),
    ("stream_options without stream", {"stream_options": {"include_usage": True}}, "stream_options"),
    ("an unknown stream option", {"stream": True, "stream_options": {"usage": True}}, "stream_options.usage"),
    (
        "a response format it cannot honour",
        {"response_format": {"type": "json_object"}},
        "response_format.type",
    ),
    ("a tool call it cannot make", {"tool_choice": "required"}, "tool_choice"),
    ("logprobs it cannot give", {"logprobs": True}, "logprobs"),
    ("a field the spec does not define", {"foo": 1}, "foo"),
]


@pytest.mark.parametrize(("case", "change", "param"), REFUSED, ids=[c[0] for c in REFUSED])
def test_invalid_requests_are_refused_naming_the_field(
    platform: Process, case: str, change: dict[str, Any], param: str
) -> None:
    body = {"model": "orchestrator", "messages": user("oi"), **change}
    error = assert_refused(post(platform, body), param)
    assert param in error["message"]


def test_an_unknown_field_is_refused_in_openais_words(platform: Process) -> None:
    error = assert_refused(post(platform, {"model": "orchestrator", "messages": user("oi"), "foo": 1}), "foo")
    assert error["message"] == "Unrecognized request argument supplied: foo"


@pytest.mark.parametrize(
    ("content", "headers"),
    [
        (b"model=orchestrator&messages=oi", {"Content-Type": "application/x-www-form-urlencoded"}),
        (b"[1, 2]", {"Content-Type": "application/json"}),
        (b"", {"Content-Type": "application/json"}),
        (b'{"model": "orchestrator"}', {"Content-Type": "text/plain"}),
    ],
    ids=["form-encoded", "a JSON array", "empty", "text/plain"],
)
def test_a_body_that_is_not_a_json_object_is_refused_plainly(
    platform: Process, content: bytes, headers: dict[str, str]
) -> None:
    error = assert_refused(post(platform, None, content=content, headers=headers), None)
    assert error["message"] == BODY_MUST_BE_JSON


def test_an_unknown_model_is_a_404_naming_model(platform: Process) -> None:
    response = post(platform, {"model": "gpt-9", "messages": user("oi")})
    assert response.status_code == 404
    assert set(response.json()["error"]) == ERROR_FIELDS and response.json()["error"]["param"] == "model"


# ------------------------------------------------------------------ models


def test_models_list_and_retrieve(platform: Process) -> None:
    listed = httpx.get(f"{platform.url}/v1/models", timeout=10).json()
    assert set(listed) == {"object", "data"} and listed["object"] == "list"
    models = [strict(Model, m) for m in listed["data"]]
    ids = {m.id for m in models if isinstance(m, Model)}
    assert {"orchestrator", "orchestrator:finance"} <= ids

    raw = httpx.get(f"{platform.url}/v1/models/orchestrator:finance", timeout=10)
    assert raw.status_code == 200
    assert strict(Model, raw.json()) == Model(**raw.json())

    client = openai.OpenAI(base_url=f"{platform.url}/v1", api_key="unused-locally", max_retries=0)
    assert {m.id for m in client.models.list()} == ids
    assert client.models.retrieve("orchestrator").id == "orchestrator"
    with pytest.raises(openai.NotFoundError):
        client.models.retrieve("gpt-9")
