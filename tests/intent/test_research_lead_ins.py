"""A research idea after an everyday lead-in ("acho que", "I noticed") is the idea's words alone,
and a closing clause that only asks for research ("…, can we research that?") is no part of it."""

from __future__ import annotations

from pathlib import Path

import pytest

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
