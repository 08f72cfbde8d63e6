"""The domain manifest: what a domain can do (capabilities) and what people ask of it (goals).

The JSON Schema published at ``shared/schemas/domain_manifest.schema.json`` is generated from
these models (``python -m shared.schemas`` rewrites the published schemas) and every
manifest the registry fetches is validated against it.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Collection, Mapping
from functools import cache, cached_property
from pathlib import Path
from typing import Annotated, Any, Literal

import jmespath.exceptions
import jsonschema
from jsonschema.exceptions import ValidationError as SchemaError
from jsonschema.exceptions import best_match
from pydantic import (
    AfterValidator,
    BaseModel,
    ConfigDict,
    Field,
    SerializerFunctionWrapHandler,
    StringConstraints,
    TypeAdapter,
    ValidationError,
    ValidationInfo,
    WithJsonSchema,
    field_validator,
    model_serializer,
    model_validator,
)

from shared.expressions import ExpressionError, compile_expression, truthy
from shared.i18n.languages import LANGUAGES
from shared.json_schema import SchemaValidators, validators

SCHEMA_PATH = Path(__file__).parent / "schemas" / "domain_manifest.schema.json"
IDENTIFIER = r"^[a-z][a-z0-9_\-]*$"
#: The longest domain name registration takes (a manifest's ``domain`` is its registered name).
DOMAIN_NAME_MAX_LENGTH = 64
GOAL_NAME = r"^[A-Z][A-Z0-9_]*$"
#: A short language tag: "pt", "en", "pt-BR".
LANGUAGE_CODE = r"^[a-z]{2,3}(-[A-Za-z]{2,4})?$"
LanguageCode = Annotated[str, StringConstraints(pattern=LANGUAGE_CODE)]
ProgressText = Annotated[str, StringConstraints(min_length=1, max_length=120)]
_TEXT_BY_LANGUAGE_SCHEMA: dict[str, Any] = {
    "title": "TextByLanguage",
    "description": "The text in each language the domain writes it in, by language code.",
    "type": "object",
    "properties": {code: {"type": "string", "minLength": 1, "pattern": r"\S"} for code in LANGUAGES},
    "additionalProperties": False,
    "minProperties": 1,
}


def _known_languages(text: str | dict[str, str]) -> str | dict[str, str]:
    """An object by language names only the platform's languages, at least one, each with words.
    Checked here, not by the dict's own types, so a bad object is one error at the field's path
    ("unknown language 'fr'") rather than one per form the field could have taken."""
    if isinstance(text, dict):
        if not text:
            raise ValueError(f"give the text in at least one language ({', '.join(LANGUAGES)})")
        unknown = sorted(set(text) - set(LANGUAGES))
        if unknown:
            raise ValueError(f"unknown language {unknown} (the languages are {', '.join(LANGUAGES)})")
        blank = sorted(code for code, words in text.items() if not words.strip())
        if blank:
            raise ValueError(f"empty text for {blank}")
    return text


#: A text by language code: ``{"pt": "Cotação atual", "en": "Current price"}`` (at least one).
TextByLanguage = Annotated[dict[str, str], WithJsonSchema(_TEXT_BY_LANGUAGE_SCHEMA)]
#: A description people read: by language, or (as older manifests write it) one string, read with
#: the "texto em português (English text)" convention. ``shared.i18n.bilingual.text_in`` reads
#: both in the person's language.
LocalizedText = Annotated[str | TextByLanguage, AfterValidator(_known_languages)]
#: A :data:`LocalizedText` an admin gives with a registration (an MCP server's description).
RegistrationText = Annotated[
    Annotated[str, StringConstraints(max_length=2000)] | TextByLanguage, AfterValidator(_known_languages)
]


class CatalogEntry(BaseModel):
    """One registered goal as a fallback capability receives it in ``intent.context["catalog"]``:
    written by the orchestrator, read by domains that describe the platform (general's help). Keys
    a reader does not know are ignored."""

    model_config = ConfigDict(frozen=True)

    domain: str
    goal: str
    #: The manifest's description, by language or one bilingual string.
    description: LocalizedText = ""


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


# ---------------------------------------------------------------- capabilities


class IntentHints(_Strict):
    keywords: list[str] = Field(default_factory=list)
    examples: list[str] = Field(default_factory=list)


class ArrayParamRule(_Strict):
    """A parameter that may hold several values: one step per value."""

    param_name: str
    single_param_name: str
    max_concurrency: int = Field(default=4, ge=1)


class Decomposition(_Strict):
    array_params: list[ArrayParamRule] = Field(default_factory=list)


class EnabledIf(_Strict):
    """When a composition applies, read over the execution intent as JSON: ``{"if": "<JMESPath>"}``
    (true by JMESPath's truth; an expression that cannot be computed does not hold) or
    ``{"path": "parameters.notify", "equals": true}`` (the value at the dotted path equals
    ``equals``). A ``path`` naming one parameter, or an ``if`` that is only ``parameters.X`` or
    compares it with a literal, names the trigger parameter: a planning instruction the primary
    capability does not receive."""

    model_config = ConfigDict(extra="forbid", populate_by_name=True)

    condition: str | None = Field(
        default=None,
        alias="if",
        description="JMESPath expression over the execution intent, e.g. parameters.notify == `true`",
    )
    path: str | None = Field(
        default=None, description="Dotted path into the execution intent, e.g. parameters.notify"
    )
    equals: Any = True

    @model_validator(mode="after")
    def _one_form(self) -> EnabledIf:
        if (self.condition is None) == (self.path is None):
            raise ValueError("enabled_if takes either 'if' (a JMESPath expression) or 'path' (with 'equals')")
        if self.condition is not None:
            if self.equals is not True:  # (a dump of the ``if`` form never carries it)
                raise ValueError("enabled_if: 'equals' goes with 'path'; write the comparison in 'if'")
            try:
                compile_expression(self.condition)
            except ExpressionError as exc:
                raise ValueError(exc.message) from None
        return self

    @model_serializer(mode="wrap")
    def _dump(self, handler: SerializerFunctionWrapHandler) -> dict[str, object]:
        """Only the keys of the form in use, ``if`` by its name in the manifest: a dump (a domain's
        ``GET /manifest``) reads back as it was written."""
        data: dict[str, object] = handler(self)
        data.pop("if", None)
        data.pop("condition", None)
        if self.condition is None:
            return data
        return {"if": self.condition}

    def holds(self, intent: Mapping[str, object]) -> bool:
        """Whether the composition applies to ``intent`` (an execution intent dumped as JSON)."""
        if self.condition is not None:
            try:
                value = compile_expression(self.condition).search(intent)
            except (jmespath.exceptions.JMESPathError, TypeError, ValueError):
                return False
            return truthy(value)
        current: object = intent
        for key in (self.path or "").split("."):
            if not isinstance(current, Mapping) or key not in current:
                return False
            current = current[key]
        return bool(current == self.equals)

    def trigger_param(self) -> str | None:
        """The one parameter that switches the composition on (``parameters.notify`` -> ``notify``)."""
        if self.path is not None:
            name = self.path.removeprefix(_PARAMETERS)
            return name if self.path.startswith(_PARAMETERS) and "." not in name else None
        assert self.condition is not None
        tree: object = compile_expression(self.condition).parsed
        match tree:  # ``parameters.X <op> literal`` (either way round) reads as ``parameters.X``
            case {"type": "comparator", "children": [{"type": "literal"}, dict() as side]} | {
                "type": "comparator",
                "children": [dict() as side, {"type": "literal"}],
            }:
                tree = side
        match tree:
            case {
                "type": "subexpression",
                "children": [{"type": "field", "value": "parameters"}, {"type": "field", "value": str(name)}],
            }:
                return name
        return None


_PARAMETERS = "parameters."


class ParamSource(_Strict):
    """Where a follow-up parameter comes from. ``_step_explanation`` / ``_step_result`` are the
    primary step's output; any other name is read from the primary step's parameters."""

    from_parameters: list[str] = Field(default_factory=list)


class Composition(_Strict):
    followup_roles: list[str] = Field(default_factory=list)
    enabled_if: EnabledIf | None = None
    param_map: dict[str, ParamSource] = Field(default_factory=dict)


class PreFlowStep(_Strict):
    type: str
    param: str
    search_capability: str | None = None


class Flow(_Strict):
    pre: list[PreFlowStep] = Field(default_factory=list)


class ExecutionPolicy(_Strict):
    """How the engine may call a capability: attempts, timeout, and whether a repeat is safe."""

    attempts: int = Field(default=2, ge=1, le=10)
    timeout_s: float = Field(default=10.0, gt=0)
    idempotent: bool = True
    #: The capability only reads (a quote, a list): a repeat changes nothing, so the SDK keeps no
    #: record of its calls' keys and a retry runs it again. Left out when false, so a domain served
    #: by this SDK still registers on a gateway from before the field.
    read_only: bool = Field(default=False, exclude_if=lambda read_only: not read_only)
    backoff_s: float = Field(default=0.05, ge=0)
    #: The capability acts on the world in a way the person should approve first (an MCP tool's
    #: ``destructiveHint``); recorded in the manifest for the approval gate.
    confirm: bool = False
    #: How long the person (or an approver) has to approve a ``confirm`` step; after it the
    #: request is cancelled with nothing run. Unset: the operator's ``APPROVAL_EXPIRES_S``.
    approval_expires_s: float | None = Field(default=None, gt=0)
    #: When to remind the person of an approval still waiting. Unset: ``APPROVAL_REMINDER_S``.
    approval_reminder_s: float | None = Field(default=None, gt=0)

    @model_validator(mode="after")
    def _reads_repeat_safely(self) -> ExecutionPolicy:
        if self.read_only and (self.confirm or not self.idempotent):
            raise ValueError(
                "read_only: a capability that only reads is idempotent and waits for no approval"
            )
        return self


class WatchPolicy(_Strict):
    """Whether a standing watch may poll the capability, and how often at most
    (docs/standing-requests.md). Absent: watchable at the operator's ``SCHEDULES_MIN_INTERVAL_S``."""

    watchable: bool = True
    #: The shortest time between two polls; the operator's minimum still applies when longer.
    min_interval_s: int | None = Field(default=None, ge=1)


class CapabilityMetadata(_Strict):
    intent_hints: IntentHints = Field(default_factory=IntentHints)
    decomposition: Decomposition = Field(default_factory=Decomposition)
    composition: Composition | None = None
    flow: Flow = Field(default_factory=Flow)
    policy: ExecutionPolicy = Field(default_factory=ExecutionPolicy)
    #: Standing watches on this capability; optional, so manifests without it stay valid.
    watch: WatchPolicy | None = None
    #: Platform context the capability needs in ``ExecutionIntent.context`` ("catalog": the
    #: registered goals, for help and out-of-scope answers). Fallback-role capabilities get it too.
    context: list[Literal["catalog"]] = Field(default_factory=list)
    #: What a person sees while the capability runs, by language ({"pt": "Consultando a
    #: cotação…", "en": "Getting the quote…"}); channels fall back to a generic text.
    progress: dict[LanguageCode, ProgressText] = Field(
        default_factory=dict, json_schema_extra={"additionalProperties": False}
    )


class Capability(_Strict):
    name: str = Field(pattern=IDENTIFIER)
    description: LocalizedText
    #: JSON Schema of the parameters the capability accepts.
    parameters: dict[str, Any] = Field(default_factory=lambda: {"type": "object"})
    #: JSON Schema of ``DomainOutput.result`` on success (validated by the engine when present).
    output_schema: dict[str, Any] | None = None
    #: A role other parts can look capabilities up by ("notifier", "fallback", ...).
    role: str | None = None
    metadata: CapabilityMetadata = Field(default_factory=CapabilityMetadata)

    # compiled once per capability, not looked up by the schema's text on every step
    @cached_property
    def parameter_validators(self) -> SchemaValidators:
        return validators(self.parameters)

    @cached_property
    def output_validators(self) -> SchemaValidators | None:
        return validators(self.output_schema) if self.output_schema else None


# ----------------------------------------------------------------------- goals


class LookupEntry(_Strict):
    """One value a string entity can take, with the other ways people write it: the extractor
    treats every name and alias as a known value (accents, case and a typo tolerated)."""

    value: str = Field(min_length=1, max_length=200)
    aliases: list[str] = Field(default_factory=list, max_length=50)


#: Entity types recognised from the words by their form (a library, not the domain's examples)
#: and given to the domain normalised: ``date`` "2026-11-27", ``time`` "14:00", ``datetime``
#: "2026-11-27T14:00:00-03:00" (ISO 8601, resolved against the conversation's clock and time
#: zone), ``duration`` "PT2H", ``number`` 3, ``money`` {"amount": 20, "currency": "USD"} (currency
#: ``None`` when the person did not say it), ``email``, ``phone`` (digits, "+" first when
#: written), ``url``.
TYPED_ENTITY_TYPES = ("date", "time", "datetime", "duration", "number", "money", "email", "phone", "url")
TypedEntityType = Literal["date", "time", "datetime", "duration", "number", "money", "email", "phone", "url"]


class EntitySpec(_Strict):
    type: Literal["string", "enum", "boolean"] | TypedEntityType
    #: What the entity is, in words a question can carry ("De qual empresa…?").
    description: LocalizedText = ""
    required: bool = False
    default: Any = None
    #: enum: the allowed values.
    values: list[str] | None = None
    #: enum: value -> words people use for it ("altas", "subiram" -> GAINERS).
    #: boolean: {"true": [...]} words that switch it on.
    synonyms: dict[str, list[str]] = Field(default_factory=dict)
    #: enum: value -> capability (or several) this value resolves to.
    capability_map: dict[str, str | list[str]] | None = None
    #: string or typed: the person may name several ("Apple, Microsoft e Nvidia") -> a list.
    multiple: bool = False
    #: string: a lookup table, the values the entity can take (names and aliases).
    lookup: list[LookupEntry] | None = None
    #: string: the path, on the domain's service, of a lookup table too large or too changing to
    #: ship in the manifest (``GET`` answers a JSON list of entries); the gateway fetches it with
    #: the manifest and puts it in ``lookup``.
    lookup_path: str | None = Field(default=None, pattern=r"^/[A-Za-z0-9_\-./]*$", max_length=200)
    #: date or datetime: a day said without what fixes it ("sexta", "dia 12", "March 1st") is its
    #: next time by default; "past" makes it its last time up to now (an incident, a purchase).
    prefer_dates_from: Literal["future", "past"] = Field(
        default="future", exclude_if=lambda prefer: prefer == "future"
    )

    @model_validator(mode="after")
    def _enum_has_values(self) -> EntitySpec:
        if self.prefer_dates_from != "future" and self.type not in ("date", "datetime"):
            raise ValueError("only date and datetime entities may prefer past dates")
        if (self.lookup is not None or self.lookup_path is not None) and self.type != "string":
            raise ValueError("only string entities may have a lookup table")
        if self.type == "enum":
            if not self.values:
                raise ValueError("an enum entity needs 'values'")
            unknown = set(self.synonyms) - set(self.values)
            if unknown:
                raise ValueError(f"synonyms for unknown enum values: {sorted(unknown)}")
            if self.capability_map and set(self.capability_map) - set(self.values):
                raise ValueError("capability_map keys must be enum values")
        elif self.capability_map:
            raise ValueError("only enum entities may have a capability_map")
        return self


class GoalExample(_Strict):
    """An example utterance, optionally with the entities it contains (annotated spans)."""

    text: str
    #: The values as the authors annotate them, read as the text they wrote (``str(value)``): any
    #: JSON a manifest has always been allowed to give, not only an ``shared.entities.EntityValue``.
    entities: dict[str, Any] = Field(default_factory=dict)


class Goal(_Strict):
    goal: str = Field(pattern=GOAL_NAME)
    #: What people ask for, as they would say it: help, out-of-scope answers and confirmations
    #: show it (never the goal's id).
    description: LocalizedText
    entities_schema: dict[str, EntitySpec] = Field(default_factory=dict)
    #: Groups of entities of which the request needs at least one ("a bill needs a biller or a
    #: barcode": ``[["biller_text", "barcode_text"]]``): with none of a group said, the platform
    #: asks for it, naming the alternatives, before any approval. Left out of a manifest that
    #: declares none, so a domain served by this SDK still registers on a gateway from before it.
    required_one_of: list[Annotated[list[str], Field(min_length=2)]] = Field(
        default_factory=list, exclude_if=lambda groups: not groups
    )
    #: The capability (or, in order, capabilities) when no enum entity's capability_map decides.
    capabilities: list[str] = Field(default_factory=list)
    examples: list[str | GoalExample] = Field(default_factory=list)

    @field_validator("required_one_of")
    @classmethod
    def _groups_name_entities(cls, groups: list[list[str]], info: ValidationInfo) -> list[list[str]]:
        """Each group names two or more of the goal's entities, none required on its own (it
        would satisfy the group alone) and none a boolean (a switch is no value to ask for)."""
        entities: dict[str, EntitySpec] = info.data.get("entities_schema", {})
        for i, group in enumerate(groups):
            unknown = [name for name in group if name not in entities]
            if unknown:
                raise ValueError(f"group {i} names {unknown}, which entities_schema does not declare")
            if len(set(group)) != len(group):
                raise ValueError(f"group {i} names an entity twice: {group}")
            required = [name for name in group if entities[name].required]
            if required:
                raise ValueError(f"group {i}: {required} is required on its own, so the group asks nothing")
            switches = [name for name in group if entities[name].type == "boolean"]
            if switches:
                raise ValueError(f"group {i}: {switches} is a boolean, not a value to ask for")
        return groups

    def example_texts(self) -> list[str]:
        return [e if isinstance(e, str) else e.text for e in self.examples]

    def missing_required(self, entities: Collection[str]) -> list[str]:
        """The required entities ``entities`` (a mapping's keys, or names) does not name, in
        declaration order.

        >>> goal = Goal.model_validate({"goal": "BOOK", "description": "d", "capabilities": ["b"],
        ...     "entities_schema": {"day": {"type": "date", "required": True}, "note": {"type": "string"}}})
        >>> goal.missing_required({"note": "x"}), goal.missing_required({"day": "2026-03-10"})
        (['day'], [])
        """
        return [name for name, spec in self.entities_schema.items() if spec.required and name not in entities]

    def missing_group(self, entities: Mapping[str, object]) -> list[str] | None:
        """The first of :attr:`required_one_of` of which ``entities`` name none (a declared
        ``default`` counts as named), or ``None``.

        >>> goal = Goal.model_validate({"goal": "PAY", "description": "d", "capabilities": ["p"],
        ...     "entities_schema": {"biller": {"type": "string"}, "barcode": {"type": "string"}},
        ...     "required_one_of": [["biller", "barcode"]]})
        >>> goal.missing_group({"amount": 5}), goal.missing_group({"barcode": "2379"})
        (['biller', 'barcode'], None)
        """
        for group in self.required_one_of:
            if not any(
                entities.get(name) not in (None, "", []) or self.entities_schema[name].default is not None
                for name in group
            ):
                return group
        return None


class DomainManifest(_Strict):
    domain: str = Field(pattern=IDENTIFIER, max_length=DOMAIN_NAME_MAX_LENGTH)
    version: str
    description: LocalizedText
    #: False exempts this domain from the orchestrator's confidence gate (help, small talk).
    confidence_gate: bool = True
    capabilities: list[Capability]
    goals: list[Goal] = Field(default_factory=list)

    @model_validator(mode="after")
    def _references_resolve(self) -> DomainManifest:
        names = {c.name for c in self.capabilities}
        if len(names) != len(self.capabilities):
            raise ValueError("capability names must be unique")
        goals = [g.goal for g in self.goals]
        if len(set(goals)) != len(goals):
            raise ValueError("goal names must be unique")
        for goal in self.goals:
            mapped: list[str] = list(goal.capabilities)
            for spec in goal.entities_schema.values():
                for target in (spec.capability_map or {}).values():
                    mapped.extend([target] if isinstance(target, str) else target)
            missing = sorted(set(mapped) - names)
            if missing:
                raise ValueError(f"goal {goal.goal} maps to unknown capabilities {missing}")
            if not mapped:
                raise ValueError(f"goal {goal.goal} maps to no capability")
        return self

    def capability(self, name: str) -> Capability | None:
        return next((c for c in self.capabilities if c.name == name), None)


class ManifestInvalid(ValueError):
    """A manifest broke the published schema; ``errors`` carry field paths."""

    def __init__(self, errors: list[dict[str, str]]):
        self.errors = errors
        super().__init__("; ".join(f"{e['path']}: {e['message']}" for e in errors))


class ManifestLimits(BaseModel):
    """Operator limits on a fetched manifest, checked before any parsing or validation."""

    max_bytes: int = Field(default=262_144, ge=1024)
    #: JSON nesting (objects and arrays); far above what any real manifest needs.
    max_depth: int = Field(default=32, ge=4, le=200)
    max_goals: int = Field(default=64, ge=1)
    max_capabilities: int = Field(default=64, ge=1)
    #: Per goal.
    max_examples: int = Field(default=200, ge=1)
    max_entities: int = Field(default=32, ge=1)
    #: Entries of one lookup table (``lookup`` or the answer at ``lookup_path``).
    max_lookup_entries: int = Field(default=10_000, ge=1)
    #: Bytes of one answer at a ``lookup_path``.
    max_lookup_bytes: int = Field(default=2_097_152, ge=1024)
    #: Entries and bytes of all a manifest's ``lookup_path`` answers together (each path within the
    #: limits above, many paths must not add up to what one table may not be).
    max_lookup_total_entries: int = Field(default=20_000, ge=1)
    max_lookup_total_bytes: int = Field(default=4_194_304, ge=1024)


def parse_manifest(raw: bytes, limits: ManifestLimits | None = None) -> DomainManifest:
    """Bytes of a ``/manifest`` answer -> a validated manifest, within ``limits``; every problem
    is a :class:`ManifestInvalid` naming the field path (never a ``RecursionError``).

    >>> parse_manifest(b"[" * 100_000)
    Traceback (most recent call last):
    ...
    shared.manifest.ManifestInvalid: $: nested deeper than 32 levels
    """
    limits = limits or ManifestLimits()
    if len(raw) > limits.max_bytes:
        raise ManifestInvalid([{"path": "$", "message": f"larger than {limits.max_bytes} bytes"}])
    too_deep = ManifestInvalid([{"path": "$", "message": f"nested deeper than {limits.max_depth} levels"}])
    try:
        data = json.loads(raw)
    except RecursionError:
        raise too_deep from None
    except (ValueError, UnicodeDecodeError):
        raise ManifestInvalid([{"path": "$", "message": "not JSON"}]) from None
    if _depth(data) > limits.max_depth:
        raise too_deep
    errors = _count_errors(data, limits)
    if errors:
        raise ManifestInvalid(errors)
    return validate_manifest(data)


def _depth(data: object) -> int:
    """Nesting depth, walked without recursion."""
    deepest, stack = 0, [(data, 1)]
    while stack:
        value, level = stack.pop()
        if isinstance(value, dict | list):
            deepest = max(deepest, level)
            stack.extend((v, level + 1) for v in (value.values() if isinstance(value, dict) else value))
    return deepest


def _count_errors(data: object, limits: ManifestLimits) -> list[dict[str, str]]:
    if not isinstance(data, dict):
        return []
    errors: list[dict[str, str]] = []

    def over(path: str, value: object, limit: int) -> None:
        if isinstance(value, list | dict) and len(value) > limit:
            errors.append({"path": path, "message": f"more than {limit} entries"})

    over("capabilities", data.get("capabilities"), limits.max_capabilities)
    goals = data.get("goals")
    over("goals", goals, limits.max_goals)
    for i, goal in enumerate(goals[: limits.max_goals] if isinstance(goals, list) else []):
        if isinstance(goal, dict):
            over(f"goals.{i}.examples", goal.get("examples"), limits.max_examples)
            over(f"goals.{i}.entities_schema", goal.get("entities_schema"), limits.max_entities)
            entities = goal.get("entities_schema")
            for name, spec in entities.items() if isinstance(entities, dict) else ():
                if isinstance(spec, dict):
                    path = f"goals.{i}.entities_schema.{name}.lookup"
                    over(path, spec.get("lookup"), limits.max_lookup_entries)
    return errors


def parse_lookup(raw: bytes, path: str, limits: ManifestLimits | None = None) -> list[LookupEntry]:
    """Bytes of a ``lookup_path`` answer -> its entries, within ``limits``; every problem is a
    :class:`ManifestInvalid` whose field paths start at ``path`` (the entity's place in the manifest).

    >>> parse_lookup(b'[{"value": "Petrobras", "aliases": ["PETR4"]}]', "goals.0.entities_schema.x")
    [LookupEntry(value='Petrobras', aliases=['PETR4'])]
    >>> parse_lookup(b'[{"aliases": []}]', "x")
    Traceback (most recent call last):
    ...
    shared.manifest.ManifestInvalid: x.lookup.0.value: Field required
    """
    limits = limits or ManifestLimits()
    where = f"{path}.lookup"
    if len(raw) > limits.max_lookup_bytes:
        raise ManifestInvalid([{"path": where, "message": f"larger than {limits.max_lookup_bytes} bytes"}])
    try:
        data = json.loads(raw)
    except (ValueError, UnicodeDecodeError, RecursionError):
        raise ManifestInvalid([{"path": where, "message": "not JSON"}]) from None
    if not isinstance(data, list):
        raise ManifestInvalid([{"path": where, "message": "not a list of entries"}])
    if len(data) > limits.max_lookup_entries:
        raise ManifestInvalid([{"path": where, "message": f"more than {limits.max_lookup_entries} entries"}])
    try:
        return LOOKUP_TABLE.validate_python(data)
    except ValidationError as exc:
        raise ManifestInvalid(
            [{"path": ".".join([where, *map(str, e["loc"])]), "message": e["msg"]} for e in exc.errors()]
        ) from None


#: A lookup table as JSON (what a ``lookup_path`` serves).
LOOKUP_TABLE = TypeAdapter(list[LookupEntry])


def manifest_json_schema() -> dict[str, Any]:
    schema = DomainManifest.model_json_schema()
    schema["$schema"] = "https://json-schema.org/draft/2020-12/schema"
    schema["$id"] = "https://agent-orchestrator.dev/schemas/domain_manifest.schema.json"
    return schema


@cache
def _published_validator() -> jsonschema.Draft202012Validator:
    return jsonschema.Draft202012Validator(json.loads(SCHEMA_PATH.read_text()))


def validate_manifest(data: object) -> DomainManifest:
    """Validate against the published JSON Schema, then the model's cross-references.

    >>> validate_manifest({"domain": "x", "version": "1", "description": "d", "capabilities": "no"})
    Traceback (most recent call last):
    ...
    shared.manifest.ManifestInvalid: capabilities: 'no' is not of type 'array'
    """
    errors = [
        {"path": ".".join(str(p) for p in err.absolute_path) or "$", "message": err.message}
        for err in map(_precise, sorted(_published_validator().iter_errors(data), key=_error_path))
    ]
    if errors:
        raise ManifestInvalid(errors)
    try:
        return DomainManifest.model_validate(data)
    except ValidationError as exc:  # the same error shape
        raise ManifestInvalid(
            [{"path": ".".join(str(p) for p in e["loc"]) or "$", "message": e["msg"]} for e in exc.errors()]
        ) from None


def _error_path(error: SchemaError) -> list[str]:
    return [str(p) for p in error.absolute_path]


def _precise(error: SchemaError) -> SchemaError:
    """A value that fits none of a field's forms ("anyOf": a description is a string or an object
    by language) is reported by the form its type chose, so the path and message name the problem
    (``goals.0.description: Additional properties are not allowed ('fr' was unexpected)``)."""
    while error.context:
        chosen = [e for e in error.context if not (e.validator == "type" and not e.path)]
        if not chosen:
            break
        error = best_match(chosen)
    return error


if __name__ == "__main__":
    json.dump(manifest_json_schema(), sys.stdout, indent=2, sort_keys=True)
    sys.stdout.write("\n")
