"""A yes that names other values than the request waiting for it ("pode ser girassóis", "sure,
make it 4") agrees to those values, not to the request as it was: the request takes them and is
asked about again; a yes that repeats the request's own values is a plain yes."""

from __future__ import annotations

from datetime import datetime
from zoneinfo import ZoneInfo

import pytest

from bench.understanding.round13.domains import florist
from dialogue.choice import after_yes
from dialogue.rules import FollowUps
from intent.typed import Clock
from shared.catalog import Catalog
from shared.models import IntentOutput

CLOCK = Clock(
    now=datetime(2026, 3, 10, 10, 0, tzinfo=ZoneInfo("America/Sao_Paulo")), time_zone="America/Sao_Paulo"
)
ORDER = IntentOutput(
    primary_domain="florist",
    goal="ORDER_FLOWERS",
    entities={"arrangement_text": "lírios", "day": "2026-03-13"},
    confidence=0.9,
    original_query="encomenda um arranjo de lírios pra sexta",
    language="pt",
)


@pytest.fixture(scope="module")
def catalog() -> Catalog:
    return Catalog([florist.service.manifest_with_lookups()])


@pytest.mark.parametrize(
    ("text", "changed"),
    [
        ("pode ser girassóis", {"arrangement_text": "girassóis"}),
        ("sim, pra sábado", {"day": "2026-03-14"}),
        ("ok, make it tulips", {"arrangement_text": "tulips"}),
    ],
)
def test_a_yes_with_another_value_changes_the_request(
    catalog: Catalog, text: str, changed: dict[str, str]
) -> None:
    corrected = FollowUps().correct(ORDER, text, catalog, CLOCK)
    assert corrected is not None
    assert corrected.entities == {**ORDER.entities, **changed}


@pytest.mark.parametrize("text", ["pode ser", "sim, pra sexta", "ok, go ahead", "sim"])
def test_a_yes_to_the_request_as_it_is_changes_nothing(catalog: Catalog, text: str) -> None:
    assert FollowUps().correct(ORDER, text, catalog, CLOCK) is None


def test_the_words_after_the_yes() -> None:
    assert after_yes("sim mas na verdade eu queria outra coisa") is None  # no short reply: no yes
    assert after_yes("uhum, pode ser amanhã") == "pode ser amanhã"
    assert after_yes("well, sure, tulips") == "tulips"
