"""Server-Sent Events and the chat-completion chunks they carry."""

from __future__ import annotations

import json
from collections.abc import Mapping

from cli.stream import (
    AnswerText,
    ProgressText,
    SseEvent,
    SseParser,
    StreamEnd,
    StreamError,
    decode,
)


def chunk(delta: Mapping[str, object]) -> str:
    return json.dumps({"object": "chat.completion.chunk", "choices": [{"index": 0, "delta": delta}]})


def test_events_are_split_on_blank_lines_and_comments_are_skipped() -> None:
    lines = [": ping - 2024-01-01", "data: one", "", "", "event: step", "data: two", "data: lines", ""]
    assert list(SseParser().events(lines)) == [
        SseEvent("one"),
        SseEvent("two\nlines", event="step"),
    ]


def test_crlf_line_ends_and_a_missing_space_after_the_colon_are_read() -> None:
    assert list(SseParser().events(["data:x\r", "\r", "data: y\r"])) == [SseEvent("x"), SseEvent("y")]


def test_the_last_event_counts_even_without_its_blank_line() -> None:
    assert list(SseParser().events(["data: [DONE]"])) == [SseEvent("[DONE]")]


def test_answer_text_progress_error_and_end_are_told_apart() -> None:
    assert decode(chunk({"role": "assistant", "content": ""})) == []
    assert decode(chunk({"content": "O preço"})) == [AnswerText("O preço")]
    assert decode(chunk({"progress": "Consultando a cotação…"})) == [ProgressText("Consultando a cotação…")]
    assert decode(chunk({"progress": {"text": "Checking the price…", "status": "executing"}})) == [
        ProgressText("Checking the price…")
    ]
    assert decode(json.dumps({"error": {"message": "finance is down", "type": "server_error"}})) == [
        StreamError("finance is down")
    ]
    assert decode("[DONE]") == [StreamEnd()]


def test_machine_only_progress_shows_nothing() -> None:
    delta = {"content": "", "progress": {"step_id": 1, "capability": "get_stock_price", "status": "done"}}
    assert decode(chunk(delta)) == []


def test_what_is_not_a_chunk_is_ignored() -> None:
    assert decode("not json") == []
    assert decode("[1, 2]") == []
    assert decode(json.dumps({"choices": [{"delta": "odd"}, "odder"]})) == []
    assert decode(json.dumps({"choices": [], "usage": {"total_tokens": 3}})) == []
