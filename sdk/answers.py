"""What a capability answers with: :func:`clarify` and :func:`fail` build the typed
``clarification`` / ``failure`` fields of a :class:`~shared.models.DomainOutput`, :func:`option`
one answer a person may pick; :func:`error_body` is an HTTP error in the OpenAI error shape."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from shared.errors import ErrorBody
from shared.models import Clarification, ClarificationOption, ContinueWith, DomainOutput, Failure


def error_body(
    message: str, code: str, param: str | None = None, type_: str = "invalid_request_error"
) -> ErrorBody:
    """The body of an HTTP error answer, in the OpenAI error shape the gateway also uses."""
    return {"error": {"message": message, "type": type_, "param": param, "code": code}}


def option(value: Any, label: str = "", *, aliases: Iterable[str] = (), **data: Any) -> ClarificationOption:
    """One answer the person may pick: ``value`` fills the clarification's ``param``, ``aliases``
    are other words a reply may name it by, ``data`` the domain's own fields about it.

    >>> option("NDA-FI.HE", "Nordea — Helsinki", aliases=["Helsinki"], currency="EUR").model_dump()
    {'value': 'NDA-FI.HE', 'label': 'Nordea — Helsinki', 'aliases': ['Helsinki'], 'data': {'currency': 'EUR'}}
    """
    return ClarificationOption(value=value, label=label, aliases=list(aliases), data=data)


def clarify(
    question: str,
    options: Iterable[ClarificationOption] = (),
    *,
    param: str | None = None,
    continue_with: str | ContinueWith | None = None,
    result: Mapping[str, object] | None = None,
    metadata: Mapping[str, object] | None = None,
    confidence: float = 1.0,
) -> DomainOutput:
    """Ask the person: pick one of ``options`` (the step runs again with ``param`` = the picked
    value), or keep talking (the next message goes to ``continue_with``, a capability name or a
    :class:`ContinueWith`). ``question`` is also the answer's ``explanation``.

    >>> out = clarify("Which Nordea?", [option("NDA-SE.ST", "Stockholm"), option("NDA-FI.HE", "Helsinki")],
    ...               param="symbol")
    >>> out.status, out.clarification.param, [o.value for o in out.clarification.options]
    ('clarification', 'symbol', ['NDA-SE.ST', 'NDA-FI.HE'])
    >>> clarify("And then?", continue_with="chat_reply").clarification.continue_with
    ContinueWith(capability='chat_reply', param='reply')

    Options nobody can pick are a mistake, caught here rather than ignored by the core:

    >>> clarify("Which one?", [option("a"), option("b")])
    Traceback (most recent call last):
    ...
    ValueError: options need the param their value fills (or a continue_with)
    """
    listed = list(options)
    if listed and param is None and continue_with is None:
        raise ValueError("options need the param their value fills (or a continue_with)")
    target = ContinueWith(capability=continue_with) if isinstance(continue_with, str) else continue_with
    return DomainOutput(
        status="clarification",
        explanation=question,
        result=dict(result or {}),
        confidence=confidence,
        clarification=Clarification(question=question, options=listed, param=param, continue_with=target),
        metadata=dict(metadata or {}),
    )


def fail(
    explanation: str,
    reason: str,
    *,
    recoverable: bool = False,
    suggestions: Iterable[Mapping[str, object]] | None = None,
    result: Mapping[str, object] | None = None,
    metadata: Mapping[str, object] | None = None,
) -> DomainOutput:
    """Say why it could not be done: ``reason`` is a stable code, ``recoverable`` tells the core
    that other parameters may succeed, ``suggestions`` are parameter patches worth retrying with.

    >>> out = fail("No 'Aple'.", "symbol_not_found", recoverable=True, suggestions=[{"symbol": "AAPL"}])
    >>> out.status, out.failure.reason, out.recoverable, out.failure.suggestions
    ('failure', 'symbol_not_found', True, [{'symbol': 'AAPL'}])
    >>> fail("No chat configured.", "missing_chat_id").recoverable
    False
    """
    return DomainOutput(
        status="failure",
        explanation=explanation,
        result=dict(result or {}),
        failure=Failure(
            reason=reason,
            recoverable=recoverable,
            suggestions=[dict(s) for s in suggestions or ()],
        ),
        metadata=dict(metadata or {}),
    )
