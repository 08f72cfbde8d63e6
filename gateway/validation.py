"""Boundary checks: what a client sends is refused here, with 400 naming the field, before any
handler runs, so no side effect (a domain call, a stored turn) happens for a request that would
fail later, when the text reaches a database or a response header.

- every text (JSON strings and keys, path and query values): no NUL character (PostgreSQL's
  ``text`` and ``jsonb`` refuse it) and no lone surrogate (there is no UTF-8 for it);
- every JSON number: integers within a 64-bit column, floats finite (Python's JSON parser
  accepts ``NaN`` and ``Infinity``, which no store does);
- session ids (``session_id``, ``new_session_id``, ``metadata.session_id``, the session headers):
  1 to 128 printable Latin-1 characters, since the id goes back in the ``X-Session-Id`` header;
- messages (chat completions' ``messages``, the Responses API's ``input`` and ``instructions``,
  the runs route's ``input_text``): at most ``MAX_MESSAGE_CHARS`` characters of text each.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from typing import Any

from shared.errors import InvalidRequest

MAX_SESSION_ID = 128
INT64_MIN, INT64_MAX = -(2**63), 2**63 - 1
#: Body fields that name a session, checked as session ids wherever a route reads them.
SESSION_ID_FIELDS = ("session_id", "new_session_id")


def text_problem(value: str) -> str | None:
    """Why ``value`` cannot be stored as text, or None.

    >>> text_problem("olá"), text_problem("a\\x00b") is not None, text_problem("\\ud800") is not None
    (None, True, True)
    """
    if "\x00" in value:
        return "must not contain NUL characters (\\u0000)"
    if not value.isascii():
        try:
            value.encode("utf-8")
        except UnicodeEncodeError:
            return "must be valid Unicode text (it contains a lone surrogate)"
    return None


def _refuse(param: str, reason: str) -> InvalidRequest:
    return InvalidRequest(f"{param}: {reason}", param=param)


def check_text(value: str, param: str) -> str:
    problem = text_problem(value)
    if problem is not None:
        raise _refuse(param, problem)
    return value


def check_session_id(value: str, param: str = "session_id") -> str:
    """``value`` if it is a usable session id, else a 400 naming ``param``.

    >>> check_session_id("chat-42")
    'chat-42'
    >>> check_session_id("会话")
    Traceback (most recent call last):
    ...
    shared.errors.InvalidRequest: session_id: a session id is 1 to 128 printable Latin-1 characters
    """
    if not 0 < len(value) <= MAX_SESSION_ID or not value.isprintable() or not _latin1(value):
        raise _refuse(param, f"a session id is 1 to {MAX_SESSION_ID} printable Latin-1 characters")
    return value


def _latin1(value: str) -> bool:
    try:
        value.encode("latin-1")
    except UnicodeEncodeError:
        return False
    return True


def _int64(value: int) -> bool:
    return INT64_MIN <= value <= INT64_MAX


#: Where a JSON value sits: ``(parent, key)``, ``None`` for the document; a string only for an error.
_Path = tuple[Any, str | int] | None


def _where(path: _Path) -> str:
    """``(((None, "messages"), 1), "content")`` -> ``messages[1].content``; the document: ``body``."""
    keys: list[str | int] = []
    while path is not None:
        path, key = path
        keys.append(key)
    out = ""
    for key in reversed(keys):
        out += f"[{key}]" if isinstance(key, int) else (f".{key}" if out else key)
    return out or "body"


def _bad_text(value: str) -> bool:
    return "\x00" in value or (not value.isascii() and text_problem(value) is not None)


def check_json(value: Any) -> None:
    """Every string, key and number of a parsed JSON document (iteratively: a deep document must
    not exhaust the stack), the first bad one refused with its path in ``param``.

    >>> check_json({"messages": [{"content": "ok"}, {"content": "a\\x00"}]})
    Traceback (most recent call last):
    ...
    shared.errors.InvalidRequest: messages[1].content: must not contain NUL characters (\\u0000)
    """
    # json.loads builds exact types only, so ``type(x) is`` dispatch is enough (and cheaper)
    stack: list[tuple[Any, _Path]] = [(value, None)]
    while stack:
        item, path = stack.pop()
        kind = type(item)
        if kind is str:
            if _bad_text(item):
                check_text(item, _where(path))
        elif kind is dict:
            children = []
            for key, child in item.items():
                if _bad_text(key):  # the key itself cannot be shown: name its object
                    raise _refuse(_where(path), f"a key {text_problem(key)}")
                children.append((child, (path, key)))
            stack.extend(reversed(children))  # popped in document order
        elif kind is list:
            stack.extend((item[i], (path, i)) for i in range(len(item) - 1, -1, -1))
        elif kind is int:
            if not _int64(item):
                raise _refuse(_where(path), "integer out of range (a signed 64-bit integer at most)")
        elif kind is float and not math.isfinite(item):
            raise _refuse(_where(path), "must be a finite number")


def message_chars(content: Any) -> int:
    """The text a chat message's ``content`` carries: a string, or the ``text`` of its parts."""
    if isinstance(content, str):
        return len(content)
    if isinstance(content, list):
        return sum(len(p["text"]) for p in content if isinstance(p, dict) and isinstance(p.get("text"), str))
    return 0


def check_messages(messages: Iterable[Any], max_chars: int, field: str = "messages") -> None:
    for index, message in enumerate(messages):
        if isinstance(message, dict) and message_chars(message.get("content")) > max_chars:
            raise _refuse(f"{field}[{index}].content", f"a message is at most {max_chars} characters of text")


def check_message_text(text: str, max_chars: int, field: str) -> None:
    if len(text) > max_chars:
        raise _refuse(field, f"a message is at most {max_chars} characters of text")


def check_session_fields(body: Mapping[str, Any]) -> None:
    for name in SESSION_ID_FIELDS:
        value = body.get(name)
        if isinstance(value, str) and value.strip():
            check_session_id(value.strip(), name)
    metadata = body.get("metadata")
    if isinstance(metadata, dict):
        value = metadata.get("session_id")
        if isinstance(value, str) and value.strip():
            check_session_id(value.strip(), "metadata.session_id")


def check_body(body: Any, *, max_message_chars: int) -> None:
    """Every check of this module that applies to a parsed JSON request body."""
    check_json(body)
    if isinstance(body, dict):
        check_session_fields(body)
        messages = body.get("messages")  # chat completions
        if isinstance(messages, list):
            check_messages(messages, max_message_chars)
        given = body.get("input")  # the Responses API: a text or a list of input items
        if isinstance(given, str):
            check_message_text(given, max_message_chars, "input")
        elif isinstance(given, list):
            check_messages(given, max_message_chars, "input")
        for field in ("input_text", "instructions"):  # the native runs route; Responses' instructions
            value = body.get(field)
            if isinstance(value, str):
                check_message_text(value, max_message_chars, field)


def check_params(params: Mapping[str, str]) -> None:
    """Path or query parameters (their names are the routes' own; their values the client's)."""
    for name, value in params.items():
        check_text(value, name)
        # a number the route reads as an int must fit a 64-bit column too (an SQL offset...)
        digits = value[1:] if value[:1] in "+-" else value
        size = len(digits.lstrip("0"))  # int() of thousands of digits raises: no need to parse
        if digits.isascii() and digits.isdigit() and (size > 19 or (size == 19 and not _int64(int(value)))):
            raise _refuse(name, "integer out of range (a signed 64-bit integer at most)")
