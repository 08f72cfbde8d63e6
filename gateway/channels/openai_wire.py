"""The Chat Completions request as the OpenAI API defines it, validated strictly.

Types are strict (``"stream": "yes"`` is not a boolean) and a field the API does not define is
refused the way OpenAI refuses it ("Unrecognized request argument supplied: X"). Fields the API
defines but this platform cannot honour are refused by :func:`check_request` with the field in
``param``; the rest are accepted and ignored (sampling, tools the model never calls, ``user``…).

>>> body = ChatCompletionRequest.model_validate(
...     {"model": "orchestrator", "messages": [{"role": "user", "content": "oi"}], "temperature": 0.2})
>>> check_request(body); body.messages[0].text()
'oi'
>>> check_request(ChatCompletionRequest.model_validate(
...     {"model": "m", "messages": [{"role": "user", "content": "x"}], "n": 2}))
Traceback (most recent call last):
...
shared.errors.InvalidRequest: n: only n=1 is supported (this model answers with one choice)
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, BeforeValidator, ConfigDict, Field
from pydantic_core import PydanticCustomError

from shared.errors import InvalidRequest


class _Wire(BaseModel):
    model_config = ConfigDict(strict=True, extra="forbid")


def _content_as_parts(value: Any) -> Any:
    """A string is one text part; parts and ``null`` go on to be validated as they are."""
    if isinstance(value, str):
        return [{"type": "text", "text": value}]
    if value is None or isinstance(value, list):
        return value
    raise PydanticCustomError("content_type", "Input should be a string or an array of content parts")


def _one_of_text_or_texts(value: Any) -> Any:
    if value is None or isinstance(value, str):
        return value
    if isinstance(value, list) and len(value) <= 4 and all(isinstance(v, str) for v in value):
        return value
    raise PydanticCustomError("stop_type", "Input should be a string or an array of up to 4 strings")


def _tool_choice(value: Any) -> Any:
    if value is None or isinstance(value, str | dict):
        return value
    raise PydanticCustomError("choice_type", "Input should be a string or an object")


class ContentPart(_Wire):
    type: Literal["text", "image_url", "input_audio", "file", "refusal"]
    text: str | None = None
    refusal: str | None = None
    image_url: dict[str, Any] | None = None
    input_audio: dict[str, Any] | None = None
    file: dict[str, Any] | None = None
    prompt_cache_breakpoint: dict[str, Any] | None = None


Role = Literal["system", "developer", "user", "assistant", "tool", "function"]


class ChatMessage(_Wire):
    role: Role
    content: Annotated[list[ContentPart] | None, BeforeValidator(_content_as_parts)] = None
    name: str | None = None
    tool_calls: list[dict[str, Any]] | None = None
    tool_call_id: str | None = None
    function_call: dict[str, Any] | None = None
    refusal: str | None = None
    audio: dict[str, Any] | None = None

    def text(self) -> str:
        return " ".join(p.text for p in self.content or [] if p.type == "text" and p.text)


class StreamOptions(_Wire):
    include_usage: bool = False
    include_obfuscation: bool | None = None


class ChatCompletionRequest(_Wire):
    """Every top-level field of the OpenAI API's ``CompletionCreateParams``, no other (the
    conformance test compares them with the openai SDK's own list)."""

    model: str = Field(min_length=1)
    messages: list[ChatMessage] = Field(min_length=1)
    stream: bool | None = False
    stream_options: StreamOptions | None = None
    #: OpenAI's string map; ``session_id``, ``language`` and ``show_progress`` are read here.
    metadata: dict[str, Any] | None = None
    n: int | None = Field(default=None, ge=1, le=128)
    # accepted and ignored: answers come from domains, not from sampling a language model
    temperature: float | None = Field(default=None, ge=0, le=2)
    top_p: float | None = Field(default=None, ge=0, le=1)
    frequency_penalty: float | None = Field(default=None, ge=-2, le=2)
    presence_penalty: float | None = Field(default=None, ge=-2, le=2)
    max_tokens: int | None = Field(default=None, ge=1)
    max_completion_tokens: int | None = Field(default=None, ge=1)
    logit_bias: dict[str, int] | None = None
    logprobs: bool | None = None
    top_logprobs: int | None = Field(default=None, ge=0, le=20)
    seed: int | None = None
    stop: Annotated[Any, BeforeValidator(_one_of_text_or_texts)] = None
    user: str | None = None
    safety_identifier: str | None = None
    prompt_cache_key: str | None = None
    prompt_cache_retention: Literal["in_memory", "24h"] | None = None
    prompt_cache_options: dict[str, Any] | None = None
    store: bool | None = None
    service_tier: Literal["auto", "default", "flex", "scale", "priority", "fast"] | None = None
    reasoning_effort: Literal["none", "minimal", "low", "medium", "high", "xhigh", "max"] | None = None
    verbosity: Literal["low", "medium", "high"] | None = None
    modalities: list[Literal["text", "audio"]] | None = None
    audio: dict[str, Any] | None = None
    prediction: dict[str, Any] | None = None
    web_search_options: dict[str, Any] | None = None
    moderation: dict[str, Any] | None = None
    # tools are offered to the model; it answers without calling any, which the API allows
    tools: list[dict[str, Any]] | None = None
    tool_choice: Annotated[Any, BeforeValidator(_tool_choice)] = None
    parallel_tool_calls: bool | None = None
    functions: list[dict[str, Any]] | None = None
    function_call: Annotated[Any, BeforeValidator(_tool_choice)] = None
    response_format: dict[str, Any] | None = None


#: The message fields each role may carry (the openai SDK's message param types).
ROLE_FIELDS: dict[str, frozenset[str]] = {
    "system": frozenset({"role", "content", "name"}),
    "developer": frozenset({"role", "content", "name"}),
    "user": frozenset({"role", "content", "name"}),
    "assistant": frozenset({"role", "content", "name", "tool_calls", "function_call", "refusal", "audio"}),
    "tool": frozenset({"role", "content", "tool_call_id"}),
    "function": frozenset({"role", "content", "name"}),
}
#: The content part types each role may send.
ROLE_PARTS: dict[str, frozenset[str]] = {
    "system": frozenset({"text"}),
    "developer": frozenset({"text"}),
    "tool": frozenset({"text"}),
    "function": frozenset({"text"}),
    "user": frozenset({"text", "image_url", "input_audio", "file"}),
    "assistant": frozenset({"text", "refusal"}),
}
METADATA_KEY_MAX = 64
METADATA_VALUE_MAX = 512


def _check_message(index: int, message: ChatMessage) -> None:
    where = f"messages[{index}]"
    for name in sorted(message.model_fields_set - ROLE_FIELDS[message.role]):
        raise InvalidRequest(
            f"Unrecognized request argument supplied: {where}.{name} "
            f"(not a field of {message.role} messages)",
            param=f"{where}.{name}",
        )
    if message.role == "assistant":
        if message.content is None and not (message.tool_calls or message.function_call):
            raise InvalidRequest(
                f"{where}.content: an assistant message needs content unless it has tool_calls",
                param=f"{where}.content",
            )
    elif message.role == "function":
        if "content" not in message.model_fields_set or not message.name:
            missing = "content" if "content" not in message.model_fields_set else "name"
            raise InvalidRequest(
                f"{where}.{missing}: Field required for function messages", param=f"{where}.{missing}"
            )
    elif message.content is None:
        raise InvalidRequest(
            f"{where}.content: Field required for {message.role} messages", param=f"{where}.content"
        )
    if message.role == "tool" and not message.tool_call_id:
        raise InvalidRequest(
            f"{where}.tool_call_id: Field required for tool messages", param=f"{where}.tool_call_id"
        )
    for part_index, part in enumerate(message.content or []):
        at = f"{where}.content[{part_index}]"
        if part.type not in ROLE_PARTS[message.role]:
            raise InvalidRequest(
                f"{at}.type: {message.role} messages may not contain '{part.type}' parts", param=f"{at}.type"
            )
        needed = "refusal" if part.type == "refusal" else "text" if part.type == "text" else None
        if needed and getattr(part, needed) is None:
            raise InvalidRequest(f"{at}.{needed}: Field required", param=f"{at}.{needed}")


def _check_metadata(metadata: dict[str, Any]) -> None:
    for key, value in metadata.items():
        if len(key) > METADATA_KEY_MAX:
            raise InvalidRequest(
                f"metadata: keys are at most {METADATA_KEY_MAX} characters", param=f"metadata.{key[:20]}…"
            )
        # OpenAI's metadata is strings; booleans and numbers are accepted too (show_progress: true)
        if isinstance(value, str):
            if len(value) > METADATA_VALUE_MAX:
                raise InvalidRequest(
                    f"metadata.{key}: values are at most {METADATA_VALUE_MAX} characters",
                    param=f"metadata.{key}",
                )
        elif not isinstance(value, bool | int | float):
            raise InvalidRequest(f"metadata.{key}: Input should be a valid string", param=f"metadata.{key}")


def _refuse(param: str, reason: str) -> InvalidRequest:
    return InvalidRequest(f"{param}: {reason}", param=param)


def check_request(body: ChatCompletionRequest) -> None:
    """What the types cannot say: per-role message fields, and the options this platform cannot
    honour, refused rather than silently ignored."""
    for index, message in enumerate(body.messages):
        _check_message(index, message)
    _check_metadata(body.metadata or {})
    if body.stream_options is not None and not body.stream:
        raise _refuse("stream_options", "only allowed when stream is true")
    if body.n is not None and body.n > 1:
        raise _refuse("n", "only n=1 is supported (this model answers with one choice)")
    if body.logprobs:
        raise _refuse("logprobs", "log probabilities are not available from this model")
    if body.modalities and "audio" in body.modalities:
        raise _refuse("modalities", "this model answers with text only")
    format_type = (body.response_format or {}).get("type", "text")
    if format_type != "text":
        raise _refuse(
            "response_format.type", f"'{format_type}' is not supported; this model answers with text"
        )
    for field in ("tool_choice", "function_call"):
        choice = getattr(body, field)
        if choice == "required" or isinstance(choice, dict):
            raise _refuse(field, "this model never calls tools; use 'auto' or 'none'")
        if choice is not None and choice not in ("auto", "none"):
            raise _refuse(field, "Input should be 'none', 'auto', 'required' or a named tool")


def show_progress(metadata: dict[str, Any] | None) -> bool:
    """``metadata.show_progress``: ``true`` as a boolean or as OpenAI's string values."""
    value = (metadata or {}).get("show_progress")
    if isinstance(value, str):
        return value.strip().lower() in ("true", "1", "yes", "on")
    return value is True
