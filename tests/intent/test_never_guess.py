"""A required value is filled only from words that show they are it: a table's value, a learned
form or context, a name's look; the one word left is never a city, a time or a day."""

from __future__ import annotations

from intent.base import guessed
from intent.embedded import EmbeddedIntentAdapter, entity_extractor
from intent.entities import GoalEntityExtractor
from shared.catalog import Catalog, GoalRef
from shared.manifest import DomainManifest, Goal
from tests.conftest import example

WEATHER = Goal.model_validate(
    {
        "goal": "GET_WEATHER",
        "description": "Previsão do tempo",
        "capabilities": ["forecast"],
        "entities_schema": {
            "city_text": {
                "type": "string",
                "required": True,
                "lookup": [{"value": "Florianópolis", "aliases": ["Floripa"]}, {"value": "Recife"}],
            }
        },
        "examples": [example("como está o tempo em Recife?", city_text="Recife"), "previsão do tempo"],
    }
)

CLINIC = DomainManifest.model_validate(
    {
        "domain": "clinic",
        "version": "1",
        "description": "Consultas",
        "capabilities": [{"name": "book", "description": "b"}, {"name": "cancel", "description": "c"}],
        "goals": [
            {
                "goal": "BOOK",
                "description": "Marcar consulta",
                "capabilities": ["book"],
                "entities_schema": {"doctor_text": {"type": "string"}, "time_text": {"type": "string"}},
                "examples": [
                    example("marca com o Dr. Paulo às 14h", doctor_text="Dr. Paulo", time_text="às 14h"),
                    example("consulta com a Dra. Lia 9:30", doctor_text="Dra. Lia", time_text="9:30"),
                    example("book Dr. Paulo at 2pm", doctor_text="Dr. Paulo", time_text="at 2pm"),
                ],
            },
            {
                "goal": "CANCEL",
                "description": "Cancelar consulta",
                "capabilities": ["cancel"],
                "entities_schema": {"doctor_text": {"type": "string"}, "time_text": {"type": "string"}},
                "examples": [example("cancela a das 10h", time_text="10h"), "cancela minha consulta"],
            },
        ],
    }
)


def test_a_table_entity_takes_its_tables_values_only() -> None:
    extractor = GoalEntityExtractor(WEATHER)
    assert extractor.extract("como vai estar o tempo?") == {}  # "estar" is no city
    assert extractor.extract("tempo em floripa") == {"city_text": "floripa"}


def test_an_entity_learns_its_form_from_the_other_goals_of_its_domain() -> None:
    catalog = Catalog([CLINIC])
    cancel = entity_extractor(GoalRef("clinic", CLINIC.goals[1]), catalog)
    # one annotated value is no form; the booking goal's three teach it: a name is no time
    assert "time_text" not in cancel.extract("cancel the appt with dr paulo")
    assert cancel.extract("cancela a das 15h")["time_text"] == "15h"


def test_a_value_with_no_evidence_marks_the_reading_as_guessed() -> None:
    catalog = Catalog(
        [
            DomainManifest.model_validate(
                {
                    "domain": "shop",
                    "version": "1",
                    "description": "Loja",
                    "capabilities": [{"name": "status", "description": "s"}],
                    "goals": [
                        {
                            "goal": "ORDER_STATUS",
                            "description": "Status do pedido",
                            "capabilities": ["status"],
                            "entities_schema": {"code_text": {"type": "string", "required": True}},
                            "examples": [
                                example("status do pedido AB12", code_text="AB12"),
                                # one code of words: the entity is no "word with digits" only
                                example("onde está o pedido alfa", code_text="alfa"),
                                "status do meu pedido",
                            ],
                        }
                    ],
                }
            )
        ]
    )
    adapter = EmbeddedIntentAdapter(catalog, use_embeddings=False)
    sure = adapter.parse_sync("status do pedido ZZ77")
    assert sure.entities == {"code_text": "ZZ77"} and not guessed(sure)
    # the one word left beside a phrasing word is kept, and the reading says it is a guess: no
    # pending question is dropped for it, no confidence raised on it
    unsure = adapter.parse_sync("status atrasado")
    assert unsure.entities == {"code_text": "atrasado"} and guessed(unsure)
