"""The LLM planner (plan-and-execute): the catalog and the request in, an ``ExecutionPlan`` with
references, conditions and selections out, validated before anything runs.

* :meth:`LlmPlanner.reason_to_plan`: whether the deterministic plan falls short (parts of the
  message it does not cover, a condition, comparison or selection word) or the operator asked
  for the LLM on every request; None keeps the deterministic plan and calls nothing.
* :meth:`LlmPlanner.plan`: one call; an invalid plan is sent back once with the validation
  errors (seed 004's ``needs_replan`` feedback), then refused with a clear answer. An endpoint
  that is down or slow leaves the deterministic plan in place, with a note.
* :meth:`LlmPlanner.rewrite`: after a recoverable failure of an LLM plan, the completed steps and
  their outputs go back to the model, which proposes the rest (ReWOO's observe -> rewrite).

Budgets per run: ``max_steps`` per proposal, ``max_calls`` to the endpoint (the plan's
``llm_calls`` count them), ``max_replans`` rewrites, and the planning deadline. Every exchange is
kept in ``plan.llm_calls`` with secrets masked.
"""

from __future__ import annotations

import asyncio
import json
import logging
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Literal

from planner.llm.catalog_view import catalog_json
from planner.llm.client import LlmReply, Message, PlannerLlmClient, PlannerLlmUnavailable
from planner.llm.masking import mask
from planner.llm.settings import PlannerLlmSettings
from planner.llm.texts import PlannerTexts, texts, words_of
from planner.llm.validation import Proposal, read_proposal
from shared.catalog import Catalog
from shared.i18n.bilingual import all_texts
from shared.models import ExecutionIntent, ExecutionPlan, ExecutionStep, IntentOutput, PlannerCall
from shared.planning import Replan, ReplanContext

log = logging.getLogger(__name__)

Purpose = Literal["plan", "correction", "replan"]
#: Goals whose vocabulary is kept folded (every goal of a large catalog, several catalogs).
GOAL_WORDS_KEPT = 4096
#: How much of one raw answer the trace keeps (a model that rambles does not bloat the session).
RAW_CHARS = 20_000
#: How much of the completed steps' outputs a rewrite shows the model.
OBSERVATION_CHARS = 6000


@dataclass(frozen=True)
class PlanRequest:
    """What the dialogue knows when it plans a turn."""

    text: str
    language: str
    intent: IntentOutput
    #: The deterministic planner's resolved intent and plan (kept when the LLM is not needed or
    #: not reachable); None when it could not plan the request (``planning_error`` says why).
    execution_intent: ExecutionIntent | None
    plan: ExecutionPlan | None
    #: Parts of the message the deterministic plan does not cover.
    uncovered: list[str] = field(default_factory=list)
    #: Why the deterministic planner could not plan the request (it raised), if it could not.
    planning_error: str | None = None


@dataclass(frozen=True)
class Planned:
    """The LLM planner's verdict on a turn."""

    #: The plan to run: the LLM's (valid), or the deterministic one when the LLM gave nothing
    #: (with no deterministic plan: an empty one whose notes and ``llm_calls`` say why).
    plan: ExecutionPlan
    #: The resolved intent the run goes with. For an LLM plan its confidence is the planner's:
    #: the model read the whole request, so the intent classifier's doubt about one goal (the
    #: confidence gate's concern) no longer applies; side effects still wait for approval. None
    #: when neither planner planned the request.
    execution_intent: ExecutionIntent | None
    #: When set, nothing runs and the person is told this (a plan that stayed invalid, or the
    #: model saying the catalog cannot do it).
    refusal: str | None = None


class LlmPlanner:
    def __init__(
        self,
        settings: PlannerLlmSettings,
        catalog: Callable[[], Catalog],
        *,
        client: PlannerLlmClient | None = None,
    ):
        self.settings = settings
        self._catalog = catalog
        self.client = client or PlannerLlmClient(settings)
        self._goal_words_seen: dict[tuple[str, str, str], frozenset[str]] = {}

    # ------------------------------------------------------------------ when

    def reason_to_plan(self, request: PlanRequest) -> str | None:
        """Why the LLM should plan this request, or None when the deterministic plan does."""
        if self.settings.planner_llm == "off":
            return None
        if request.planning_error is not None:  # its only chance: nothing else can plan it
            return f"the deterministic planner could not plan it ({request.planning_error})"
        if self.settings.planner_llm == "always":
            return "configured to plan every request (PLANNER_LLM=always)"
        if self.settings.planner_llm != "fallback":
            return None
        if request.uncovered:
            return f"parts the deterministic plan does not cover: {'; '.join(request.uncovered)}"
        marker = texts(request.language).marker_in(request.text, self._goal_words(request.intent))
        if marker is not None:
            return f"the request asks for a condition, comparison or selection ('{marker}')"
        return None

    def _goal_words(self, intent: IntentOutput) -> frozenset[str]:
        """The words of the understood goal's own examples, description and synonyms: a marker
        among them is how people ask for that goal ("as maiores altas"), not a sign that the
        deterministic plan falls short."""
        catalog = self._catalog()
        key = (catalog.fingerprint, intent.primary_domain or "", intent.goal or "")
        known = self._goal_words_seen.get(key)
        if known is not None:  # asked on every turn: folded once per goal and catalog
            return known
        goal = catalog.find_goal(key[1], key[2])
        texts_of_goal = [*goal.example_texts(), *all_texts(goal.description)] if goal else []
        for spec in goal.entities_schema.values() if goal else []:
            texts_of_goal += [word for synonyms in spec.synonyms.values() for word in synonyms]
        if len(self._goal_words_seen) >= GOAL_WORDS_KEPT:
            self._goal_words_seen.clear()
        found = self._goal_words_seen[key] = frozenset(w for text in texts_of_goal for w in words_of(text))
        return found

    # ------------------------------------------------------------------ plan

    async def plan(self, request: PlanRequest, reason: str) -> Planned:
        words = texts(request.language)
        messages: list[Message] = [
            {"role": "system", "content": self._system(words, request)},
            {"role": "user", "content": request.text},
        ]
        calls: list[PlannerCall] = []
        started = time.perf_counter()
        proposal, reply = await self._ask(messages, words, calls, "plan", started)
        if proposal is not None and proposal.errors and reply is not None and self._calls_left(calls):
            # seed 004's needs_replan: the errors go back once, then the plan is refused
            messages += [reply.as_message(), reply.answer_with(self._errors_text(words, proposal))]
            proposal, reply = await self._ask(messages, words, calls, "correction", started)
        before = request.plan or ExecutionPlan()
        base = before.model_copy(update={"llm_calls": [*before.llm_calls, *calls]})
        if proposal is None:  # the endpoint gave nothing: the deterministic plan runs
            failure = calls[-1].failure if calls else "no call made"
            runs = "the deterministic plan runs" if request.plan is not None else "nothing planned it"
            note = f"llm planner unavailable ({failure}): {runs}"
            return Planned(base.model_copy(update={"notes": [*base.notes, note]}), request.execution_intent)
        if proposal.cannot_plan is not None:
            note = f"llm planner: the catalog cannot do it ({proposal.cannot_plan})"
            refused = base.model_copy(update={"notes": [*base.notes, note]})
            return Planned(
                refused, request.execution_intent, words.cannot_plan.substitute(reason=proposal.cannot_plan)
            )
        if proposal.errors or proposal.plan is None:
            note = f"llm planner: the plan stayed invalid after a correction: {'; '.join(proposal.errors)}"
            refused = base.model_copy(update={"notes": [*base.notes, note]})
            # the errors are for the trace: the person gets a plain answer
            return Planned(refused, request.execution_intent, words.refused.substitute())
        notes = [f"planned by the llm planner ({self.client.model}): {reason}"]
        plan = proposal.plan.model_copy(update={"notes": notes, "llm_calls": base.llm_calls})
        resolved = request.execution_intent or _first_step_intent(plan, request)
        return Planned(plan, resolved.model_copy(update={"confidence": 1.0}))

    def _system(self, words: PlannerTexts, request: PlanRequest) -> str:
        understood = {
            "goal": request.intent.goal,
            "domain": request.intent.primary_domain,
            "entities": request.intent.entities,
            "uncovered": request.uncovered,
        }
        return words.system.substitute(
            catalog=catalog_json(self._catalog(), words.language),
            language=words.language,
            understood=json.dumps(understood, ensure_ascii=False, default=str),
        )

    @staticmethod
    def _errors_text(words: PlannerTexts, proposal: Proposal) -> str:
        return words.correction.substitute(errors="\n".join(f"- {e}" for e in proposal.errors))

    def _calls_left(self, calls: list[PlannerCall], earlier: int = 0) -> bool:
        return earlier + len(calls) < self.settings.planner_llm_max_calls

    async def _ask(
        self,
        messages: list[Message],
        words: PlannerTexts,
        calls: list[PlannerCall],
        purpose: Purpose,
        started: float,
        *,
        kept: list[ExecutionStep] | None = None,
        first_id: int = 1,
        seconds_left: float | None = None,
    ) -> tuple[Proposal | None, LlmReply | None]:
        """One call within the budgets; the proposal read (None: the endpoint gave nothing)."""
        budget = self.settings.planner_llm_deadline_s - (time.perf_counter() - started)
        if seconds_left is not None:
            budget = min(budget, seconds_left)
        timeout = min(self.settings.planner_llm_timeout_s, budget)
        clock = time.perf_counter()
        record = PlannerCall(purpose=purpose, model=self.client.model)
        try:
            async with asyncio.timeout(max(timeout, 0.0)):
                reply = await self.client.complete(messages, words.tool, timeout_s=timeout)
        except (PlannerLlmUnavailable, TimeoutError) as exc:
            failure = str(exc) or f"the LLM did not answer within {round(max(timeout, 0), 2):g} s"
            log.warning("LLM planner: %s", failure)
            calls.append(record.model_copy(update={"failure": failure, "duration_ms": _ms(clock)}))
            return None, None
        proposal = read_proposal(
            reply.arguments,
            self._catalog(),
            words.tool["parameters"],
            max_steps=self.settings.planner_llm_max_steps,
            kept=kept or [],
            first_id=first_id,
        )
        if reply.arguments is None:
            proposal = Proposal(errors=["$: the answer is not JSON"])
        secret = self.settings.api_key.get_secret_value() if self.settings.api_key else ""
        calls.append(
            record.model_copy(
                update={
                    "raw": mask(reply.raw[:RAW_CHARS], [secret]),
                    "errors": proposal.errors,
                    "duration_ms": _ms(clock),
                }
            )
        )
        return proposal, reply

    # ------------------------------------------------------------------ rewrite

    def _rewrite_budget_spent(self, plan: ExecutionPlan) -> bool:
        """The run has used its LLM rewrites or its calls to the endpoint."""
        earlier = len(plan.llm_calls)
        rewrites = sum(1 for c in plan.llm_calls if c.purpose == "replan")
        if (
            rewrites >= self.settings.planner_llm_max_replans
            or earlier >= self.settings.planner_llm_max_calls
        ):
            log.info("LLM planner: no rewrite (budget spent: %d rewrites, %d calls)", rewrites, earlier)
            return True
        return False

    def _replan_messages(
        self, plan: ExecutionPlan, context: ReplanContext, words: PlannerTexts, kept: list[ExecutionStep]
    ) -> list[Message]:
        """The conversation that asks for the rewrite: the system prompt, the request, and what
        failed with what the completed steps observed."""
        failed = context.failed_step
        error = context.output.explanation if context.output is not None else ""
        observations = json.dumps(
            {
                f"step{i}": o.model_dump(mode="json", include={"status", "result", "explanation"})
                for i, o in context.completed.items()
            },
            ensure_ascii=False,
            default=str,
        )[:OBSERVATION_CHARS]
        request = PlanRequest(
            text=context.query,
            language=words.language,
            intent=IntentOutput(original_query=context.query, language=words.language),
            execution_intent=ExecutionIntent(domain=failed.domain, capability=failed.capability),
            plan=plan,
        )
        return [
            {"role": "system", "content": self._system(words, request)},
            {"role": "user", "content": context.query},
            {
                "role": "user",
                "content": words.replan.substitute(
                    step=failed.id,
                    capability=failed.capability,
                    error=error or "failed",
                    observations=observations,
                    last_id=max(s.id for s in plan.steps),
                    completed=", ".join(str(s.id) for s in kept if s.id in context.completed) or "-",
                ),
            },
        ]

    async def rewrite(self, plan: ExecutionPlan, context: ReplanContext) -> Replan | None:
        """The rest of ``plan`` rewritten from what the run observed, or None (not an LLM plan,
        budgets spent, the endpoint gave nothing, or the model found no way)."""
        if plan.planner != "llm":
            return None
        earlier = len(plan.llm_calls)
        if self._rewrite_budget_spent(plan):
            return None
        words = texts(context.language)
        failed = context.failed_step
        kept = _kept_steps(plan, context)
        messages = self._replan_messages(plan, context, words, kept)
        calls: list[PlannerCall] = []
        started = time.perf_counter()
        # the kept steps ran; new ids start after every old one, so no old trace is reused
        last_old = max(s.id for s in plan.steps)
        first_id, left = last_old + 1, context.seconds_left
        proposal, reply = await self._ask(
            messages, words, calls, "replan", started, kept=kept, first_id=first_id, seconds_left=left
        )
        if (
            proposal is not None
            and proposal.errors
            and reply is not None
            and self._calls_left(calls, earlier)
        ):
            messages += [reply.as_message(), reply.answer_with(self._errors_text(words, proposal))]
            proposal, _ = await self._ask(
                messages, words, calls, "correction", started, kept=kept, first_id=first_id, seconds_left=left
            )
        history = [*plan.llm_calls, *calls]
        if proposal is None or proposal.plan is None:
            # the run's own plan keeps the exchange for its trace, even when it gave nothing
            plan.llm_calls = history
            return None
        new_ids = [s.id for s in proposal.plan.steps if s.id > last_old]
        note = (
            f"replan {context.attempt}: the llm planner rewrote the plan after step {failed.id} "
            f"({failed.capability}) failed: new steps {', '.join(map(str, new_ids))}"
        )
        rewritten = proposal.plan.model_copy(
            update={"notes": [*plan.notes, note], "llm_calls": history, "combine_mode": plan.combine_mode}
        )
        dropped = frozenset(s.id for s in plan.steps if s.id not in context.completed and s.id != failed.id)
        return Replan(rewritten, "rewrite", note, rerun=dropped)


def _first_step_intent(plan: ExecutionPlan, request: PlanRequest) -> ExecutionIntent:
    """The resolved intent of an LLM plan no deterministic plan came before: its first step's
    call, for the understood goal (what the trace and the confidence gate read)."""
    first = plan.steps[0]
    return ExecutionIntent(
        domain=first.domain,
        capability=first.capability,
        parameters=first.params,
        original_query=request.text,
        goal=request.intent.goal,
        capabilities=list(dict.fromkeys(s.capability for s in plan.steps if s.domain == first.domain)),
    )


def _ms(clock: float) -> float:
    return round((time.perf_counter() - clock) * 1000, 3)


def _kept_steps(plan: ExecutionPlan, context: ReplanContext) -> list[ExecutionStep]:
    """What ran stays in the plan: completed steps feed the new ones, the failed one stays in the
    trace as an optional step (it is not called again, and the answer names the gap)."""
    failed = context.failed_step
    return [
        s if s.id != failed.id else s.model_copy(update={"required": False})
        for s in plan.steps
        if s.id in context.completed or s.id == failed.id
    ]
