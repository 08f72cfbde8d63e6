"""Of two goals too close to tell apart, the one that reads every value the other reads, and
more, is meant: "faxina quarta 13h" names a service a price quote and a visit both take, and a
day and a time only the visit does."""

from __future__ import annotations

import pytest

from bench.understanding.round4.domains import home_services
from domains.finance.service import build_service
from intent.embedded import EmbeddedIntentAdapter
from shared.catalog import Catalog

CONTEXT = {"time_zone": "America/Sao_Paulo", "now": "2026-03-10T10:00:00-03:00"}  # a Tuesday


@pytest.fixture(scope="module")
def adapter() -> EmbeddedIntentAdapter:
    manifests = [home_services.service.manifest_with_lookups(), build_service().manifest_with_lookups()]
    return EmbeddedIntentAdapter(Catalog(manifests), use_embeddings=False)


def test_a_day_and_a_time_beside_the_service_name_the_visit(adapter: EmbeddedIntentAdapter) -> None:
    out = adapter.parse_sync("faxina quarta 13h", context=CONTEXT)
    assert out.goal == "SCHEDULE_VISIT", out
    assert out.entities == {"service": "CLEANING", "day": "2026-03-11", "time": "13:00"}


@pytest.mark.parametrize("text", ["faxina", "quanto custa uma faxina?"])
def test_the_service_alone_is_no_visit(adapter: EmbeddedIntentAdapter, text: str) -> None:
    out = adapter.parse_sync(text, context=CONTEXT)
    assert out.goal != "SCHEDULE_VISIT" or any(n.startswith("needs_choice") for n in out.notes), out
