"""Payloads of the request path, with the field names of the original design (docs/architecture.md).

``EntryRequest -> IntentOutput -> ExecutionIntent -> ExecutionPlan(ExecutionStep...) -> DomainOutput``
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from datetime import datetime
from typing import Annotated, Any, Literal, TypedDict

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from shared.entities import Entities
from shared.status import RunStatus

Channel = Literal["openai", "rest", "cli", "telegram", "mcp", "a2a"]
ExecutionMode = Literal["sequential", "parallel", "dag"]
CombineMode = Literal["last", "report", "merge"]
DomainStatus = Literal["success", "failure", "clarification"]


class EntryRequest(BaseModel):
    """What every channel is normalised into before the turn starts."""

    session_id: str
    input_text: str
    channel: Channel = "rest"
    metadata: dict[str, Any] = Field(default_factory=dict)
    #: Restricts goal matching to one domain (``orchestrator:<domain>`` model on /v1).
    pinned_domain: str | None = None
    #: The intent, when the caller named it (an MCP goal tool): it stands in for the parse of
    #: ``input_text``; everything after the parse is a typed message's turn. Set by channels only.
    intent: IntentOutput | None = None


class GoalCandidate(BaseModel):
    domain: str
    goal: str
    confidence: float = Field(ge=0.0, le=1.0)


class IntentOutput(BaseModel):
    """Goal + human-friendly entities. Never technical ids (tickers, job ids)."""

    primary_domain: str | None = None
    goal: str | None = None
    entities: Entities = Field(default_factory=dict)
    confidence: float = Field(default=0.0, ge=0.0, le=1.0)
    original_query: str = ""
    #: Ranked goals, best first (the chosen goal included); used for "did you mean A or B?".
    alternatives: list[GoalCandidate] = Field(default_factory=list)
    #: Which adapter produced this ("embedded", "llm", "llm->embedded fallback", ...).
    adapter: str = "embedded"
    language: str = "pt"
    notes: list[str] = Field(default_factory=list)

    @property
    def out_of_scope(self) -> bool:
        return self.goal is None


#: The context key the run loop sets when a round's calls need fresh idempotency keys (a replan);
#: read into :class:`CallContext` when a step's intent is built, never sent to a domain.
IDEMPOTENCY_SUFFIX = "idempotency_suffix"


class RunContext(TypedDict, total=False):
    """What the caller of a run tells it beside the plan (``RunController.run(context=...)``),
    copied into every step's ``ExecutionIntent.context``: what a domain is told of the request."""

    #: the run's id: its steps' idempotency keys are made from it (a fresh one when not given)
    run_id: str
    #: the conversation the run answers in
    session_id: str
    #: the language to answer in (else the request's own)
    language: str


class CallContext(BaseModel):
    """What the core needs to make one domain call that is not part of the domain contract: the
    ``Idempotency-Key`` it is sent under. The DAG makes one per step and passes it, beside the
    intent, through the step runner to :meth:`orchestrator.Orchestrator.dispatch`; it never
    reaches a domain's ``/execute`` body (which carries only what docs/domains.md says)."""

    model_config = ConfigDict(frozen=True)

    run_id: str
    step_id: int
    #: Appended to the key when the call must not be answered from the domain's store of keys: a
    #: replanned round (``r1``), a retry after an invalid answer (``v1``).
    idempotency_suffix: str = ""

    @property
    def idempotency_key(self) -> str:
        """``{run_id}:{step_id}``, plus ``:{suffix}`` when there is one.

        >>> CallContext(run_id="r9", step_id=2, idempotency_suffix="r1").idempotency_key
        'r9:2:r1'
        """
        key = f"{self.run_id}:{self.step_id}"
        return f"{key}:{self.idempotency_suffix}" if self.idempotency_suffix else key

    def with_suffix(self, suffix: str) -> CallContext:
        return self.model_copy(update={"idempotency_suffix": suffix})

    @classmethod
    def of(cls, intent: ExecutionIntent, step: ExecutionStep | None = None) -> CallContext:
        """The call context of an intent dispatched outside the run loop (a test, a one-off
        call): the ids its context names, else a one-off run."""
        context = intent.context
        run_id = str(context.get("run_id") or f"adhoc-{uuid.uuid4().hex}")
        step_id = context.get("step_id", step.id if step is not None else 1)
        suffix = context.get(IDEMPOTENCY_SUFFIX)
        return cls(run_id=run_id, step_id=int(step_id), idempotency_suffix=str(suffix or ""))


class ExecutionIntent(BaseModel):
    """One resolved capability call; also the body of a domain's ``POST /execute``."""

    domain: str
    capability: str
    parameters: dict[str, Any] = Field(default_factory=dict)
    confidence: float = Field(default=1.0, ge=0.0, le=1.0)
    original_query: str = ""
    goal: str | None = None
    #: Every capability the goal resolved to (``BOTH`` -> two); ``capability`` is the first.
    capabilities: list[str] = Field(default_factory=list)
    #: Run/session/step ids and the user's language, for the domain's own use.
    context: dict[str, Any] = Field(default_factory=dict)


class ExecutionStep(BaseModel):
    id: int = Field(ge=1)
    domain: str
    capability: str
    params: dict[str, Any] = Field(default_factory=dict)
    depends_on: list[int] = Field(default_factory=list)
    required: bool = True
    output_key: str | None = None
    #: A JMESPath condition over earlier steps' outputs (``step1.result.price < `200```); the
    #: step runs only when it holds, else it is ``skipped`` with the reason (docs/planning.md).
    when: str | None = None


class PlannerCall(BaseModel):
    """One exchange with an LLM planner, kept in the run trace for debugging (secrets masked)."""

    #: ``plan``, ``correction`` (the validation errors sent back) or ``replan``.
    purpose: Literal["plan", "correction", "replan"]
    model: str = ""
    #: The model's raw answer (tool-call arguments or message content), secrets masked.
    raw: str = ""
    #: What was wrong with the proposed plan (empty: it was valid).
    errors: list[str] = Field(default_factory=list)
    #: Why the call gave nothing (timeout, HTTP error), if it did not.
    failure: str | None = None
    duration_ms: float | None = None


@dataclass(frozen=True)
class ParamChange:
    """A parameter a replan set to a value the person did not say: a failure's suggestion (a
    re-issue), or a value a rewritten plan brought in."""

    step_id: int
    param: str
    #: The value the step had (as planned, references included); None: the step had none.
    before: Any
    #: The value it was called with (a suggestion is escaped: never a reference; a rewrite's
    #: value may read earlier steps).
    after: Any


class ExecutionPlan(BaseModel):
    execution_mode: ExecutionMode = "sequential"
    combine_mode: CombineMode = "last"
    max_concurrency: int = Field(default=4, ge=1, le=256)
    steps: list[ExecutionStep] = Field(default_factory=list)
    #: Why the planner built it this way (decomposition, composition, memory), for the trace.
    notes: list[str] = Field(default_factory=list)
    #: Which planner made it: ``deterministic`` (the decomposer) or ``llm``.
    planner: str = "deterministic"
    #: The LLM planner's exchanges that led to this plan (and its replans), oldest first.
    llm_calls: list[PlannerCall] = Field(default_factory=list)
    #: Failures' suggestions used without asking, in place of what the person said (read-only
    #: re-issues: ``ExecutionReport.changes``) by the run of this plan, or, for a replan that
    #: waits for a yes, by the run before it. A run of the plan starts from them, so its answer
    #: names them even when the yes came in another turn. Left out when empty.
    suggestions_used: list[ParamChange] = Field(default_factory=list, exclude_if=lambda used: not used)


class ClarificationOption(BaseModel):
    """One answer the person may pick: ``value`` fills the clarification's ``param``."""

    model_config = ConfigDict(extra="forbid")

    value: Any
    #: How the option is shown ("Nordea — Helsinki (EUR)").
    label: str = ""
    #: Other words a reply may name it by ("a finlandesa", "Helsinki"); matched accent/case-blind.
    aliases: list[str] = Field(default_factory=list)
    #: The domain's own fields about the option (name, exchange...), shown to API clients.
    data: dict[str, Any] = Field(default_factory=dict)


class ContinueWith(BaseModel):
    """The next message goes to ``capability`` of the same domain as ``parameters[param]``."""

    model_config = ConfigDict(extra="forbid")

    capability: str
    param: str = "reply"


class Clarification(BaseModel):
    """What a domain asks the person, typed: pick one of ``options`` (filling ``param`` of the
    step that asked), or go on talking (``continue_with``)."""

    model_config = ConfigDict(extra="forbid")

    question: str
    options: list[ClarificationOption] = Field(default_factory=list)
    #: The step parameter the picked option's ``value`` fills; the step then runs again.
    param: str | None = None
    continue_with: ContinueWith | None = None


class Failure(BaseModel):
    """Why a domain could not do it, typed."""

    model_config = ConfigDict(extra="forbid")

    #: A stable machine-readable code: ``price_unavailable``, ``unknown_capability``...
    reason: str
    #: True when the same request with other parameters (``suggestions``) may succeed.
    recoverable: bool = False
    #: Parameter patches worth retrying with (``[{"symbol": "PETR4.SA"}]``); the replanner tries them.
    suggestions: list[dict[str, Any]] = Field(default_factory=list)


def _lift_legacy_metadata(data: dict[str, Any]) -> dict[str, Any]:
    """Domains written before the typed protocol signalled through ``metadata`` keys
    (``error``, ``recoverable``, ``suggestions``, ``choice_param`` + ``result.candidates``,
    ``continue_with``). They are still read for one release, into the typed fields."""
    metadata = data.get("metadata") or {}
    status = data.get("status")
    if status == "failure" and data.get("failure") is None and "error" in metadata:
        param = metadata.get("suggestion_param") or metadata.get("choice_param")
        patches: list[dict[str, Any]] = []
        for item in metadata.get("suggestions") or []:
            if isinstance(item, dict) and item:
                patches.append(dict(item))
            elif isinstance(item, str | int | float) and isinstance(param, str):
                patches.append({param: item})
        data = {
            **data,
            "failure": {
                "reason": str(metadata["error"]),
                "recoverable": metadata.get("recoverable") is True,
                "suggestions": patches,
            },
        }
    if status == "clarification" and data.get("clarification") is None:
        param = metadata.get("choice_param")
        continue_with = metadata.get("continue_with")
        if param or continue_with:
            candidates = (data.get("result") or {}).get("candidates") or []
            options = [
                {
                    "value": c.get(param) if param else c.get("value"),
                    "label": c.get("label") or c.get("name") or "",
                    "aliases": list(c.get("aliases") or []),
                    "data": {k: v for k, v in c.items() if k not in ("label", "aliases")},
                }
                for c in candidates
                if isinstance(c, dict)
            ]
            data = {
                **data,
                "clarification": {
                    "question": data.get("explanation") or "",
                    "options": options,
                    "param": param,
                    "continue_with": continue_with,
                },
            }
    return data


class DomainOutput(BaseModel):
    """A domain's answer. A ``clarification`` status carries :class:`Clarification`, a
    ``failure`` status :class:`Failure`: the core reads those fields, never ``metadata``
    (free-form, for the trace and for the domain's own use)."""

    model_config = ConfigDict(extra="forbid")

    status: DomainStatus
    result: dict[str, Any] = Field(default_factory=dict)
    explanation: str = ""
    confidence: float = Field(default=1.0, ge=0.0, le=1.0)
    clarification: Clarification | None = None
    failure: Failure | None = None
    metadata: dict[str, Any] = Field(default_factory=dict)

    @model_validator(mode="before")
    @classmethod
    def _legacy(cls, data: Any) -> Any:
        return _lift_legacy_metadata(data) if isinstance(data, dict) else data

    @model_validator(mode="after")
    def _typed_field_matches_status(self) -> DomainOutput:
        if self.clarification is not None and self.status != "clarification":
            raise ValueError("clarification is only allowed with status 'clarification'")
        if self.failure is not None and self.status != "failure":
            raise ValueError("failure is only allowed with status 'failure'")
        return self

    @property
    def recoverable(self) -> bool:
        """A failure worth replanning: the domain said so, or it suggested other parameters."""
        return self.failure is not None and (self.failure.recoverable or bool(self.failure.suggestions))


class StepTrace(BaseModel):
    """A step as the run trace shows it."""

    id: int
    domain: str
    capability: str
    status: RunStatus = RunStatus.PENDING
    params: dict[str, Any] = Field(default_factory=dict)
    started_at: datetime | None = None
    finished_at: datetime | None = None
    duration_ms: float | None = None
    attempts: int = 0
    output: DomainOutput | None = None
    error: str | None = None
    #: Why a condition kept the step from running: its own ``when`` was false, or a step it
    #: needs was skipped that way (the step is ``skipped``, and that is no failure).
    skipped_by_condition: str | None = None


class GoalOption(BaseModel):
    """A goal the confidence gate offers ("did you mean ...?")."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    domain: str
    goal: str
    confidence: float = Field(ge=0.0, le=1.0)
    description: str = ""


class ResumePoint(BaseModel):
    """Where the turn picks up once the pending question is answered."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    intent: IntentOutput
    language: str = "pt"
    #: The plan, its intent and the step that asked (a domain clarification).
    plan: ExecutionPlan | None = None
    execution_intent: ExecutionIntent | None = None
    step_id: int | None = None
    domain: str | None = None
    #: The step parameter the picked option's value fills (``Clarification.param``).
    param: str | None = None
    #: The domain conversation the reply goes on with (``Clarification.continue_with``).
    continue_with: ContinueWith | None = None
    #: The run's settled steps when other steps of ``plan`` still wait behind the one that asked:
    #: kept (not called again) when the plan goes on once the question is answered.
    steps: list[StepTrace] = Field(default_factory=list)


class ConfirmationQuestion(BaseModel):
    """The confidence gate: the goal was uncertain, so the person confirms (or picks) it first."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    kind: Literal["confidence_gate"] = "confidence_gate"
    text: str
    options: list[GoalOption] = Field(default_factory=list)
    resume: ResumePoint


class ClarificationQuestion(BaseModel):
    """A domain asked: pick one of ``options``, or go on with its conversation."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    kind: Literal["domain_clarification"] = "domain_clarification"
    text: str
    options: list[ClarificationOption] = Field(default_factory=list)
    resume: ResumePoint


class SlotQuestion(BaseModel):
    """The platform asks for an entity the goal needs before any domain is called (slot filling):
    ``entity`` was missing, or its value is one the capability's ``parameters`` schema rejects."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    kind: Literal["slot_filling"] = "slot_filling"
    text: str
    #: The goal entity asked for (``resume.intent`` holds the goal and the entities so far).
    entity: str
    #: An enum entity's values, to pick from.
    options: list[ClarificationOption] = Field(default_factory=list)
    #: Replies so far that filled nothing; the platform gives up after the second.
    attempts: int = Field(default=0, ge=0)
    resume: ResumePoint


class ApprovalQuestion(BaseModel):
    """An approval gate: the plan has steps whose capability needs the person's yes first
    (``policy.confirm``); ``resume`` holds the plan, run as it is on a yes."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    kind: Literal["approval"] = "approval"
    #: Names the approval for approvers (``/v1/approvals``); questions stored before it have none.
    approval_id: str | None = None
    #: After it the question is refused (nothing runs); ``None``: it waits until answered.
    expires_at: datetime | None = None
    #: When the person is reminded of it, if still waiting.
    remind_at: datetime | None = None
    text: str
    #: The ids of the plan's steps that wait for the yes.
    steps: list[int] = Field(default_factory=list)
    resume: ResumePoint


#: A question the run is waiting for the person to answer, told apart by ``kind``.
PendingQuestion = Annotated[
    ConfirmationQuestion | ClarificationQuestion | SlotQuestion | ApprovalQuestion,
    Field(discriminator="kind"),
]


def lift_untyped_question(data: Any) -> Any:
    """A question stored before the typed form (options as free dicts, ``resume.choice_param``),
    read into it for one release, so stored traces and waiting sessions still load.

    >>> lifted = lift_untyped_question({"kind": "domain_clarification", "text": "Which?",
    ...     "options": [{"symbol": "A.ST", "label": "A (Stockholm)"}],
    ...     "resume": {"intent": {}, "step_id": 1, "choice_param": "symbol"}})
    >>> lifted["options"], lifted["resume"]["param"]
    ([{'value': 'A.ST', 'label': 'A (Stockholm)', 'aliases': [], 'data': {'symbol': 'A.ST'}}], 'symbol')
    """
    if not isinstance(data, dict) or "choice_param" not in (data.get("resume") or {}):
        return data
    resume = {k: v for k, v in data["resume"].items() if k != "choice_param"}
    param = resume["param"] = data["resume"]["choice_param"]
    options = [
        {
            "value": o.get(param),
            "label": str(o.get("label") or o.get("name") or ""),
            "aliases": list(o.get("aliases") or []),
            "data": {k: v for k, v in o.items() if k not in ("label", "aliases")},
        }
        if isinstance(o, dict) and "value" not in o
        else o
        for o in data.get("options") or []
    ]
    return {**data, "options": options, "resume": resume}


class RunResult(BaseModel):
    """The full trace of one turn, as ``POST /v1/runs`` returns it."""

    run_id: str
    session_id: str
    status: RunStatus
    intent: IntentOutput | None = None
    execution_intent: ExecutionIntent | None = None
    #: The plan that ran (replans included).
    plan: ExecutionPlan | None = None
    #: A replan's new plan waiting for the person's yes (a re-issue or a rewrite held because a
    #: step of it changes something): it runs only on the yes, and the next turn's trace has it
    #: as ``plan``.
    held_plan: ExecutionPlan | None = None
    steps: list[StepTrace] = Field(default_factory=list)
    output: DomainOutput | None = None
    answer: str = ""
    question: PendingQuestion | None = None
    #: Per-session event id of the answer (``evt-0002``); the person's message has the one before.
    event_id: str | None = None
    notes: list[str] = Field(default_factory=list)
    created_at: datetime | None = None
    finished_at: datetime | None = None

    @field_validator("question", mode="before")
    @classmethod
    def _stored_question(cls, value: Any) -> Any:
        return lift_untyped_question(value)
