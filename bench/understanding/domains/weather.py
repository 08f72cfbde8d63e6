"""``weather``: the weather now or the forecast for a city on a day (fake, deterministic data).

Written from docs/domains.md only. ``python -m bench.understanding.domains.weather --port 8111``.
"""

from __future__ import annotations

import hashlib
from datetime import date
from typing import Any

from bench.understanding.domains.common import fold, language, parse_day, today
from sdk import DomainService, fail, serve
from shared.manifest import LookupEntry
from shared.models import DomainOutput, ExecutionIntent

CITIES: dict[str, list[str]] = {
    "São Paulo": ["SP", "Sampa", "Sao Paulo", "São Paulo capital"],
    "Rio de Janeiro": ["Rio", "RJ", "Rio de Janeiro"],
    "Belo Horizonte": ["BH", "Belo Horizonte"],
    "Porto Alegre": ["POA", "Porto Alegre"],
    "Curitiba": ["Curitiba", "CWB"],
    "Salvador": ["Salvador"],
    "Recife": ["Recife"],
    "Fortaleza": ["Fortaleza"],
    "Brasília": ["Brasilia", "BSB"],
    "Florianópolis": ["Floripa", "Florianopolis"],
    "Manaus": ["Manaus"],
    "Campinas": ["Campinas"],
    "Lisboa": ["Lisbon", "Lisboa"],
    "Porto": ["Oporto"],
    "London": ["Londres", "Londres UK"],
    "New York": ["Nova York", "Nova Iorque", "NYC", "NY"],
    "Paris": ["Paris"],
    "Madrid": ["Madri"],
    "Berlin": ["Berlim"],
    "Tokyo": ["Tóquio", "Toquio"],
    "Buenos Aires": ["Buenos Aires", "BA"],
    "Chicago": ["Chicago"],
    "Miami": ["Miami"],
    "Toronto": ["Toronto"],
}

_BY_NAME = {fold(alias): city for city, aliases in CITIES.items() for alias in [city, *aliases]}

SKIES = {
    "pt": ["ensolarado", "parcialmente nublado", "nublado", "chuva fraca", "pancadas de chuva", "tempestade"],
    "en": ["sunny", "partly cloudy", "cloudy", "light rain", "showers", "thunderstorms"],
}


def city_entries() -> list[LookupEntry]:
    """The cities this service knows, served as the ``city_text`` lookup table.

    docs/domains.md says the route answers "the same JSON list" as an inline ``lookup``; the SDK
    serializes ``LookupEntry`` models (plain dicts work but warn), as domains/finance does.
    """
    return [LookupEntry(value=city, aliases=aliases) for city, aliases in CITIES.items()]


def forecast(city: str, day: date) -> dict[str, Any]:
    """Deterministic fake weather: the same city and day always give the same numbers."""
    digest = hashlib.sha256(f"{city}|{day.isoformat()}".encode()).digest()
    low = 8 + digest[0] % 15
    high = low + 4 + digest[1] % 9
    sky = digest[2] % len(SKIES["en"])
    return {
        "city": city,
        "date": day.isoformat(),
        "min_c": low,
        "max_c": high,
        "sky_index": sky,
        "rain_chance_pct": [5, 15, 30, 60, 75, 90][sky],
    }


service = DomainService(
    "weather",
    "0.1.0",
    {"pt": "Previsão do tempo por cidade", "en": "Weather forecasts by city"},
)


@service.capability(
    "get_forecast",
    {
        "pt": "Consulta o tempo agora ou a previsão de um dia para uma cidade",
        "en": "Get the current weather or a day's forecast for a city",
    },
    parameters={
        "type": "object",
        "properties": {
            "city_text": {
                "type": "string",
                "minLength": 1,
                "description": "The city as the person wrote it.",
            },
            "day_text": {
                "type": "string",
                "description": "The day as the person wrote it ('amanhã', 'sexta', '20/03'); absent = today.",
            },
        },
        "required": ["city_text"],
    },
    output_schema={
        "type": "object",
        "properties": {
            "city": {"type": "string"},
            "date": {"type": "string"},
            "min_c": {"type": "number"},
            "max_c": {"type": "number"},
            "sky": {"type": "string"},
            "rain_chance_pct": {"type": "number"},
        },
        "required": ["city", "date", "min_c", "max_c", "sky"],
    },
    metadata={
        "intent_hints": {
            "keywords": [
                "tempo",
                "previsão",
                "previsão do tempo",
                "clima",
                "temperatura",
                "chuva",
                "vai chover",
                "calor",
                "frio",
                "weather",
                "forecast",
                "temperature",
                "rain",
                "will it rain",
            ],
            "examples": ["previsão do tempo para Curitiba", "weather forecast for London"],
        },
        "policy": {"idempotent": True, "attempts": 2, "timeout_s": 5.0},
        "progress": {"pt": "Consultando a previsão do tempo…", "en": "Getting the weather forecast…"},
    },
)
def get_forecast(intent: ExecutionIntent) -> DomainOutput:
    lang = language(intent)
    raw_city = str(intent.parameters.get("city_text") or "").strip()
    if not raw_city:
        return fail("Which city?" if lang == "en" else "Qual cidade?", "missing_parameter")
    city = _BY_NAME.get(fold(raw_city))
    if city is None:
        message = (
            f"I have no forecast for '{raw_city}'."
            if lang == "en"
            else f"Não tenho previsão para '{raw_city}'."
        )
        return fail(message, "unknown_city")
    raw_day = intent.parameters.get("day_text")
    day = parse_day(raw_day) if raw_day else today()
    if day is None:
        message = (
            f"I did not understand the day '{raw_day}'."
            if lang == "en"
            else f"Não entendi o dia '{raw_day}'."
        )
        return fail(message, "unknown_day")
    delta = (day - today()).days
    if delta < 0 or delta > 14:
        message = (
            "I only have forecasts from today up to 14 days ahead."
            if lang == "en"
            else "Só tenho previsão de hoje até 14 dias à frente."
        )
        return fail(message, "day_out_of_range")
    data = forecast(city, day)
    sky = SKIES[lang][data.pop("sky_index")]
    data["sky"] = sky
    label = day.strftime("%d/%m") if lang == "pt" else day.isoformat()
    if lang == "en":
        explanation = (
            f"{city}, {label}: {sky}, {data['min_c']}–{data['max_c']} °C, "
            f"{data['rain_chance_pct']}% chance of rain (sample data)."
        )
    else:
        explanation = (
            f"{city}, {label}: {sky}, mínima de {data['min_c']} °C e máxima de {data['max_c']} °C, "
            f"{data['rain_chance_pct']}% de chance de chuva (dados de exemplo)."
        )
    return DomainOutput(
        status="success", result=data, explanation=explanation, metadata={"data_source": "fake"}
    )


def _ex(text: str, **entities: Any) -> dict[str, Any]:
    return {"text": text, "entities": entities}


service.lookup("/lookup/cities", city_entries)

service.add_goal(
    {
        "goal": "GET_WEATHER",
        "description": {
            "pt": "O tempo agora ou a previsão de um dia para uma cidade",
            "en": "The current weather or a day's forecast for a city",
        },
        "entities_schema": {
            "city_text": {
                "type": "string",
                "required": True,
                "description": {"pt": "A cidade", "en": "The city"},
                "lookup_path": "/lookup/cities",
            },
            "day_text": {
                "type": "string",
                "description": {
                    "pt": "O dia (hoje, amanhã, um dia da semana ou uma data)",
                    "en": "The day (today, tomorrow, a weekday or a date)",
                },
            },
        },
        "capabilities": ["get_forecast"],
        "examples": [
            _ex("como está o tempo em Lisboa?", city_text="Lisboa"),
            _ex("previsão do tempo para Curitiba amanhã", city_text="Curitiba", day_text="amanhã"),
            _ex("vai chover em Recife hoje?", city_text="Recife", day_text="hoje"),
            _ex("qual a temperatura em Porto Alegre agora?", city_text="Porto Alegre"),
            _ex("clima em salvador no sábado", city_text="salvador", day_text="sábado"),
            _ex("tempo em Manaus dia 15/03", city_text="Manaus", day_text="15/03"),
            _ex("vai fazer frio em Paris na quinta?", city_text="Paris", day_text="quinta"),
            _ex("previsão pra Fortaleza", city_text="Fortaleza"),
            _ex("está calor em Campinas?", city_text="Campinas"),
            _ex("what's the weather like in London?", city_text="London"),
            _ex("weather forecast for Chicago tomorrow", city_text="Chicago", day_text="tomorrow"),
            _ex("will it rain in Miami on Saturday?", city_text="Miami", day_text="Saturday"),
            _ex("temperature in Toronto today", city_text="Toronto", day_text="today"),
            _ex("how hot will it be in Madrid on March 14?", city_text="Madrid", day_text="March 14"),
            _ex("forecast berlin", city_text="berlin"),
            _ex("is it cold in Buenos Aires right now?", city_text="Buenos Aires"),
        ],
    }
)

if __name__ == "__main__":
    serve(service)
