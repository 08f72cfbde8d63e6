"""Two goals of one domain too close to tell apart, each leaving a word the other knows, are told
apart by the verb the message opens with: "quero *cancelar* a locação do carro" says the rental's
thing and the cancelling's action, and the action decides."""

from __future__ import annotations

from typing import Any

import pytest

from bench.understanding.round3.domains import car_rental, gym, pharmacy
from intent.embedded import EmbeddedIntentAdapter
from shared.catalog import Catalog
from shared.manifest import DomainManifest
from tests.conftest import example
from tests.intent.conftest import as_a_gateway_reads

APPROVED = {"policy": {"confirm": True, "idempotent": False}}
RENTAL: dict[str, Any] = {
    "domain": "rental",
    "version": "1",
    "description": "Car rental",
    "capabilities": [
        {"name": "book_car", "description": "b", "metadata": APPROVED},
        {"name": "cancel_booking", "description": "c", "metadata": APPROVED},
    ],
    "goals": [
        {
            "goal": "BOOK_CAR",
            "description": {"pt": "Alugar um carro, a locação de um veículo", "en": "Rent a car"},
            "capabilities": ["book_car"],
            "entities_schema": {
                "city_text": {
                    "type": "string",
                    "required": True,
                    "lookup": [
                        {"value": "Curitiba"},
                        {"value": "Recife"},
                        {"value": "Rio de Janeiro", "aliases": ["rio"]},
                    ],
                }
            },
            "examples": [
                example("quero alugar um carro em Curitiba", city_text="Curitiba"),
                example("locação de carro em Recife", city_text="Recife"),
                example("rent a car in Rio", city_text="Rio"),
            ],
        },
        {
            "goal": "CANCEL_BOOKING",
            "description": {"pt": "Cancelar o aluguel de um carro", "en": "Cancel a car booking"},
            "capabilities": ["cancel_booking"],
            "entities_schema": {"booking_code_text": {"type": "string", "required": True}},
            "examples": [
                example("cancela o aluguel CR1234", booking_code_text="CR1234"),
                example("cancelar a reserva do carro CR7781", booking_code_text="CR7781"),
                example("cancel my car booking CR5521", booking_code_text="CR5521"),
                example("quero cancelar meu aluguel CR4410", booking_code_text="CR4410"),
            ],
        },
    ],
}


def test_the_opening_verb_decides_a_tie_within_a_domain() -> None:
    adapter = EmbeddedIntentAdapter(Catalog([DomainManifest.model_validate(RENTAL)]), use_embeddings=False)
    model = adapter.model
    assert model is not None
    refs = list(model.goals)
    text = "quero cancelar a locação do carro"
    chosen = adapter._opening_verb_decides(text, refs, model)
    assert chosen is not None and refs[chosen].goal.goal == "CANCEL_BOOKING", refs
    # a message whose verb both goals know, or neither, is not decided by it
    assert adapter._opening_verb_decides("locação do carro", refs, model) is None


def test_a_verb_another_goal_of_the_domain_uses_decides_nothing() -> None:
    """ "you could *say* my name is nick": a verb several goals of the domain are asked with names
    none of them, however close the two first goals are."""
    manifest = {
        **RENTAL,
        "capabilities": [
            *RENTAL["capabilities"],
            {"name": "cancel_insurance", "description": "i", "metadata": APPROVED},
        ],
        "goals": [
            *RENTAL["goals"],
            {
                "goal": "CANCEL_INSURANCE",
                "description": {"pt": "Cancelar o seguro do carro", "en": "Cancel the car insurance"},
                "capabilities": ["cancel_insurance"],
                "examples": [example("cancelar o seguro"), example("cancel my insurance")],
            },
        ],
    }
    adapter = EmbeddedIntentAdapter(Catalog([DomainManifest.model_validate(manifest)]), use_embeddings=False)
    model = adapter.model
    assert model is not None
    refs = [ref for ref in model.goals if ref.goal.goal in ("BOOK_CAR", "CANCEL_BOOKING")]
    assert adapter._opening_verb_decides("quero cancelar a locação do carro", refs, model) is None


def test_the_opening_verb_decides_between_an_unsure_goal_and_its_runner_up(
    tmp_path_factory: pytest.TempPathFactory,
) -> None:
    """Not a tie, yet neither goal is sure alone while the two together are: round 3's rental
    reads "quero cancelar a locação do carro" as its booking, unsure, and the verb decides."""
    reader = as_a_gateway_reads(tmp_path_factory.mktemp("unsure-pair"), car_rental, gym, pharmacy)
    out = reader.parse_sync("quero cancelar a locação do carro", context={"time_zone": "America/Sao_Paulo"})
    assert (out.primary_domain, out.goal) == ("car_rental", "CANCEL_BOOKING")
    assert out.confidence >= reader.oos_threshold
