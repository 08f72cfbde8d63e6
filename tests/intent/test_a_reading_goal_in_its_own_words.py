"""A message made only of a reading goal's own words is that goal, though the classifier is
unsure of it: "quero saber as coberturas do meu seguro" asks which policy; a word the goal does
not know keeps it out ("qual o telefone da seguradora")."""

from __future__ import annotations

import pytest

from intent.embedded import EmbeddedIntentAdapter

CONTEXT = {"time_zone": "America/Sao_Paulo", "now": "2026-03-10T10:00:00-03:00"}


@pytest.fixture(scope="module")
def reader(round10_beside_shipped: EmbeddedIntentAdapter) -> EmbeddedIntentAdapter:
    return round10_beside_shipped


def test_the_goals_own_words_alone_ask_for_it(reader: EmbeddedIntentAdapter) -> None:
    out = reader.parse_sync("quero saber as coberturas do meu seguro", context=CONTEXT)
    assert (out.primary_domain, out.goal) == ("insurance", "POLICY_COVERAGE")
    assert out.confidence < reader.oos_threshold  # the classifier alone would have left it out


def test_a_word_the_goal_does_not_know_keeps_it_out(reader: EmbeddedIntentAdapter) -> None:
    out = reader.parse_sync("qual o telefone da seguradora", context=CONTEXT)
    assert out.goal != "POLICY_COVERAGE"
