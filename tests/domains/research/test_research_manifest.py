"""The manifest is valid and its examples make the embedded intent classifier recognise the
typical openings next to the other domains (above the orchestrator's default confidence gate)."""

from __future__ import annotations

from pathlib import Path

import pytest

from domains.finance.service import build_service as build_finance
from domains.general.service import build_service as build_general
from domains.notifier.service import build as build_notifier
from domains.research.service import build
from gateway.settings import GatewaySettings
from intent.embedded import EmbeddedIntentAdapter
from shared.catalog import Catalog
from shared.manifest import validate_manifest
from tests.domains.conftest import outbox_settings
from tests.domains.research.conftest import research_settings


@pytest.fixture(scope="module")
def adapter(tmp_path_factory: pytest.TempPathFactory) -> EmbeddedIntentAdapter:
    tmp = tmp_path_factory.mktemp("research-intent")
    research = build(research_settings(tmp)).service.manifest()
    notifier = build_notifier(outbox_settings(Path(tmp) / "outbox.sqlite3")).service.manifest()
    catalog = Catalog([build_finance().manifest(), build_general().manifest(), notifier, research])
    return EmbeddedIntentAdapter(catalog)


def test_manifest_validates_against_the_published_schema(tmp_path: Path) -> None:
    manifest = build(research_settings(tmp_path)).service.manifest()
    again = validate_manifest(manifest.model_dump(mode="json", exclude_none=True))
    assert again.domain == "research"
    for goal in again.goals:
        assert len(goal.examples) >= 10
    start = again.capability("research_start")
    assert start is not None and start.metadata.policy.idempotent is False


@pytest.mark.parametrize(
    ("text", "goal"),
    [
        ("Método incremental é mais rápido", "RESEARCH_HYPOTHESIS"),
        ("Método X reduz tempo em 30% em equipes de 2-5 devs", "RESEARCH_HYPOTHESIS"),
        ("quero testar uma hipótese", "RESEARCH_HYPOTHESIS"),
        ("help me turn an observation into a research question", "RESEARCH_HYPOTHESIS"),
        ("listar versões", "RESEARCH_VERSIONS"),
        ("reiniciar a sessão de pesquisa", "RESEARCH_RESET"),
        # issue 13: English ideas with a lead-in, and the commands asked as people ask them
        ("I have an idea: sleep deprivation reduces reaction time in drivers", "RESEARCH_HYPOTHESIS"),
        ("help me turn this into a research hypothesis: music improves focus", "RESEARCH_HYPOTHESIS"),
        ("quais versões da hipótese temos?", "RESEARCH_VERSIONS"),
        ("compare as versões", "RESEARCH_VERSIONS"),
        ("compare the versions", "RESEARCH_VERSIONS"),
        ("reiniciar a pesquisa", "RESEARCH_RESET"),
        ("restart the research", "RESEARCH_RESET"),
    ],
)
def test_openings_are_recognised(adapter: EmbeddedIntentAdapter, text: str, goal: str) -> None:
    out = adapter.parse_sync(text)
    assert (out.primary_domain, out.goal) == ("research", goal)
    assert out.confidence >= GatewaySettings.model_fields["confidence_threshold"].default


def test_other_domains_keep_their_requests(adapter: EmbeddedIntentAdapter) -> None:
    assert adapter.parse_sync("qual o preço da PETR4?").primary_domain == "finance"
    assert adapter.parse_sync("oi").primary_domain == "general"
