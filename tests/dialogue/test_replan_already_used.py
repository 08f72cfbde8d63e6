"""A read-only re-issue earlier in the run is named by the later approval of the same run."""

from __future__ import annotations

from dialogue.graph import ConversationGraph
from execution.runner import RunController
from intent.embedded import EmbeddedIntentAdapter
from planner import DeterministicRunPlanner
from sdk.service import fail
from shared.catalog import Catalog
from shared.manifest import validate_manifest
from shared.models import ApprovalQuestion, DomainOutput, ExecutionIntent
from tests.dialogue.conftest import STOCKS, FakeDomains, quote, speaker
from tests.dialogue.test_replan_suggestions import confirmed_notifier, send_to_ana


def quote_abev3(intent: ExecutionIntent) -> DomainOutput:
    if intent.parameters.get("symbol_text") != "ABEV3":
        return fail(
            "Use o código.", "symbol_not_found", recoverable=True, suggestions=[{"symbol_text": "ABEV3"}]
        )
    return quote(intent)


async def test_the_approval_names_the_value_an_earlier_reissue_used() -> None:
    catalog = Catalog([validate_manifest(STOCKS), validate_manifest(confirmed_notifier())])
    domains = FakeDomains(replies={"send_message": send_to_ana, "get_quote": quote_abev3})
    run_loop = RunController(
        lambda: catalog, domains.dispatch, planner=DeterministicRunPlanner(), max_replans=2
    )
    adapter = EmbeddedIntentAdapter(catalog, use_embeddings=False)
    graph = ConversationGraph(
        adapter=adapter, catalog=lambda: catalog, orchestrator=domains, controller=run_loop
    )
    say = speaker(graph)

    await say("manda a cotação da Ambev no telegram")
    asked = await say("sim")
    assert isinstance(asked.question, ApprovalQuestion), asked.turn.answer
    first, rest = asked.turn.answer.split("\n", 1)
    assert first.startswith("Usei “ABEV3” no lugar de “Ambev”") and first.endswith("como o serviço sugeriu.")
    assert rest.startswith(
        "Não deu certo: Chat desconhecido. O serviço sugere tentar de novo com “@ana” para chat. "
    )
