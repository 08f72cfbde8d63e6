"""The Responses API's create request as OpenAI defines it, validated strictly, and the bodies the
gateway sends back (a ``Response`` and its streaming events) built field by field.

Like :mod:`gateway.channels.openai_wire`: types are strict, a field the API does not define is refused in
OpenAI's words, and a field the API defines but this platform cannot honour (tools, background,
a non-text format…) is refused by :func:`check_request` with the field in ``param``.

>>> body = ResponseCreateRequest.model_validate({"model": "orchestrator", "input": "oi"})
>>> check_request(body); [m.text() for m in input_messages(body)]
['oi']
>>> check_request(ResponseCreateRequest.model_validate(
...     {"model": "m", "input": "x", "tools": [{"type": "web_search"}]}))
Traceback (most recent call last):
...
shared.errors.InvalidRequest: tools: this model calls no tools (send no tools, or an empty list)
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, BeforeValidator, ConfigDict, Field, ValidationError
from pydantic_core import PydanticCustomError

from gateway.channels.openai_wire import METADATA_KEY_MAX, METADATA_VALUE_MAX
from gateway.errors import field_path
from shared.errors import InvalidRequest


class _Wire(BaseModel):
    model_config = ConfigDict(strict=True, extra="forbid")


class InputPart(_Wire):
    """A content part of an input message (text parts are read; the others are refused)."""

    type: Literal["input_text", "output_text", "refusal", "input_image", "input_file"]
    text: str | None = None
    refusal: str | None = None
    annotations: list[dict[str, Any]] | None = None
    logprobs: list[dict[str, Any]] | None = None
    prompt_cache_breakpoint: dict[str, Any] | None = None
    detail: str | None = None
    image_url: str | None = None
    file_id: str | None = None
    file_data: str | None = None
    file_url: str | None = None
    filename: str | None = None


class InputMessage(_Wire):
    """A message item: the easy form (``role`` + string content), an input message, or an earlier
    output message sent back."""

    type: Literal["message"] = "message"
    role: Literal["user", "assistant", "system", "developer"]
    content: str | list[InputPart]
    id: str | None = None
    status: Literal["in_progress", "completed", "incomplete"] | None = None
    phase: Literal["commentary", "final_answer"] | None = None

    def text(self) -> str:
        if isinstance(self.content, str):
            return self.content
        return " ".join(p.text for p in self.content if p.type in ("input_text", "output_text") and p.text)


def _text_or_items(value: Any) -> Any:
    """A string, or a list of objects; anything else is refused as one error naming ``input``."""
    if isinstance(value, str) or (isinstance(value, list) and all(isinstance(v, dict) for v in value)):
        return value
    raise PydanticCustomError("input_type", "Input should be a string or an array of input items")


def _option_or_object(value: Any) -> Any:
    if value is None or isinstance(value, str | dict):
        return value
    raise PydanticCustomError("choice_type", "Input should be a string or an object")


class StreamOptions(_Wire):
    include_obfuscation: bool | None = None


class ResponseCreateRequest(_Wire):
    """Every top-level field of the openai SDK's ``ResponseCreateParams``, no other (the
    conformance test compares them)."""

    model: str = Field(min_length=1)
    #: a string, or a list of items (validated one by one in :func:`input_messages`)
    input: Annotated[str | list[dict[str, Any]], BeforeValidator(_text_or_items)]
    instructions: str | None = None
    previous_response_id: str | None = Field(default=None, min_length=1, max_length=128)
    store: bool | None = None
    stream: bool | None = False
    stream_options: StreamOptions | None = None
    #: OpenAI's string map; ``session_id`` and ``language`` are read here.
    metadata: dict[str, str] | None = None
    # accepted and ignored: answers come from domains, not from sampling a language model
    temperature: float | None = Field(default=None, ge=0, le=2)
    top_p: float | None = Field(default=None, ge=0, le=1)
    max_output_tokens: int | None = Field(default=None, ge=1)
    max_tool_calls: int | None = Field(default=None, ge=0)
    parallel_tool_calls: bool | None = None
    user: str | None = None
    safety_identifier: str | None = None
    prompt_cache_key: str | None = None
    prompt_cache_retention: Literal["in_memory", "24h"] | None = None
    prompt_cache_options: dict[str, Any] | None = None
    service_tier: Literal["auto", "default", "flex", "scale", "priority", "fast", "ultrafast"] | None = None
    truncation: Literal["auto", "disabled"] | None = None
    reasoning: dict[str, Any] | None = None
    text: dict[str, Any] | None = None
    top_logprobs: int | None = Field(default=None, ge=0, le=20)
    access_programs: dict[str, Any] | None = None
    image: dict[str, Any] | None = None
    moderation: dict[str, Any] | None = None
    # defined by the API, refused by check_request when they ask for something this model lacks
    tools: list[dict[str, Any]] | None = None
    tool_choice: Annotated[str | dict[str, Any] | None, BeforeValidator(_option_or_object)] = None
    include: list[str] | None = None
    background: bool | None = None
    background_options: dict[str, Any] | None = None
    conversation: Annotated[str | dict[str, Any] | None, BeforeValidator(_option_or_object)] = None
    prompt: dict[str, Any] | None = None
    context_management: list[dict[str, Any]] | None = None


def _refuse(param: str, reason: str) -> InvalidRequest:
    return InvalidRequest(f"{param}: {reason}", param=param)


def _item(index: int, item: dict[str, Any]) -> InputMessage:
    where = f"input[{index}]"
    kind = item.get("type", "message")
    if kind != "message":
        raise _refuse(
            f"{where}.type", f"'{kind}' items are not supported; this model reads message items only"
        )
    try:
        message = InputMessage.model_validate(item)
    except ValidationError as exc:
        first = exc.errors()[0]
        param = f"{where}.{field_path(first['loc'])}" if first["loc"] else where
        if first["type"] == "extra_forbidden":
            raise InvalidRequest(f"Unrecognized request argument supplied: {param}", param=param) from None
        raise InvalidRequest(f"{param}: {first['msg']}", param=param) from None
    for part_index, part in enumerate(message.content if isinstance(message.content, list) else []):
        at = f"{where}.content[{part_index}]"
        if part.type in ("input_image", "input_file"):
            raise _refuse(f"{at}.type", f"'{part.type}' parts are not supported; this model reads text")
        needed = "refusal" if part.type == "refusal" else "text"
        if getattr(part, needed) is None:
            raise _refuse(f"{at}.{needed}", "Field required")
    return message


def input_messages(body: ResponseCreateRequest) -> list[InputMessage]:
    """The request's input as messages (a string is one user message)."""
    if isinstance(body.input, str):
        return [InputMessage(role="user", content=body.input)]
    return [_item(i, item) for i, item in enumerate(body.input)]


def _check_metadata(metadata: dict[str, str]) -> None:
    for key, value in metadata.items():
        if len(key) > METADATA_KEY_MAX:
            raise _refuse("metadata", f"keys are at most {METADATA_KEY_MAX} characters")
        if len(value) > METADATA_VALUE_MAX:
            raise _refuse(f"metadata.{key}", f"values are at most {METADATA_VALUE_MAX} characters")


def check_request(body: ResponseCreateRequest) -> None:
    """What the types cannot say: the input items, and the options this platform cannot honour,
    refused rather than silently ignored."""
    if isinstance(body.input, list) and not body.input:
        raise _refuse("input", "at least one input item is required")
    input_messages(body)
    _check_metadata(body.metadata or {})
    if body.stream_options is not None and not body.stream:
        raise _refuse("stream_options", "only allowed when stream is true")
    if body.tools:
        raise _refuse("tools", "this model calls no tools (send no tools, or an empty list)")
    if body.tool_choice is not None and body.tool_choice not in ("auto", "none"):
        raise _refuse("tool_choice", "this model never calls tools; use 'auto' or 'none'")
    if body.include:
        raise _refuse("include", "no additional output data is available from this model")
    if body.background:
        raise _refuse("background", "background responses are not supported; use stream instead")
    if body.conversation is not None:
        raise _refuse("conversation", "conversations are not supported; use previous_response_id")
    if body.prompt is not None:
        raise _refuse("prompt", "prompt templates are not supported")
    if body.context_management:
        raise _refuse("context_management", "context management is not supported")
    if body.top_logprobs:
        raise _refuse("top_logprobs", "log probabilities are not available from this model")
    format_type = ((body.text or {}).get("format") or {}).get("type", "text")
    if format_type != "text":
        raise _refuse("text.format.type", f"'{format_type}' is not supported; this model answers with text")


# ------------------------------------------------------------------ what goes back


def output_message(message_id: str, text: str | None) -> dict[str, Any]:
    """The assistant message item: in progress with no content (``text is None``), or completed."""
    if text is None:
        return {
            "id": message_id,
            "type": "message",
            "status": "in_progress",
            "role": "assistant",
            "content": [],
        }
    return {
        "id": message_id,
        "type": "message",
        "status": "completed",
        "role": "assistant",
        "content": [output_text(text)],
    }


def output_text(text: str) -> dict[str, Any]:
    return {"type": "output_text", "text": text, "annotations": [], "logprobs": []}


def usage(input_tokens: int, output_tokens: int) -> dict[str, Any]:
    return {
        "input_tokens": input_tokens,
        "input_tokens_details": {"cached_tokens": 0, "cache_write_tokens": 0},
        "output_tokens": output_tokens,
        "output_tokens_details": {"reasoning_tokens": 0},
        "total_tokens": input_tokens + output_tokens,
    }


def response_body(
    body: ResponseCreateRequest,
    *,
    response_id: str,
    created_at: int,
    status: Literal["in_progress", "completed", "failed"],
    output: list[dict[str, Any]],
    usage_: dict[str, Any] | None = None,
    completed_at: int | None = None,
    error: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """A ``Response`` object, echoing the request's settings the way OpenAI does."""
    return {
        "id": response_id,
        "object": "response",
        "created_at": created_at,
        "status": status,
        "background": False,
        "completed_at": completed_at,
        "error": error,
        "incomplete_details": None,
        "instructions": body.instructions,
        "max_output_tokens": body.max_output_tokens,
        "max_tool_calls": body.max_tool_calls,
        "model": body.model,
        "output": output,
        "parallel_tool_calls": body.parallel_tool_calls if body.parallel_tool_calls is not None else True,
        "previous_response_id": body.previous_response_id,
        "prompt_cache_key": body.prompt_cache_key,
        "reasoning": {"effort": None, "summary": None},
        "safety_identifier": body.safety_identifier,
        "service_tier": "default",
        "temperature": body.temperature if body.temperature is not None else 1.0,
        "text": {"format": {"type": "text"}, "verbosity": "medium"},
        "tool_choice": body.tool_choice if isinstance(body.tool_choice, str) else "auto",
        "tools": [],
        "top_logprobs": 0,
        "top_p": body.top_p if body.top_p is not None else 1.0,
        "truncation": body.truncation or "disabled",
        "usage": usage_,
        "user": body.user,
        "metadata": body.metadata or {},
    }
