"""The verb of one goal on the object another goal is phrased with: "cancel my enrollment" is no
ticket's cancellation missing its code but the course's drop, which asks what to drop; an object
no goal names ("cancel my gym membership") is still out of scope."""

from __future__ import annotations

from pathlib import Path

import pytest

from bench.understanding.round5.domains import parcels
from bench.understanding.round7.domains import courses, repairs, tickets
from domains.research.service import build as research
from intent.embedded import EmbeddedIntentAdapter
from shared.catalog import Catalog
from tests.domains.research.conftest import research_settings
from tests.intent.conftest import beside_the_shipped

CONTEXT = {"now": "2026-03-10T10:00:00-03:00", "time_zone": "America/Sao_Paulo"}


@pytest.fixture(scope="module")
def adapter() -> EmbeddedIntentAdapter:
    return beside_the_shipped(courses, repairs, tickets)


def test_the_goal_phrased_with_the_object_is_asked(adapter: EmbeddedIntentAdapter) -> None:
    read = adapter.parse_sync("cancel my enrollment", context=CONTEXT)
    assert (read.goal, read.entities) == ("DROP_COURSE", {}), read.notes


@pytest.mark.parametrize("text", ["cancel my gym membership", "cancela minha assinatura da netflix"])
def test_an_object_no_goal_names_is_out_of_scope(adapter: EmbeddedIntentAdapter, text: str) -> None:
    read = adapter.parse_sync(text, context=CONTEXT)
    assert read.goal is None, (read.goal, read.notes)


def test_a_word_alone_of_another_goal_does_not_take_the_message(tmp_path: Path) -> None:
    """ "afternoon works" (a reply naming a delivery window): "works" is a word of research's
    examples, and nothing else of the message is; it is not sent to research."""
    manifests = [
        parcels.service.manifest_with_lookups(),
        research(research_settings(tmp_path)).service.manifest(),
    ]
    read = EmbeddedIntentAdapter(Catalog(manifests)).parse_sync("afternoon works", context=CONTEXT)
    assert read.goal != "RESEARCH_HYPOTHESIS", read.notes
