"""Hesitations ("hmm", "putz", "vixe"), "got" of "got anything by …?" and "whole" say nothing a
goal must account for: a message with them is not something else. ("us" is: it may be the US.)"""

from __future__ import annotations

import pytest

from bench.understanding.round4.domains import cinema, library
from intent.entities import GoalEntityExtractor
from intent.typed import Clock
from sdk.service import DomainService
from shared.manifest import Goal

CONTEXT = {"time_zone": "America/Sao_Paulo", "now": "2026-03-10T10:00:00-03:00"}  # a Tuesday


def _extractor(service: DomainService, goal: str) -> GoalEntityExtractor:
    found: Goal = next(g for g in service.manifest_with_lookups().goals if g.goal == goal)
    return GoalEntityExtractor(found)


@pytest.mark.parametrize(
    ("goal", "text", "left"),
    [
        ("REFUND_PURCHASE", "hmm actually refund CN4821", []),
        ("REFUND_PURCHASE", "putz, estorna a CN4821", []),
        ("SEARCH_CATALOG", "got anything by jk rowling?", []),
        (
            "BUY_TICKETS",
            "hoping to book tickets for the whole family (5 of us) to see Moana 2 on Saturday at 3:30pm",
            ["book", "family"],
        ),
    ],
)
def test_chat_words_are_nothing_to_account_for(goal: str, text: str, left: list[str]) -> None:
    service = library.service if goal == "SEARCH_CATALOG" else cinema.service
    extractor = _extractor(service, goal)
    entities = extractor.extract(text, clock=Clock.of(CONTEXT))
    assert entities, entities
    assert extractor.unexplained_words(text, entities) == left
