"""Messages a goal's classifier score points at but which ask nothing of it: a currency where a
quote takes a company ("quanto tá o dólar hoje?"), and a verb the goal does not do with nothing of
the goal said ("reserva um hotel em Gramado", read near a research idea)."""

from __future__ import annotations

from pathlib import Path

import pytest

from bench.understanding.round6.domains import groceries, rides, time_off
from domains.finance.service import build_service as finance
from domains.general.service import build_service as general
from domains.notifier.service import build as notifier
from domains.research.service import build as research
from intent.embedded import EmbeddedIntentAdapter
from intent.typed import names_a_currency
from shared.catalog import Catalog
from tests.domains.conftest import outbox_settings
from tests.domains.research.conftest import research_settings

CONTEXT = {"now": "2026-03-10T10:00:00-03:00", "time_zone": "America/Sao_Paulo"}


@pytest.fixture(scope="module")
def adapter(tmp_path_factory: pytest.TempPathFactory) -> EmbeddedIntentAdapter:
    folder: Path = tmp_path_factory.mktemp("research")
    manifests = [finance().manifest(), research(research_settings(folder)).service.manifest()]
    return EmbeddedIntentAdapter(Catalog(manifests), use_embeddings=False)


@pytest.fixture(scope="module")
def with_encoder(tmp_path_factory: pytest.TempPathFactory) -> EmbeddedIntentAdapter:
    """As a gateway with round 6's domains reads, the sentence encoder included: the classifier is
    unsure of companies it never saw."""
    folder: Path = tmp_path_factory.mktemp("shipped")
    manifests = [
        finance().manifest(),
        general().manifest(),
        notifier(outbox_settings(folder / "outbox.sqlite3")).service.manifest(),
        research(research_settings(folder)).service.manifest(),
        *(m.service.manifest_with_lookups() for m in (time_off, rides, groceries)),
    ]
    return EmbeddedIntentAdapter(Catalog(manifests))


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


@pytest.mark.parametrize(
    ("text", "name"), [("kroger quote pls", "kroger"), ("how's walmart trading today", "walmart")]
)
def test_a_goal_that_reads_takes_a_name_no_table_lists(
    with_encoder: EmbeddedIntentAdapter, text: str, name: str
) -> None:
    # the classifier is unsure of a company it never saw; its word and the name in its place are
    # enough for a quote, which changes nothing
    read = with_encoder.parse_sync(text, context=CONTEXT)
    assert (read.goal, read.entities) == ("GET_QUOTE", {"symbol_text": name}), read.notes
