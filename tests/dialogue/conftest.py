"""A small catalog, written here, and a fake of the remote domains the dialogue talks to.

``FakeDomains`` stands for the orchestrator's remote side (HTTP domain services): canned
``DomainOutput``s per capability, and the orchestrator's confidence gate rule.

``VISITS`` is a domain of its own whose change asks for a yes, and ``visits_chat`` a conversation
over it alone (the tests of what is asked before and at the approval).
"""

from __future__ import annotations

import itertools
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any

import pytest

from dialogue.graph import ConversationGraph
from dialogue.state import TurnState
from execution.runner import RunController
from graph import GraphEngine, InMemoryCheckpointer, SessionNotFoundError
from intent import IntentAdapter
from intent.embedded import EmbeddedIntentAdapter
from planner.run_planner import DeterministicRunPlanner
from shared.catalog import Catalog
from shared.manifest import validate_manifest
from shared.models import (
    CallContext,
    Clarification,
    ClarificationOption,
    ContinueWith,
    DomainOutput,
    EntryRequest,
    ExecutionIntent,
    ExecutionStep,
)
from shared.planning import RunPlanner
from tests.conftest import example

if TYPE_CHECKING:
    from tests.dialogue.test_graph import Conversation

STOCKS: dict[str, Any] = {
    "domain": "stocks",
    "version": "1",
    "description": "Cotações de ações (stock quotes)",
    "capabilities": [
        {
            "name": "get_quote",
            "description": "price of one company",
            "metadata": {
                "composition": {
                    "followup_roles": ["notifier"],
                    "enabled_if": {"path": "parameters.notify", "equals": True},
                    "param_map": {"message": {"from_parameters": ["_step_explanation"]}},
                },
            },
        },
        {"name": "get_gainers", "description": "top gainers"},
    ],
    "goals": [
        {
            "goal": "GET_QUOTE",
            "description": "Cotação de uma empresa (stock price)",
            "capabilities": ["get_quote"],
            "entities_schema": {
                "symbol_text": {"type": "string", "required": True, "multiple": True},
                "notify": {"type": "boolean", "synonyms": {"true": ["telegram"]}},
            },
            "examples": [
                example("qual o preço da Petrobras?", symbol_text="Petrobras"),
                example("cotação da Vale", symbol_text="Vale"),
                example("quanto está a ação do Itaú", symbol_text="Itaú"),
                example("preço da Apple e da Microsoft", symbol_text=["Apple", "Microsoft"]),
                example("cotação da Nordea", symbol_text="Nordea"),
                example("manda a cotação da Ambev no telegram", symbol_text="Ambev", notify=True),
                example("how much is Tesla stock", symbol_text="Tesla"),
                example("price of Nvidia shares", symbol_text="Nvidia"),
                example("quanto vale a ação da Gerdau hoje", symbol_text="Gerdau"),
                example("qual a cotação do Bradesco", symbol_text="Bradesco"),
            ],
        },
        {
            "goal": "TOP_GAINERS",
            "description": "Maiores altas da bolsa (top gainers)",
            "capabilities": ["get_gainers"],
            "entities_schema": {},
            "examples": [
                example("quais as maiores altas da bolsa?"),
                example("ações que mais subiram hoje"),
                example("maiores altas do dia"),
                example("top gainers today"),
                example("which stocks went up the most"),
                example("o que mais subiu na bolsa"),
                example("lista das maiores altas"),
                example("biggest winners in the market"),
                example("maiores valorizações de hoje"),
                example("quem subiu mais hoje na bolsa"),
            ],
        },
    ],
}

NOTIFIER: dict[str, Any] = {
    "domain": "notifier",
    "version": "1",
    "description": "sends messages",
    "capabilities": [{"name": "send_message", "description": "send a text", "role": "notifier"}],
}

COACH: dict[str, Any] = {
    "domain": "coach",
    "version": "1",
    "description": "Conversa sobre ideias de pesquisa (research ideas)",
    "confidence_gate": False,
    "capabilities": [
        {"name": "start_chat", "description": "start talking about an idea"},
        {"name": "chat_reply", "description": "the person's next message"},
    ],
    "goals": [
        {
            "goal": "DISCUSS_IDEA",
            "description": "Discutir uma ideia de pesquisa (discuss a research idea)",
            "capabilities": ["start_chat"],
            "entities_schema": {},
            "examples": [
                example("quero discutir uma ideia de pesquisa"),
                example("tenho uma ideia para um estudo"),
                example("me ajuda a pensar numa pesquisa"),
                example("I have a research idea"),
                example("let's discuss my study idea"),
                example("quero conversar sobre meu projeto de pesquisa"),
                example("ideia de pesquisa sobre sono"),
                example("can you help me design a study"),
                example("preciso de ajuda com uma hipótese de pesquisa"),
                example("vamos pensar num experimento"),
            ],
        }
    ],
}


def build_catalog() -> Catalog:
    return Catalog([validate_manifest(STOCKS), validate_manifest(NOTIFIER), validate_manifest(COACH)])


@pytest.fixture
def catalog() -> Catalog:
    return build_catalog()


@pytest.fixture(scope="session")
def adapter() -> EmbeddedIntentAdapter:
    """The real embedded classifier on the catalog above (n-grams only: quick to train)."""
    return EmbeddedIntentAdapter(build_catalog(), use_embeddings=False)


NORDEA = [
    ClarificationOption(value="NDA-SE.ST", label="Nordea (Stockholm)", aliases=["sueca", "Estocolmo"]),
    ClarificationOption(value="NDA-FI.HE", label="Nordea (Helsinki)", aliases=["finlandesa", "Helsinki"]),
]

Reply = Callable[[ExecutionIntent], DomainOutput]


def quote(intent: ExecutionIntent) -> DomainOutput:
    """The stocks domain: an ambiguous name asks which listing; a symbol gets its price."""
    symbol = intent.parameters.get("symbol")
    if symbol:
        return DomainOutput(status="success", result={"symbol": symbol}, explanation=f"{symbol}: 10.00")
    name = str(intent.parameters.get("symbol_text", ""))
    if name.lower() == "nordea":
        return DomainOutput(
            status="clarification",
            explanation="Qual Nordea?",
            clarification=Clarification(question="Qual Nordea?", options=NORDEA, param="symbol"),
        )
    return DomainOutput(status="success", result={"symbol": name.upper()}, explanation=f"{name}: 20.00")


def coach(intent: ExecutionIntent) -> DomainOutput:
    """The coach domain: it keeps asking until the person says "pronto"."""
    reply = str(intent.parameters.get("reply", ""))
    if reply.strip().lower() == "pronto":
        return DomainOutput(status="success", explanation="Resumo da sua ideia.")
    return DomainOutput(
        status="clarification",
        explanation="Conte mais.",
        clarification=Clarification(
            question="Conte mais.", continue_with=ContinueWith(capability="chat_reply")
        ),
    )


class FakeDomains:
    """The remote domains behind the orchestrator: canned replies per capability, and the gate."""

    def __init__(self, threshold: float = 0.3, replies: dict[str, Reply] | None = None):
        self.threshold = threshold
        self.replies: dict[str, Reply] = {
            "get_quote": quote,
            "get_gainers": lambda _: DomainOutput(status="success", explanation="Altas: VALE3 +3%"),
            "send_message": lambda i: DomainOutput(
                status="success", explanation="Enviado.", result=i.parameters
            ),
            "start_chat": coach,
            "chat_reply": coach,
            **(replies or {}),
        }
        self.calls: list[ExecutionIntent] = []

    def gate_blocks(self, intent: ExecutionIntent) -> bool:
        return intent.confidence < self.threshold

    async def dispatch(
        self, intent: ExecutionIntent, step: ExecutionStep | None = None, call: CallContext | None = None
    ) -> DomainOutput:
        self.calls.append(intent)
        return self.replies[intent.capability](intent)


@pytest.fixture
def domains() -> FakeDomains:
    return FakeDomains()


def conversation_graph(
    adapter: IntentAdapter, catalog: Catalog, domains: FakeDomains, planner: RunPlanner | None = None
) -> ConversationGraph:
    """The graph as the gateway builds it: one run loop, given the (fake) orchestrator's step
    runner, handed to the graph (deterministic planning unless ``planner`` is given)."""
    run_loop = RunController(lambda: catalog, domains.dispatch, planner=planner or DeterministicRunPlanner())
    return ConversationGraph(
        adapter=adapter, catalog=lambda: catalog, orchestrator=domains, controller=run_loop
    )


def speaker(graph: ConversationGraph, session: str = "s1") -> Callable[[str], Awaitable[TurnState]]:
    """One session over ``graph``, as the gateway drives it: each call is the person's next
    message, and returns the state the turn left."""
    engine: GraphEngine[TurnState] = GraphEngine(graph.definition(), InMemoryCheckpointer())
    runs = itertools.count(1)

    async def say(text: str) -> TurnState:
        entry = EntryRequest(session_id=session, input_text=text)
        run_id = f"run-{next(runs)}"
        try:
            return (await engine.resume(session, graph.message(entry, run_id))).state
        except SessionNotFoundError:
            return (await engine.run(graph.first_state(entry, run_id), session_id=session)).state

    return say


#: A domain whose change asks for a yes (cancel_visit) and whose goal names values to ask about.
VISITS: dict[str, Any] = {
    "domain": "visits",
    "version": "1",
    "description": "Visitas técnicas agendadas",
    "capabilities": [
        {
            "name": "cancel_visit",
            "description": {"pt": "Cancela uma visita técnica", "en": "Cancel a technician's visit"},
            "parameters": {
                "type": "object",
                "properties": {"day_text": {"type": "string"}, "technician_text": {"type": "string"}},
            },
            "metadata": {"policy": {"confirm": True}},
        },
        {
            "name": "list_visits",
            "description": {"pt": "Lista as visitas", "en": "List the visits"},
            "parameters": {"type": "object", "properties": {}},
        },
    ],
    "goals": [
        {
            "goal": "CANCEL_VISIT",
            "description": {"pt": "Cancelar uma visita técnica", "en": "Cancel a technician's visit"},
            "capabilities": ["cancel_visit"],
            "entities_schema": {
                "day_text": {"type": "date", "description": {"pt": "o dia", "en": "the day"}},
                "technician_text": {
                    "type": "string",
                    "description": {"pt": "o técnico", "en": "the technician"},
                    "lookup": [{"value": "Carlos"}, {"value": "Marta"}],
                },
            },
            "examples": [
                example("cancela a visita de sexta", day_text="sexta"),
                example("quero cancelar a visita do Carlos", technician_text="Carlos"),
                example("desmarca a visita técnica de amanhã", day_text="amanhã"),
                example("cancel the technician visit on friday", day_text="friday"),
                example("cancel Marta's visit", technician_text="Marta"),
                example("cancelar visita"),
                example("cancel a visit"),
            ],
        },
        {
            "goal": "LIST_VISITS",
            "description": {"pt": "Ver as visitas agendadas", "en": "See the scheduled visits"},
            "capabilities": ["list_visits"],
            "examples": [
                example("quais visitas tenho agendadas?"),
                example("tenho alguma visita técnica marcada?"),
                example("lista minhas visitas"),
                example("what visits do I have?"),
                example("show my scheduled visits"),
            ],
        },
    ],
}


@pytest.fixture(scope="module")
def visits_catalog() -> Catalog:
    return Catalog([validate_manifest(VISITS)])


@pytest.fixture(scope="module")
def visits_adapter(visits_catalog: Catalog) -> EmbeddedIntentAdapter:
    return EmbeddedIntentAdapter(visits_catalog, use_embeddings=False)


@pytest.fixture
def visits_chat(visits_adapter: EmbeddedIntentAdapter, visits_catalog: Catalog) -> Conversation:
    """A conversation over :data:`VISITS` whose visits are cancelled at the first call."""
    from tests.dialogue.test_graph import Conversation  # test_graph imports this conftest

    cancelled = {"cancel_visit": lambda i: DomainOutput(status="success", explanation="Cancelada.")}
    return Conversation(visits_adapter, visits_catalog, FakeDomains(threshold=0.0, replies=cancelled))
