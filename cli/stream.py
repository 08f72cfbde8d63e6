"""Reading ``/v1/chat/completions`` with ``stream: true``: Server-Sent Events into typed pieces.

The parser follows the SSE format (``data:`` lines joined, a blank line ends an event, ``:``
lines are comments such as keep-alive pings); :func:`decode` turns one event's data into what
the terminal shows: answer text, progress text, an error, or the end.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any

DONE = "[DONE]"


@dataclass(frozen=True)
class SseEvent:
    data: str
    event: str = "message"


@dataclass
class SseParser:
    """Feed it lines (without their line break); it hands back each complete event.

    >>> parser = SseParser()
    >>> [parser.feed(line) for line in [": ping", "event: step", "data: {\\"a\\":", "data: 1}", ""]]
    [None, None, None, None, SseEvent(data='{"a":\\n1}', event='step')]
    """

    _data: list[str] = field(default_factory=list)
    _event: str = "message"

    def feed(self, line: str) -> SseEvent | None:
        if not line:
            if not self._data:
                self._event = "message"
                return None
            event = SseEvent(data="\n".join(self._data), event=self._event)
            self._data, self._event = [], "message"
            return event
        if line.startswith(":"):
            return None
        name, _, value = line.partition(":")
        value = value.removeprefix(" ")
        if name == "data":
            self._data.append(value)
        elif name == "event":
            self._event = value
        return None

    def events(self, lines: Iterable[str]) -> Iterator[SseEvent]:
        """Every event in ``lines``, the last one included even without its closing blank line."""
        for line in lines:
            event = self.feed(line.rstrip("\r"))
            if event is not None:
                yield event
        last = self.feed("")
        if last is not None:
            yield last


@dataclass(frozen=True)
class AnswerText:
    text: str


@dataclass(frozen=True)
class ProgressText:
    text: str


@dataclass(frozen=True)
class StreamError:
    message: str


@dataclass(frozen=True)
class StreamEnd:
    pass


Piece = AnswerText | ProgressText | StreamError | StreamEnd


def _progress_text(progress: Any) -> str:
    """A progress field's human text, if it has one: a string, or a ``text``/``message``/``label``
    key. Machine-only progress (step ids, capability names) is not for people and is skipped."""
    if isinstance(progress, str):
        return progress.strip()
    if isinstance(progress, dict):
        for key in ("text", "message", "label", "description"):
            value = progress.get(key)
            if isinstance(value, str) and value.strip():
                return value.strip()
    return ""


def decode(data: str) -> list[Piece]:
    """What one ``data:`` payload of the stream shows.

    >>> decode('{"choices": [{"delta": {"content": "Olá"}}]}')
    [AnswerText(text='Olá')]
    >>> decode('{"choices": [{"delta": {"content": "", "progress": {"capability": "get_quote"}}}]}')
    []
    >>> decode('{"choices": [{"delta": {"progress": "Consultando a cotação…"}}]}')
    [ProgressText(text='Consultando a cotação…')]
    >>> decode('{"error": {"message": "domain down"}}'), decode("[DONE]")
    ([StreamError(message='domain down')], [StreamEnd()])
    """
    if data.strip() == DONE:
        return [StreamEnd()]
    try:
        body = json.loads(data)
    except ValueError:
        return []
    if not isinstance(body, dict):
        return []
    error = body.get("error")
    if isinstance(error, dict):
        return [StreamError(str(error.get("message") or error))]
    pieces: list[Piece] = []
    for choice in body.get("choices") or []:
        delta = choice.get("delta") if isinstance(choice, dict) else None
        if not isinstance(delta, dict):
            continue
        progress = _progress_text(delta.get("progress"))
        if progress:
            pieces.append(ProgressText(progress))
        content = delta.get("content")
        if isinstance(content, str) and content:
            pieces.append(AnswerText(content))
    return pieces
