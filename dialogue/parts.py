"""Multi-part requests: a part of the message that the plan does not cover is named in the
answer, never dropped in silence.

A message is cut at the joints people put between requests (";", "e", "and", "depois",
"then", "também"); each part of two words or more is read on its own. A part read as another
goal, confidently, in a domain that takes requests (not help or small talk: "e obrigado!" is no
request), is a part the turn did not do: the answer says so, and why (one request per message
for now), so the person can send it next. A part that reads as no goal at all but is shaped as a
request of its own (it opens with a verb the running goal does not explain, followed by its
object: "reserva um voo para Lisboa", "compra 100 ações dela") is something the platform cannot
do: the answer names it too, and its words are not taken as the running request's entities.
Narrative around a request ("estava conversando com um amigo sobre investimentos") is neither.
A message that reads as nothing as a whole but has a confident part runs that part.

>>> split_parts("preço da Petrobras e me conta uma piada")
['preço da Petrobras', 'me conta uma piada']
>>> split_parts("preço da Apple, Microsoft e Nvidia")
['preço da Apple, Microsoft', 'Nvidia']
>>> split_parts("convert 100 dollars and then send it")
['convert 100 dollars', 'send it']
>>> split_parts("qual o preço da Vale?")
['qual o preço da Vale?']
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from intent import IntentAdapter
from shared.catalog import Catalog
from shared.entities import Entities
from shared.models import IntentOutput

_JOINTS = re.compile(
    r"\s*;\s*|,?\s+(?:e também|and also|e depois|and then|e|and|depois|then)\s+",
    re.IGNORECASE,
)
#: A part shorter than this many words is a list item ("e Nvidia"), not a request.
MIN_PART_WORDS = 2


def split_parts(text: str) -> list[str]:
    return [part.strip() for part in _JOINTS.split(text) if part.strip()]


#: ``(intent, part)`` -> the verb ``part`` opens with that ``intent``'s goal does not do, or None.
UnsupportedAction = Callable[[IntentOutput, str], "str | None"]


@dataclass(frozen=True)
class Parts:
    """How a message's parts are answered."""

    #: What the turn runs.
    intent: IntentOutput
    #: Parts asking confidently for another goal: not done in this turn (send them next).
    not_done: list[str] = field(default_factory=list)
    #: Parts asking for something no goal does.
    cannot_do: list[str] = field(default_factory=list)


async def read_parts(
    text: str,
    intent: IntentOutput,
    adapter: IntentAdapter,
    catalog: Catalog,
    threshold: float,
    unsupported: UnsupportedAction | None = None,
    context: dict[str, Any] | None = None,
) -> Parts:
    """The intent the turn runs and the parts of ``text`` it leaves undone.

    ``intent`` is the whole message's reading. When it has a goal, the parts asking confidently
    for another goal are the undone ones; when that goal is a later part's and the first part is
    a request of its own, every required value said, the first part runs (people say first what
    they ask first). When the whole reads as nothing (two requests in one
    sentence can pull the classifier apart), the first part read confidently is the request and
    the other confident parts are undone. With ``unsupported``, a part that reads as no goal but
    opens with a verb the running goal does not do is one the platform cannot do. Each part is
    read with ``context`` as the whole was (the conversation's time zone for its days)."""
    parts = split_parts(text)
    if len(parts) < 2:
        return Parts(intent)
    requests: list[tuple[str, IntentOutput]] = []
    unread: list[str] = []
    for part in parts:
        if len(part.split()) < MIN_PART_WORDS:
            continue
        read = await adapter.parse(part, context=context)
        if read.primary_domain is not None and not catalog.gate_applies(read.primary_domain):
            continue  # help and small talk around a request are not requests
        if read.goal is None or read.confidence < threshold or read.primary_domain is None:
            unread.append(part)
            continue
        requests.append((part, read))
    if intent.goal is None and requests:
        intent = requests[0][1]
    elif (first := _said_first(intent, text, parts[0], requests, catalog)) is not None:
        intent = first
    done = (intent.primary_domain, intent.goal)
    undone = [
        part
        for part, read in requests
        if (read.primary_domain, read.goal) != done
        and not (
            read.primary_domain == intent.primary_domain and _lends_required(intent, text, part, catalog)
        )
    ]
    cannot = []
    if unsupported is not None and intent.goal is not None:
        cannot = [part for part in unread if unsupported(intent, part) is not None]
    return Parts(_without_words_of(intent, text, undone + cannot), undone, cannot)


def _said_first(
    intent: IntentOutput,
    text: str,
    opening: str,
    requests: list[tuple[str, IntentOutput]],
    catalog: Catalog,
) -> IntentOutput | None:
    """The reading of the message's first part when the whole was read as a later part's request
    and the first is a request of its own, every value it requires said there, that lends the
    whole's goal nothing: "reserva quadra de tênis sexta 18h e cancela a QD5105" books the court
    (the cancelling verb had pulled the whole towards the cancellation) and names the
    cancellation as not done. ``None`` when the whole's reading stands."""
    if not requests or requests[0][0] != opening:
        return None
    first = requests[0][1]
    whole = (intent.primary_domain, intent.goal)
    if (first.primary_domain, first.goal) == whole or not any(
        (read.primary_domain, read.goal) == whole for _, read in requests[1:]
    ):
        return None
    goal = catalog.find_goal(first.primary_domain or "", first.goal or "")
    if goal is None or not first.entities:
        return None
    if goal.missing_required(first.entities):
        return None
    return None if _lends_required(intent, text, opening, catalog) else first


def _lends_required(intent: IntentOutput, text: str, part: str, catalog: Catalog) -> bool:
    """Whether ``part`` is where the running request's required value is said, a clause of the
    same domain around the request rather than a request of its own: "I ordered something last
    week (order 48213) and I'd like a refund" refunds order 48213."""
    if intent.goal is None or intent.primary_domain is None:
        return False
    goal = catalog.find_goal(intent.primary_domain, intent.goal)
    if goal is None:
        return False
    without = _without_words_of(intent, text, [part]).entities
    return any(
        spec.required and name in intent.entities and name not in without
        for name, spec in goal.entities_schema.items()
    )


def _without_words_of(intent: IntentOutput, text: str, undone: list[str]) -> IntentOutput:
    """``intent`` without the entity values that only the undone parts name: "qual o preço da
    Vale? e quais ações mais caíram nos EUA?" quotes Vale, not a company called "EUA"."""
    if not undone:
        return intent
    rest = text.casefold()
    for part in undone:
        rest = rest.replace(part.casefold(), " ")
    elsewhere = " ".join(undone).casefold()

    def kept(value: object) -> bool:
        said = str(value).casefold()
        return not isinstance(value, str) or said in rest or said not in elsewhere

    entities: Entities = {}
    for name, value in intent.entities.items():
        if isinstance(value, list):
            values = [v for v in value if kept(v)]
            if values:
                entities[name] = values
        elif kept(value):
            entities[name] = value
    return intent if entities == intent.entities else intent.model_copy(update={"entities": entities})
