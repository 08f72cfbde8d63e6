"""What docs/domains.md answers a domain author ("Annotating examples", free-text cues,
identifiers made of digits, ordinary words in lookup tables; round 3's questions: ranges and two
dates, the clock, lookup words, enum synonyms, free text, money, pointing back, defaults in the
approval, the manifest's top level; round 4's: the bench's today, two lookup entities, boolean
synonyms, codes, counts, weeks, colons, follow-ups, results, the key store, replans, verbs),
stated against the goal's own extractor and classifier and, for conversations, the dialogue
graph. Each test names the doc's claim."""

from __future__ import annotations

from datetime import datetime
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

import pytest
from pydantic import ValidationError

from bench.understanding.round3.domains import car_rental, gym, pharmacy
from bench.understanding.round4.domains import cinema, home_services, library
from bench.understanding_eval import REFERENCE, SETS, Clocks
from domains.notifier.service import build as build_notifier
from gateway.admin.domains import RegisterDomain
from intent.embedded import EmbeddedIntentAdapter
from intent.entities import GoalEntityExtractor
from intent.typed import RECOGNIZER, Clock
from sdk.idempotency import IdempotencySettings
from sdk.service import DomainService, clarify, fail, option
from shared.catalog import Catalog
from shared.entities import EntityValue
from shared.manifest import Goal, ManifestInvalid, validate_manifest
from shared.models import (
    ApprovalQuestion,
    ClarificationQuestion,
    DomainOutput,
    ExecutionIntent,
    SlotQuestion,
)
from shared.status import RunStatus
from tests.conftest import example
from tests.dialogue.conftest import FakeDomains, Reply
from tests.dialogue.test_graph import Conversation
from tests.domains.conftest import outbox_settings


def booking(*examples: dict[str, Any]) -> GoalEntityExtractor:
    return GoalEntityExtractor(
        Goal.model_validate(
            {
                "goal": "BOOK_TABLE",
                "description": "Reservar uma mesa",
                "capabilities": ["book"],
                "entities_schema": {
                    "party_size": {"type": "number"},
                    "day": {"type": "date"},
                    "time": {"type": "time"},
                },
                "examples": list(examples),
            }
        )
    )


AS_WRITTEN = booking(
    example("mesa pra 2 pessoas sexta às 20h", party_size="2 pessoas", day="sexta", time="às 20h"),
    example("reserva para 4 pessoas amanhã às 19h", party_size="4 pessoas", day="amanhã", time="às 19h"),
)
AS_VALUES = booking(
    example("mesa pra 2 pessoas sexta às 20h", party_size=2, day="2026-03-13", time="20:00"),
    example("reserva para 4 pessoas amanhã às 19h", party_size=4, day="2026-03-11", time="19:00"),
)


def test_a_typed_annotation_teaches_only_the_words_around_it_when_found_in_the_text() -> None:
    """Typed entities are read by their form; an annotation teaches the words beside it, and the
    annotation's own words ("pessoas" in "2 pessoas") count on both sides. A value that is not
    in the text ("2026-03-13", "20:00") teaches nothing, silently."""
    party = AS_WRITTEN._typed_contexts["party_size"]
    assert party.left["pessoas"] == 2 and party.right["pessoas"] == 2
    assert sum(AS_VALUES._typed_contexts["day"].left.values()) == 0
    assert sum(AS_VALUES._typed_contexts["time"].left.values()) == 0
    # "2" is in the text: the number annotated as a value still finds its neighbours
    assert AS_VALUES._typed_contexts["party_size"].right["pessoas"] == 2


@pytest.mark.parametrize("extractor", [AS_WRITTEN, AS_VALUES], ids=["as written", "as values"])
def test_either_annotation_reads_the_same_values(extractor: GoalEntityExtractor) -> None:
    found = extractor.extract("mesa pra 3 pessoas dia 20 às 21h", language="pt")
    assert (
        found["party_size"] == 3
        and isinstance(found["day"], str)
        and found["day"].endswith("-20")
        and found["time"] == "21:00"
    )


def tickets(priority_annotation: str) -> GoalEntityExtractor:
    return GoalEntityExtractor(
        Goal.model_validate(
            {
                "goal": "OPEN_TICKET",
                "description": "Abrir um chamado",
                "capabilities": ["open"],
                "entities_schema": {
                    "problem_text": {"type": "string", "required": True},
                    "priority": {
                        "type": "enum",
                        "values": ["LOW", "URGENT"],
                        "synonyms": {"URGENT": ["urgente", "urgent"], "LOW": ["baixa prioridade"]},
                    },
                },
                "examples": [
                    example(
                        "abre um chamado: a impressora não imprime", problem_text="a impressora não imprime"
                    ),
                    example(
                        "abre um chamado urgente: o servidor de email caiu",
                        problem_text="o servidor de email caiu",
                        priority=priority_annotation,
                    ),
                    example("open a ticket: my laptop won't boot", problem_text="my laptop won't boot"),
                    example("registra um chamado sobre o wifi da sala", problem_text="o wifi da sala"),
                ],
            }
        )
    )


def test_an_enum_annotation_teaches_nothing_either_way() -> None:
    """A (non-role) enum is read from its values and synonyms only: the annotation, value or
    span, changes nothing."""
    text = "abre um chamado urgente, o sistema de vendas caiu"
    assert tickets("URGENT").extract(text) == tickets("urgente").extract(text)


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        ("abre um chamado urgente, o sistema de vendas caiu", "o sistema de vendas caiu"),
        ("abre um chamado porque a impressora não imprime", "a impressora não imprime"),
        ("o sistema de vendas caiu. Registra um chamado?", "o sistema de vendas caiu"),
        # an enum's word after the cue stays in the free text (the enum is filled as well)
        ("abre um chamado: urgente, o sistema de vendas caiu", "urgente, o sistema de vendas caiu"),
        # the problem first and the request after a comma, or no cue at all: no value (asked)
        ("o sistema de vendas caiu, abre um chamado", None),
        ("abre um chamado o wifi não funciona", None),
    ],
)
def test_free_text_cues(text: str, problem: str | None) -> None:
    found = tickets("URGENT").extract(text)
    assert found.get("problem_text") == problem
    if "urgente" in text:
        assert found["priority"] == "URGENT"


STATUS = GoalEntityExtractor(
    Goal.model_validate(
        {
            "goal": "TICKET_STATUS",
            "description": "Ver um chamado",
            "capabilities": ["status"],
            "entities_schema": {"ticket_number_text": {"type": "string", "required": True}},
            "examples": [
                example("qual o status do chamado 30117?", ticket_number_text="30117"),
                example("como está o chamado 30245", ticket_number_text="30245"),
                example("status of ticket 30388", ticket_number_text="30388"),
            ],
        }
    )
)


@pytest.mark.parametrize(
    ("text", "number"),
    [
        ("status do chamado 30999", "30999"),
        ("chamado #30117 como está", "30117"),
        ("status do chamado 4821", "4821"),  # fewer digits than annotated: still a number, kept
        ("status do chamado BK4821", None),  # letters with the digits: not this entity's shape
        ("status do chamado 1.432,77", None),  # an amount is no identifier of 5+ digits
    ],
)
def test_identifiers_made_of_digits(text: str, number: str | None) -> None:
    assert STATUS.extract(text).get("ticket_number_text") == number


def test_a_lookup_alias_belongs_to_its_goal_only() -> None:
    """An ordinary word in one goal's table ("internet") never fills another goal's entity; the
    classifier decides the goal from the whole message."""
    bills = {
        "domain": "bills",
        "version": "1",
        "description": "Contas",
        "capabilities": [{"name": "pay_bill", "description": "Paga uma conta"}],
        "goals": [
            {
                "goal": "PAY_BILL",
                "description": "Pagar uma conta",
                "capabilities": ["pay_bill"],
                "entities_schema": {
                    "biller_text": {
                        "type": "string",
                        "lookup": [
                            {"value": "Vivo Fibra", "aliases": ["internet"]},
                            {"value": "Enel", "aliases": ["luz"]},
                        ],
                    }
                },
                "examples": [
                    example("paga a conta de luz", biller_text="luz"),
                    example("quero pagar a internet", biller_text="internet"),
                    example("pagar a conta da Enel", biller_text="Enel"),
                ],
            }
        ],
    }
    helpdesk = {
        "domain": "helpdesk",
        "version": "1",
        "description": "Suporte",
        "capabilities": [{"name": "open_ticket", "description": "Abre um chamado"}],
        "goals": [
            {
                "goal": "OPEN_TICKET",
                "description": "Abrir um chamado no suporte",
                "capabilities": ["open_ticket"],
                "entities_schema": {"problem_text": {"type": "string"}},
                "examples": [
                    example(
                        "abre um chamado: a impressora não imprime", problem_text="a impressora não imprime"
                    ),
                    example("abre um chamado: o wifi da sala caiu", problem_text="o wifi da sala caiu"),
                    example("preciso de suporte: o email não carrega", problem_text="o email não carrega"),
                ],
            }
        ],
    }
    adapter = EmbeddedIntentAdapter(
        Catalog([validate_manifest(bills), validate_manifest(helpdesk)]), use_embeddings=False
    )
    ticket = adapter.parse_sync("abre um chamado: minha internet caiu")
    assert (ticket.goal, ticket.entities) == ("OPEN_TICKET", {"problem_text": "minha internet caiu"})
    bill = adapter.parse_sync("paga a internet")
    assert (bill.goal, bill.entities) == ("PAY_BILL", {"biller_text": "internet"})


def test_a_phrasing_word_inside_an_annotated_value_is_phrasing_no_more() -> None:
    """ "abre" inside a value ("o email não abre") makes it a value word: "abre um chamado:" is no
    longer the request's own words, so its colon is no cue."""

    def extractor(value: str) -> GoalEntityExtractor:
        return GoalEntityExtractor(
            Goal.model_validate(
                {
                    "goal": "OPEN_TICKET",
                    "description": "Abrir um chamado",
                    "capabilities": ["open"],
                    "entities_schema": {"problem_text": {"type": "string"}},
                    "examples": [
                        example(
                            "abre um chamado: a impressora não imprime",
                            problem_text="a impressora não imprime",
                        ),
                        example(f"preciso de suporte: {value}", problem_text=value),
                    ],
                }
            )
        )

    text = "abre um chamado: o monitor não liga"
    assert extractor("o email não carrega").extract(text) == {"problem_text": "o monitor não liga"}
    assert extractor("o email não abre").extract(text) == {}


def test_the_word_before_an_annotated_value_is_a_cue() -> None:
    """An example whose value follows the request with no mark ("abre um chamado o monitor não
    liga") teaches "chamado" as a cue: the same shape is read, and what follows it is the value,
    a lead-in ("porque") included."""
    taught = GoalEntityExtractor(
        Goal.model_validate(
            {
                "goal": "OPEN_TICKET",
                "description": "Abrir um chamado",
                "capabilities": ["open"],
                "entities_schema": {"problem_text": {"type": "string", "required": True}},
                "examples": [
                    example(
                        "abre um chamado: a impressora não imprime", problem_text="a impressora não imprime"
                    ),
                    example("abre um chamado o monitor não liga", problem_text="o monitor não liga"),
                ],
            }
        )
    )
    assert taught.extract("abre um chamado o wifi não funciona") == {"problem_text": "o wifi não funciona"}
    assert taught.extract("abre um chamado porque a vpn caiu") == {"problem_text": "porque a vpn caiu"}


@pytest.mark.parametrize(("annotated", "read"), [("electricity", None), ("electricity bill", "bill")])
def test_a_carrier_noun_inside_annotated_values_becomes_a_value(annotated: str, read: str | None) -> None:
    """Annotate the name, not the noun that carries it: "electricity bill" makes "bill" a word of
    the entity, and "pay my bill please" names a biller "bill"."""
    extractor = GoalEntityExtractor(
        Goal.model_validate(
            {
                "goal": "PAY_BILL",
                "description": "Pay a bill",
                "capabilities": ["pay"],
                "entities_schema": {
                    "biller_text": {
                        "type": "string",
                        "lookup": [{"value": "Enel", "aliases": ["electricity"]}],
                    }
                },
                "examples": [
                    example("pay my electricity bill", biller_text=annotated),
                    example("pay the Enel bill", biller_text="Enel"),
                    "pay a bill",
                ],
            }
        )
    )
    assert extractor.extract("pay my bill please", language="en").get("biller_text") == read


@pytest.mark.parametrize(
    ("want", "have", "read"),
    [("BRL", "USD", {"want": "USD", "have": "BRL"}), ("reais", "dólares", {"have": "USD", "want": "BRL"})],
)
def test_a_role_annotated_with_its_value_teaches_its_cue(want: str, have: str, read: dict[str, str]) -> None:
    """Roles (enums with the same values) learn the word before each annotated mention only when
    the annotation is the value; with the words, mentions fill the roles in declared order."""
    currencies = {
        "type": "enum",
        "values": ["USD", "BRL"],
        "synonyms": {"USD": ["dólares"], "BRL": ["reais"]},
    }
    extractor = GoalEntityExtractor(
        Goal.model_validate(
            {
                "goal": "CONVERT",
                "description": "Converter moedas",
                "capabilities": ["convert"],
                "entities_schema": {"have": currencies, "want": currencies},
                "examples": [example("quantos reais dão 10 dólares", want=want, have=have)],
            }
        )
    )
    assert extractor.extract("quantos dólares dão 50 reais") == read


# ---------------------------------------------------------------- round 3's questions
# Read against round 3's frozen domains (bench/understanding/round3/domains): what their author
# asked the docs, answered by what the platform does with their manifests.

ZONE = "America/Sao_Paulo"
#: Tuesday, the reference day of the understanding rounds
TUESDAY = datetime(2026, 3, 10, 10, 0, tzinfo=ZoneInfo(ZONE))


def at(hour: int) -> dict[str, Any]:
    return {"now": TUESDAY.replace(hour=hour), "time_zone": ZONE}


@pytest.fixture(scope="module")
def round3() -> EmbeddedIntentAdapter:
    return EmbeddedIntentAdapter(
        Catalog([m.service.manifest_with_lookups() for m in (car_rental, gym, pharmacy)]),
        use_embeddings=False,
    )


@pytest.fixture(scope="module")
def with_notifier(tmp_path_factory: pytest.TempPathFactory) -> EmbeddedIntentAdapter:
    outbox = tmp_path_factory.mktemp("outbox") / "outbox.sqlite3"
    notifier = build_notifier(outbox_settings(outbox)).service.manifest()
    return EmbeddedIntentAdapter(
        Catalog([notifier, gym.service.manifest_with_lookups()]), use_embeddings=False
    )


def days(adapter: EmbeddedIntentAdapter, text: str) -> tuple[EntityValue | None, EntityValue | None]:
    read = adapter.parse_sync(text, context=at(10))
    assert read.goal == "BOOK_CAR", read.notes
    return read.entities.get("pickup_day"), read.entities.get("return_day")


@pytest.mark.parametrize(
    ("text", "pickup", "back"),
    [
        ("quero alugar um SUV no Rio de sexta a domingo", "2026-03-13", "2026-03-15"),
        ("rent an SUV in Rio from the 20th to the 23rd", "2026-03-20", "2026-03-23"),
        ("quero alugar um SUV no Rio do dia 28 ao dia 2", "2026-03-28", "2026-04-02"),
        # a range of weekdays that contains today is next week's: its start is never past
        ("quero alugar um SUV no Rio de sábado a quarta", "2026-03-14", "2026-03-18"),
        ("rent an SUV in Rio from Saturday to Wednesday", "2026-03-14", "2026-03-18"),
        ("quero alugar um SUV no Rio de segunda a quarta", "2026-03-16", "2026-03-18"),
        # an end that names only the day of the month takes the other end's month
        ("quero alugar um SUV no Rio do dia 20 ao 22", "2026-03-20", "2026-03-22"),
        ("quero alugar um SUV no Rio de 20 a 22 de março", "2026-03-20", "2026-03-22"),
        ("quero alugar um SUV no Rio de 28 a 2 de abril", "2026-03-28", "2026-04-02"),
    ],
)
def test_a_range_of_days(round3: EmbeddedIntentAdapter, text: str, pickup: str, back: str | None) -> None:
    assert days(round3, text) == (pickup, back)


@pytest.mark.parametrize(
    ("text", "pickup", "back"),
    [
        ("aluga um carro econômico no Rio, retiro amanhã e devolvo sábado", "2026-03-11", "2026-03-14"),
        ("quero alugar um SUV no Rio, retiro sexta e devolvo domingo", "2026-03-13", "2026-03-15"),
        ("rent an SUV in Rio, return it Sunday and pick it up Friday", "2026-03-13", "2026-03-15"),
        # the other way round in Portuguese: read in the order said
        ("quero alugar um SUV no Rio, devolvo domingo e retiro sexta", "2026-03-15", "2026-03-13"),
    ],
)
def test_two_dates_of_one_goal(round3: EmbeddedIntentAdapter, text: str, pickup: str, back: str) -> None:
    """Each date entity takes the day whose neighbouring words the examples put around it; on a
    tie, the first said."""
    assert days(round3, text) == (pickup, back)


def test_the_names_of_two_dates_do_not_matter() -> None:
    """``from_``/``to_`` cues belong to enum roles: renamed, the pick-up and the return read alike."""
    manifest = car_rental.service.manifest_with_lookups().model_dump(mode="json", by_alias=True)
    goal = next(g for g in manifest["goals"] if g["goal"] == "BOOK_CAR")
    renamed = {"pickup_day": "from_day", "return_day": "to_day"}
    schema = goal["entities_schema"]
    goal["entities_schema"] = {renamed.get(k, k): v for k, v in schema.items()}
    for ex in goal["examples"]:
        ex["entities"] = {renamed.get(k, k): v for k, v in ex["entities"].items()}
    clock = Clock.of(at(10))
    text = "quero alugar um SUV no Rio, devolvo domingo e retiro sexta"
    read = GoalEntityExtractor(Goal.model_validate(goal)).extract(text, clock=clock, language="pt")
    assert (read["from_day"], read["to_day"]) == ("2026-03-15", "2026-03-13")


@pytest.mark.parametrize(
    ("text", "hour", "time"),
    [
        ("me inscreve no Yoga às 8", 10, "20:00"),
        ("me inscreve no Yoga às 8", 7, "08:00"),
        ("me inscreve no Yoga às 8", 21, "08:00"),
        # with a day said, the morning's, unless that hour of today is past
        ("me inscreve no Yoga amanhã às 8", 10, "08:00"),
        ("me inscreve no Yoga hoje às 8", 10, "20:00"),
        ("me inscreve no Yoga hoje às 8", 7, "08:00"),
        ("book me into Yoga tomorrow at 8", 21, "08:00"),
        # the 24-hour form is the hour written, past or not
        ("me inscreve no Yoga hoje 8h", 10, "08:00"),
    ],
)
def test_a_bare_hour_against_the_clock(
    round3: EmbeddedIntentAdapter, text: str, hour: int, time: str
) -> None:
    read = round3.parse_sync(text, context=at(hour))
    assert (read.goal, read.entities["time"]) == ("BOOK_CLASS", time)


@pytest.mark.parametrize(
    ("text", "medicine"),
    [
        ("renova minha receita de glifage pra amanhã", "glifage"),
        ("renew my metformin prescription for tomorrow", "metformin"),
        ("renova minha receita de glifaje pra amanhã", "glifaje"),  # a typo, as written
        ("renova a receita do remedio de pressao pra amanha", "remedio de pressao"),  # whole alias
        ("renova minha receita de pressão pra amanhã", "pressão"),  # part of one: a name
        ("renova minha receita do remédio pra amanhã", None),  # part of one: nothing
        # a name the table does not list still reaches the domain, which says what it knows
        ("renova minha receita de Rivotril pra amanhã", "Rivotril"),
        ("renew my Ozempic prescription for tomorrow", "Ozempic"),
    ],
)
def test_a_lookup_entity_gets_the_words(
    round3: EmbeddedIntentAdapter, text: str, medicine: str | None
) -> None:
    """The table's words are found; the entity gets the person's, never the table's ``value``."""
    read = round3.parse_sync(text, context=at(10))
    assert read.goal == "REFILL_PRESCRIPTION"
    assert read.entities.get("medicine_text") == medicine


@pytest.mark.parametrize("text", ["qual remédio é bom pra dor de cabeça?", "blood pressure pills"])
def test_an_alias_is_no_evidence_for_its_goal(round3: EmbeddedIntentAdapter, text: str) -> None:
    assert round3.parse_sync(text, context=at(10)).goal is None


def test_every_required_value_said_one_from_the_table_is_the_goal(round3: EmbeddedIntentAdapter) -> None:
    read = round3.parse_sync("renew my blood pressure pills for tomorrow", context=at(10))
    assert (read.goal, read.entities) == (
        "REFILL_PRESCRIPTION",
        {"pickup_day": "2026-03-11", "medicine_text": "blood pressure pills"},
    )


CAR_CLASS = GoalEntityExtractor(
    Goal.model_validate(
        {
            "goal": "RENT",
            "description": "Alugar um carro",
            "capabilities": ["rent"],
            "entities_schema": {
                "car_class": {
                    "type": "enum",
                    "values": ["ECONOMY", "SUV", "VAN"],
                    "synonyms": {
                        "ECONOMY": ["econômico", "barato"],
                        "SUV": ["suv", "utilitário"],
                        "VAN": ["van", "minivan", "vans"],
                    },
                }
            },
            "examples": ["quero alugar um carro", "aluga um carro pra mim"],
        }
    )
)


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("aluga um carro economico", "ECONOMY"),  # accents folded
        ("aluga um carro ECONÔMICO", "ECONOMY"),  # case folded
        ("aluga um utilitaro", "SUV"),  # one typo in a word of five letters or more
        ("aluga dois econômicos", "ECONOMY"),  # a plural as that typo
        ("aluga duas minivans", "VAN"),
        ("aluga um SUVs", None),  # under five letters: exact only
        ("aluga duas vans", "VAN"),  # ... unless listed
        ("aluga um baratinho", None),  # no diminutives
    ],
)
def test_enum_synonyms_fold_and_forgive_one_typo(text: str, value: str | None) -> None:
    assert CAR_CLASS.extract(text, language="pt").get("car_class") == value


@pytest.mark.parametrize(
    ("text", "amount"),
    [
        ("tem carro até 250 reais a diária?", {"amount": 250, "currency": "BRL"}),
        ("how much is an SUV per day, under $60?", {"amount": 60, "currency": "USD"}),
    ],
)
def test_money_is_an_amount_in_the_currency_said(
    round3: EmbeddedIntentAdapter, text: str, amount: dict[str, Any]
) -> None:
    read = round3.parse_sync(text, context=at(10))
    assert (read.goal, read.entities["budget"]) == ("QUOTE_PRICE", amount)


def test_typed_words_stay_in_free_text(with_notifier: EmbeddedIntentAdapter) -> None:
    for text, message in [
        ("manda no telegram: reunião amanhã às 15h", "reunião amanhã às 15h"),
        ("send on telegram: dentist tomorrow at 3pm", "dentist tomorrow at 3pm"),
        ("manda no telegram: comprar pão", "comprar pão"),
    ]:
        read = with_notifier.parse_sync(text, context=at(10))
        assert (read.goal, read.entities) == ("SEND_MESSAGE", {"message": message})


def test_free_text_after_a_colon_is_the_message_whatever_goal_it_reads_as(
    with_notifier: EmbeddedIntentAdapter,
) -> None:
    """The words before the colon ask to send; what follows is the message, though it reads as
    the gym's class booking."""
    en = with_notifier.parse_sync("send on telegram: yoga class tomorrow at 6:30pm", context=at(10))
    assert (en.goal, en.entities) == ("SEND_MESSAGE", {"message": "yoga class tomorrow at 6:30pm"})


def refill(intent: ExecutionIntent) -> DomainOutput:
    """The pharmacy's own capability (a sync handler: its answer, never an awaitable)."""
    answer = pharmacy.refill_prescription(intent)
    assert isinstance(answer, DomainOutput)
    return answer


def round3_chat(*, quantity_default: int | None = None, refill_with: Reply = refill) -> Conversation:
    """A conversation over round 3's gym and pharmacy, the pharmacy's own handler answering
    (``refill_with``: another answer to a refill)."""
    pharmacy_manifest = pharmacy.service.manifest_with_lookups().model_dump(mode="json", by_alias=True)
    if quantity_default is not None:
        goal = next(g for g in pharmacy_manifest["goals"] if g["goal"] == "REFILL_PRESCRIPTION")
        goal["entities_schema"]["quantity"]["default"] = quantity_default
    catalog = Catalog([validate_manifest(pharmacy_manifest), gym.service.manifest_with_lookups()])
    listed = DomainOutput(
        status="success",
        explanation="Quinta: Yoga 18h30.",
        result={"classes": [{"class": "Yoga", "day": "2026-03-12", "time": "18:30"}]},
    )
    replies = {
        "refill_prescription": refill_with,
        "list_my_classes": lambda _: listed,
        "book_class": lambda _: DomainOutput(status="success", explanation="Inscrito."),
        "cancel_class": lambda _: DomainOutput(status="success", explanation="Cancelada."),
    }
    return Conversation(
        EmbeddedIntentAdapter(catalog, use_embeddings=False),
        catalog,
        FakeDomains(threshold=0.0, replies=replies),
    )


async def test_pointing_back_carries_the_last_requests_entities_not_its_result() -> None:
    booked = round3_chat()
    await booked.say("me inscreve no Yoga de quinta às 18h30")
    await booked.say("sim")
    cancel = await booked.say("cancela essa")
    assert isinstance(cancel.state.question, ApprovalQuestion), cancel.state.turn.answer
    assert cancel.state.turn.intent is not None
    assert cancel.state.turn.intent.entities == {"class_text": "Yoga"}

    listed = round3_chat()
    await listed.say("minhas aulas de quinta")
    asked = await listed.say("cancela essa")
    assert isinstance(asked.state.question, SlotQuestion)
    assert asked.state.turn.answer == "Para continuar, preciso saber: a aula."


async def test_a_default_is_shown_in_the_approval_named_by_its_entity() -> None:
    chat = round3_chat(quantity_default=1)
    asked = await chat.say("renova minha receita de Losartana pra amanhã")
    assert isinstance(asked.state.question, ApprovalQuestion), asked.state.turn.answer
    assert "(o dia da retirada: “" in asked.state.turn.answer  # tomorrow, on the real clock
    assert asked.state.turn.answer.endswith(
        "o remédio: “Losartana”, quantas caixas: “1”). Confirma? (sim/não)"
    )
    done = await chat.say("sim")
    assert done.state.turn.status == RunStatus.COMPLETED, done.state.turn.answer
    assert chat.domains.calls[-1].parameters["quantity"] == 1


async def test_an_option_picked_after_the_yes_runs_under_that_yes() -> None:
    """The domain is called after the yes; its own question comes then, and the option picked
    runs at once, with no approval of its own."""

    def dose(intent: ExecutionIntent) -> DomainOutput:
        if intent.parameters["medicine_text"] == "Losartana":
            options = [option("Losartana 50 mg", "50 mg"), option("Losartana 100 mg", "100 mg")]
            return clarify("Qual dosagem?", options, param="medicine_text")
        return DomainOutput(status="success", explanation=f"Pedido: {intent.parameters['medicine_text']}.")

    chat = round3_chat(refill_with=dose)
    asked = await chat.say("renova minha receita de Losartana pra amanhã")
    assert isinstance(asked.state.question, ApprovalQuestion) and "“Losartana”" in asked.state.turn.answer
    which = await chat.say("sim")
    assert isinstance(which.state.question, ClarificationQuestion), which.state.turn.answer
    picked = await chat.say("2")
    assert picked.state.turn.status == RunStatus.COMPLETED, picked.state.turn.answer
    assert picked.state.turn.answer == "Pedido: Losartana 100 mg."
    assert [c.parameters["medicine_text"] for c in chat.domains.calls] == ["Losartana", "Losartana 100 mg"]


def test_the_manifest_top_level() -> None:
    base: dict[str, Any] = {
        "domain": "car_rental",
        "version": "0.1.0",
        "description": {"pt": "Aluguel de carros", "en": "Car rental"},
        "capabilities": [],
    }
    plain = validate_manifest(base)
    assert (plain.confidence_gate, plain.goals) == (True, [])

    def errors(**patch: Any) -> list[dict[str, str]]:
        with pytest.raises(ManifestInvalid) as err:
            validate_manifest({k: v for k, v in {**base, **patch}.items() if v is not None})
        return err.value.errors

    assert errors(name="car_rental") == [
        {"path": "$", "message": "Additional properties are not allowed ('name' was unexpected)"}
    ]
    assert errors(version=1) == [{"path": "version", "message": "1 is not of type 'string'"}]
    assert errors(domain="CarRental")[0]["path"] == "domain"
    assert errors(description=None) == [{"path": "$", "message": "'description' is a required property"}]
    assert errors(confidence_gate="no")[0]["path"] == "confidence_gate"
    service = DomainService("car_rental", "0.1.0", base["description"], confidence_gate=False)
    assert service.manifest().confidence_gate is False


@pytest.mark.parametrize(
    "body",
    [
        {"name": "Car", "base_url": "http://127.0.0.1:8132"},
        {"name": "c" * 65, "base_url": "http://127.0.0.1:8132"},
        {"name": "car_rental", "base_url": "127.0.0.1:8132"},
        {"name": "car_rental", "base_url": "http://127.0.0.1:8132", "domain": "car_rental"},
    ],
)
def test_the_registration_body(body: dict[str, Any]) -> None:
    RegisterDomain.model_validate({"name": "car_rental", "base_url": "http://127.0.0.1:8132"})
    with pytest.raises(ValidationError):
        RegisterDomain.model_validate(body)


# ---------------------------------------------------------------- round 4's questions
# Read against round 4's frozen domains (bench/understanding/round4/domains): cinema, library,
# home_services, on the same reference Tuesday.


@pytest.fixture(scope="module")
def round4() -> EmbeddedIntentAdapter:
    return EmbeddedIntentAdapter(
        Catalog([m.service.manifest_with_lookups() for m in (cinema, library, home_services)]),
        use_embeddings=False,
    )


@pytest.fixture(scope="module")
def round4_with_notifier(tmp_path_factory: pytest.TempPathFactory) -> EmbeddedIntentAdapter:
    outbox = tmp_path_factory.mktemp("outbox") / "outbox.sqlite3"
    notifier = build_notifier(outbox_settings(outbox)).service.manifest()
    manifests = [m.service.manifest_with_lookups() for m in (cinema, library, home_services)]
    return EmbeddedIntentAdapter(Catalog([notifier, *manifests]), use_embeddings=False)


def read4(adapter: EmbeddedIntentAdapter, text: str) -> tuple[str | None, dict[str, Any]]:
    read = adapter.parse_sync(text, context=at(10))
    return read.goal, read.entities


def test_the_bench_reads_the_gateways_days_again_on_its_reference_day() -> None:
    """Gap 1: the gateway reads "sexta" on its real clock; the bench maps that day back to the one
    the same words name on the set's reference Tuesday before comparing."""
    friday = datetime(2026, 11, 27, 12, 0, tzinfo=ZoneInfo(ZONE))
    clocks = Clocks.of([("compra 2 ingressos pro Duna sexta às 21h45", friday)], "pt")
    assert clocks.reference("2026-12-04") == "2026-03-13"
    assert clocks.reference("2026-12-04T21:45:00-03:00") == "2026-03-13T21:45:00-03:00"
    assert REFERENCE.isoformat() == "2026-03-10T09:00:00-03:00"
    # the set's domains are told the gateway's today (BENCH_TODAY), so a past day is past to both
    assert SETS["round4"].today_is_the_gateways


@pytest.mark.parametrize(
    ("text", "entities"),
    [
        ("vocês têm livros do Machado?", {"author_text": "Machado"}),
        ("books by Machado", {"author_text": "Machado"}),
        (
            "procura Dom Casmurro do Machado no catálogo",
            {"title_text": "Dom Casmurro", "author_text": "Machado"},
        ),
        (
            "do you have Dom Casmurro by Machado de Assis?",
            {"title_text": "Dom Casmurro", "author_text": "Machado de Assis"},
        ),
        # only the authors' table lists the name: an author, though the examples put titles
        # after "têm", "have" and "search the catalog for"
        ("tem o Machado?", {"author_text": "Machado"}),
        ("tem Machado de Assis?", {"author_text": "Machado de Assis"}),
        ("search the catalog for jane austen", {"author_text": "jane austen"}),
        ("search the catalog for austen", {"author_text": "austen"}),
        ("do you have Rowling?", {"author_text": "Rowling"}),
        ("search the catalog for pride and prejudice", {"title_text": "pride and prejudice"}),
        # neither table lists it: the words around it decide
        ("vocês têm livros do Tolkien?", {"author_text": "Tolkien"}),
        ("tem O Hobbit?", {"title_text": "Hobbit"}),
        # a title's alias swallows the author's first name, the rest is left: poor, documented
        ("vocês têm Dom Casmurro de Machado de Assis?", {"title_text": "Dom Casmurro de Machado"}),
    ],
)
def test_two_lookup_entities_of_one_goal(
    round4: EmbeddedIntentAdapter, text: str, entities: dict[str, str]
) -> None:
    """Gap 2: each span fills one entity: the one whose table lists it when only one does,
    otherwise the one whose neighbouring words the examples taught."""
    assert read4(round4, text) == ("SEARCH_CATALOG", entities)


@pytest.mark.parametrize(
    ("text", "read"),
    [
        # a boolean's synonyms alone are no request
        ("vencidos", (None, {})),
        ("em atraso", (None, {})),
        ("vou me atrasar", (None, {})),
        # once the message is the goal they switch it on
        ("livros vencidos", ("LIST_LOANS", {"overdue": True})),
        ("atrasado", ("LIST_LOANS", {"overdue": True})),  # a word of an example
        ("manda no telegram: vou me atrasar", ("SEND_MESSAGE", {"message": "vou me atrasar"})),
    ],
)
def test_boolean_synonyms_are_no_evidence_for_their_goal(
    round4_with_notifier: EmbeddedIntentAdapter, text: str, read: tuple[str | None, dict[str, Any]]
) -> None:
    """Gap 3: unlike an enum synonym ("faxina" alone is a home-services request)."""
    assert read4(round4_with_notifier, text) == read
    goal, entities = read4(round4_with_notifier, "faxina")
    assert goal in ("PRICE_QUOTE", "SCHEDULE_VISIT") and entities == {"service": "CLEANING"}


@pytest.mark.parametrize(
    ("text", "code"),
    [
        ("quero o reembolso da compra CN4821", "CN4821"),
        ("quero o reembolso da compra #CN4821", "CN4821"),
        ("quero o reembolso da compra cn4821", "cn4821"),  # as written: upper-case it yourself
        # a space or a dash inside the code: its letters and digits joined as written
        ("quero o reembolso da compra cn 4821", "cn4821"),
        ("quero o reembolso da compra CN 4821", "CN4821"),
        ("quero o reembolso da compra CN-4821", "CN4821"),
        ("refund my tickets cn 4821", "cn4821"),
    ],
)
def test_codes_of_letters_and_digits(round4: EmbeddedIntentAdapter, text: str, code: str | None) -> None:
    """Gap 4."""
    goal, entities = read4(round4, text)
    assert (goal, entities.get("purchase_code_text")) == ("REFUND_PURCHASE", code)


@pytest.mark.parametrize(
    "text",
    [
        "quero o reembolso da compra às 10",  # a function word before the digits
        "quero o reembolso da compra cnx 4821",  # more letters than the annotated codes have
        "quero o reembolso da compra cn 4",  # one digit
        "quero o reembolso da compra cn 48,21",  # an amount
        "quero o reembolso do iPhone 15",
    ],
)
def test_letters_beside_digits_that_are_no_code(text: str) -> None:
    refund = Catalog([cinema.service.manifest_with_lookups()]).find_goal("cinema", "REFUND_PURCHASE")
    assert refund is not None
    assert "purchase_code_text" not in GoalEntityExtractor(refund).extract(text, language="pt")


@pytest.mark.parametrize(
    ("text", "tickets"),
    [
        ("compra 2 lugares pro Duna sexta às 21h45", 2),  # "lugares" as in an example
        ("5 seats for Wicked friday 7:30pm", 5),
        ("2 tix for Wicked friday 7:30pm", 2),  # words no example used
        ("compra 5 pro Duna sexta às 21h45", 5),  # no word at all: the goal's only number
        # a times sign glued to the count
        ("compra 2x pro Duna sexta às 21h45", 2),
        ("compra x2 pro Duna sexta às 21h45", 2),
        ("compra 3× pro Duna sexta às 21h45", 3),
    ],
)
def test_a_count_fills_the_goals_only_number(round4: EmbeddedIntentAdapter, text: str, tickets: int) -> None:
    """Gap 5."""
    goal, entities = read4(round4, text)
    assert (goal, entities.get("tickets")) == ("BUY_TICKETS", tickets)


def test_a_times_sign_is_not_part_of_the_name(round4: EmbeddedIntentAdapter) -> None:
    goal, entities = read4(round4, "2x Wicked friday 7:30pm")
    assert (goal, entities["tickets"], entities["movie_text"]) == ("BUY_TICKETS", 2, "Wicked")


@pytest.mark.parametrize(
    ("text", "day"),
    [
        ("what's showing tonight?", "2026-03-10"),
        ("o que passa hoje à noite?", "2026-03-10"),
        # a week is its first day still ahead: this week's is today
        ("what's showing this week?", "2026-03-10"),
        ("quais as sessões dessa semana?", None),
        # a weekend is its Friday
        ("sessões do fim de semana", "2026-03-13"),
    ],
)
def test_parts_of_the_day_and_weeks(round4: EmbeddedIntentAdapter, text: str, day: str | None) -> None:
    """Gap 6."""
    goal, entities = read4(round4, text)
    assert (goal, entities.get("day")) == ("LIST_SESSIONS", day)


@pytest.mark.parametrize(
    ("language", "text", "day"),
    [
        ("pt", "essa semana", "2026-03-10"),
        ("pt", "este mês", "2026-03-10"),
        ("en", "next week", "2026-03-16"),
        ("en", "this weekend", "2026-03-13"),
    ],
)
def test_weeks_as_the_recogniser_reads_them(language: str, text: str, day: str) -> None:
    spans = RECOGNIZER.spans(text, language, time_zone=ZONE, now=TUESDAY)
    assert [(s.type, s.value) for s in spans] == [("date", day)]


@pytest.mark.parametrize(
    ("text", "entities"),
    [
        # the table lists the value with its colon: it is taken whole
        ("tem Grande Sertão: Veredas?", ("SEARCH_CATALOG", {"title_text": "Grande Sertão: Veredas"})),
        ("vocês têm grande sertão veredas?", ("SEARCH_CATALOG", {"title_text": "grande sertão veredas"})),
        (
            "quais as sessões de Duna: Parte Dois amanhã?",
            ("LIST_SESSIONS", {"day": "2026-03-11", "movie_text": "Duna: Parte Dois"}),
        ),
        # no value of the table has these words after the colon: the colon ends the name
        (
            "quais as sessões de Wicked: Parte Dois amanhã?",
            ("LIST_SESSIONS", {"day": "2026-03-11", "movie_text": "Wicked"}),
        ),
        (
            "do you have Pride and Prejudice: the graphic novel?",
            ("SEARCH_CATALOG", {"title_text": "Pride and Prejudice"}),
        ),
    ],
)
def test_a_colon_cuts_a_table_value(
    round4: EmbeddedIntentAdapter, text: str, entities: tuple[str, dict[str, Any]]
) -> None:
    """Gap 7: unless the table lists the value with its colon."""
    assert read4(round4, text) == entities


@pytest.mark.parametrize(
    ("listed", "title"),
    [
        ({"value": "Grande Sertão: Veredas", "aliases": []}, "Grande Sertão: Veredas"),
        ({"value": "Grande Sertão", "aliases": []}, "Grande Sertão"),
    ],
)
def test_a_colon_cuts_a_table_value_the_table_does_not_list_with_it(
    listed: dict[str, Any], title: str
) -> None:
    extractor = GoalEntityExtractor(
        Goal.model_validate(
            {
                "goal": "SEARCH",
                "description": "Procurar um livro",
                "capabilities": ["search"],
                "entities_schema": {"title_text": {"type": "string", "lookup": [listed]}},
                "examples": [
                    example("vocês têm Dom Casmurro?", title_text="Dom Casmurro"),
                    example("procura O Alquimista no catálogo", title_text="O Alquimista"),
                ],
            }
        )
    )
    assert extractor.extract("vocês têm Grande Sertão: Veredas?", language="pt") == {"title_text": title}


def round4_chat(replies: dict[str, Reply]) -> Conversation:
    catalog = Catalog([m.service.manifest_with_lookups() for m in (cinema, library, home_services)])
    return Conversation(
        EmbeddedIntentAdapter(catalog, use_embeddings=False),
        catalog,
        FakeDomains(threshold=0.0, replies=replies),
    )


def sessions(intent: ExecutionIntent) -> DomainOutput:
    answer = cinema.list_sessions(intent)
    assert isinstance(answer, DomainOutput)
    return answer


async def test_a_follow_up_of_the_same_goal_keeps_its_optional_entities() -> None:
    """Gap 8: "required ones only" is about pointing back from another goal."""
    chat = round4_chat({"list_sessions": sessions})
    await chat.say("quais os horários de Wicked na sexta?")
    await chat.say("e no sábado?")
    first, second = (c.parameters for c in chat.domains.calls)
    assert first["movie_text"] == second["movie_text"] == "Wicked"
    assert first["day"] != second["day"]


async def test_a_code_in_the_answer_is_not_carried_and_the_reply_gives_it() -> None:
    """Gap 9: no manifest field points at a result; the question for the code takes it."""
    bought = DomainOutput(
        status="success", result={"code": "CN6001"}, explanation="Ingressos comprados — CN6001."
    )
    chat = round4_chat({"buy_tickets": lambda _: bought})
    await chat.say("compra 2 ingressos pro Duna sexta às 21h45")
    done = await chat.say("sim")
    assert done.state.turn.answer == "Ingressos comprados — CN6001."
    asked = await chat.say("reembolsa essa")
    assert isinstance(asked.state.question, SlotQuestion)
    assert asked.state.turn.answer == "Para continuar, preciso saber: o código da compra."
    given = await chat.say("CN6001")
    assert isinstance(given.state.question, ApprovalQuestion), given.state.turn.answer
    assert "“CN6001”" in given.state.turn.answer


async def test_a_code_with_a_space_is_taken_as_the_reply_too() -> None:
    """Gap 4, in a conversation."""
    chat = round4_chat({})
    asked = await chat.say("quero o reembolso da compra")
    assert isinstance(asked.state.question, SlotQuestion)
    given = await chat.say("CN 4821")
    assert isinstance(given.state.question, ApprovalQuestion), given.state.turn.answer
    assert "“CN4821”" in given.state.turn.answer


def loans(intent: ExecutionIntent) -> DomainOutput:
    answer = library.list_loans(intent)
    assert isinstance(answer, DomainOutput)
    return answer


@pytest.mark.parametrize("text", ["lista meus empréstimos", "listar meus empréstimos", "listing my loans"])
async def test_another_form_of_the_goals_verb_is_its_request(text: str) -> None:
    """The goal's own verb in another form ("lista" of a goal whose examples say "list") is no
    action the goal does not do."""
    chat = round4_chat({"list_loans": loans})
    done = await chat.say(text)
    assert [c.capability for c in chat.domains.calls] == ["list_loans"], done.state.turn.answer
    assert "Não sei fazer isto" not in (done.state.turn.answer or "")


async def test_the_idempotency_store_url(tmp_path: Path) -> None:
    """Gap 10: ``serve``'s default is relative to the working directory; any SQLite URL (four
    slashes for an absolute path) or PostgreSQL URL may replace it, ``{domain}`` filled in."""
    assert (
        IdempotencySettings().store("cinema", served=True).url == "sqlite:///var/idempotency/cinema.sqlite3"
    )
    assert IdempotencySettings().store("cinema", served=False).url == "sqlite://"
    url = f"sqlite:///{tmp_path}/keys/{{domain}}.sqlite3"
    assert url.startswith("sqlite:////")
    store = IdempotencySettings(domain_idempotency_url=url).store("cinema", served=True)
    await store.open()
    try:
        assert (tmp_path / "keys" / "cinema.sqlite3").is_file()  # its folder made too
    finally:
        await store.close()


def quote_in_reais(suggestions: list[dict[str, Any]] | None) -> Reply:
    def reply(intent: ExecutionIntent) -> DomainOutput:
        if intent.parameters["budget"]["currency"] != "BRL":
            return fail(
                "Só trabalhamos em reais.", "unsupported_currency", recoverable=True, suggestions=suggestions
            )
        return DomainOutput(status="success", explanation="Pintura: R$ 450,00.")

    return reply


async def test_a_recoverable_failure_without_suggestions_ends_the_run() -> None:
    """Gap 11: no suggestion, no other plan: the person reads the explanation, nothing is asked."""
    chat = round4_chat({"price_quote": quote_in_reais(None)})
    done = await chat.say("quanto custa um pintor? tenho até 100 dólares")
    assert done.state.turn.status == RunStatus.FAILED
    assert done.state.turn.answer == "Não consegui concluir o pedido: Só trabalhamos em reais."
    assert len(chat.domains.calls) == 1


@pytest.mark.parametrize(
    ("text", "said"),
    [
        (
            "quanto custa um pintor? tenho até 100 dólares",
            "Usei “500 BRL” no lugar de “100 USD” (quanto quer gastar), como o serviço sugeriu.",
        ),
        (
            "how much does a painter cost? my budget is $100",
            "I used “500 BRL” instead of “100 USD” (your budget), as the service suggested.",
        ),
    ],
)
async def test_a_recoverable_failure_with_a_suggestion_runs_again_with_it_and_says_so(
    text: str, said: str
) -> None:
    """A capability that only reads runs again with the suggestion; the answer names the value
    used and the one it replaced, as the approval names values."""
    patch = {"budget": {"amount": 500, "currency": "BRL"}}
    chat = round4_chat({"price_quote": quote_in_reais([patch])})
    done = await chat.say(text)
    assert done.state.turn.status == RunStatus.COMPLETED
    assert done.state.turn.answer == f"{said}\nPintura: R$ 450,00."
    assert [c.parameters["budget"] for c in chat.domains.calls] == [
        {"amount": 100, "currency": "USD"},
        {"amount": 500, "currency": "BRL"},
    ]


def visit_at_ten(intent: ExecutionIntent) -> DomainOutput:
    """schedule_visit (``confirm``, not idempotent): any hour but 10:00 fails, suggesting it."""
    if intent.parameters["time"] != "10:00":
        return fail(
            "Atendemos das 08:00 às 18:00.",
            "outside_hours",
            recoverable=True,
            suggestions=[{"time": "10:00"}],
        )
    return DomainOutput(status="success", explanation="Visita agendada.")


async def test_a_suggestion_for_a_step_that_changes_something_is_asked_before_it_runs() -> None:
    """A side-effecting capability is never called with a value the person did not say: the
    suggestion becomes an approval naming the change, and the yes runs it."""
    chat = round4_chat({"schedule_visit": visit_at_ten})
    await chat.say("agenda uma faxina pra quinta às 21h")
    asked = await chat.say("sim")
    assert asked.state.turn.status == RunStatus.WAITING_INPUT
    assert isinstance(asked.state.question, ApprovalQuestion)
    assert asked.state.turn.answer.startswith(
        "Não deu certo: Atendemos das 08:00 às 18:00. O serviço sugere tentar de novo com "
        "“10:00” no lugar de “21:00” (o horário). Próximo passo: agenda a visita"
    )
    assert [c.parameters["time"] for c in chat.domains.calls] == ["21:00"]  # not called with 10:00
    done = await chat.say("sim")
    assert done.state.turn.status == RunStatus.COMPLETED
    assert done.state.turn.answer == "Visita agendada."
    assert [c.parameters["time"] for c in chat.domains.calls] == ["21:00", "10:00"]


async def test_a_no_to_the_suggested_change_ends_the_request_with_nothing_done() -> None:
    chat = round4_chat({"schedule_visit": visit_at_ten})
    await chat.say("book a cleaner for Thursday at 9pm")
    asked = await chat.say("yes")
    assert asked.state.turn.answer.startswith(
        "That did not work: Atendemos das 08:00 às 18:00. The service suggests trying again with "
        "“10:00” instead of “21:00” (the time). Next step: "
    )
    done = await chat.say("no")
    assert done.state.turn.status == RunStatus.CANCELLED
    assert done.state.turn.answer == "All right, I did nothing. What would you like to do?"
    assert done.state.question is None
    assert [c.parameters["time"] for c in chat.domains.calls] == ["21:00"]


@pytest.fixture(scope="module")
def with_verbs() -> EmbeddedIntentAdapter:
    """Round 4's home services with verbs among the enum synonyms."""
    manifest = home_services.service.manifest_with_lookups().model_dump(mode="json", by_alias=True)
    for goal in manifest["goals"]:
        service = goal["entities_schema"].get("service")
        if service is not None:
            service["synonyms"]["CLEANING"].append("limpar")
            service["synonyms"]["PAINTING"].extend(["pintar", "paint"])
    manifests = [validate_manifest(manifest), cinema.service.manifest_with_lookups()]
    return EmbeddedIntentAdapter(
        Catalog([*manifests, library.service.manifest_with_lookups()]), use_embeddings=False
    )


@pytest.mark.parametrize(
    ("text", "without", "with_them"),
    [
        ("preciso limpar a casa sábado às 9h", None, "CLEANING"),
        ("I want to paint the living room tomorrow at 10am", None, "PAINTING"),
        # "pintar" is one typo from "pintor": a service without being listed
        ("quero pintar a sala amanhã às 10h", "PAINTING", "PAINTING"),
    ],
)
def test_verbs_as_enum_synonyms(
    round4: EmbeddedIntentAdapter,
    with_verbs: EmbeddedIntentAdapter,
    text: str,
    without: str | None,
    with_them: str,
) -> None:
    """Gap 12."""
    assert read4(round4, text)[1].get("service") == without
    goal, entities = read4(with_verbs, text)
    assert goal == "SCHEDULE_VISIT" and entities["service"] == with_them


def test_the_verb_with_an_object_no_visit_knows(
    round4: EmbeddedIntentAdapter, with_verbs: EmbeddedIntentAdapter
) -> None:
    """Gap 12: "pintar" reads as "pintor", yet hair is nothing a visit knows, and the verb opens
    the request ("vou" says only when)."""
    assert read4(round4, "vou pintar o cabelo amanhã")[0] is None
    assert read4(with_verbs, "vou pintar o cabelo amanhã")[0] is None


def test_a_verb_synonym_alone_is_a_request(
    round4: EmbeddedIntentAdapter, with_verbs: EmbeddedIntentAdapter
) -> None:
    assert read4(round4, "limpar") == (None, {})
    assert read4(with_verbs, "limpar") == ("PRICE_QUOTE", {"service": "CLEANING"})
    # an object the goal does not know keeps it out of scope either way
    assert read4(with_verbs, "preciso limpar o cache do celular") == (None, {})
