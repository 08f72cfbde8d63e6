"""A value after "not" is the one not meant ("plumber *not* cleaner"), the opening "não" of an
answer is no such word ("não, faxina"), of two values of one enum the first said is meant, and
"stuff" names nothing ("can i renew stuff?" asks which book)."""

from __future__ import annotations

import pytest

from bench.understanding.round4.domains import home_services, library
from intent.entities import GoalEntityExtractor
from sdk.service import DomainService
from shared.manifest import Goal


def _extractor(service: DomainService, goal: str) -> GoalEntityExtractor:
    found: Goal = next(g for g in service.manifest_with_lookups().goals if g.goal == goal)
    return GoalEntityExtractor(found)


@pytest.mark.parametrize(
    ("text", "service"),
    [
        ("sorry, plumber not cleaner", "PLUMBING"),
        ("pintor, não faxina", "PAINTING"),
        ("não, faxina", "CLEANING"),
        ("eletricista ou pintor?", "ELECTRICAL"),
    ],
)
def test_the_value_meant(text: str, service: str) -> None:
    assert _extractor(home_services.service, "PRICE_QUOTE").extract(text) == {"service": service}


def test_stuff_names_no_book() -> None:
    assert _extractor(library.service, "RENEW_LOAN").extract("can i renew stuff?") == {}
