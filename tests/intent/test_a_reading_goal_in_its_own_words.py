"""A message made only of a reading goal's own words is that goal, though the classifier is
unsure of it: "quero saber as coberturas do meu seguro" asks which policy; a word the goal does
not know keeps it out ("qual o telefone da seguradora")."""

from __future__ import annotations

from pathlib import Path

import pytest

from bench.understanding.round10.domains import ev_charging, insurance, school
from intent.embedded import EmbeddedIntentAdapter
from tests.intent.conftest import as_a_gateway_reads

CONTEXT = {"time_zone": "America/Sao_Paulo", "now": "2026-03-10T10:00:00-03:00"}


@pytest.fixture(scope="module")
def reader(tmp_path_factory: pytest.TempPathFactory) -> EmbeddedIntentAdapter:
    folder: Path = tmp_path_factory.mktemp("own-words")
    return as_a_gateway_reads(folder, insurance, school, ev_charging)


def test_the_goals_own_words_alone_ask_for_it(reader: EmbeddedIntentAdapter) -> None:
    out = reader.parse_sync("quero saber as coberturas do meu seguro", context=CONTEXT)
    assert (out.primary_domain, out.goal) == ("insurance", "POLICY_COVERAGE")
    assert out.confidence < reader.oos_threshold  # the classifier alone would have left it out


def test_a_word_the_goal_does_not_know_keeps_it_out(reader: EmbeddedIntentAdapter) -> None:
    out = reader.parse_sync("qual o telefone da seguradora", context=CONTEXT)
    assert out.goal != "POLICY_COVERAGE"
