"""What OpenAI's two chat APIs (Chat Completions and Responses) share: the message a turn answers,
the model a request pins, the session a conversation continues, the turn's entry, token estimates
and how an answer is cut into streamed pieces.

>>> list(answer_pieces("one two three"))
['one', ' two', ' three']
>>> count_tokens("two words")
2
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from typing import Any, Protocol

from fastapi import Request

from gateway.deps import SESSION_HEADERS, RegistryDep, new_session_id, session_id_from
from gateway.storage.history import ConversationPoints, Utterance, session_for_history
from gateway.turns.turn import TurnService
from shared.errors import InvalidRequest, NotFound
from shared.models import EntryRequest

#: Streamed answers go out in about this many pieces: clients render progressively.
STREAM_PIECES = 8


class WireMessage(Protocol):
    """A chat message of either API: a role and the text of its content."""

    @property
    def role(self) -> str: ...

    def text(self) -> str: ...


def count_tokens(text: str) -> int:
    """A token estimate (whitespace words): no tokenizer is involved in answering."""
    return len(text.split())


def last_user_message(messages: Sequence[WireMessage], *, param: str, what: str) -> tuple[int, str]:
    """The index and text of the last user message with text: the one the turn answers."""
    for index in range(len(messages) - 1, -1, -1):
        text = messages[index].text().strip()
        if messages[index].role == "user" and text:
            return index, text
    raise InvalidRequest(f"{what} must contain at least one user message with text", param=param)


def pinned_domain(model: str, settings_model: str, registry: RegistryDep) -> str | None:
    """The domain a ``<model>:<domain>`` model name pins the turn to (``None``: the whole catalog)."""
    if model == settings_model:
        return None
    prefix = f"{settings_model}:"
    if model.startswith(prefix) and model[len(prefix) :] in registry.catalog.domains:
        return model[len(prefix) :]
    raise NotFound(f"The model '{model}' does not exist", param="model", details=None)


def has_session_hint(request: Request, metadata: Mapping[str, Any] | None) -> bool:
    """The client named its session (a session header or ``metadata.session_id``)."""
    named = any((request.headers.get(h) or "").strip() for h in SESSION_HEADERS)
    return named or bool(str((metadata or {}).get("session_id") or "").strip())


async def conversation_session(
    request: Request,
    metadata: dict[str, Any] | None,
    history: list[Utterance],
    turns: TurnService,
    points: ConversationPoints,
    tenant: str,
) -> tuple[str, bool]:
    """The session of a turn, and whether it was derived from the resent ``history`` (whose turns
    then record their points): a named session, else the one the history continues (forked where
    it diverged), else a new one."""
    if has_session_hint(request, metadata):
        return session_id_from(request, metadata), False
    found = await session_for_history(
        points,
        turns.engine,
        turns.store,
        tenant=tenant,
        history=history,
        new_session_id=new_session_id(),
    )
    return found or new_session_id(), True


def turn_entry(
    session_id: str, text: str, metadata: Mapping[str, Any] | None, pinned: str | None
) -> EntryRequest:
    """The turn an OpenAI request asks for; ``metadata.session_id`` named the session already.
    The orchestrator CLI speaks this API and says so (``metadata.client: "cli"``): its sessions are
    the CLI's in the inspector."""
    return EntryRequest(
        session_id=session_id,
        input_text=text,
        channel="cli" if (metadata or {}).get("client") == "cli" else "openai",
        metadata={k: v for k, v in (metadata or {}).items() if k != "session_id"},
        pinned_domain=pinned,
    )


def answer_pieces(answer: str) -> Iterator[str]:
    """The answer as streamed pieces; joined, they give the answer back exactly."""
    words = answer.split(" ")
    size = max(1, len(words) // STREAM_PIECES)
    for i in range(0, len(words), size):
        piece = " ".join(words[i : i + size])
        yield piece if i == 0 else " " + piece
