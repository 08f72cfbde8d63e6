"""Which versions of a hypothesis to compare, as people write them: the words the examples put
after the value ("da hipótese"), and nothing but the request's own words after them, are not
part of it; a message's own words stay the message."""

from __future__ import annotations

import pytest

from intent.embedded import EmbeddedIntentAdapter
from tests.intent.conftest import as_a_gateway_reads


@pytest.fixture(scope="module")
def shipped(tmp_path_factory: pytest.TempPathFactory) -> EmbeddedIntentAdapter:
    return as_a_gateway_reads(tmp_path_factory.mktemp("shipped"))


@pytest.mark.parametrize(
    ("text", "versions"),
    [
        ("comparar v1 e v3 da minha hipótese", "v1 e v3"),
        ("compara a v2 com a v3 da hipótese", "a v2 com a v3"),
    ],
)
def test_the_versions_are_only_the_versions(shipped: EmbeddedIntentAdapter, text: str, versions: str) -> None:
    read = shipped.parse_sync(text)
    assert read.goal == "RESEARCH_VERSIONS", read.notes
    assert read.entities.get("versions_text") == versions


def test_a_message_s_words_stay_the_message(shipped: EmbeddedIntentAdapter) -> None:
    read = shipped.parse_sync("send a telegram message saying the meeting is at 3pm")
    assert read.goal == "SEND_MESSAGE", read.notes
    assert read.entities.get("message") == "the meeting is at 3pm"
