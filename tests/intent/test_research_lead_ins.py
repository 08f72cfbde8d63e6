"""A research idea after an everyday lead-in ("acho que", "I noticed") is the idea's words alone,
and a closing clause that only asks for research ("…, can we research that?") is no part of it."""

from __future__ import annotations

from pathlib import Path

import pytest

from bench.understanding.round7.domains import repairs
from domains.research.service import build as research
from intent.embedded import EmbeddedIntentAdapter
from shared.catalog import Catalog
from tests.domains.research.conftest import research_settings

CONTEXT = {"now": "2026-03-10T10:00:00-03:00", "time_zone": "America/Sao_Paulo"}


@pytest.fixture(scope="module")
def adapter(tmp_path_factory: pytest.TempPathFactory) -> EmbeddedIntentAdapter:
    folder: Path = tmp_path_factory.mktemp("research")
    return EmbeddedIntentAdapter(
        Catalog([research(research_settings(folder)).service.manifest()]), use_embeddings=False
    )


@pytest.mark.parametrize(
    ("text", "idea"),
    [
        (
            "acho que corridas compartilhadas reduzem o trânsito nos horários de pico",
            "corridas compartilhadas reduzem o trânsito nos horários de pico",
        ),
        (
            "I noticed people order more groceries on rainy days, can we research that?",
            "people order more groceries on rainy days",
        ),
        (
            "minha hipótese: home office, reuniões curtas e foco aumentam a produtividade",
            "home office, reuniões curtas e foco aumentam a produtividade",
        ),
    ],
)
def test_the_idea_is_its_own_words(adapter: EmbeddedIntentAdapter, text: str, idea: str) -> None:
    read = adapter.parse_sync(text, context=CONTEXT)
    assert (read.goal, read.entities.get("idea_text")) == ("RESEARCH_HYPOTHESIS", idea), read.notes


@pytest.fixture(scope="module")
def beside_repairs(tmp_path_factory: pytest.TempPathFactory) -> EmbeddedIntentAdapter:
    """Research beside a domain whose words an idea may be full of (repairs: "urgente", "encanador")."""
    folder: Path = tmp_path_factory.mktemp("research-beside")
    manifests = [
        research(research_settings(folder)).service.manifest(),
        repairs.service.manifest_with_lookups(),
    ]
    return EmbeddedIntentAdapter(Catalog(manifests))


@pytest.mark.parametrize(
    ("text", "idea"),
    [
        (
            "acho que chamados urgentes de encanador demoram mais em prédios antigos",
            "chamados urgentes de encanador demoram mais em prédios antigos",
        ),
        (
            "I think urgent plumbing requests take longer in old buildings",
            "urgent plumbing requests take longer in old buildings",
        ),
    ],
)
def test_a_statement_after_the_lead_in_is_an_idea_whatever_its_words(
    beside_repairs: EmbeddedIntentAdapter, text: str, idea: str
) -> None:
    read = beside_repairs.parse_sync(text, context=CONTEXT)
    assert (read.goal, read.entities) == ("RESEARCH_HYPOTHESIS", {"idea_text": idea}), read.notes


@pytest.mark.parametrize(
    "text", ["acho que vou precisar de um encanador no 302", "I think I need a plumber in 302 tomorrow"]
)
def test_a_hedged_request_stays_a_request(beside_repairs: EmbeddedIntentAdapter, text: str) -> None:
    read = beside_repairs.parse_sync(text, context=CONTEXT)
    assert read.goal == "OPEN_REPAIR", read.notes


def test_research_whether_leads_into_the_idea(adapter: EmbeddedIntentAdapter) -> None:
    read = adapter.parse_sync("I'd like to research whether chess improves memory in kids", context=CONTEXT)
    assert read.entities == {"idea_text": "chess improves memory in kids"}, read.notes
