"""What docs/domains.md answers a domain author ("Annotating examples", free-text cues,
identifiers made of digits, ordinary words in lookup tables), stated against the goal's own
extractor and classifier. Each test names the doc's claim."""

from __future__ import annotations

from typing import Any

import pytest

from intent.embedded import EmbeddedIntentAdapter
from intent.entities import GoalEntityExtractor
from shared.catalog import Catalog
from shared.manifest import Goal, validate_manifest
from tests.conftest import example


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
    assert found["party_size"] == 3 and found["day"].endswith("-20") and found["time"] == "21:00"


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
