"""The LLM adapter: any OpenAI-compatible ``/chat/completions`` endpoint, with the embedded
adapter as its safety net.

It sends the goal catalog and entity schemas and asks for structured output in OpenAI's nested
form (``response_format={"type": "json_schema", "json_schema": {"name", "strict", "schema"}}``)
built from the manifests. Servers that reject ``json_schema`` with a 400 get ``json_object``,
then a prompt-only request; the mode that worked is remembered. Every reply is validated against
the schema. Timeouts, HTTP errors and invalid replies fall back to the embedded adapter, and the
output says so (``adapter="llm->embedded"`` plus a note).

The LLM is never trusted with technical ids: entities outside the chosen goal's schema are
dropped, enum values must be schema values, and ``*_text`` values must occur in the text.
"""

from __future__ import annotations

import asyncio
import json
import logging
from typing import Any, Literal

import httpx
import jsonschema

from intent.base import IntentAdapter
from intent.entities import GoalEntityExtractor, normalised_in
from intent.settings import IntentSettings
from intent.typed import Clock
from shared.catalog import Catalog
from shared.entities import EntityValue
from shared.i18n import detect
from shared.i18n.bilingual import Localized, all_texts
from shared.manifest import TYPED_ENTITY_TYPES, EntitySpec, Goal
from shared.models import GoalCandidate, IntentOutput

log = logging.getLogger(__name__)

OUT_OF_SCOPE = "OUT_OF_SCOPE"
Mode = Literal["json_schema", "json_object", "prompt"]
_MODES: tuple[Mode, ...] = ("json_schema", "json_object", "prompt")


class LlmReplyInvalid(ValueError):
    """The model's reply is not JSON or breaks the schema."""


#: The JSON form of each typed entity's value: the contract the embedded adapter fills too.
_TYPED_VALUE_SCHEMAS: dict[str, dict[str, Any]] = {
    "date": {"type": "string", "pattern": r"^\d{4}-\d{2}-\d{2}$"},
    "time": {"type": "string", "pattern": r"^\d{2}:\d{2}$"},
    "datetime": {"type": "string", "pattern": r"^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2})?([+-]\d{2}:\d{2}|Z)$"},
    "duration": {"type": "string", "pattern": r"^P(\d+D)?(T(\d+H)?(\d+M)?(\d+S)?)?$"},
    "number": {"type": "number"},
    "money": {
        "type": "object",
        "properties": {
            "amount": {"type": "number"},
            "currency": {"type": ["string", "null"], "pattern": "^[A-Z]{3}$"},
        },
        "required": ["amount", "currency"],
        "additionalProperties": False,
    },
    "email": {"type": "string"},
    "phone": {"type": "string"},
    "url": {"type": "string"},
}
_TYPED_RULES = (
    "Typed entities are given normalised: date YYYY-MM-DD, time HH:MM, datetime ISO 8601 with the "
    "offset, duration ISO 8601 (PT2H), number a JSON number, money {amount, currency ISO 4217, "
    "null when unsaid}; "
    "resolve relative words (tomorrow, amanhã, sexta) against the conversation's clock below, and "
    "use null for a type the message does not say (a time is no date)."
)


def _entity_schema(spec: EntitySpec) -> dict[str, Any]:
    if spec.type in TYPED_ENTITY_TYPES:
        value = _TYPED_VALUE_SCHEMAS[spec.type]
        if spec.multiple:
            return {"anyOf": [value, {"type": "array", "items": value}, {"type": "null"}]}
        return {"anyOf": [value, {"type": "null"}]}
    if spec.type == "enum":
        return {"type": ["string", "null"], "enum": [*(spec.values or []), None]}
    if spec.type == "boolean":
        return {"type": ["boolean", "null"]}
    if spec.multiple:
        return {
            "anyOf": [{"type": "string"}, {"type": "array", "items": {"type": "string"}}, {"type": "null"}]
        }
    return {"type": ["string", "null"]}


def goal_key(domain: str, goal: str) -> str:
    return f"{domain}.{goal}"


def build_schema(catalog: Catalog, pinned_domain: str | None = None) -> dict[str, Any]:
    """Strict JSON schema of the reply: goal enum (+ OUT_OF_SCOPE), entities of every goal."""
    goals = [g for g in catalog.goals() if pinned_domain is None or g.domain == pinned_domain]
    entities: dict[str, dict[str, Any]] = {}
    for ref in goals:
        for name, spec in ref.goal.entities_schema.items():
            schema = _entity_schema(spec)
            previous = entities.get(name)
            if previous is not None and previous != schema:
                variants = previous.get("anyOf", [previous])
                schema = {"anyOf": [*variants, schema]} if schema not in variants else previous
            entities[name] = schema
    return {
        "type": "object",
        "properties": {
            "goal": {
                "type": "string",
                "enum": [*(goal_key(g.domain, g.goal.goal) for g in goals), OUT_OF_SCOPE],
            },
            "entities": {
                "type": "object",
                "properties": entities,
                "required": sorted(entities),
                "additionalProperties": False,
            },
            "confidence": {"type": "number", "minimum": 0, "maximum": 1},
            "language": {"type": "string", "enum": ["pt", "en"]},
        },
        "required": ["goal", "entities", "confidence", "language"],
        "additionalProperties": False,
    }


def _described(description: Localized) -> str:
    """A manifest description in every language it is written in: the message may be in any."""
    return " / ".join(all_texts(description))


def build_prompt(catalog: Catalog, pinned_domain: str | None = None) -> str:
    lines = [
        "You map a user's message to one goal of this catalog and extract its entities.",
        "Rules: entities ending in _text are copied exactly as the user wrote them (never a ticker,",
        "code or id the user did not write); enum entities use one of the listed values; use null",
        f"when absent. If no goal fits, answer goal={OUT_OF_SCOPE}. Reply with JSON only:",
        _TYPED_RULES,
        '{"goal": ..., "entities": {...}, "confidence": 0..1, "language": "pt"|"en"}.',
        "",
        "Goals:",
    ]
    for ref in catalog.goals():
        if pinned_domain is not None and ref.domain != pinned_domain:
            continue
        lines.append(f"- {goal_key(ref.domain, ref.goal.goal)}: {_described(ref.goal.description)}")
        for name, spec in ref.goal.entities_schema.items():
            extra = f" values={spec.values}" if spec.values else ""
            many = " (a list when several are named)" if spec.multiple else ""
            lines.append(f"    {name} ({spec.type}{extra}){many}: {_described(spec.description)}")
        for example in ref.goal.example_texts()[:3]:
            lines.append(f"    e.g. {example!r}")
    return "\n".join(lines)


class _RejectedFormat(Exception):
    """A 400 that names the response format: try the next, simpler mode."""


class LlmIntentAdapter:
    name = "llm"

    def __init__(
        self,
        settings: IntentSettings,
        *,
        fallback: IntentAdapter,
        transport: httpx.AsyncBaseTransport | None = None,
    ):
        if not settings.llm_base_url or not settings.llm_model:
            raise ValueError("LLM_BASE_URL and LLM_MODEL are required for the LLM adapter")
        self.settings = settings
        self.fallback = fallback
        self.catalog = Catalog()
        self.mode: Mode = "json_schema"
        headers = {}
        if settings.llm_api_key is not None:
            headers["Authorization"] = f"Bearer {settings.llm_api_key.get_secret_value()}"
        self._http = httpx.AsyncClient(
            base_url=settings.llm_base_url.rstrip("/"),
            headers=headers,
            timeout=settings.llm_timeout_s,
            transport=transport,
        )

    def update_catalog(self, catalog: Catalog) -> None:
        self.catalog = catalog
        self.fallback.update_catalog(catalog)

    async def update_catalog_async(self, catalog: Catalog) -> None:
        # the LLM only needs the new schema; the fallback may take a while to retrain
        self.catalog = catalog
        await self.fallback.update_catalog_async(catalog)

    async def aclose(self) -> None:
        await self._http.aclose()

    async def parse(
        self, text: str, *, pinned_domain: str | None = None, context: dict[str, Any] | None = None
    ) -> IntentOutput:
        schema = build_schema(self.catalog, pinned_domain)
        try:
            async with asyncio.timeout(self.settings.llm_timeout_s):
                clock = Clock.of(context, self.settings.intent_time_zone)
                reply = await self._complete(text, schema, pinned_domain, clock)
            return self._to_output(text, reply, clock)
        except (TimeoutError, httpx.TimeoutException):
            reason = f"LLM timed out after {self.settings.llm_timeout_s:g}s"
        except httpx.HTTPError as exc:
            reason = f"LLM request failed: {type(exc).__name__}: {exc}"
        except LlmReplyInvalid as exc:
            reason = f"LLM reply invalid: {exc}"
        log.warning("intent LLM fallback to %s: %s", self.fallback.name, reason)
        out = await self.fallback.parse(text, pinned_domain=pinned_domain, context=context)
        out.adapter = f"llm->{self.fallback.name}"
        out.notes.append(f"fallback to {self.fallback.name}: {reason}")
        return out

    async def _complete(
        self, text: str, schema: dict[str, Any], pinned: str | None, clock: Clock
    ) -> dict[str, Any]:
        start = _MODES.index(self.mode)
        for mode in _MODES[start:]:
            try:
                content = await self._request(text, schema, pinned, mode, clock)
            except _RejectedFormat:
                log.info("LLM rejected response_format=%s; trying the next mode", mode)
                continue
            self.mode = mode
            return self._validate(content, schema)
        raise LlmReplyInvalid("every response format was rejected")

    async def _request(
        self, text: str, schema: dict[str, Any], pinned: str | None, mode: Mode, clock: Clock
    ) -> str:
        local = clock.local()
        system = build_prompt(self.catalog, pinned)
        now = local.isoformat(timespec="minutes")
        system += f"\n\nThe conversation's clock: {now} ({clock.time_zone}, {local:%A})."
        if mode != "json_schema":
            system += "\n\nJSON schema of the reply:\n" + json.dumps(schema)
        body: dict[str, Any] = {
            "model": self.settings.llm_model,
            "temperature": self.settings.llm_temperature,
            "messages": [{"role": "system", "content": system}, {"role": "user", "content": text}],
        }
        if mode == "json_schema":
            body["response_format"] = {
                "type": "json_schema",
                "json_schema": {"name": "intent", "strict": True, "schema": schema},
            }
        elif mode == "json_object":
            body["response_format"] = {"type": "json_object"}
        response = await self._http.post("/chat/completions", json=body)
        if response.status_code == 400 and mode != "prompt" and _names_response_format(response):
            raise _RejectedFormat()
        response.raise_for_status()
        try:
            data = response.json()
            content = data["choices"][0]["message"]["content"]
        except (ValueError, KeyError, IndexError, TypeError) as exc:
            raise LlmReplyInvalid(f"not a chat completion: {exc}") from None
        if not isinstance(content, str):
            raise LlmReplyInvalid("message content is not text")
        return content

    @staticmethod
    def _validate(content: str, schema: dict[str, Any]) -> dict[str, Any]:
        raw = content.strip()
        if raw.startswith("```"):  # prompt-only replies sometimes come fenced
            raw = raw.strip("`").removeprefix("json").strip()
        try:
            reply = json.loads(raw)
        except ValueError as exc:
            raise LlmReplyInvalid(f"not JSON ({exc})") from None
        errors = sorted(
            jsonschema.Draft202012Validator(schema).iter_errors(reply), key=lambda e: list(e.path)
        )
        if errors:
            first = errors[0]
            path = ".".join(str(p) for p in first.absolute_path) or "$"
            raise LlmReplyInvalid(f"{path}: {first.message}")
        if not isinstance(reply, dict):
            raise LlmReplyInvalid("reply is not an object")
        return reply

    def _to_output(self, text: str, reply: dict[str, Any], clock: Clock) -> IntentOutput:
        out = IntentOutput(
            original_query=text,
            adapter=self.name,
            language=reply.get("language") or detect(text),
            confidence=float(reply.get("confidence", 0.0)),
        )
        key = reply["goal"]
        if key == OUT_OF_SCOPE:
            out.confidence = 0.0
            return out
        domain, _, goal_name = key.partition(".")
        goal = self.catalog.find_goal(domain, goal_name)
        if goal is None:  # cannot happen after validation, but never trust the reply
            raise LlmReplyInvalid(f"unknown goal {key}")
        out.primary_domain, out.goal = domain, goal_name
        out.alternatives = [GoalCandidate(domain=domain, goal=goal_name, confidence=out.confidence)]
        for name, value in (reply.get("entities") or {}).items():
            spec = goal.entities_schema.get(name)
            if spec is None or value is None:
                continue
            if spec.type in TYPED_ENTITY_TYPES:
                kept = _typed_trusted(name, spec, value, text, goal, clock, out.language)
            else:
                kept = _trusted(spec, value, text)
            if kept is None:
                out.notes.append(f"dropped entity {name}: not in the person's text or schema")
            else:
                out.entities[name] = kept
        return out


def _trusted(spec: EntitySpec, value: Any, text: str) -> EntityValue | None:
    """The value if it respects the schema and, for strings, occurs in what the person wrote."""
    if spec.type == "enum":
        return value if isinstance(value, str) and value in (spec.values or []) else None
    if spec.type == "boolean":
        return value if isinstance(value, bool) else None
    values = value if isinstance(value, list) else [value]
    kept = [v for v in values if isinstance(v, str) and v.strip() and normalised_in(v, text)]
    if not kept:
        return None
    return kept if spec.multiple and len(kept) > 1 else kept[0]


def _typed_trusted(
    name: str, spec: EntitySpec, value: Any, text: str, goal: Goal, clock: Clock, language: str
) -> EntityValue | None:
    """A typed value only when the text says one of its type, and then as the recogniser reads it:
    the model does not invent a day nobody said, nor resolve "sexta" to another Friday."""
    said = GoalEntityExtractor(goal).extract(text, clock=clock, language=language).get(name)
    if said is None:
        return None
    return said if value is not None else None


def _names_response_format(response: httpx.Response) -> bool:
    try:
        error = response.json().get("error", {})
    except ValueError:
        return "response_format" in response.text or "json_schema" in response.text
    blob = json.dumps(error).lower()
    return "response_format" in blob or "json_schema" in blob or "json_object" in blob
