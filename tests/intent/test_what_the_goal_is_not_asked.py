"""Messages a goal's classifier score points at but which ask nothing of it: a currency where a
quote takes a company ("quanto tá o dólar hoje?"), and a verb the goal does not do with nothing of
the goal said ("reserva um hotel em Gramado", read near a research idea)."""

from __future__ import annotations

from pathlib import Path

import pytest

from domains.finance.service import build_service as finance
from domains.research.service import build as research
from intent.embedded import EmbeddedIntentAdapter
from intent.typed import names_a_currency
from shared.catalog import Catalog
from tests.domains.research.conftest import research_settings

CONTEXT = {"now": "2026-03-10T10:00:00-03:00", "time_zone": "America/Sao_Paulo"}


@pytest.fixture(scope="module")
def adapter(tmp_path_factory: pytest.TempPathFactory) -> EmbeddedIntentAdapter:
    folder: Path = tmp_path_factory.mktemp("research")
    manifests = [finance().manifest(), research(research_settings(folder)).service.manifest()]
    return EmbeddedIntentAdapter(Catalog(manifests), use_embeddings=False)


@pytest.mark.parametrize(
    ("value", "language", "currency"),
    [
        ("dólar", "pt", True),
        ("euro", "pt", True),
        ("yen", "en", True),
        ("Apple", "en", False),
        ("Real Madrid", "pt", False),
    ],
)
def test_a_currency_is_known_by_its_name(value: str, language: str, currency: bool) -> None:
    assert names_a_currency(value, language) is currency


@pytest.mark.parametrize("text", ["quanto ta o dólar hoje?", "qual a cotacao do euro hj"])
def test_a_currency_is_no_company(adapter: EmbeddedIntentAdapter, text: str) -> None:
    read = adapter.parse_sync(text, context=CONTEXT)
    assert read.goal is None, (read.goal, read.entities, read.notes)


@pytest.mark.parametrize("text", ["reserva um hotel em gramado pro fim de semana"])
def test_a_verb_the_goal_does_not_do_alone_is_out_of_scope(adapter: EmbeddedIntentAdapter, text: str) -> None:
    read = adapter.parse_sync(text, context=CONTEXT)
    assert read.goal is None, (read.goal, read.entities, read.notes)


@pytest.mark.parametrize(
    ("text", "goal"),
    [
        ("cotação da Vale", "GET_QUOTE"),
        ("quanto tá a Apple", "GET_QUOTE"),
        ("minha ideia: app de carona pra faculdade", "RESEARCH_HYPOTHESIS"),
    ],
)
def test_the_goals_own_requests_stay(adapter: EmbeddedIntentAdapter, text: str, goal: str) -> None:
    assert adapter.parse_sync(text, context=CONTEXT).goal == goal
