"""A longer message tells the problem first and asks last, with greetings and thanks around
both ("Bom dia, tudo bem? O Excel fecha sozinho. Poderia abrir um chamado? Obrigado!"): the
sentence that reads surest decides the goal, and the values are read from the request part."""

from __future__ import annotations

import pytest

from intent.embedded import EmbeddedIntentAdapter
from intent.text import request_part, sentences
from shared.catalog import Catalog
from shared.manifest import DomainManifest
from tests.conftest import example
from tests.intent.conftest import CHAT, WEATHER

HELPDESK = {
    "domain": "helpdesk",
    "version": "1.0.0",
    "description": "IT helpdesk",
    "capabilities": [{"name": "open_ticket", "description": "Open a ticket"}],
    "goals": [
        {
            "goal": "OPEN_TICKET",
            "description": {"pt": "Abrir um chamado", "en": "Open a support ticket"},
            "capabilities": ["open_ticket"],
            "entities_schema": {"problem_text": {"type": "string", "required": True}},
            "examples": [
                example("abre um chamado: a impressora não imprime", problem_text="a impressora não imprime"),
                example("open a ticket: my laptop won't boot", problem_text="my laptop won't boot"),
            ],
        }
    ],
}


@pytest.fixture(scope="module")
def adapter() -> EmbeddedIntentAdapter:
    manifests = [DomainManifest.model_validate(m) for m in (WEATHER, CHAT, HELPDESK)]
    return EmbeddedIntentAdapter(Catalog(manifests), oos_threshold=0.5, use_embeddings=False)


def test_sentences_and_the_request_part_keep_their_ends() -> None:
    text = "Oi, tudo bem? O Excel fecha sozinho. Poderia abrir um chamado? Obrigado!"
    assert request_part(text) == "O Excel fecha sozinho. Poderia abrir um chamado"
    assert sentences(request_part(text)) == ["O Excel fecha sozinho", "Poderia abrir um chamado"]
    assert sentences("transfere 1.432,77 pra Ana. Valeu") == ["transfere 1.432,77 pra Ana", "Valeu"]


def test_the_request_sentence_of_a_long_polite_message_decides(adapter: EmbeddedIntentAdapter) -> None:
    out = adapter.parse_sync(
        "Bom dia, tudo bem? O Excel fecha sozinho toda vez que abro a planilha. "
        "Poderia abrir um chamado, por favor? Obrigado!"
    )
    assert out.goal == "OPEN_TICKET", out
    assert out.entities == {"problem_text": "O Excel fecha sozinho toda vez que abro a planilha"}


def test_a_message_of_one_sentence_is_read_as_before(adapter: EmbeddedIntentAdapter) -> None:
    out = adapter.parse_sync("abre um chamado: o monitor pisca")
    assert out.goal == "OPEN_TICKET"
    assert out.entities == {"problem_text": "o monitor pisca"}
