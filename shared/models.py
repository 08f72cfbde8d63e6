"""Payloads of the request path (seed 003), with the field names the seed uses.

``EntryRequest -> IntentOutput -> ExecutionIntent -> ExecutionPlan(ExecutionStep...) -> DomainOutput``
"""

from __future__ import annotations

from datetime import datetime
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from shared.status import RunStatus

Channel = Literal["openai", "rest", "cli", "telegram"]
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


class GoalCandidate(BaseModel):
    domain: str
    goal: str
    confidence: float = Field(ge=0.0, le=1.0)


class IntentOutput(BaseModel):
    """Goal + human-friendly entities. Never technical ids (tickers, job ids)."""

    primary_domain: str | None = None
    goal: str | None = None
    entities: dict[str, Any] = Field(default_factory=dict)
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


class ExecutionPlan(BaseModel):
    execution_mode: ExecutionMode = "sequential"
    combine_mode: CombineMode = "last"
    max_concurrency: int = Field(default=4, ge=1, le=256)
    steps: list[ExecutionStep] = Field(default_factory=list)
    #: Why the planner built it this way (decomposition, composition, memory), for the trace.
    notes: list[str] = Field(default_factory=list)


class DomainOutput(BaseModel):
    model_config = ConfigDict(extra="forbid")

    status: DomainStatus
    result: dict[str, Any] = Field(default_factory=dict)
    explanation: str = ""
    confidence: float = Field(default=1.0, ge=0.0, le=1.0)
    metadata: dict[str, Any] = Field(default_factory=dict)


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


class PendingQuestion(BaseModel):
    """A question the run is waiting for the person to answer."""

    kind: Literal["confidence_gate", "domain_clarification", "goal_choice", "missing_entity", "custom"]
    text: str
    options: list[dict[str, Any]] = Field(default_factory=list)
    #: What to re-run once answered (the step or intent that asked).
    resume: dict[str, Any] = Field(default_factory=dict)


class RunResult(BaseModel):
    """The full trace of one turn, as ``POST /v1/runs`` returns it."""

    run_id: str
    session_id: str
    status: RunStatus
    intent: IntentOutput | None = None
    execution_intent: ExecutionIntent | None = None
    plan: ExecutionPlan | None = None
    steps: list[StepTrace] = Field(default_factory=list)
    output: DomainOutput | None = None
    answer: str = ""
    question: PendingQuestion | None = None
    #: Per-session event id of the answer (``evt-0002``); the person's message has the one before.
    event_id: str | None = None
    notes: list[str] = Field(default_factory=list)
    created_at: datetime | None = None
    finished_at: datetime | None = None
