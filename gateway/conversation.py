"""The conversation turn as a graph (seed 000): every session is one graph run that pauses
between messages.

```
understand ─▶ plan ─▶ execute ─▶ respond ─▶ idle (interrupt) ─▶ understand ...
                 └──▶ (gate) ───────▶ respond ─▶ ask (interrupt) ─▶ understand ...
```

``idle`` waits for the next message; ``ask`` waits for the answer to a pending question (a
confidence-gate confirmation, a domain clarification, a domain conversation). Either way the
next message is ``resume(session_id, {"input": ...})`` and ``understand`` decides whether it
answers the question or starts a fresh request. State is JSON data; messages accumulate.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Awaitable, Callable, Mapping
from typing import Any, TypeVar, cast

from pydantic import BaseModel

from execution.dag import StepRunner
from execution.graph import END, GraphBuilder, GraphDefinition, append
from execution.graph.state import thaw
from execution.references import escape
from execution.runner import RunController
from gateway.clarify import choose, is_no, is_yes, listed, normalise
from intent import IntentAdapter
from intent.embedded import entity_extractor
from intent.entities import GoalEntityExtractor
from orchestrator.orchestrator import Orchestrator
from orchestrator.registry import DomainRegistry
from planner.memory import SessionMemory
from planner.service import PlannerService
from shared.catalog import Catalog, GoalRef
from shared.errors import PlatformError
from shared.models import (
    DomainOutput,
    ExecutionIntent,
    ExecutionPlan,
    ExecutionStep,
    IntentOutput,
    PendingQuestion,
    StepTrace,
)
from shared.status import RunStatus

State = Mapping[str, Any]
RunEvents = Callable[[dict[str, Any]], Awaitable[None]]

GRAPH_NAME = "conversation"

_FOLLOWUP_PREFIXES = (
    "e a ",
    "e o ",
    "e as ",
    "e os ",
    "e da ",
    "e do ",
    "e ",
    "and ",
    "what about ",
    "how about ",
)


# ------------------------------------------------------------------ models <-> state JSON


M = TypeVar("M", bound=BaseModel)


class LiveModels:
    """The models behind the JSON values a turn puts in the state.

    The state holds plain JSON (it is stored); nodes work on pydantic models. A node that writes a
    model writes :meth:`dump`'s JSON and a later reader's :meth:`load` of that very JSON object
    returns the model itself instead of validating it again (a session's state is kept between
    turns, so this holds across turns too). Any other JSON (read from the store, a question's
    ``resume``) is validated. Readers must treat what they get as read-only, as they do the
    state. Holds the last ``size`` objects; the JSON is kept referenced, so an id cannot be reused
    while its entry lives.

    >>> live = LiveModels()
    >>> data = live.dump(PendingQuestion(kind="custom", text="Which one?"))
    >>> live.load(data, PendingQuestion) is live.load(data, PendingQuestion)
    True
    >>> live.load(dict(data), PendingQuestion) is live.load(data, PendingQuestion)  # a copy: validated
    False
    """

    def __init__(self, size: int = 4096):
        self.size = size
        self._models: OrderedDict[int, tuple[Any, Any]] = OrderedDict()

    def dump(self, model: BaseModel) -> dict[str, Any]:
        data = model.model_dump(mode="json")
        self.keep(data, model)
        return data

    def keep(self, data: Any, obj: Any) -> None:
        self._models[id(data)] = (data, obj)
        if len(self._models) > self.size:
            self._models.popitem(last=False)

    def _kept(self, data: Any, kind: type) -> Any:
        hit = self._models.get(id(data))
        return hit[1] if hit is not None and hit[0] is data and type(hit[1]) is kind else None

    def load(self, data: Any, cls: type[M]) -> M:
        kept = self._kept(data, cls)
        if kept is not None:
            return cast(M, kept)
        model = cls.model_validate(data)
        self.keep(data, model)
        return model

    def memory(self, data: Mapping[str, Any] | None) -> SessionMemory:
        """The planner memory of ``state["memory"]`` (see :func:`memory_dict`)."""
        if not data:
            return SessionMemory()
        kept = self._kept(data, SessionMemory)
        if kept is not None:
            return cast(SessionMemory, kept)
        last_intent, last_execution_intent = data.get("last_intent"), data.get("last_execution_intent")
        memory = SessionMemory(
            last_intent=self.load(last_intent, IntentOutput) if last_intent else None,
            last_execution_intent=(
                self.load(last_execution_intent, ExecutionIntent) if last_execution_intent else None
            ),
            last_answer=data.get("last_answer", ""),
            last_outputs=[self.load(o, DomainOutput) for o in data.get("last_outputs", [])],
        )
        self.keep(data, memory)
        return memory


def memory_dict(intent: Any, execution_intent: Any, answer: str, outputs: list[Any]) -> dict[str, Any]:
    """``state["memory"]`` of a finished turn, from the turn's JSON values as they are in the
    state (the memory of :meth:`planner.memory.SessionMemory.remember`, without a round trip
    through the models)."""
    return {
        "last_intent": intent,
        "last_execution_intent": execution_intent,
        "last_answer": answer,
        "last_outputs": outputs,
    }


#: Messages kept in the session state: recent context for follow-ups, and a state (stored, and
#: read back by every turn) that does not grow with the conversation. The whole transcript is in
#: the runs table (``GET /v1/sessions/{id}/history``).
TRANSCRIPT_WINDOW = 20


def recent_messages(current: Any, update: Any) -> list[Any]:
    """``append``, keeping the last :data:`TRANSCRIPT_WINDOW` messages.

    >>> len(recent_messages([{"n": i} for i in range(TRANSCRIPT_WINDOW)], [{"n": "new"}]))
    20
    """
    return append(current, update)[-TRANSCRIPT_WINDOW:]


def event_id(n: int) -> str:
    """Per-session event ids: ``evt-0001``, ``evt-0002``, ..."""
    return f"evt-{n:04d}"


def _get(state: State, key: str) -> Any:
    """One state key as plain JSON data: the state's own object, not a copy (nodes read views,
    models need dicts; :class:`LiveModels` recognises the object by identity). Never change it."""
    return thaw(state.get(key))


def _t(language: str, pt: str, en: str) -> str:
    return en if language == "en" else pt


class ConversationGraph:
    """Builds the turn graph and holds the services its nodes call.

    ``step_events`` lets the caller watch step progress of the turn in flight (SSE); it is
    looked up per run, keyed by run id, so one graph serves every concurrent session.
    """

    def __init__(
        self,
        *,
        adapter: IntentAdapter,
        registry: DomainRegistry,
        orchestrator: Orchestrator,
        controller: Callable[[StepRunner], RunController] | None = None,
    ):
        self.adapter = adapter
        self.registry = registry
        self.orchestrator = orchestrator
        #: run id -> who wants that run's events (the gateway's SSE hub)
        self.listeners: dict[str, RunEvents] = {}
        self.live = LiveModels()
        self._planner: PlannerService | None = None
        self._extractors_catalog: Catalog | None = None
        self._extractors: dict[tuple[str, str], GoalEntityExtractor] = {}
        build = controller or (lambda run_step: RunController(lambda: self.catalog, run_step))
        # validation, retry, replanning, deadlines, policies, breakers, synthesis (seeds 002/004)
        self.controller = build(self._run_step)

    # ------------------------------------------------------------------ definition

    def definition(self) -> GraphDefinition:
        return (
            GraphBuilder(GRAPH_NAME, reducers={"messages": recent_messages}, max_steps=50)
            .add_node("understand", self.understand)
            .add_node("plan", self.plan)
            .add_node("execute", self.execute)
            .add_node("respond", self.respond)
            .add_interrupt("ask", payload_key="question")
            .add_interrupt("idle")
            .add_conditional_edges(
                "understand",
                self.after_understand,
                {"plan": "plan", "execute": "execute", "respond": "respond"},
            )
            .add_conditional_edges("plan", self.after_plan, {"execute": "execute", "respond": "respond"})
            .add_edge("execute", "respond")
            .add_conditional_edges("respond", self.after_respond, {"ask": "ask", "idle": "idle", "end": END})
            .add_edge("ask", "understand")
            .add_edge("idle", "understand")
            .set_entry("understand")
            .compile()
        )

    @property
    def catalog(self) -> Catalog:
        return self.registry.catalog

    def planner(self) -> PlannerService:
        if self._planner is None or self._planner.catalog.fingerprint != self.catalog.fingerprint:
            self._planner = PlannerService(self.catalog)
        return self._planner

    # ------------------------------------------------------------------ nodes

    async def understand(self, state: State) -> dict[str, Any]:
        """Read the new message: an answer to the pending question, or a fresh request."""
        text: str = _get(state, "input")
        question = (
            self.live.load(_get(state, "question"), PendingQuestion) if _get(state, "question") else None
        )
        seen = int(_get(state, "event_count") or 0)
        user_event, assistant_event = event_id(seen + 1), event_id(seen + 2)
        base: dict[str, Any] = {
            "messages": [
                {
                    "role": "user",
                    "content": text,
                    "event_id": user_event,
                    "run_id": _get(state, "run_id"),
                }
            ],
            "notes": [],
            "steps": [],
            "output": None,
            "answer": "",
            "route": "plan",
            "confirmed": False,
            "status": RunStatus.EXECUTING.value,
            "event_count": seen + 2,
            "assistant_event_id": assistant_event,
            # the previous turn's plan must not leak into this turn's trace
            "intent": None,
            "execution_intent": None,
            "plan": None,
            "continue_with": None,
        }
        intent = await self.adapter.parse(
            text,
            pinned_domain=_get(state, "pinned_domain"),
            context={"session_id": _get(state, "session_id")},
        )
        if question is not None:
            answered = self._answer_question(question, text, intent)
            if answered is not None:
                return {**base, **answered, "question": None}
            base["notes"] = [f"pending question ({question.kind}) abandoned: the message is a new request"]
        memory = self.live.memory(_get(state, "memory"))
        intent = self._follow_up(intent, text, memory)
        intent = self._composition_follow_up(intent, text, memory)
        return {**base, "intent": self.live.dump(intent), "question": None}

    def plan(self, state: State) -> dict[str, Any]:
        intent = self.live.load(_get(state, "intent"), IntentOutput)
        memory = self.live.memory(_get(state, "memory"))
        try:
            if _get(state, "continue_with"):
                execution_intent, plan = self._continuation_plan(intent, _get(state, "continue_with"))
            elif self._only_composition(intent, memory):
                execution_intent, plan = self._resend_plan(intent, memory)
            else:
                execution_intent, plan = self.planner().plan(intent, memory)
        except PlatformError as exc:
            return {
                "status": RunStatus.FAILED.value,
                "answer": exc.message,
                "output": None,
                "route": "respond",
            }
        delta: dict[str, Any] = {
            "execution_intent": self.live.dump(execution_intent),
            "plan": self.live.dump(plan),
            "continue_with": None,
            "route": "execute",
        }
        if not _get(state, "confirmed") and self.orchestrator.gate_blocks(execution_intent):
            delta.update(self._confirmation(intent, execution_intent))
            delta["route"] = "respond"
        return delta

    async def execute(self, state: State) -> dict[str, Any]:
        intent = self.live.load(_get(state, "intent"), IntentOutput)
        plan = self.live.load(_get(state, "plan"), ExecutionPlan)
        execution_intent = self.live.load(_get(state, "execution_intent"), ExecutionIntent)
        run_id = _get(state, "run_id")
        listener = self.listeners.get(run_id)
        context = {"run_id": run_id, "session_id": _get(state, "session_id"), "language": intent.language}
        report = await self.controller.run(intent, execution_intent, plan, context=context, on_event=listener)
        output = report.output
        answer = report.answer or self._answer_text(output, intent.language)
        delta: dict[str, Any] = {
            "status": report.status.value,
            "notes": [*(_get(state, "notes") or []), *([report.reason] if report.reason else [])],
            "steps": [self.live.dump(s) for s in report.steps],
            "output": self.live.dump(output) if output else None,
            "answer": answer,
        }
        if report.status == RunStatus.WAITING_INPUT and output is not None:
            question = self._domain_question(output, answer, intent, execution_intent, plan, report.steps)
            delta["question"] = self.live.dump(question)
            delta["answer"] = question.text  # options included: a chat client shows only this text
        return delta

    def respond(self, state: State) -> dict[str, Any]:
        status = RunStatus(_get(state, "status") or RunStatus.COMPLETED.value)
        delta: dict[str, Any] = {
            "messages": [
                {
                    "role": "assistant",
                    "content": _get(state, "answer") or "",
                    "event_id": _get(state, "assistant_event_id"),
                    "run_id": _get(state, "run_id"),
                    "status": status.value,
                }
            ],
        }
        if status == RunStatus.COMPLETED and _get(state, "intent"):
            # the turn's values are JSON the models wrote: they are the memory as they are
            delta["memory"] = memory_dict(
                _get(state, "intent"),
                _get(state, "execution_intent") or None,
                _get(state, "answer") or "",
                [s["output"] for s in _get(state, "steps") or [] if s.get("output")],
            )
        if status == RunStatus.EXECUTING:
            delta["status"] = RunStatus.COMPLETED.value
        return delta

    # ------------------------------------------------------------------ routers

    @staticmethod
    def after_understand(state: State) -> str:
        return str(_get(state, "route") or "plan")

    @staticmethod
    def after_plan(state: State) -> str:
        return "respond" if _get(state, "route") == "respond" else "execute"

    @staticmethod
    def after_respond(state: State) -> str:
        return "ask" if _get(state, "question") else "idle"

    # ------------------------------------------------------------------ helpers

    async def _run_step(self, intent: ExecutionIntent, step: ExecutionStep) -> DomainOutput:
        ref = self.catalog.find_capability(intent.capability, intent.domain)
        if ref is not None and (
            ref.capability.role == "fallback" or "catalog" in ref.capability.metadata.context
        ):
            # help and out-of-scope answers list what the platform can do: hand them the catalog
            intent.context["catalog"] = [
                {"domain": g.domain, "goal": g.goal.goal, "description": g.goal.description}
                for g in self.catalog.goals()
            ]
        return await self.orchestrator.dispatch(intent, step)

    def _answer_question(
        self, question: PendingQuestion, text: str, intent: IntentOutput
    ) -> dict[str, Any] | None:
        """The delta that continues the pending question, or ``None`` if the message is a new request."""
        resume = question.resume
        language = resume.get("language", intent.language)
        new_goal = intent.goal is not None and intent.confidence >= self.orchestrator.threshold
        if question.kind == "domain_clarification" and resume.get("choice_param"):
            index = choose(text, question.options, resume["choice_param"])
            if index is not None:
                choice = question.options[index]
                plan = ExecutionPlan.model_validate(resume["plan"])
                for step in plan.steps:
                    if step.id == resume["step_id"]:
                        step.params[resume["choice_param"]] = escape(choice[resume["choice_param"]])
                return {
                    "intent": resume["intent"],
                    "execution_intent": resume["execution_intent"],
                    "plan": plan.model_dump(mode="json"),
                    "route": "execute",
                    "confirmed": True,
                    "notes": [f"answer picked {resume['choice_param']}={choice[resume['choice_param']]}"],
                }
        if question.kind == "domain_clarification" and resume.get("continue_with"):
            same_domain = intent.primary_domain == resume.get("domain")
            if not new_goal or same_domain:
                continued = IntentOutput.model_validate(resume["intent"]).model_copy(
                    update={"original_query": text, "confidence": 1.0, "language": intent.language}
                )
                return {
                    "intent": continued.model_dump(mode="json"),
                    "continue_with": {**resume["continue_with"], "domain": resume["domain"], "reply": text},
                    "route": "plan",
                    "confirmed": True,
                }
        if question.kind == "confidence_gate":
            options = question.options
            index = choose(text, [{**o, "aliases": [o.get("description", "")]} for o in options], "goal")
            if index is None and is_yes(text) and options:
                index = 0
            if index is not None:
                picked = options[index]
                original = IntentOutput.model_validate(resume["intent"])
                confirmed = original.model_copy(
                    update={"goal": picked["goal"], "primary_domain": picked["domain"], "confidence": 1.0}
                )
                return {
                    "intent": confirmed.model_dump(mode="json"),
                    "route": "plan",
                    "confirmed": True,
                    "notes": [f"the person confirmed {picked['goal']}"],
                }
            if is_no(text):
                answer = _t(
                    language,
                    "Tudo bem. O que você gostaria de fazer?",
                    "All right. What would you like to do?",
                )
                return {
                    "route": "respond",
                    "answer": answer,
                    "status": RunStatus.COMPLETED.value,
                    "intent": None,
                }
        return None

    def _follow_up(self, intent: IntentOutput, text: str, memory: SessionMemory) -> IntentOutput:
        """An elliptical message continues the last goal with what it names: "e a Vale?" after a
        quote, "e da Microsoft e da Tesla?", "e nos EUA?" or "e as quedas?" after top movers.

        The last goal's own entity extractor reads the words after "e a"; when it finds nothing,
        those words are the goal's first required text entity, as the person wrote them. A message
        the classifier puts in another goal ("e obrigado!") is that goal's, not a follow-up.
        """
        last = memory.last_intent
        if last is None or last.goal is None or not last.primary_domain:
            return intent
        lowered = normalise(text)
        prefix = next((p for p in _FOLLOWUP_PREFIXES if lowered.startswith(p)), None)
        if prefix is None or len(lowered.split()) > 6:
            return intent
        if intent.goal is not None and (intent.primary_domain, intent.goal) != (
            last.primary_domain,
            last.goal,
        ):
            return intent  # it names another goal itself: "e obrigado!", "e o ticker da Vale?"
        goal = self.catalog.find_goal(last.primary_domain, last.goal)
        if goal is None:
            return intent
        rest = text.strip().rstrip("?!. ")
        rest = rest[len(prefix) :].strip() if rest.lower().startswith(prefix) else " ".join(rest.split()[1:])
        if not rest:
            return intent
        named = self._extractor(GoalRef(last.primary_domain, goal)).extract(rest)
        if not named:
            text_entity = next(
                (n for n, s in goal.entities_schema.items() if s.type == "string" and s.required), None
            )
            if text_entity is None:
                return intent
            named = {text_entity: rest}
        return last.model_copy(
            update={
                "entities": {**last.entities, **named},
                "confidence": max(intent.confidence if intent.goal == last.goal else 0.0, last.confidence),
                "original_query": text,
                "alternatives": [],
                "notes": [
                    *intent.notes,
                    *(f"follow-up of {last.goal}: {k}={v!r} (session memory)" for k, v in named.items()),
                ],
            }
        )

    def _extractor(self, ref: GoalRef) -> GoalEntityExtractor:
        """``ref``'s entity extractor, built once per catalog (a registration makes a new one)."""
        catalog = self.catalog
        if catalog is not self._extractors_catalog:
            self._extractors_catalog, self._extractors = catalog, {}
        key = (ref.domain, ref.goal.goal)
        if key not in self._extractors:
            self._extractors[key] = entity_extractor(ref, catalog)
        return self._extractors[key]

    def _composition_follow_up(self, intent: IntentOutput, text: str, memory: SessionMemory) -> IntentOutput:
        """ "manda isso no telegram" right after an answer: the words switch on a boolean entity of the
        last goal (its composition trigger) and name nothing else the classifier is sure of."""
        last = memory.last_intent
        if last is None or last.goal is None or not last.primary_domain or not memory.last_answer:
            return intent
        if (
            intent.goal is not None
            and intent.goal != last.goal
            and intent.confidence >= self.orchestrator.threshold
        ):
            return intent
        goal = self.catalog.find_goal(last.primary_domain, last.goal)
        if goal is None:
            return intent
        words = f" {normalise(text)} "
        flags = {
            name: True
            for name, spec in goal.entities_schema.items()
            if spec.type == "boolean"
            and any(f" {normalise(w)} " in words for w in spec.synonyms.get("true", []))
        }
        named = intent.goal == last.goal and any(
            intent.entities.get(n) for n, s in goal.entities_schema.items() if s.required
        )
        if not flags or named:
            return intent
        return last.model_copy(
            update={
                "entities": flags,
                "confidence": max(intent.confidence, last.confidence),
                "original_query": text,
                "alternatives": [],
                "notes": [*intent.notes, f"follow-up of {last.goal}: {sorted(flags)} on the last answer"],
            }
        )

    def _only_composition(self, intent: IntentOutput, memory: SessionMemory) -> bool:
        """ "manda isso no telegram": the message turns on a composition (e.g. notify) but names
        nothing new, and there is a last answer to send."""
        if intent.goal is None or not intent.primary_domain or not memory.last_answer:
            return False
        goal = self.catalog.find_goal(intent.primary_domain, intent.goal)
        if goal is None:
            return False
        flags = [
            n
            for n, s in goal.entities_schema.items()
            if s.type == "boolean" and intent.entities.get(n) is True
        ]
        missing = [n for n, s in goal.entities_schema.items() if s.required and not intent.entities.get(n)]
        return bool(flags) and bool(missing)

    def _resend_plan(
        self, intent: IntentOutput, memory: SessionMemory
    ) -> tuple[ExecutionIntent, ExecutionPlan]:
        goal = self.catalog.find_goal(intent.primary_domain or "", intent.goal or "")
        assert goal is not None
        for name in goal.capabilities or []:
            ref = self.catalog.find_capability(name, intent.primary_domain)
            composition = ref.capability.metadata.composition if ref else None
            if composition is None:
                continue
            target = next(
                (c for role in composition.followup_roles for c in self.catalog.with_role(role)), None
            )
            if target is None:
                continue
            params = {
                key: escape(memory.last_answer)
                for key, source in composition.param_map.items()
                if "_step_explanation" in source.from_parameters
            }
            execution_intent = ExecutionIntent(
                domain=target.domain,
                capability=target.capability.name,
                parameters=params,
                confidence=max(
                    intent.confidence, memory.last_intent.confidence if memory.last_intent else 0.0
                ),
                original_query=intent.original_query,
                goal=intent.goal,
            )
            plan = ExecutionPlan(
                steps=[
                    ExecutionStep(
                        id=1, domain=target.domain, capability=target.capability.name, params=params
                    )
                ],
                notes=["memory: the last answer is sent through the composition's follow-up role"],
            )
            return execution_intent, plan
        return self.planner().plan(intent, memory)

    def _continuation_plan(
        self, intent: IntentOutput, continue_with: Mapping[str, Any]
    ) -> tuple[ExecutionIntent, ExecutionPlan]:
        params = {continue_with.get("param", "reply"): escape(continue_with["reply"])}
        execution_intent = ExecutionIntent(
            domain=continue_with["domain"],
            capability=continue_with["capability"],
            parameters=params,
            confidence=1.0,
            original_query=continue_with["reply"],
            goal=intent.goal,
        )
        plan = ExecutionPlan(
            steps=[
                ExecutionStep(
                    id=1,
                    domain=continue_with["domain"],
                    capability=continue_with["capability"],
                    params=params,
                )
            ],
            notes=[f"conversation continues with {continue_with['domain']}.{continue_with['capability']}"],
        )
        return execution_intent, plan

    def _confirmation(self, intent: IntentOutput, execution_intent: ExecutionIntent) -> dict[str, Any]:
        options: list[dict[str, Any]] = []
        for alt in intent.alternatives[:3] or []:
            goal = self.catalog.find_goal(alt.domain, alt.goal)
            options.append(
                {
                    "domain": alt.domain,
                    "goal": alt.goal,
                    "confidence": alt.confidence,
                    "description": goal.description if goal else alt.goal,
                }
            )
        if not options and intent.goal:
            goal = self.catalog.find_goal(execution_intent.domain, intent.goal)
            options = [
                {
                    "domain": execution_intent.domain,
                    "goal": intent.goal,
                    "confidence": intent.confidence,
                    "description": goal.description if goal else intent.goal,
                }
            ]
        # keep only plausible options: the best, plus those close to it
        if options:
            top = float(options[0]["confidence"])
            options = [
                o for i, o in enumerate(options) if i == 0 or float(o["confidence"]) >= max(0.1, top / 3)
            ]
        listing = " ou ".join(f"({i + 1}) {o['description']}" for i, o in enumerate(options))
        listing_en = " or ".join(f"({i + 1}) {o['description']}" for i, o in enumerate(options))
        if len(options) == 1:
            text = _t(
                intent.language,
                f"Só para confirmar: você quer {options[0]['description']}? (sim/não)",
                f"Just to confirm: do you want {options[0]['description']}? (yes/no)",
            )
        else:
            text = _t(
                intent.language,
                f"Não tenho certeza se entendi. Você quis dizer {listing}?",
                f"I'm not sure I understood. Did you mean {listing_en}?",
            )
        question = PendingQuestion(
            kind="confidence_gate",
            text=text,
            options=options,
            resume={"intent": intent.model_dump(mode="json"), "language": intent.language},
        )
        output = DomainOutput(
            status="clarification",
            explanation=text,
            confidence=intent.confidence,
            result={"options": options},
            metadata={"resolution": "confidence_gate"},
        )
        return {
            "status": RunStatus.WAITING_INPUT.value,
            "answer": text,
            "output": output.model_dump(mode="json"),
            "question": question.model_dump(mode="json"),
        }

    @staticmethod
    def _domain_question(
        output: DomainOutput,
        answer: str,
        intent: IntentOutput,
        execution_intent: ExecutionIntent,
        plan: ExecutionPlan,
        steps: list[StepTrace],
    ) -> PendingQuestion:
        asking = next((s for s in steps if s.output is not None and s.output.status == "clarification"), None)
        step_id = asking.id if asking else (plan.steps[0].id if plan.steps else 1)
        domain = asking.domain if asking else (plan.steps[0].domain if plan.steps else intent.primary_domain)
        source = asking.output if asking and asking.output else output
        resume: dict[str, Any] = {
            "intent": intent.model_dump(mode="json"),
            "plan": plan.model_dump(mode="json"),
            "execution_intent": execution_intent.model_dump(mode="json"),
            "step_id": step_id,
            "domain": domain,
            "language": intent.language,
        }
        if source.metadata.get("choice_param"):
            resume["choice_param"] = source.metadata["choice_param"]
        if source.metadata.get("continue_with"):
            resume["continue_with"] = source.metadata["continue_with"]
        options = list(source.result.get("candidates", []))
        return PendingQuestion(
            kind="domain_clarification",
            text=listed(answer, options, resume.get("choice_param"), intent.language),
            options=options,
            resume=resume,
        )

    @staticmethod
    def _answer_text(output: DomainOutput | None, language: str) -> str:
        if output is None:
            return _t(language, "Não consegui processar o pedido.", "I could not process the request.")
        if output.explanation:
            return output.explanation
        if output.status == "success":
            return _t(language, "Pronto.", "Done.")
        return _t(language, "Não consegui concluir o pedido.", "I could not complete the request.")
