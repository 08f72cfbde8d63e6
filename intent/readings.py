"""Each goal's reading of one message, made once per parse.

An unsure message is weighed by several rules (a tie between two goals, a frame around free
text, a rescue, a value from a goal's tables), and each asks what the same goals' extractors
find in the same text. :class:`Readings` reads a goal's entities the first time a rule asks and
hands the same reading to the next one.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from intent.entities import GoalEntityExtractor
from intent.text import words
from intent.typed import Clock
from shared.catalog import GoalRef
from shared.entities import Entities, EntityValue


@dataclass(frozen=True)
class Reading:
    """What one goal's extractor found in the message."""

    entities: Entities
    #: the names filled only as a required entity's one candidate (no evidence of their own)
    guessed: frozenset[str]


@dataclass
class Readings:
    """The readings of ``text`` by the goals' ``extractors``, made on demand and kept."""

    text: str
    clock: Clock
    language: str
    extractors: dict[tuple[str, str], GoalEntityExtractor]
    _made: dict[tuple[str, str], Reading] = field(default_factory=dict, init=False, repr=False)

    def extractor(self, ref: GoalRef) -> GoalEntityExtractor:
        return self.extractors[(ref.domain, ref.goal.goal)]

    def of(self, ref: GoalRef) -> Reading:
        """``ref``'s reading of the message. Its entities are shared by every rule that asks:
        copy them before changing them."""
        key = (ref.domain, ref.goal.goal)
        made = self._made.get(key)
        if made is None:
            guessed: set[str] = set()
            entities = self.extractors[key].extract(
                self.text, clock=self.clock, language=self.language, guessed=guessed
            )
            kept = {name: value for name, value in entities.items() if not self._kin_word(key, name, value)}
            made = self._made[key] = Reading(kept, frozenset(guessed & set(kept)))
        return made

    def _kin_word(self, key: tuple[str, str], name: str, value: EntityValue) -> bool:
        """Whether ``value`` is a new name of one word that another goal of the domain is
        phrased with: "how much does a *move* cost" names a moving company's move, no truck."""
        mine = self.extractors[key]
        spec = mine.specs.get(name)
        if (
            spec is None
            or spec.type != "string"
            or not isinstance(value, str)
            or mine.from_table({name: value})
        ):
            return False
        said = words(value)
        if len(said) != 1:
            return False
        return any(
            x.uses_phrasing(said[0])
            for (domain, goal), x in self.extractors.items()
            if domain == key[0] and goal != key[1]
        )
