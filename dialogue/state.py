"""The turn's typed state: what a session keeps between messages, and one turn's working values.

The session fields live at the top; everything a turn works out lives in :class:`Turn`, which a
new message replaces whole, so nothing of the previous turn leaks into the next one's trace.
The engine keeps these models as they are and turns them into JSON only at the checkpoint, where
a settled turn is written without its run record (execution intent, plan, steps, output, notes:
written empty): that is the run's trace, stored once, in the run's row. Its input, intent, status
and answer stay, for the version views.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any, Literal

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    field_serializer,
    field_validator,
)

from dialogue.approval_turn import ApprovalTurn
from planner.memory import SessionMemory
from shared.models import (
    DomainOutput,
    ExecutionIntent,
    ExecutionPlan,
    IntentOutput,
    PendingQuestion,
    RunResult,
    StepTrace,
    lift_untyped_question,
)
from shared.status import RunStatus, is_terminal

#: Messages kept in the session state: recent context for follow-ups, and a state (stored, and
#: read back by every turn) that does not grow with the conversation. The whole transcript is in
#: the runs table (``GET /v1/sessions/{id}/history``).
TRANSCRIPT_WINDOW = 20

Route = Literal["plan", "execute", "respond"]


class Message(BaseModel):
    """One line of the transcript; ``event_id`` numbers it within the session."""

    model_config = ConfigDict(frozen=True)

    role: Literal["user", "assistant"]
    content: str
    event_id: str
    run_id: str | None = None
    #: The turn's status, on the assistant's messages.
    status: RunStatus | None = None


class Memory(BaseModel):
    """What the last completed or failed turn leaves for the next one (follow-ups, corrections,
    resends, the planner)."""

    model_config = ConfigDict(frozen=True)

    last_intent: IntentOutput | None = None
    last_execution_intent: ExecutionIntent | None = None
    last_answer: str = ""
    last_outputs: list[DomainOutput] = Field(default_factory=list)

    def for_planner(self) -> SessionMemory:
        """The planner's view of it (no copies: the planner reads it)."""
        return SessionMemory(
            last_intent=self.last_intent,
            last_execution_intent=self.last_execution_intent,
            last_answer=self.last_answer,
            last_outputs=self.last_outputs,
        )


class Continuation(BaseModel):
    """The reply goes to ``domain.capability`` as ``parameters[param]`` (a domain conversation)."""

    model_config = ConfigDict(frozen=True)

    domain: str
    capability: str
    param: str = "reply"
    reply: str
    #: The plan's step that asked: the plan's steps waiting behind it go on once the domain's
    #: conversation ends (None: nothing waits).
    step_id: int | None = None


class Turn(BaseModel):
    """One turn's working values. A new message starts a fresh one (see :func:`new_turn`)."""

    model_config = ConfigDict(frozen=True)

    run_id: str = ""
    input: str = ""
    intent: IntentOutput | None = None
    execution_intent: ExecutionIntent | None = None
    plan: ExecutionPlan | None = None
    #: The new plan a replan made that waits for the person's yes (``ExecutionReport.held``),
    #: beside ``plan``, the one that ran: it runs only on the yes.
    held_plan: ExecutionPlan | None = None
    steps: list[StepTrace] = Field(default_factory=list)
    output: DomainOutput | None = None
    answer: str = ""
    status: RunStatus = RunStatus.EXECUTING
    notes: list[str] = Field(default_factory=list)
    #: Where ``understand`` / ``plan`` send the turn next.
    route: Route = "plan"
    #: The person confirmed (or picked) what runs: the confidence gate does not ask again.
    confirmed: bool = False
    continue_with: Continuation | None = None
    #: The verb the request opened with that the goal does not do ("compre"): the answer says so.
    unsupported: str | None = None
    #: Parts of the message asking for another goal, which this turn does not do: named in the answer.
    not_done: list[str] = Field(default_factory=list)
    #: Parts of the message asking for something no registered goal does ("reserva um voo"):
    #: named in the answer as what the platform cannot do.
    cannot_do: list[str] = Field(default_factory=list)
    #: The answer's event id (the message's is the one before).
    assistant_event_id: str | None = None
    #: The intent the caller gave with the message (``EntryRequest.intent``): ``understand``
    #: takes it instead of parsing ``input``.
    given_intent: IntentOutput | None = None
    #: Approvals as the gateway hands them in, and which one this turn answered and how
    #: (None: a turn outside the gateway, whose approval questions wait until answered).
    approval: ApprovalTurn | None = None

    @property
    def settled(self) -> bool:
        """The turn's run ended and nothing of it goes on: the next message replaces it whole."""
        return is_terminal(self.status) and self.continue_with is None

    # A settled turn is written without its run record: nothing reads it again from the session
    # (a new message starts a new turn) and the run's row keeps it as its trace (``GET
    # /v1/runs/{run_id}``). A turn that waits keeps all of it: it goes on. One serializer per
    # field, so that each keeps its documented type.

    @field_serializer("execution_intent")
    def _execution_intent_once(self, value: ExecutionIntent | None) -> ExecutionIntent | None:
        return None if self.settled else value

    @field_serializer("plan")
    def _plan_once(self, value: ExecutionPlan | None) -> ExecutionPlan | None:
        return None if self.settled else value

    @field_serializer("steps")
    def _steps_once(self, value: list[StepTrace]) -> list[StepTrace]:
        return [] if self.settled else value

    @field_serializer("output")
    def _output_once(self, value: DomainOutput | None) -> DomainOutput | None:
        return None if self.settled else value

    @field_serializer("notes")
    def _notes_once(self, value: list[str]) -> list[str]:
        return [] if self.settled else value


class TurnState(BaseModel):
    """A session's state: its transcript window, memory, pending question and the current turn."""

    model_config = ConfigDict(frozen=True)

    session_id: str = ""
    pinned_domain: str | None = None
    channel: str = "rest"
    #: The person's IANA time zone, as a request's ``metadata.time_zone`` last gave it: dates
    #: and times they say are resolved in it.
    time_zone: str | None = None
    messages: list[Message] = Field(default_factory=list)
    memory: Memory = Field(default_factory=Memory)
    question: PendingQuestion | None = None
    #: Events numbered so far in the session (two per turn: the message and the answer).
    event_count: int = 0
    #: A standing request proposed in this session waits for the person's yes
    #: (dialogue/standing.py): only then does a turn read the proposal from the database.
    standing_proposal: bool = False
    turn: Turn = Field(default_factory=Turn)

    @field_validator("question", mode="before")
    @classmethod
    def _stored_question(cls, value: Any) -> Any:
        return lift_untyped_question(value)

    def run_result(
        self, *, created_at: datetime | None = None, finished_at: datetime | None = None
    ) -> RunResult:
        """The trace of the current turn, as the runs API returns and stores it."""
        turn = self.turn
        return RunResult(
            run_id=turn.run_id,
            session_id=self.session_id,
            status=turn.status,
            intent=turn.intent,
            execution_intent=turn.execution_intent,
            plan=turn.plan,
            held_plan=turn.held_plan,
            steps=turn.steps,
            output=turn.output,
            answer=turn.answer,
            question=self.question,
            event_id=turn.assistant_event_id,
            notes=turn.notes,
            created_at=created_at,
            finished_at=finished_at,
        )


def recent_messages(current: Sequence[Any], update: Sequence[Any]) -> list[Any]:
    """The ``messages`` reducer: append, keeping the last :data:`TRANSCRIPT_WINDOW` messages
    (typed messages in memory, their JSON when a stored session is folded).

    >>> old = [Message(role="user", content=str(i), event_id=event_id(i)) for i in range(TRANSCRIPT_WINDOW)]
    >>> kept = recent_messages(old, [Message(role="user", content="new", event_id=event_id(99))])
    >>> len(kept), kept[-1].content
    (20, 'new')
    """
    return [*current, *update][-TRANSCRIPT_WINDOW:]


def event_id(n: int) -> str:
    """Per-session event ids: ``evt-0001``, ``evt-0002``, ...

    >>> event_id(12)
    'evt-0012'
    """
    return f"evt-{n:04d}"


def new_turn(
    run_id: str, text: str, given_intent: IntentOutput | None = None, approval: ApprovalTurn | None = None
) -> Turn:
    """The working values of a turn that has just received ``text`` (with the intent its caller
    gave and the gateway's view of approvals, if any): everything else reset."""
    return Turn(run_id=run_id, input=text, given_intent=given_intent, approval=approval)
