"""What follows a colon after a request to send it is the message, whatever goal its own words
ask for: "envia no telegram: reunião com a professora helena quinta 15h" is no meeting to book."""

from __future__ import annotations

from pathlib import Path

import pytest

from bench.understanding.round10.domains import school
from intent.embedded import EmbeddedIntentAdapter
from tests.intent.conftest import as_a_gateway_reads

CONTEXT = {"time_zone": "America/Sao_Paulo", "now": "2026-03-10T10:00:00-03:00"}


@pytest.fixture(scope="module")
def reader(tmp_path_factory: pytest.TempPathFactory) -> EmbeddedIntentAdapter:
    folder: Path = tmp_path_factory.mktemp("lead-in")
    return as_a_gateway_reads(folder, school)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (
            "envia no telegram: reunião com a professora helena quinta 15h",
            "reunião com a professora helena quinta 15h",
        ),
        ("manda no telegram: a marina vai faltar amanhã", "a marina vai faltar amanhã"),
    ],
)
def test_the_words_after_the_colon_are_the_message(
    reader: EmbeddedIntentAdapter, text: str, message: str
) -> None:
    out = reader.parse_sync(text, context=CONTEXT)
    assert (out.primary_domain, out.goal) == ("notifier", "SEND_MESSAGE")
    assert out.entities == {"message": message}


def test_a_request_with_a_colon_of_its_own_stays_that_request(reader: EmbeddedIntentAdapter) -> None:
    out = reader.parse_sync("marca reunião: professora helena, quinta 15h", context=CONTEXT)
    assert out.goal == "BOOK_MEETING"
