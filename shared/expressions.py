"""Conditions and selections in plans: their syntax, JMESPath (https://jmespath.org), a small
query language over JSON with a specification, no side effects and no ``eval``. Parsed here, below
the planner (which validates plans) and the executor (which evaluates them:
:mod:`execution.expressions`).

An expression reads the outputs of earlier steps as one document, ``{"step1": <output of step 1>,
"step2": ...}``, each output with its ``status``, ``result``, ``explanation``, ``confidence`` and
``metadata``. It appears in two places:

* a step's ``when``: the step runs only when the expression is truthy (JMESPath truthiness:
  ``null``, ``false``, ``""``, ``[]`` and ``{}`` are false); otherwise it is ``skipped`` and the
  trace says why;
* a parameter value ``${= <expression>}``: replaced by the expression's value (with its type when
  it is the whole value, as text when it is embedded in other text).

>>> sorted(steps_named(compile_expression("step1.result.price < `200` && step3.status == 'success'")))
[1, 3]
>>> split_text("Maior alta: ${= step1.result.movers[0].symbol} hoje")
['Maior alta: ', Expression(text='step1.result.movers[0].symbol'), ' hoje']
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass
from typing import Any

import jmespath
import jmespath.exceptions
from jmespath.parser import ParsedResult

from shared.errors import PlanError

#: Opens an expression inside a parameter value; ``$${=`` is a literal (``shared.references.escape``).
OPEN = "${="
#: How an expression names step N's output.
STEP_FIELD = re.compile(r"step(\d+)")
#: Node types whose first child is read where the node is, and the others relative to it.
_CHAINED = frozenset({"subexpression", "index_expression", "pipe", "projection", "filter_projection"})
#: Node types whose children are all read relative to something else (``&expr``).
_RELATIVE = frozenset({"expref"})


class ExpressionError(PlanError):
    """An expression that does not parse, names no earlier step, or fails when evaluated."""


@dataclass(frozen=True)
class Expression:
    """One ``${= ...}`` found in a parameter value."""

    text: str


def compile_expression(text: str) -> ParsedResult:
    """The parsed expression; ``ExpressionError`` (with JMESPath's own words) when it does not parse."""
    try:
        return _compile(text.strip())
    except jmespath.exceptions.JMESPathError as exc:
        raise ExpressionError(
            f"invalid expression {text.strip()!r}: {_first_line(exc)}", param=text
        ) from None


@functools.lru_cache(maxsize=1024)
def _compile(text: str) -> ParsedResult:
    if not text:
        raise jmespath.exceptions.EmptyExpressionError()
    return jmespath.compile(text)


def steps_named(parsed: ParsedResult) -> set[int]:
    """The steps the expression reads (``stepN`` fields at the document's top level only: a
    ``step2`` key inside some result is not a step)."""
    return _top_fields(parsed.parsed, rooted=True)


def _top_fields(node: Any, *, rooted: bool) -> set[int]:
    if not isinstance(node, dict):
        return set()
    kind = node.get("type")
    if kind == "field":
        match = STEP_FIELD.fullmatch(str(node.get("value", "")))
        return {int(match.group(1))} if rooted and match else set()
    children = node.get("children") or []
    found: set[int] = set()
    for index, child in enumerate(children):
        at_root = rooted and kind not in _RELATIVE and (kind not in _CHAINED or index == 0)
        found |= _top_fields(child, rooted=at_root)
    return found


def split_text(text: str) -> list[str | Expression]:
    """``text`` cut into literal parts and ``${= ...}`` expressions. The closing ``}`` is found
    by counting braces outside JMESPath's quoted literals, so ``{a: b}`` and ``'}'`` may appear
    inside. ``$${=`` stays literal. ``ExpressionError`` for an expression never closed."""
    parts: list[str | Expression] = []
    literal: list[str] = []
    index = 0
    while index < len(text):
        if text.startswith("$${", index):  # an escaped literal: copied as it is, for the next pass
            literal.append("$${")
            index += 3
            continue
        if not text.startswith(OPEN, index):
            literal.append(text[index])
            index += 1
            continue
        end = _closing_brace(text, index + len(OPEN))
        if end is None:
            raise ExpressionError(f"expression not closed with '}}' in {text!r}", param=text)
        if literal:
            parts.append("".join(literal))
            literal = []
        parts.append(Expression(text[index + len(OPEN) : end].strip()))
        index = end + 1
    if literal:
        parts.append("".join(literal))
    return parts


def _closing_brace(text: str, start: int) -> int | None:
    depth, quote, index = 1, "", start
    while index < len(text):
        char = text[index]
        if quote:
            if char == "\\":
                index += 1
            elif char == quote:
                quote = ""
        elif char in "'`\"":
            quote = char
        elif char == "{":
            depth += 1
        elif char == "}":
            depth -= 1
            if depth == 0:
                return index
        index += 1
    return None


def expressions_in(value: object) -> list[str]:
    """Every ``${= ...}`` expression in ``value`` (recursing into dicts and lists)."""
    if isinstance(value, str):
        return [p.text for p in split_text(value) if isinstance(p, Expression)] if OPEN in value else []
    if isinstance(value, dict):
        return [e for v in value.values() for e in expressions_in(v)]
    if isinstance(value, list):
        return [e for v in value for e in expressions_in(v)]
    return []


def _first_line(exc: Exception) -> str:
    return str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__


def truthy(value: object) -> bool:
    """JMESPath's truth: empty lists, objects and strings, ``null`` and ``false`` are false."""
    return value not in (None, False, "", [], {})
