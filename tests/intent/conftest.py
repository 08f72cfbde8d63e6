"""Small manifests, written here, that the intent tests learn from (no shipped domain needed)."""

from __future__ import annotations

from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from bench.understanding.round4.domains import cinema, home_services, library
from bench.understanding.round6.domains import groceries, rides, time_off
from bench.understanding.round8.domains import bank_cards, laundry, real_estate
from bench.understanding.round10.domains import ev_charging, insurance, school
from bench.understanding.round11.domains import beauty_salon, coworking, transit_card
from bench.understanding.round12.domains import car_wash, gas_delivery, moving
from bench.understanding.round13.domains import bike_rental, florist, print_shop
from bench.understanding.round14.domains import catering, photo_studio, self_storage
from bench.understanding.round15.domains import boat_tours, driving_school, tailor
from bench.understanding.round16.domains import bakery, campsite, music_school
from bench.understanding.round17.domains import locksmith, museum, tattoo_studio
from bench.understanding.round18.domains import blood_donation, escape_room, translation
from bench.understanding.round19.domains import karaoke, ski_resort, waste_pickup
from bench.understanding.round20.domains import bowling, passport_office, water_delivery
from bench.understanding.round21.domains import coffee_subscription, court_rental, pool_service
from domains.finance.service import build_service as finance
from domains.general.service import build_service as general
from domains.notifier.service import build as notifier
from domains.research.service import build as research
from intent.embedded import EmbeddedIntentAdapter
from shared.catalog import Catalog
from shared.manifest import DomainManifest
from tests.conftest import example
from tests.domains.conftest import outbox_settings
from tests.domains.research.conftest import research_settings

WEATHER: dict[str, Any] = {
    "domain": "weather",
    "version": "1",
    "description": "Previsão do tempo (weather forecasts)",
    "capabilities": [
        {
            "name": "get_forecast",
            "description": "forecast for a city",
            "metadata": {
                "intent_hints": {
                    "keywords": ["previsão", "tempo", "clima", "temperatura", "forecast", "weather"],
                    "examples": ["como está o tempo em Recife?"],
                }
            },
        },
        {"name": "hottest_cities", "description": "hottest cities"},
        {"name": "coldest_cities", "description": "coldest cities"},
    ],
    "goals": [
        {
            "goal": "GET_FORECAST",
            "description": "Previsão do tempo de uma ou mais cidades (weather forecast for cities)",
            "capabilities": ["get_forecast"],
            "entities_schema": {
                "city_text": {"type": "string", "required": True, "multiple": True},
                "unit": {
                    "type": "enum",
                    "values": ["CELSIUS", "FAHRENHEIT"],
                    "synonyms": {"CELSIUS": ["graus celsius", "celsius"], "FAHRENHEIT": ["fahrenheit"]},
                },
                "notify": {"type": "boolean", "synonyms": {"true": ["telegram", "manda", "envia"]}},
            },
            "examples": [
                example("qual a previsão do tempo em Recife?", city_text="Recife"),
                example("previsão para São Paulo amanhã", city_text="São Paulo"),
                example("como vai estar o clima no Rio de Janeiro", city_text="Rio de Janeiro"),
                example(
                    "temperatura em Curitiba, Porto Alegre e Florianópolis",
                    city_text=["Curitiba", "Porto Alegre", "Florianópolis"],
                ),
                example("manda a previsão de Salvador no telegram", city_text="Salvador", notify=True),
                example("vai chover em Belo Horizonte?", city_text="Belo Horizonte"),
                example("what is the weather in London?", city_text="London"),
                example("forecast for New York in fahrenheit", city_text="New York", unit="FAHRENHEIT"),
                example("will it rain in Paris tomorrow", city_text="Paris"),
                example("temperature in Berlin and Madrid", city_text=["Berlin", "Madrid"]),
            ],
        },
        {
            "goal": "EXTREME_CITIES",
            "description": "Cidades mais quentes ou mais frias hoje (hottest or coldest cities)",
            "capabilities": ["hottest_cities", "coldest_cities"],
            "entities_schema": {
                "direction": {
                    "type": "enum",
                    "values": ["HOTTEST", "COLDEST", "BOTH"],
                    "synonyms": {
                        "HOTTEST": ["mais quentes", "quentes", "esquentaram", "hottest"],
                        "COLDEST": ["mais frias", "frias", "esfriaram", "coldest"],
                        "BOTH": ["quentes e frias", "hottest and coldest", "extremos"],
                    },
                    "capability_map": {
                        "HOTTEST": "hottest_cities",
                        "COLDEST": "coldest_cities",
                        "BOTH": ["hottest_cities", "coldest_cities"],
                    },
                },
                "region_text": {"type": "string"},
            },
            "examples": [
                example(
                    "quais as cidades mais quentes do Nordeste hoje?",
                    direction="HOTTEST",
                    region_text="Nordeste",
                ),
                example("cidades mais frias do Sul", direction="COLDEST", region_text="Sul"),
                example(
                    "onde esfriaram mais as cidades na Europa?", direction="COLDEST", region_text="Europa"
                ),
                example("cidades quentes e frias do Brasil", direction="BOTH", region_text="Brasil"),
                example("hottest cities in Europe", direction="HOTTEST", region_text="Europe"),
                example("coldest places today", direction="COLDEST"),
                example("ranking das cidades mais quentes", direction="HOTTEST"),
            ],
        },
    ],
}

CHAT: dict[str, Any] = {
    "domain": "chat",
    "version": "1",
    "description": "Conversa (small talk)",
    "confidence_gate": False,
    "capabilities": [
        {"name": "greet", "description": "greets"},
        {
            "name": "cannot_help",
            "description": "says what the platform cannot do",
            "role": "fallback",
            # out-of-scope examples: calibration evidence for "not any goal", never a goal
            "metadata": {
                "intent_hints": {
                    "examples": [
                        "qual a capital da França?",
                        "me conta uma piada",
                        "toca uma música",
                        "reserva um hotel em Roma",
                        "how do I fix my bike?",
                        "what's the population of Japan?",
                        "write me a poem",
                        "quanto é 2 mais 2?",
                    ]
                }
            },
        },
    ],
    "goals": [
        {
            "goal": "GREET",
            "description": "Cumprimentos e despedidas (greetings and goodbyes)",
            "capabilities": ["greet"],
            "examples": [
                "oi",
                "olá, tudo bem?",
                "bom dia",
                "boa noite",
                "tchau",
                "hello",
                "hi there",
                "good morning",
                "bye",
            ],
        }
    ],
}

RECIPES: dict[str, Any] = {
    "domain": "recipes",
    "version": "1",
    "description": "Receitas de cozinha (cooking recipes)",
    "capabilities": [{"name": "find_recipe", "description": "find a recipe"}],
    "goals": [
        {
            "goal": "FIND_RECIPE",
            "description": "Encontrar uma receita de cozinha (find a cooking recipe)",
            "capabilities": ["find_recipe"],
            "entities_schema": {"dish_text": {"type": "string", "required": True}},
            "examples": [
                example("receita de bolo de cenoura", dish_text="bolo de cenoura"),
                example("como fazer lasanha", dish_text="lasanha"),
                example("me ensina a fazer pão de queijo", dish_text="pão de queijo"),
                example("recipe for pancakes", dish_text="pancakes"),
                example("how do I cook risotto", dish_text="risotto"),
            ],
        }
    ],
}


def manifest(raw: dict[str, Any]) -> DomainManifest:
    return DomainManifest.model_validate(raw)


@pytest.fixture(scope="session")
def catalog() -> Catalog:
    return Catalog([manifest(WEATHER), manifest(CHAT)])


@pytest.fixture(scope="session")
def adapter(catalog: Catalog) -> EmbeddedIntentAdapter:
    """The TF-IDF path, trained once for the whole intent suite (training is the slow part).

    Three goals are too few for the sentence encoder's calibration to mean much (27 held-out
    documents); the cascade is tested on its own in ``test_cascade.py``.
    """
    return EmbeddedIntentAdapter(catalog, oos_threshold=0.5, use_embeddings=False)


def beside_the_shipped(*bench_domains: ModuleType) -> EmbeddedIntentAdapter:
    """A reader of held-out bench domains (modules with a ``service``) registered beside finance
    and general, with the sentence encoder, as a gateway reads them."""
    manifests = [
        *(module.service.manifest_with_lookups() for module in bench_domains),
        finance().manifest(),
        general().manifest(),
    ]
    return EmbeddedIntentAdapter(Catalog(manifests))


def as_a_gateway_reads(folder: Path, *bench_domains: ModuleType) -> EmbeddedIntentAdapter:
    """Held-out bench domains beside the four shipped ones, their lookup tables fetched."""
    manifests = [
        *(module.service.manifest_with_lookups() for module in bench_domains),
        finance().manifest_with_lookups(),
        general().manifest_with_lookups(),
        notifier(outbox_settings(folder / "outbox.jsonl")).service.manifest(),
        research(research_settings(folder)).service.manifest(),
    ]
    return EmbeddedIntentAdapter(Catalog(manifests))


@pytest.fixture(scope="session")
def round8_beside_shipped(tmp_path_factory: pytest.TempPathFactory) -> EmbeddedIntentAdapter:
    """Round 8's held-out domains (cards, laundry, real estate) beside the shipped ones, trained
    once for every test module that reads with them."""
    return as_a_gateway_reads(tmp_path_factory.mktemp("round8"), bank_cards, laundry, real_estate)


@pytest.fixture(scope="session")
def round4_beside_shipped(tmp_path_factory: pytest.TempPathFactory) -> EmbeddedIntentAdapter:
    """Round 4's held-out domains (cinema, home services, library) beside the shipped ones."""
    return as_a_gateway_reads(tmp_path_factory.mktemp("round4"), cinema, home_services, library)


@pytest.fixture(scope="session")
def round6_beside_shipped(tmp_path_factory: pytest.TempPathFactory) -> EmbeddedIntentAdapter:
    """Round 6's held-out domains (groceries, rides, time off) beside the shipped ones."""
    return as_a_gateway_reads(tmp_path_factory.mktemp("round6"), groceries, rides, time_off)


@pytest.fixture(scope="session")
def round10_beside_shipped(tmp_path_factory: pytest.TempPathFactory) -> EmbeddedIntentAdapter:
    """Round 10's held-out domains (insurance, school, EV charging) beside the shipped ones."""
    return as_a_gateway_reads(tmp_path_factory.mktemp("round10"), insurance, school, ev_charging)


@pytest.fixture(scope="session")
def round11_beside_shipped(tmp_path_factory: pytest.TempPathFactory) -> EmbeddedIntentAdapter:
    """Round 11's held-out domains (coworking, beauty salon, transit card) beside the shipped ones."""
    return as_a_gateway_reads(tmp_path_factory.mktemp("round11"), coworking, beauty_salon, transit_card)


@pytest.fixture(scope="session")
def round12_beside_shipped(tmp_path_factory: pytest.TempPathFactory) -> EmbeddedIntentAdapter:
    """Round 12's held-out domains (car wash, gas delivery, moving) beside the shipped ones."""
    return as_a_gateway_reads(tmp_path_factory.mktemp("round12"), car_wash, gas_delivery, moving)


@pytest.fixture(scope="session")
def round13_beside_shipped(tmp_path_factory: pytest.TempPathFactory) -> EmbeddedIntentAdapter:
    """Round 13's held-out domains (bike rental, florist, print shop) beside the shipped ones."""
    return as_a_gateway_reads(tmp_path_factory.mktemp("round13"), bike_rental, florist, print_shop)


@pytest.fixture(scope="session")
def round14_beside_shipped(tmp_path_factory: pytest.TempPathFactory) -> EmbeddedIntentAdapter:
    """Round 14's held-out domains (catering, photo studio, self storage) beside the shipped ones."""
    return as_a_gateway_reads(tmp_path_factory.mktemp("round14"), catering, photo_studio, self_storage)


@pytest.fixture(scope="session")
def round15_beside_shipped(tmp_path_factory: pytest.TempPathFactory) -> EmbeddedIntentAdapter:
    """Round 15's held-out domains (driving school, tailor, boat tours) beside the shipped ones."""
    return as_a_gateway_reads(tmp_path_factory.mktemp("round15"), boat_tours, driving_school, tailor)


@pytest.fixture(scope="session")
def round16_beside_shipped(tmp_path_factory: pytest.TempPathFactory) -> EmbeddedIntentAdapter:
    """Round 16's held-out domains (music school, bakery, campsite) beside the shipped ones."""
    return as_a_gateway_reads(tmp_path_factory.mktemp("round16"), bakery, campsite, music_school)


@pytest.fixture(scope="session")
def round17_beside_shipped(tmp_path_factory: pytest.TempPathFactory) -> EmbeddedIntentAdapter:
    """Round 17's held-out domains (tattoo studio, locksmith, museum) beside the shipped ones."""
    return as_a_gateway_reads(tmp_path_factory.mktemp("round17"), locksmith, museum, tattoo_studio)


@pytest.fixture(scope="session")
def round18_beside_shipped(tmp_path_factory: pytest.TempPathFactory) -> EmbeddedIntentAdapter:
    """Round 18's held-out domains (escape room, translation agency, blood donation) beside the
    shipped ones."""
    return as_a_gateway_reads(tmp_path_factory.mktemp("round18"), blood_donation, escape_room, translation)


@pytest.fixture(scope="session")
def round19_beside_shipped(tmp_path_factory: pytest.TempPathFactory) -> EmbeddedIntentAdapter:
    """Round 19's held-out domains (ski resort, karaoke, bulky waste pickup) beside the shipped
    ones."""
    return as_a_gateway_reads(tmp_path_factory.mktemp("round19"), karaoke, ski_resort, waste_pickup)


@pytest.fixture(scope="session")
def round20_beside_shipped(tmp_path_factory: pytest.TempPathFactory) -> EmbeddedIntentAdapter:
    """Round 20's held-out domains (bowling alley, passport office, water delivery) beside the
    shipped ones."""
    return as_a_gateway_reads(tmp_path_factory.mktemp("round20"), bowling, passport_office, water_delivery)


@pytest.fixture(scope="session")
def round21_beside_shipped(tmp_path_factory: pytest.TempPathFactory) -> EmbeddedIntentAdapter:
    """Round 21's held-out domains (pool service, coffee subscription, court rental) beside the
    shipped ones."""
    return as_a_gateway_reads(
        tmp_path_factory.mktemp("round21"), pool_service, coffee_subscription, court_rental
    )
