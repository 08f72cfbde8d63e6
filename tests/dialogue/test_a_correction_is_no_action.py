"""A correction of a request waiting for its yes opens with words that ask for nothing ("sorry, I
meant 51 Station Road"): its lead-in is no verb of an action the goal does not do, and the request
is asked again with the corrected value."""

from __future__ import annotations

import pytest

from bench.understanding.round17.domains import locksmith
from intent.embedded import EmbeddedIntentAdapter
from shared.catalog import Catalog
from shared.models import ApprovalQuestion
from tests.dialogue.conftest import FakeDomains
from tests.dialogue.test_graph import Conversation


class Chat(Conversation):
    def __init__(self) -> None:
        catalog = Catalog([locksmith.service.manifest_with_lookups()])
        super().__init__(EmbeddedIntentAdapter(catalog, use_embeddings=False), catalog, FakeDomains())


@pytest.mark.parametrize(
    ("request_text", "correction", "before", "after"),
    [
        ("urgent locksmith at 15 Station Road", "sorry, I meant 51 Station Road", "15 Station", "51 Station"),
        (
            "chaveiro urgente na rua augusta 15",
            "foi mal, quis dizer rua augusta 51",
            "augusta 15",
            "augusta 51",
        ),
    ],
)
async def test_the_corrected_request_is_asked_again(
    request_text: str, correction: str, before: str, after: str
) -> None:
    conversation = Chat()
    waiting = await conversation.say(request_text)
    assert isinstance(waiting.state.question, ApprovalQuestion), waiting.state.turn.answer
    assert before in waiting.state.turn.answer
    corrected = await conversation.say(correction)
    assert isinstance(corrected.state.question, ApprovalQuestion), corrected.state.turn.answer
    assert after in corrected.state.turn.answer and before not in corrected.state.turn.answer
