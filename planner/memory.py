"""What the planner remembers of a session between turns, and the one thing it does with it now:
fill a required entity the new request left out from the previous request of the same goal.

Follow-up flows ("e a Vale?") build on this hook in a later issue; keeping it a plain dataclass
lets the gateway persist it however it likes.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from shared.catalog import Catalog
from shared.entities import Entities
from shared.models import DomainOutput, ExecutionIntent, IntentOutput


@dataclass
class SessionMemory:
    last_intent: IntentOutput | None = None
    last_execution_intent: ExecutionIntent | None = None
    last_answer: str = ""
    last_outputs: list[DomainOutput] = field(default_factory=list)

    def remember(
        self,
        intent: IntentOutput,
        execution_intent: ExecutionIntent | None = None,
        answer: str = "",
        outputs: list[DomainOutput] | None = None,
    ) -> None:
        """Record a finished turn (the gateway calls this after answering)."""
        self.last_intent = intent
        self.last_execution_intent = execution_intent
        self.last_answer = answer
        self.last_outputs = list(outputs or [])


def fill_from_memory(
    intent: IntentOutput, memory: SessionMemory | None, catalog: Catalog
) -> tuple[IntentOutput, list[str]]:
    """Return the intent with missing required entities copied from the last turn of the same
    goal, plus a note per filled entity. Anything else is returned unchanged."""
    previous = memory.last_intent if memory else None
    if (
        previous is None
        or intent.goal is None
        or previous.goal != intent.goal
        or (intent.primary_domain or previous.primary_domain) != previous.primary_domain
    ):
        return intent, []
    goal = catalog.find_goal(previous.primary_domain or "", intent.goal)
    if goal is None:
        return intent, []
    filled: Entities = {}
    for name, spec in goal.entities_schema.items():
        if spec.required and intent.entities.get(name) is None and previous.entities.get(name) is not None:
            filled[name] = previous.entities[name]
    if not filled:
        return intent, []
    notes = [f"memory: {k}={v!r} from the previous {intent.goal} request" for k, v in filled.items()]
    updated = intent.model_copy(
        update={"entities": {**intent.entities, **filled}, "primary_domain": previous.primary_domain}
    )
    return updated, notes
