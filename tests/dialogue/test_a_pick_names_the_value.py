"""A pick among a domain's options replaces the words the person said for that value: after "which
of your two credit cards?", "o black" makes the turn's request name "Mastercard Black", not
"cartão de crédito" (what a follow-up then refers to); a value the request did not name is
only the step's parameter."""

from __future__ import annotations

from pathlib import Path

from bench.understanding.round8.domains import bank_cards, real_estate
from intent.embedded import EmbeddedIntentAdapter
from sdk.service import DomainService
from shared.catalog import Catalog
from shared.models import CallContext, DomainOutput, ExecutionIntent, ExecutionStep
from shared.status import RunStatus
from tests.dialogue.conftest import FakeDomains
from tests.dialogue.test_graph import Conversation


class InProcess(FakeDomains):
    """One real domain service, called in process (its own ``execute``)."""

    def __init__(self, service: DomainService):
        super().__init__(threshold=0.5)
        self.service = service

    async def dispatch(
        self, intent: ExecutionIntent, step: ExecutionStep | None = None, call: CallContext | None = None
    ) -> DomainOutput:
        self.calls.append(intent)
        return await self.service.execute(intent)


def _chat(service: DomainService, folder: Path) -> Conversation:
    catalog = Catalog([service.manifest_with_lookups()])
    adapter = EmbeddedIntentAdapter(catalog, time_zone="America/Sao_Paulo", cache_dir=folder)
    return Conversation(adapter, catalog, InProcess(service))


async def test_the_card_picked_replaces_the_words_said(tmp_path: Path) -> None:
    chat = _chat(bank_cards.service, tmp_path)
    await chat.say("bloqueia o cartão de crédito, perdi")
    asked = await chat.say("sim")
    assert asked.state.turn.status == RunStatus.WAITING_INPUT, asked.state.turn.answer
    done = await chat.say("o black")
    turn = done.state.turn
    assert turn.status == RunStatus.COMPLETED, turn.answer
    assert turn.intent is not None and turn.intent.entities["card_text"] == "Mastercard Black"
    assert chat.domains.calls[-1].parameters["card_text"] == "Mastercard Black"


async def test_a_neighbourhood_picked_with_then(tmp_path: Path) -> None:
    chat = _chat(real_estate.service, tmp_path)
    asked = await chat.say("any apartments in Jardins?")
    assert asked.state.turn.status == RunStatus.WAITING_INPUT, asked.state.turn.answer
    done = await chat.say("ok, Itaim then")
    assert done.state.turn.intent is not None
    assert done.state.turn.intent.entities["neighborhood_text"] == "Itaim Bibi"
