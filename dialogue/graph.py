"""The conversation turn as a graph: every session is one graph run that pauses between messages.

```
understand ─▶ plan ─▶ execute ─▶ respond ─▶ idle (interrupt) ─▶ understand ...
                 └──▶ (gate) ───────▶ respond ─▶ ask (interrupt) ─▶ understand ...
```

``idle`` waits for the next message; ``ask`` waits for the answer to a pending question (a
confidence-gate confirmation, a domain clarification, a domain conversation). Either way the
next message is ``resume(session_id, ConversationGraph.message(...))``, which starts a fresh
:class:`~dialogue.state.Turn`, and ``understand`` decides whether it answers the question or
starts a new request. The state is a :class:`~dialogue.state.TurnState`; each node returns its
own typed update (:class:`Understood`, :class:`PlanMade`, :class:`Executed`, :class:`Responded`, a
:class:`~graph.update.StateUpdate` checked against ``TurnState`` at import), and the turn's
working values change through :class:`TurnChange`, so no field is named in a string. Each
update's subclasses name the node that comes next (``goes_to=``: :class:`PlanToExecute`,
:class:`PlanToRespond`, ...), so a node's return annotation is its edges: the builder reads them
from it, and no router reads the state to choose.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, NamedTuple, Protocol

from dialogue import approval, rules, slots
from dialogue.approval_turn import ApprovalTurn
from dialogue.parts import read_parts
from dialogue.rules import FollowUps, Planned
from dialogue.standing import StandingConversation
from dialogue.state import (
    Continuation,
    Memory,
    Message,
    Route,
    Turn,
    TurnState,
    event_id,
    new_turn,
    recent_messages,
)
from execution.run_state import RunEventSink
from execution.runner import RunController
from graph import GraphBuilder, GraphDefinition, StateUpdate
from intent import IntentAdapter
from intent.entities import OpeningAction
from intent.typed import Clock, valid_time_zone
from planner.llm import LlmRunPlanner, PlanRequest, plan_with_llm
from planner.service import PlannerService
from planner.slots import SlotProblem, check_slots
from shared import i18n
from shared.catalog import Catalog, GoalRef
from shared.errors import PlatformError
from shared.models import (
    ApprovalQuestion,
    ConfirmationQuestion,
    DomainOutput,
    EntryRequest,
    ExecutionIntent,
    ExecutionPlan,
    IntentOutput,
    PendingQuestion,
    RunContext,
    SlotQuestion,
    StepTrace,
)
from shared.status import RunStatus
from shared.telemetry.tracing import CONVERSATION, OPERATION, start_span

GRAPH_NAME = "conversation"
#: A turn is four nodes and an interrupt; this bounds a graph that loops by mistake.
MAX_STEPS = 50


class NewMessage(StateUpdate, state=TurnState):
    """What a new message brings: a fresh turn (nothing of the last one carries over)."""

    turn: Turn
    session_id: str
    pinned_domain: str | None
    channel: str
    #: given only when the request names a valid zone: kept for the session's later messages
    time_zone: str | None = None


class Understood(StateUpdate, state=TurnState):
    """``understand``: the message in the transcript, the question still pending (or none), and
    the turn; the subclass says which node is next (:meth:`of`)."""

    messages: list[Message]
    event_count: int
    question: PendingQuestion | None
    turn: Turn
    #: None: unchanged (written only when the standing conversation changed it)
    standing_proposal: bool | None = None

    @staticmethod
    def of(turn: Turn) -> type[UnderstoodToPlan | UnderstoodToExecute | UnderstoodToRespond]:
        """The update that goes where the understood turn's ``route`` says (the dialogue rules
        that read a reply set it)."""
        return _UNDERSTOOD[turn.route]


class UnderstoodToPlan(Understood, goes_to="plan"):
    """A request to plan (a new one, or a question's answer that changes what to plan)."""


class UnderstoodToExecute(Understood, goes_to="execute"):
    """A reply that lets the plan already made run (a confirmation, an approval, a filled slot)."""


class UnderstoodToRespond(Understood, goes_to="respond"):
    """A reply answered without a run (a question asked again, a refusal, a standing request)."""


_UNDERSTOOD: dict[Route, type[UnderstoodToPlan | UnderstoodToExecute | UnderstoodToRespond]] = {
    "plan": UnderstoodToPlan,
    "execute": UnderstoodToExecute,
    "respond": UnderstoodToRespond,
}


class PlanMade(StateUpdate, state=TurnState):
    """``plan``: the planned turn, and the question it asks, if any."""

    turn: Turn
    question: PendingQuestion | None = None


class PlanToExecute(PlanMade, goes_to="execute"):
    """A plan to run."""


class PlanToRespond(PlanMade, goes_to="respond"):
    """Nothing to run: a question first (the gate, a slot, an approval), a refusal, a failure."""


class Executed(StateUpdate, state=TurnState, goes_to="respond"):
    """``execute``: the turn with its run, and the domain's question when the run waits for one."""

    turn: Turn
    question: PendingQuestion | None = None


class Responded(StateUpdate, state=TurnState):
    """``respond``: the answer in the transcript; the memory of a completed turn; the settled turn."""

    messages: list[Message]
    memory: Memory | None = None
    turn: Turn | None = None


class RespondedToAsk(Responded, goes_to="ask"):
    """The answer asks a question: the session waits for its answer."""


class RespondedToIdle(Responded, goes_to="idle"):
    """The turn is over: the session waits for the next message."""


class TurnChange(StateUpdate, state=Turn):
    """Changes to the turn's working values, typed and validated (``.apply(turn)``)."""

    intent: IntentOutput | None = None
    execution_intent: ExecutionIntent | None = None
    plan: ExecutionPlan | None = None
    held_plan: ExecutionPlan | None = None
    steps: list[StepTrace] | None = None
    output: DomainOutput | None = None
    answer: str | None = None
    status: RunStatus | None = None
    notes: list[str] | None = None
    route: Route | None = None
    confirmed: bool | None = None
    continue_with: Continuation | None = None
    unsupported: str | None = None
    not_done: list[str] | None = None
    cannot_do: list[str] | None = None
    assistant_event_id: str | None = None


class IntentChange(StateUpdate, state=IntentOutput):
    """Changes to an understood intent, typed and validated (``.apply(intent)``)."""

    primary_domain: str | None = None
    goal: str | None = None
    confidence: float | None = None
    language: str | None = None


#: The LLM planner's plan covers the whole message: no part is left to name in the answer.
ALL_PARTS_PLANNED = TurnChange(unsupported=None, not_done=[], cannot_do=[])


@dataclass(frozen=True, slots=True)
class TurnDeps:
    """What the caller hands one turn beside its message (the engine's ``deps=``): per call,
    never stored in the session, so one graph serves every concurrent session without a table
    of runs kept on it."""

    #: who wants this turn's step events as they happen (the gateway's SSE hub); None: nobody
    on_event: RunEventSink | None = None


class _Answered(NamedTuple):
    """The message answered the pending question: the turn, and the question still asked (if any)."""

    turn: Turn
    question: PendingQuestion | None = None


class _Made(NamedTuple):
    """A plan made for the turn, before it is checked: how it was made says what to check."""

    turn: Turn
    planned: Planned
    #: the planner's plan, made from the person's entities (not a continued or resent one)
    from_planner: bool
    #: steps carried over from a plan that paused for a domain conversation
    carried: frozenset[int]
    #: the deterministic planner could not plan it: the LLM planner's plan covers the message
    by_llm_only: bool


class Domains(Protocol):
    """What a turn needs of the orchestrator: its confidence gate (the domain calls go through the
    run loop's step runner, not through the turn)."""

    threshold: float

    def gate_blocks(self, intent: ExecutionIntent) -> bool: ...


class ConversationGraph:
    """Builds the turn graph and holds the services its nodes call (shared by every session:
    what belongs to one turn comes in its message, or in its :class:`TurnDeps`)."""

    def __init__(
        self,
        *,
        adapter: IntentAdapter,
        catalog: Callable[[], Catalog],
        orchestrator: Domains,
        controller: RunController,
    ):
        """``catalog`` returns the current catalog (a registration replaces it); ``controller`` is
        the run loop ``execute`` hands plans to, built by the caller around the orchestrator's step
        runner (a step's path goes from the run loop to the orchestrator, never back here)."""
        self.adapter = adapter
        self._catalog = catalog
        self.orchestrator = orchestrator
        self.follow_ups = FollowUps()
        #: Standing requests made and managed in conversation (dialogue/standing.py); the gateway
        #: sets it (it keeps them), None: not offered.
        self.standing: StandingConversation | None = None
        self._planner: PlannerService | None = None
        self.controller = controller

    # ------------------------------------------------------------------ definition

    def definition(self) -> GraphDefinition[TurnState]:
        return (
            GraphBuilder(
                GRAPH_NAME,
                state_schema=TurnState,
                reducers={"messages": recent_messages},
                max_steps=MAX_STEPS,
            )
            # each node's next nodes are the ones its return type's updates name (goes_to=)
            .add_node("understand", self.understand)
            .add_node("plan", self.plan)
            .add_node("execute", self.execute)
            .add_node("respond", self.respond)
            .add_interrupt("ask")  # the question is in the state: stored there once
            .add_interrupt("idle")
            .add_edge("ask", "understand")
            .add_edge("idle", "understand")
            .set_entry("understand")
            .compile()
        )

    @staticmethod
    def message(entry: EntryRequest, run_id: str, approval: ApprovalTurn | None = None) -> NewMessage:
        """The update a new message brings: a fresh turn (nothing of the last one carries over),
        with what the gateway knows of approvals (``approval``: the time, a decision made outside
        the chat), which the turn hands back with what it answered."""
        turn = new_turn(run_id, entry.input_text, entry.intent, approval)
        zone = entry.metadata.get("time_zone")
        if isinstance(zone, str) and valid_time_zone(zone, "") == zone:
            return NewMessage(
                turn=turn,
                session_id=entry.session_id,
                pinned_domain=entry.pinned_domain,
                channel=entry.channel,
                time_zone=zone,
            )
        return NewMessage(
            turn=turn, session_id=entry.session_id, pinned_domain=entry.pinned_domain, channel=entry.channel
        )

    @classmethod
    def first_state(
        cls, entry: EntryRequest, run_id: str, event_count: int = 0, approval: ApprovalTurn | None = None
    ) -> TurnState:
        """A new session's state with its first message (``event_count``: events numbered before)."""
        return cls.message(entry, run_id, approval).apply(TurnState(event_count=event_count))

    @property
    def catalog(self) -> Catalog:
        return self._catalog()

    def planner(self) -> PlannerService:
        if self._planner is None or self._planner.catalog.fingerprint != self.catalog.fingerprint:
            self._planner = PlannerService(self.catalog)
        return self._planner

    # ------------------------------------------------------------------ nodes

    async def understand(
        self, state: TurnState
    ) -> UnderstoodToPlan | UnderstoodToExecute | UnderstoodToRespond:
        """Read the new message: an answer to the pending question, or a fresh request."""
        seen = state.event_count
        turn = TurnChange(assistant_event_id=event_id(seen + 2)).apply(state.turn)
        user = Message(role="user", content=turn.input, event_id=event_id(seen + 1), run_id=turn.run_id)
        proposal: bool | None = None

        def understood(
            turn: Turn, question: PendingQuestion | None = None
        ) -> UnderstoodToPlan | UnderstoodToExecute | UnderstoodToRespond:
            return Understood.of(turn)(
                messages=[user],
                event_count=seen + 2,
                question=question,
                turn=turn,
                standing_proposal=proposal,
            )

        if self.standing is not None:
            answered, proposed = await self.standing.reply_to(state, turn, self._clock(state))
            if proposed != state.standing_proposal:  # kept in the checkpoint this turn writes
                proposal = proposed
            if answered is not None:  # a schedule or watch proposed, confirmed, listed or changed
                return understood(answered)
        intent = self._conversation_language(await self._parse(state, turn), state)
        replied = self._reply_to_question(state, turn, intent)
        if isinstance(replied, _Answered):
            return understood(replied.turn, replied.question)
        return understood(await self._read_request(state, replied, intent))

    async def _parse(self, state: TurnState, turn: Turn) -> IntentOutput:
        """The message's intent: the one its caller named (an MCP goal tool), else the adapter's."""
        attributes = {OPERATION: "plan", CONVERSATION: state.session_id}
        with start_span("parse_intent", attributes, current=False) as span:
            if turn.given_intent is not None:  # named by the caller (an MCP goal tool): not parsed
                intent = turn.given_intent
            else:
                intent = await self.adapter.parse(
                    turn.input, pinned_domain=state.pinned_domain, context=_parse_context(state)
                )
            if span is not None:
                span.set_attributes(
                    {"intent.goal": intent.goal or "", "intent.confidence": intent.confidence}
                )
        return intent

    def _reply_to_question(self, state: TurnState, turn: Turn, intent: IntentOutput) -> _Answered | Turn:
        """The message as the reply to the pending question, when it is one; else the turn to
        read as a new request (with a note of the question it abandons, if any)."""
        question = state.question
        if isinstance(question, ApprovalQuestion) and question.resume.intent is not None:
            corrected = self.follow_ups.correct(
                question.resume.intent, turn.input, self.catalog, self._clock(state)
            )
            if corrected is not None:
                # "não, pra segunda" while a plan waits: the plan is made again with the new value
                # (and asked again); nothing of the first ran
                note = f"pending question (approval) corrected: {corrected.notes}"
                return _Answered(TurnChange(intent=corrected, route="plan", notes=[note]).apply(turn))
        if isinstance(question, ApprovalQuestion):
            threshold = self.orchestrator.threshold
            reply = approval.answer_approval(question, turn.input, intent, turn, threshold)
            if not reply.new_request:
                return _Answered(reply.turn, reply.question)
            note = "pending question (approval) abandoned: the message is a new request; nothing of it ran"
            return TurnChange(notes=[note]).apply(reply.turn)
        if isinstance(question, SlotQuestion):
            replied = self._answer_slot(question, turn, intent, self._clock(state))
            if replied is not None:
                return _Answered(*replied)
            note = "pending question (slot_filling) abandoned: the message asks for something else"
            return TurnChange(notes=[note]).apply(turn)
        if question is None:
            return turn
        added = self._gate_reply_adds(question, turn, intent, state)
        if added is not None:
            return _Answered(added)
        answered = rules.answer_question(question, turn.input, intent, turn, self.orchestrator.threshold)
        if answered is not None:
            return _Answered(answered)
        again = rules.ask_again(question, turn, intent, self.orchestrator.threshold)
        if again is not None:  # a reply that picks nothing and asks nothing new: ask again
            return _Answered(again, question)
        note = f"pending question ({question.kind}) abandoned: the message is a new request"
        return TurnChange(notes=[note]).apply(turn)

    async def _read_request(self, state: TurnState, turn: Turn, intent: IntentOutput) -> Turn:
        """A new request: a follow-up of the last turn filled in, and its parts read (what this
        turn does, what asks for another goal, what no goal does)."""
        catalog = self.catalog
        clock = self._clock(state)
        threshold = self.orchestrator.threshold
        intent = self.follow_ups.agreed(intent, turn.input, state.memory, catalog, threshold, clock)
        intent = self.follow_ups.pointed_back(intent, turn.input, state.memory, catalog, threshold, clock)
        intent = self.follow_ups.follow_up(intent, turn.input, state.memory, catalog, clock)
        intent = rules.composition_follow_up(intent, turn.input, state.memory, catalog, threshold)
        parts = await read_parts(
            turn.input,
            intent,
            self.adapter,
            catalog,
            threshold,
            unsupported=self._unsupported_action,
            context=_parse_context(state),
        )
        return TurnChange(intent=parts.intent, not_done=parts.not_done, cannot_do=parts.cannot_do).apply(turn)

    @staticmethod
    def _conversation_language(intent: IntentOutput, state: TurnState) -> IntentOutput:
        """A message whose words name no language ("Petrobras", "2", "ok") is in the
        conversation's: the pending question's, else the last turn's."""
        if i18n.vote(intent.original_query or "") is not None:
            return intent
        if state.question is not None:
            known = state.question.resume.language
        elif state.memory.last_intent is not None:
            known = state.memory.last_intent.language
        else:
            return intent
        return intent if known == intent.language else IntentChange(language=known).apply(intent)

    async def plan(self, state: TurnState) -> PlanToExecute | PlanToRespond:
        """Plan the understood request; a question first (the gate, a slot, an approval), a
        refusal or a failure goes to ``respond`` instead of a run."""
        turn = state.turn
        intent = turn.intent
        if intent is None:
            return PlanToRespond(turn=TurnChange(route="respond").apply(turn))
        made = await self._make_plan(turn, intent, state)
        if isinstance(made, Turn):
            return PlanToRespond(turn=made)
        execution_intent, plan = made.planned
        parts_left = [*made.turn.not_done, *made.turn.cannot_do]
        turn = TurnChange(
            execution_intent=execution_intent,
            plan=plan,
            continue_with=None,
            route="execute",
            # the settled steps of a paused plan that goes on are kept (execute does not call them)
            steps=made.turn.steps if made.carried else [],
        ).apply(made.turn)
        opening = self._opening_action(intent, turn.input) if made.from_planner else None
        # an action on an amount the goal does not do, with no LLM planner to plan it: refused,
        # before the gate would ask whether the goal it was read as is wanted
        if opening is not None and opening.on_amount and not self._llm_plans():
            return self._cannot_do(turn, intent, opening.verb)
        if not turn.confirmed and self.orchestrator.gate_blocks(execution_intent):
            return self._gate_question(turn, intent, execution_intent)
        planned = made.planned
        if made.from_planner:
            unsupported = opening.verb if opening is not None else None
            more = await self._plan_more_with_llm(turn, intent, planned, parts_left, unsupported)
            if isinstance(more, PlanToRespond):
                return more
            turn, planned = more
        if made.by_llm_only:  # the whole message went to the LLM planner: its plan covers it
            turn = ALL_PARTS_PLANNED.apply(turn)
        return self._ask_before_running(turn, intent, planned, made)

    async def _make_plan(self, turn: Turn, intent: IntentOutput, state: TurnState) -> _Made | Turn:
        """The deterministic plan (or a continued or resent one); when the deterministic planner
        cannot plan it, the LLM planner's (when configured), else the failed turn."""
        try:
            with start_span("plan", {OPERATION: "plan", CONVERSATION: state.session_id}, current=False):
                planned, from_planner, carried = self._plan(intent, state)
        except PlatformError as exc:
            # the deterministic planner could not plan it: the LLM planner (when configured) may
            instead = await self._plan_instead(turn, intent, exc)
            if isinstance(instead, Turn):
                return instead
            noted = TurnChange(notes=[*turn.notes, _planner_error_note(exc)]).apply(turn)
            return _Made(noted, instead, from_planner=False, carried=frozenset(), by_llm_only=True)
        return _Made(turn, planned, from_planner, carried, by_llm_only=False)

    def _gate_question(
        self, turn: Turn, intent: IntentOutput, execution_intent: ExecutionIntent
    ) -> PlanToRespond:
        """The confidence gate's question: is this what the person wants done?"""
        question = rules.confirmation_question(intent, execution_intent, self.catalog)
        gated = TurnChange(
            status=RunStatus.WAITING_INPUT,
            answer=question.text,
            output=rules.gate_output(question, intent.confidence),
            route="respond",
        )
        return PlanToRespond(turn=gated.apply(turn), question=question)

    async def _plan_more_with_llm(
        self,
        turn: Turn,
        intent: IntentOutput,
        planned: Planned,
        parts_left: list[str],
        unsupported: str | None,
    ) -> tuple[Turn, Planned] | PlanToRespond:
        """The LLM planner (when configured) plans what the deterministic plan cannot express:
        the parts of the message left over and ``unsupported``, a verb its goal does not do; it
        may refuse."""
        execution_intent, plan = planned
        turn = TurnChange(unsupported=unsupported).apply(turn)
        request = PlanRequest(
            turn.input,
            intent.language,
            intent,
            execution_intent,
            plan,
            [*parts_left, *filter(None, [unsupported])],
        )
        by_llm = await plan_with_llm(self.controller.planner, request)
        if by_llm is None:
            return turn, planned
        plan = by_llm.plan
        execution_intent = by_llm.execution_intent or execution_intent
        turn = TurnChange(plan=plan, execution_intent=execution_intent).apply(turn)
        if by_llm.refusal is not None:
            refused = TurnChange(status=RunStatus.FAILED, answer=by_llm.refusal, route="respond")
            return PlanToRespond(turn=refused.apply(turn))
        if plan.planner == "llm":  # the parts it was asked for are in its plan now
            turn = ALL_PARTS_PLANNED.apply(turn)
        return turn, (execution_intent, plan)

    def _ask_before_running(
        self, turn: Turn, intent: IntentOutput, planned: Planned, made: _Made
    ) -> PlanToExecute | PlanToRespond:
        """A plan ready to run, unless the person must be asked first: a value its schema needs
        (planned from the person's entities), a step to approve."""
        execution_intent, plan = planned
        if made.from_planner or made.by_llm_only:
            # no domain is called with parameters its schema rejects: ask, or say what is missing
            problems = check_slots(intent, execution_intent, plan, self.catalog)
            if problems:
                return self._ask_slot(turn, (intent, execution_intent, plan), problems)
        # a step the person must approve first: ask, with the plan kept for the yes
        steps = approval.steps_needing_approval(plan, self.catalog)
        waiting = [s for s in steps if s.id not in made.carried]
        if waiting and made.from_planner:
            # a yes to change something is asked about something: what, when nothing is named
            goal = self.catalog.find_goal(execution_intent.domain, intent.goal or "")
            what = slots.object_question(goal, intent, execution_intent, plan) if goal else None
            if what is not None:
                held = TurnChange(
                    status=RunStatus.WAITING_INPUT,
                    answer=what.text,
                    output=slots.slot_output(what),
                    route="respond",
                    notes=[*turn.notes, f"{intent.goal} names nothing to act on: asked before the approval"],
                )
                return PlanToRespond(turn=held.apply(turn), question=what)
        if waiting:
            asked = approval.approval_question(
                waiting, intent, execution_intent, plan, self.catalog, turn.approval
            )
            held = TurnChange(status=RunStatus.WAITING_INPUT, answer=asked.text, route="respond")
            return PlanToRespond(turn=held.apply(turn), question=asked)
        return PlanToExecute(turn=turn)

    async def _plan_instead(self, turn: Turn, intent: IntentOutput, error: PlatformError) -> Planned | Turn:
        """The LLM planner's plan for a request the deterministic planner could not plan (it
        raised), when one is configured; else the failed turn, which says why (the LLM planner's
        notes and calls, when it was asked, in the trace)."""
        request = PlanRequest(
            turn.input,
            intent.language,
            intent,
            None,
            None,
            [*turn.not_done, *turn.cannot_do],
            planning_error=error.message,
        )
        by_llm = await plan_with_llm(self.controller.planner, request)
        if (
            by_llm is not None
            and by_llm.refusal is None
            and by_llm.plan.planner == "llm"
            and by_llm.execution_intent is not None
        ):
            return by_llm.execution_intent, by_llm.plan
        failed = TurnChange(
            status=RunStatus.FAILED,
            answer=error.message,
            output=None,
            route="respond",
            notes=[*turn.notes, _planner_error_note(error)],
        ).apply(turn)
        if by_llm is not None:  # asked, and gave nothing or refused: its exchange is in the trace
            failed = TurnChange(plan=by_llm.plan, answer=by_llm.refusal or error.message).apply(failed)
        return failed

    def _ask_slot(
        self,
        turn: Turn,
        planned: tuple[IntentOutput, ExecutionIntent, ExecutionPlan],
        problems: list[SlotProblem],
    ) -> PlanToRespond:
        """Ask for the first entity the plan lacks; when no entity can fill it, say so."""
        intent, execution_intent, plan = planned
        goal = self.catalog.find_goal(execution_intent.domain, execution_intent.goal or "")
        askable = next((p for p in problems if p.entity is not None), None)
        notes = [*turn.notes, *(f"slot {p.param}: {p.problem} ({p.detail})" for p in problems)]
        if goal is None or askable is None or askable.entity is None:
            params = ", ".join(dict.fromkeys(p.param for p in problems if p.param)) or "?"
            failed = TurnChange(
                status=RunStatus.FAILED,
                answer=i18n.t("dialogue.cannot_run", intent.language, params=params),
                route="respond",
                notes=notes,
            )
            return PlanToRespond(turn=failed.apply(turn))
        # a group none of which was said: one question naming the alternatives, any of them fills it
        grouped = slots.group_question(goal, intent, execution_intent, plan)
        question = (
            grouped
            if grouped is not None and grouped.entity == askable.entity
            else slots.slot_question(
                askable, goal.entities_schema[askable.entity], intent, execution_intent, plan
            )
        )
        waiting = TurnChange(
            status=RunStatus.WAITING_INPUT,
            answer=question.text,
            output=slots.slot_output(question),
            route="respond",
            notes=notes,
        )
        return PlanToRespond(turn=waiting.apply(turn), question=question)

    def _opening_action(self, intent: IntentOutput, text: str) -> OpeningAction | None:
        """The verb the request opens with that its goal does not do ("compre 100 ações..."),
        and whether it acts on an amount."""
        goal = self.catalog.find_goal(intent.primary_domain or "", intent.goal or "")
        if goal is None or intent.primary_domain is None:
            return None
        extractor = self.follow_ups.extractor(GoalRef(intent.primary_domain, goal), self.catalog)
        if rules.is_correction(intent):
            # "sorry, I meant 51 Station Road": the lead-in of a correction is no action asked for
            text = rules.correction_rest(text) or text
        return extractor.opening_action(text)

    def _unsupported_action(self, intent: IntentOutput, text: str) -> str | None:
        opening = self._opening_action(intent, text)
        return opening.verb if opening is not None else None

    def _llm_plans(self) -> bool:
        """Whether an LLM planner may plan what the deterministic plan cannot express."""
        return isinstance(self.controller.planner, LlmRunPlanner)

    def _cannot_do(self, turn: Turn, intent: IntentOutput, action: str) -> PlanToRespond:
        """A request that opens with an action its goal does not do ("compra 50 ações da Vale"
        read as a quote): nothing runs as if the goal had been asked for; the answer names the
        verb and offers what the goal does. The turn reads as out of scope (the goal is only an
        offer). A verb with no amount ("confere a cotação") is named and the goal still runs."""
        note = f"opens with “{action}”, which {intent.goal} does not do: nothing run, {intent.goal} offered"
        refused = intent.model_copy(
            update={"goal": None, "primary_domain": None, "entities": {}, "notes": [*intent.notes, note]}
        )
        answered = TurnChange(
            intent=refused,
            execution_intent=None,
            plan=None,
            status=RunStatus.COMPLETED,
            answer=self._unsupported_text(intent, action),
            route="respond",
            notes=[*turn.notes, note],
        )
        return PlanToRespond(turn=answered.apply(turn))

    def _unsupported_text(self, intent: IntentOutput, action: str) -> str:
        goal = self.catalog.find_goal(intent.primary_domain or "", intent.goal or "")
        what = slots.describe(goal.description, intent.language) if goal else ""
        return i18n.t("dialogue.unsupported_action", intent.language, action=action, what=what)

    def _gate_reply_adds(
        self, question: PendingQuestion, turn: Turn, intent: IntentOutput, state: TurnState
    ) -> Turn | None:
        """A reply to "do you want X?" that names X's entities ("sim, pra amanhã", "tomorrow")
        confirms X with them, unless it is a confident request for another goal that says more
        than X's values ("banho" to "do you want to book Thor on Thursday?" is the service, though
        the classifier reads a price request in it)."""
        if not isinstance(question, ConfirmationQuestion) or not question.options:
            return None
        picked = question.options[0]
        other = intent.goal is not None and (intent.primary_domain, intent.goal) != (
            picked.domain,
            picked.goal,
        )
        request = IntentChange(goal=picked.goal, primary_domain=picked.domain).apply(question.resume.intent)
        added = self.follow_ups.added(request, turn.input, self.catalog, self._clock(state))
        if added is None:
            return None
        new = sorted(set(added.entities) - set(request.entities))
        if other and intent.confidence >= self.orchestrator.threshold:
            goal = self.catalog.find_goal(picked.domain, picked.goal)
            specs = goal.entities_schema if goal is not None else {}
            if not any(slots.only_the_answer(turn.input, n, added.entities, specs.get(n)) for n in new):
                return None
        confirmed = IntentChange(confidence=1.0).apply(added)
        notes = [f"the reply to the gate confirmed {picked.goal} and added {new}"]
        return TurnChange(intent=confirmed, route="plan", confirmed=True, notes=notes).apply(turn)

    def _clock(self, state: TurnState) -> Clock:
        """The session's clock: its time zone, else the adapter's default (``INTENT_TIME_ZONE``)."""
        default = getattr(self.adapter, "time_zone", "UTC")
        return Clock.of({"time_zone": state.time_zone}, default if isinstance(default, str) else "UTC")

    def _answer_slot(
        self, question: SlotQuestion, turn: Turn, intent: IntentOutput, clock: Clock
    ) -> tuple[Turn, SlotQuestion | None] | None:
        asked = question.resume.intent
        goal = self.catalog.find_goal(asked.primary_domain or "", asked.goal or "")
        if goal is None:  # the domain went away meanwhile: read the message afresh
            return None
        extractor = self.follow_ups.extractor(GoalRef(asked.primary_domain or "", goal), self.catalog)
        threshold = self.orchestrator.threshold
        return slots.answer_slot(question, turn.input, intent, turn, extractor, threshold, clock)

    def _plan(self, intent: IntentOutput, state: TurnState) -> tuple[Planned, bool, frozenset[int]]:
        """A continued domain conversation, a resend of the last answer, or the planner's plan;
        the flag: the plan is the planner's, made from the person's entities; the ids: steps
        carried over from a plan that paused for a domain conversation (approved when it first
        ran; those that settled then are not called again)."""
        turn = state.turn
        if turn.continue_with is not None:
            continuation = turn.continue_with
            planned = rules.continuation_plan(intent, continuation, turn.plan, turn.steps)
            paused = turn.plan if rules.waiting_behind(turn.plan, continuation.step_id, turn.steps) else None
            carried = {s.id for s in paused.steps if s.id != continuation.step_id} if paused else set()
            return planned, False, frozenset(carried)
        memory = state.memory
        if rules.only_composition(intent, memory, self.catalog):
            resend = rules.resend_plan(intent, memory, self.catalog)
            if resend is not None:
                return resend, False, frozenset()
        elif (sent := rules.last_answer_to_send(intent, memory, self.catalog)) is not None:
            return sent, False, frozenset()
        return self.planner().plan(intent, memory.for_planner()), True, frozenset()

    async def execute(self, state: TurnState, deps: TurnDeps | None) -> Executed:
        """Run the plan through the run loop; its step events go to ``deps.on_event``."""
        turn = state.turn
        intent, execution_intent, plan = turn.intent, turn.execution_intent, turn.plan
        if intent is None or execution_intent is None or plan is None:
            answer = rules.answer_text(None, intent.language if intent else "")
            return Executed(turn=TurnChange(status=RunStatus.FAILED, answer=answer).apply(turn))
        context = RunContext(run_id=turn.run_id, session_id=state.session_id, language=intent.language)
        # steps of a plan that paused for the person and ran before are kept, not called again
        kept = {t.id: t for t in turn.steps}
        report = await self.controller.run(
            intent,
            execution_intent,
            plan,
            context=context,
            on_event=deps.on_event if deps is not None else None,
            resume=kept,
        )
        output = report.output
        answer = report.answer or rules.answer_text(output, intent.language)
        if report.changes and report.status == RunStatus.COMPLETED:
            # a value the person did not say was used: the answer says which, and instead of what
            used = approval.changes_text(
                report.changes, execution_intent, report.plan or plan, self.catalog, intent.language
            )
            answer = f"{i18n.t('dialogue.replan_used', intent.language, changes=used)}\n{answer}"
        if turn.unsupported and report.status == RunStatus.COMPLETED:
            # the part the person asked for that no goal does is named, not silently dropped
            answer = f"{self._unsupported_text(intent, turn.unsupported)}\n{answer}"
        if turn.not_done and report.status == RunStatus.COMPLETED:
            # so are the parts that ask for another goal, which this turn did not do
            parts = [i18n.t("dialogue.part_not_done", intent.language, part=part) for part in turn.not_done]
            answer = "\n".join([answer, *parts])
        if turn.cannot_do and report.status == RunStatus.COMPLETED:
            # and the parts no goal does
            parts = [i18n.t("dialogue.part_cannot_do", intent.language, part=part) for part in turn.cannot_do]
            answer = "\n".join([answer, *parts])
        question: PendingQuestion | None = None
        if report.held is not None:  # a step that changes something waits for a yes to the change
            question = approval.replan_question(
                report.held, intent, execution_intent, self.catalog, turn.approval
            )
            answer = question.text
        elif report.status == RunStatus.WAITING_INPUT and output is not None:
            question = rules.domain_question(output, answer, intent, execution_intent, plan, report.steps)
            answer = question.text  # options included: a chat client shows only this text
        ran = TurnChange(
            plan=report.plan or plan,  # replans included
            # the replan that waits for the yes, in the trace beside the plan that ran
            held_plan=report.held.plan if report.held is not None else None,
            status=report.status,
            notes=[*turn.notes, *([report.reason] if report.reason else [])],
            steps=report.steps,
            output=output,
            answer=answer,
        )
        if question is None:
            return Executed(turn=ran.apply(turn))
        if report.held is not None:
            # the request the yes runs, with the values the change brings ("6 no lugar de 8")
            ran = ran.model_copy(update={"intent": question.resume.intent})
        return Executed(turn=ran.apply(turn), question=question)

    def respond(self, state: TurnState) -> RespondedToAsk | RespondedToIdle:
        turn = state.turn
        # a turn no node settled (nothing ran and nothing failed) is a completed one
        status = RunStatus.COMPLETED if turn.status == RunStatus.EXECUTING else turn.status
        answer = Message(
            role="assistant",
            content=turn.answer,
            event_id=turn.assistant_event_id or event_id(state.event_count),
            run_id=turn.run_id,
            status=status,
        )
        memory = None
        # a failed request is remembered too: "make it saturday" after "deliveries can be moved
        # to tomorrow or later" corrects it
        if status in (RunStatus.COMPLETED, RunStatus.FAILED) and turn.intent is not None:
            memory = Memory(
                last_intent=turn.intent,
                last_execution_intent=turn.execution_intent,
                last_answer=turn.answer,
                last_outputs=[s.output for s in turn.steps if s.output is not None],
            )
        settled = TurnChange(status=status).apply(turn) if status != turn.status else None
        # a question still pending waits for its answer; else the turn is over
        responded = RespondedToAsk if state.question is not None else RespondedToIdle
        return responded(messages=[answer], memory=memory, turn=settled)


def _parse_context(state: TurnState) -> dict[str, Any]:
    """What the adapter reads a message of this conversation with: its session and time zone."""
    return {"session_id": state.session_id, "time_zone": state.time_zone}


def _planner_error_note(error: PlatformError) -> str:
    return f"the deterministic planner could not plan it: {error.message}"
