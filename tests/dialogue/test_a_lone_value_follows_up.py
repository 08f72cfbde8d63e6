"""One value of a goal's tables, said alone, names that goal when it only reads ("tem A Hora da
Estrela?" searches the catalogue); right after a request of another goal, the same kind of
message is that request's follow-up: "e da magalu?" after a quote is Magalu's quote, though only
the company search lists the name."""

from __future__ import annotations

import pytest

from bench.understanding.round4.domains import library
from domains.finance.service import build_service
from intent.embedded import EmbeddedIntentAdapter
from shared.catalog import Catalog
from shared.models import DomainOutput, ExecutionIntent
from tests.dialogue.conftest import FakeDomains
from tests.dialogue.test_graph import Conversation


@pytest.fixture(scope="module")
def catalog() -> Catalog:
    return Catalog([build_service().manifest_with_lookups(), library.service.manifest_with_lookups()])


@pytest.fixture(scope="module")
def adapter(catalog: Catalog) -> EmbeddedIntentAdapter:
    return EmbeddedIntentAdapter(catalog, use_embeddings=False)


def quoted(intent: ExecutionIntent) -> DomainOutput:
    """The shipped quote's output, for whichever company the request names."""
    symbol = str(intent.parameters.get("symbol") or intent.parameters.get("symbol_text"))
    context = {"market": "B3", "as_of": "2026-03-10T10:00:00-03:00", "source": "test"}
    result = {"symbol": symbol, "price": 10.0, "currency": "BRL", "_market_context": context}
    return DomainOutput(status="success", explanation=f"{symbol}: R$ 10,00", result=result)


@pytest.fixture
def chat(adapter: EmbeddedIntentAdapter, catalog: Catalog) -> Conversation:
    replies = {
        "get_stock_price": quoted,
        "search_catalog": lambda i: DomainOutput(status="success", explanation="Disponível."),
    }
    return Conversation(adapter, catalog, FakeDomains(threshold=0.0, replies=replies))


@pytest.mark.parametrize("follow_up", ["e da magalu?", "and magalu?"])
async def test_after_a_quote_a_lone_company_is_the_quotes(chat: Conversation, follow_up: str) -> None:
    await chat.say("cotação da vale")
    await chat.say(follow_up)
    assert [c.capability for c in chat.domains.calls] == ["get_stock_price", "get_stock_price"]
    assert chat.domains.calls[-1].parameters["symbol_text"] == "magalu"


async def test_a_lone_title_searches_the_catalogue(chat: Conversation) -> None:
    await chat.say("tem A Hora da Estrela?")
    assert [c.capability for c in chat.domains.calls] == ["search_catalog"]
