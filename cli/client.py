"""The gateway, as the CLI sees it: one streamed turn, a session's pending question, its history.

HTTP failures become the CLI's own errors here, each with the exit status it ends the CLI with.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import httpx

from cli.stream import AnswerText, Piece, SseParser, StreamEnd, StreamError, decode

#: The gateway answers when the run is done; a plan may call several domains first.
READ_TIMEOUT_S = 300.0
CONNECT_TIMEOUT_S = 10.0


class CliError(Exception):
    """Anything that stops the CLI; ``exit_status`` is what the process exits with."""

    exit_status = 1

    def __init__(self, message: str, status: int | None = None):
        super().__init__(message)
        self.message = message
        self.status = status


class GatewayRefused(CliError):
    """The gateway answered with an error the person may fix in their message (400, 404, 409...)."""


class AuthRefused(CliError):
    exit_status = 3


class GatewayUnreachable(CliError):
    exit_status = 4


@dataclass(frozen=True)
class SessionStarted:
    """The turn's session id, as the gateway chose or confirmed it (``X-Session-Id``)."""

    session_id: str


TurnPiece = SessionStarted | Piece


def _error_message(response: httpx.Response) -> str:
    try:
        body = response.json()
    except ValueError:
        return response.text.strip()[:200] or response.reason_phrase
    error = body.get("error") if isinstance(body, dict) else None
    if isinstance(error, dict) and error.get("message"):
        return str(error["message"])
    return str(body)[:200]


def _raise_for(response: httpx.Response) -> None:
    if response.status_code < 400:
        return
    message = _error_message(response)
    if response.status_code in (401, 403):
        raise AuthRefused(message, response.status_code)
    raise GatewayRefused(message, response.status_code)


def _unreachable(exc: httpx.HTTPError) -> GatewayUnreachable:
    reason = str(exc) or exc.__class__.__name__
    return GatewayUnreachable(reason)


class GatewayClient:
    def __init__(self, url: str, api_key: str | None, model: str = "orchestrator"):
        headers = {"Authorization": f"Bearer {api_key}"} if api_key else {}
        self.url = url
        self.model = model
        self._http = httpx.Client(
            base_url=url,
            headers=headers,
            timeout=httpx.Timeout(READ_TIMEOUT_S, connect=CONNECT_TIMEOUT_S),
        )

    def close(self) -> None:
        self._http.close()

    def __enter__(self) -> GatewayClient:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _get(self, path: str) -> httpx.Response:
        try:
            response = self._http.get(path)
        except httpx.HTTPError as exc:
            raise _unreachable(exc) from None
        _raise_for(response)
        return response

    def check(self) -> None:
        """Reachable and the key accepted: ``/v1/models`` is behind the same key as the chat."""
        self._get("/v1/models")

    def turn(self, text: str, session_id: str | None, *, progress: bool = True) -> Iterator[TurnPiece]:
        """One message, streamed: its session first, then progress and answer text as they arrive.

        ``progress`` asks the gateway for a line per step in the person's language (opt-in there,
        so that plain OpenAI clients get only the answer)."""
        # "client": the gateway labels the session as the CLI's (the inspector's channel)
        metadata = {"client": "cli", **({"show_progress": "true"} if progress else {})}
        body: dict[str, Any] = {
            "model": self.model,
            "stream": True,
            "messages": [{"role": "user", "content": text}],
            "metadata": metadata,
        }
        headers = {"X-Session-Id": session_id} if session_id else {}
        try:
            with self._http.stream("POST", "/v1/chat/completions", json=body, headers=headers) as response:
                if response.status_code >= 400:
                    response.read()
                    _raise_for(response)
                yield SessionStarted(response.headers.get("x-session-id") or session_id or "")
                for event in SseParser().events(response.iter_lines()):
                    for piece in decode(event.data):
                        yield piece
                        if isinstance(piece, StreamEnd):
                            return
        except httpx.HTTPError as exc:
            raise _unreachable(exc) from None

    def ask(self, text: str, session_id: str | None) -> tuple[str, str]:
        """The whole answer to one message (no progress lines: a script reads it), and its session."""
        session, parts = session_id or "", []
        for piece in self.turn(text, session_id, progress=False):
            if isinstance(piece, SessionStarted):
                session = piece.session_id
            elif isinstance(piece, AnswerText):
                parts.append(piece.text)
            elif isinstance(piece, StreamError):
                raise GatewayRefused(piece.message)
        return "".join(parts), session

    def session(self, session_id: str) -> dict[str, Any] | None:
        """``GET /v1/sessions/{id}``, or ``None`` when there is no such session."""
        try:
            return dict(self._get(f"/v1/sessions/{session_id}").json())
        except GatewayRefused as exc:
            if exc.status == 404:
                return None
            raise

    def history(self, session_id: str) -> dict[str, Any] | None:
        try:
            return dict(self._get(f"/v1/sessions/{session_id}/history").json())
        except GatewayRefused as exc:
            if exc.status == 404:
                return None
            raise
