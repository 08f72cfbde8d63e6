"""The adapter contract and the helpers every adapter shares.

``IntentAdapter`` is what the gateway calls; ``needs_choice`` tells it when to ask
"did you mean A or B?" (the second stage of a two-stage fallback, as Rasa does it).
"""

from __future__ import annotations

from typing import Any, Protocol, runtime_checkable

from shared.catalog import Catalog
from shared.models import IntentOutput

#: Note prefix set when the two best goals are too close to pick one.
CHOICE_NOTE = "needs_choice"
#: Note prefix set when a required entity was filled only as its one candidate, no evidence.
GUESSED_NOTE = "guessed"


#: Note prefix set when the goal was read from one value of its tables and nothing else said.
LONE_VALUE_NOTE = "lone value"


def lone_value(intent: IntentOutput) -> bool:
    """Whether ``intent``'s goal rests on one value of its tables alone ("tem A Hora da
    Estrela?"): after a request of another goal, the value is rather that goal's ("e da
    magalu?" after a quote)."""
    return any(note.startswith(LONE_VALUE_NOTE) for note in intent.notes)


def guessed(intent: IntentOutput) -> bool:
    """Whether a required entity of ``intent`` has no evidence but being the only word left: the
    message is no evident request of its own ("pronto" read as a company)."""
    return any(note.startswith(GUESSED_NOTE) for note in intent.notes)


DEFAULT_CHOICE_MARGIN = 0.2


@runtime_checkable
class IntentAdapter(Protocol):
    name: str

    def update_catalog(self, catalog: Catalog) -> None:
        """Learn ``catalog`` before returning (start-up: blocking is fine there)."""
        ...

    async def update_catalog_async(self, catalog: Catalog) -> None:
        """Learn ``catalog`` without blocking the event loop; the previous catalog keeps being
        served until the new one is ready."""
        ...

    async def parse(
        self, text: str, *, pinned_domain: str | None = None, context: dict[str, Any] | None = None
    ) -> IntentOutput: ...


def too_close(first: float, second: float, margin: float, floor: float) -> bool:
    """Two goals are both plausible (together above ``floor``) and within ``margin`` of each other."""
    return first - second < margin and first + second >= floor


def needs_choice(intent: IntentOutput, margin: float = DEFAULT_CHOICE_MARGIN, gate: float = 0.7) -> bool:
    """Whether the caller should ask the person to choose among ``intent.alternatives[:2]``.

    The embedded adapter marks such outputs with a ``needs_choice`` note; outputs of other
    adapters are judged from their alternatives with ``margin``.

    >>> from shared.models import GoalCandidate
    >>> alts = [GoalCandidate(domain="d", goal="A", confidence=0.48),
    ...         GoalCandidate(domain="d", goal="B", confidence=0.45)]
    >>> needs_choice(IntentOutput(goal="A", confidence=0.48, alternatives=alts))
    True
    """
    if any(note.startswith(CHOICE_NOTE) for note in intent.notes):
        return True
    if len(intent.alternatives) < 2:
        return False
    a, b = intent.alternatives[0].confidence, intent.alternatives[1].confidence
    # only below the confidence gate: above it the best goal is trusted whatever the runner-up
    return too_close(a, b, margin, floor=0.5) and a < gate
