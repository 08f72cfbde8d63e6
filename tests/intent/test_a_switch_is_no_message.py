"""A request with its Telegram switch said is that request sent by Telegram, not a message with
nothing to say: "uber quote and text me on telegram" is a quote with ``notify``, while a message
with its words, or "manda no telegram" alone, stays the notifier's."""

from __future__ import annotations

import pytest

from intent.embedded import EmbeddedIntentAdapter
from tests.intent.conftest import as_a_gateway_reads


@pytest.fixture(scope="module")
def shipped(tmp_path_factory: pytest.TempPathFactory) -> EmbeddedIntentAdapter:
    return as_a_gateway_reads(tmp_path_factory.mktemp("shipped"))


@pytest.mark.parametrize(
    ("text", "company"),
    [("uber quote and text me on telegram", "uber"), ("cotação da vale e me manda no telegram", "vale")],
)
def test_a_quote_with_its_switch_is_a_quote(shipped: EmbeddedIntentAdapter, text: str, company: str) -> None:
    read = shipped.parse_sync(text)
    assert read.goal == "GET_QUOTE", read.notes
    assert read.entities == {"symbol_text": company, "notify": True}


@pytest.mark.parametrize(
    ("text", "entities"),
    [
        ("send a telegram message saying the meeting is at 3pm", {"message": "the meeting is at 3pm"}),
        ("manda no telegram", {}),
    ],
)
def test_a_message_stays_a_message(
    shipped: EmbeddedIntentAdapter, text: str, entities: dict[str, str]
) -> None:
    read = shipped.parse_sync(text)
    assert read.goal == "SEND_MESSAGE", read.notes
    assert read.entities == entities
