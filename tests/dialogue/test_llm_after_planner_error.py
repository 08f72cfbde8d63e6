"""A request the deterministic planner cannot plan (it raises) goes to the LLM planner when one is
configured: whole turns through ConversationGraph with the real classifier and planners, the fake
remote domains, and a scripted OpenAI-compatible server on loopback (the LLM, a third party)."""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from typing import Any

import pytest

from dialogue.state import TurnState
from graph import GraphEngine, GraphResult, InMemoryCheckpointer
from intent.embedded import EmbeddedIntentAdapter
from planner.llm import LlmPlanner, LlmRunPlanner, PlannerLlmSettings
from planner.run_planner import DeterministicRunPlanner
from shared.catalog import Catalog
from shared.manifest import validate_manifest
from shared.models import EntryRequest
from shared.planning import RunPlanner
from shared.status import RunStatus
from tests.conftest import example, free_port
from tests.dialogue.conftest import COACH, NOTIFIER, STOCKS, FakeDomains, conversation_graph
from tests.planner.scripted_llm import ScriptedLlm, ToolCall, serve

#: A goal whose capability map covers one value of its enum entity: asked for the other ("which
#: rose most"), the deterministic planner raises ("resolves to no capability"), where only a plan
#: over other capabilities can answer.
COMPARE: dict[str, Any] = {
    "domain": "compare",
    "version": "1",
    "description": "Comparações entre empresas (company comparisons)",
    "capabilities": [{"name": "compare_prices", "description": "prices side by side"}],
    "goals": [
        {
            "goal": "COMPARE_COMPANIES",
            "description": "Comparar empresas (compare companies)",
            "entities_schema": {
                "symbol_text": {"type": "string", "multiple": True},
                "metric": {
                    "type": "enum",
                    "values": ["price", "change"],
                    "synonyms": {"price": ["preço", "price"], "change": ["subiu mais", "rose most"]},
                    "capability_map": {"price": "compare_prices"},
                },
            },
            "examples": [
                example(
                    "compare o preço da Petrobras com a Vale",
                    symbol_text=["Petrobras", "Vale"],
                    metric="price",
                ),
                example(
                    "comparar Itaú e Bradesco: qual subiu mais?",
                    symbol_text=["Itaú", "Bradesco"],
                    metric="change",
                ),
                example(
                    "compare Apple with Microsoft price", symbol_text=["Apple", "Microsoft"], metric="price"
                ),
                example(
                    "compare Tesla and Ford, which rose most", symbol_text=["Tesla", "Ford"], metric="change"
                ),
                example("faça uma comparação entre Gerdau e Usiminas", symbol_text=["Gerdau", "Usiminas"]),
                example(
                    "comparação da Ambev com a Natura: qual subiu mais",
                    symbol_text=["Ambev", "Natura"],
                    metric="change",
                ),
                example("quero comparar a Vale com a Petrobras", symbol_text=["Vale", "Petrobras"]),
                example("comparison between Nvidia and AMD", symbol_text=["Nvidia", "AMD"]),
            ],
        }
    ],
}
CATALOG = Catalog([validate_manifest(m) for m in (STOCKS, NOTIFIER, COACH, COMPARE)])
TEXT = "compare a Petrobras com a Vale: qual subiu mais?"
PLAN = {
    "steps": [
        {"id": 1, "domain": "stocks", "capability": "get_quote", "params": {"symbol_text": "Petrobras"}},
        {"id": 2, "domain": "stocks", "capability": "get_quote", "params": {"symbol_text": "Vale"}},
    ],
    "combine_mode": "report",
}


@pytest.fixture(scope="module")
def adapter() -> EmbeddedIntentAdapter:
    return EmbeddedIntentAdapter(CATALOG, use_embeddings=False)


@pytest.fixture
def llm() -> Iterator[ScriptedLlm]:
    with serve(ScriptedLlm(by_text={TEXT: [ToolCall(PLAN)]})) as server:
        yield server
    assert server.wire_errors == []


def llm_planner(base_url: str) -> LlmRunPlanner:
    settings = PlannerLlmSettings(
        planner_llm="fallback",
        planner_llm_base_url=base_url,
        planner_llm_model="planner-test",
        planner_llm_timeout_s=5.0,
    )
    return LlmRunPlanner(LlmPlanner(settings, lambda: CATALOG))


async def say(
    adapter: EmbeddedIntentAdapter, planner: RunPlanner, text: str
) -> tuple[TurnState, FakeDomains]:
    domains = FakeDomains()

    graph = conversation_graph(adapter, CATALOG, domains, planner)
    engine: GraphEngine[TurnState] = GraphEngine(graph.definition(), InMemoryCheckpointer())
    entry = EntryRequest(session_id="s1", input_text=text)
    result: GraphResult[TurnState] = await engine.run(
        graph.first_state(entry, f"run-{next(RUNS)}"), session_id="s1"
    )
    return result.state, domains


RUNS = itertools.count(1)
CANNOT = "the deterministic planner could not plan it: goal COMPARE_COMPANIES resolves to no capability"


async def test_the_request_is_understood_as_the_goal_the_deterministic_planner_cannot_plan(
    adapter: EmbeddedIntentAdapter,
) -> None:
    state, domains = await say(adapter, DeterministicRunPlanner(), TEXT)
    turn = state.turn
    assert turn.intent is not None and turn.intent.goal == "COMPARE_COMPANIES"
    # without an LLM planner: the failure as before, and the trace says which planner failed
    assert turn.status == RunStatus.FAILED and turn.plan is None and domains.calls == []
    assert any(note.startswith(CANNOT) for note in turn.notes)


async def test_when_the_deterministic_planner_raises_the_llm_planner_plans(
    adapter: EmbeddedIntentAdapter, llm: ScriptedLlm
) -> None:
    state, domains = await say(adapter, llm_planner(llm.base_url), TEXT)
    turn = state.turn
    assert turn.status == RunStatus.COMPLETED, turn.answer
    assert [c.parameters["symbol_text"] for c in domains.calls] == ["Petrobras", "Vale"]
    assert turn.plan is not None and turn.plan.planner == "llm"
    assert turn.plan.notes[0].startswith(
        "planned by the llm planner (planner-test): the deterministic planner could not plan it "
        "(goal COMPARE_COMPANIES resolves to no capability"
    )
    assert any(note.startswith(CANNOT) for note in turn.notes)
    assert turn.execution_intent is not None
    assert (turn.execution_intent.domain, turn.execution_intent.capability) == ("stocks", "get_quote")
    assert turn.execution_intent.goal == "COMPARE_COMPANIES"
    assert "Petrobras: 20.00" in turn.answer and "Vale: 20.00" in turn.answer
    (asked,) = llm.requests
    assert "COMPARE_COMPANIES" in asked["messages"][0]["content"]  # it saw what was understood


async def test_with_the_llm_planner_down_the_failure_stands_and_says_so(
    adapter: EmbeddedIntentAdapter,
) -> None:
    state, domains = await say(adapter, llm_planner(f"http://127.0.0.1:{free_port()}/v1"), TEXT)
    turn = state.turn
    assert turn.status == RunStatus.FAILED and domains.calls == []
    assert any(note.startswith(CANNOT) for note in turn.notes)
    assert turn.plan is not None and turn.plan.steps == []
    assert turn.plan.notes[-1].startswith("llm planner unavailable (")
    assert turn.plan.notes[-1].endswith("): nothing planned it")
    assert [c.failure is not None for c in turn.plan.llm_calls] == [True]
