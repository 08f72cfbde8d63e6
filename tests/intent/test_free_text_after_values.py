"""A colon after the request's words opens its free text though values stand among those words
(a policy's code, the day it happened), and the last such mark is the one that opens it."""

from __future__ import annotations

import pytest

from bench.understanding.round10.domains import insurance
from intent.entities import GoalEntityExtractor
from intent.typed import Clock

CLOCK = Clock.of({"now": "2026-03-10T10:00:00-03:00", "time_zone": "America/Sao_Paulo"})


@pytest.fixture(scope="module")
def claims() -> GoalEntityExtractor:
    manifest = insurance.service.manifest_with_lookups()
    return GoalEntityExtractor(next(g for g in manifest.goals if g.goal == "FILE_CLAIM"))


@pytest.mark.parametrize(
    ("text", "description"),
    [
        (
            "sinistro SG3307 dia 1 de março: vazou agua do vizinho e manchou o teto",
            "vazou agua do vizinho e manchou o teto",
        ),
        (
            "log a claim for SG3307 on march 2nd: water leaked from upstairs and ruined the ceiling",
            "water leaked from upstairs and ruined the ceiling",
        ),
        ("quero acionar o seguro SG3307, alagamento ontem: a água entrou na sala", "a água entrou na sala"),
    ],
)
def test_the_words_after_the_colon_are_what_happened(
    claims: GoalEntityExtractor, text: str, description: str
) -> None:
    found = claims.extract(text, clock=CLOCK, language="en" if text.startswith("log") else "pt")
    assert found["description_text"] == description
    assert found["policy_text"] == "SG3307"


def test_a_comma_after_a_value_opens_no_free_text(claims: GoalEntityExtractor) -> None:
    found = claims.extract("policy SG3307, it happened on march 1st", clock=CLOCK, language="en")
    assert found == {"policy_text": "SG3307", "incident_day": "2026-03-01"}
