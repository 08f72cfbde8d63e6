"""Manifest descriptions by language: both forms are valid, a bad object is refused with its field
path, and one reader (``text_in``) picks the text with a fixed fallback."""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest

from shared.i18n.bilingual import all_texts, text_in
from shared.manifest import ManifestInvalid, manifest_json_schema, parse_manifest, validate_manifest

WEATHER: dict[str, Any] = {
    "domain": "weather",
    "version": "1",
    "description": {"pt": "Previsão do tempo", "en": "Weather forecasts"},
    "capabilities": [{"name": "forecast", "description": {"en": "Today's forecast"}}],
    "goals": [
        {
            "goal": "GET_WEATHER",
            "description": {"pt": "A previsão do tempo de uma cidade", "en": "The forecast for a city"},
            "capabilities": ["forecast"],
            "entities_schema": {
                "city": {
                    "type": "string",
                    "required": True,
                    "description": {"pt": "A cidade", "en": "The city"},
                }
            },
        }
    ],
}

#: Where each description of WEATHER sits, as a path into the manifest.
DESCRIPTION_PATHS = [
    ("description",),
    ("capabilities", 0, "description"),
    ("goals", 0, "description"),
    ("goals", 0, "entities_schema", "city", "description"),
]


def with_description(path: tuple[str | int, ...], value: Any) -> dict[str, Any]:
    data = copy.deepcopy(WEATHER)
    node: Any = data
    for key in path[:-1]:
        node = node[key]
    node[path[-1]] = value
    return data


def dotted(path: tuple[str | int, ...]) -> str:
    return ".".join(str(p) for p in path)


def test_an_object_by_language_is_valid_everywhere_a_description_is() -> None:
    manifest = validate_manifest(WEATHER)
    assert manifest.description == {"pt": "Previsão do tempo", "en": "Weather forecasts"}
    assert manifest.capabilities[0].description == {"en": "Today's forecast"}
    assert manifest.goals[0].entities_schema["city"].description == {"pt": "A cidade", "en": "The city"}
    # and it survives the wire: dumped and read back as a fetched manifest is
    again = parse_manifest(json.dumps(manifest.model_dump(mode="json")).encode())
    assert again.goals[0].description == WEATHER["goals"][0]["description"]


@pytest.mark.parametrize("path", DESCRIPTION_PATHS, ids=dotted)
def test_a_plain_string_is_still_valid(path: tuple[str | int, ...]) -> None:
    manifest = validate_manifest(with_description(path, "Previsão do tempo (weather forecast)"))
    assert manifest.domain == "weather"


@pytest.mark.parametrize("path", DESCRIPTION_PATHS, ids=dotted)
@pytest.mark.parametrize(
    ("value", "where", "says"),
    [
        ({}, "", "should be non-empty"),
        ({"fr": "Prévisions"}, "", "'fr' was unexpected"),
        ({"pt": "Previsão", "es": "Previsión"}, "", "'es' was unexpected"),
        ({"pt": ""}, ".pt", "should be non-empty"),
        ({"en": "   "}, ".en", "does not match"),
        ({"en": 3}, ".en", "is not of type 'string'"),
    ],
)
def test_a_bad_object_is_refused_with_its_field_path(
    path: tuple[str | int, ...], value: dict[str, Any], where: str, says: str
) -> None:
    with pytest.raises(ManifestInvalid) as refused:
        parse_manifest(json.dumps(with_description(path, value)).encode())
    assert [e["path"] for e in refused.value.errors] == [dotted(path) + where]
    assert says in refused.value.errors[0]["message"]


def test_the_published_schema_declares_the_object_form() -> None:
    goal_description = manifest_json_schema()["$defs"]["Goal"]["properties"]["description"]
    string_form, object_form = goal_description["anyOf"]
    assert string_form == {"type": "string"}
    assert object_form["type"] == "object"
    assert set(object_form["properties"]) == {"pt", "en"}
    assert object_form["additionalProperties"] is False
    assert object_form["minProperties"] == 1


# ---------------------------------------------------------------- reading it


@pytest.mark.parametrize(
    ("text", "language", "expected"),
    [
        ({"pt": "Cotação", "en": "Stock price"}, "pt", "Cotação"),
        ({"pt": "Cotação", "en": "Stock price"}, "en", "Stock price"),
        ({"pt": "Cotação", "en": "Stock price"}, "pt-BR", "Cotação"),
        ({"pt": "Cotação", "en": "Stock price"}, "en_US", "Stock price"),
        # the language asked for is missing: English, then Portuguese
        ({"pt": "Cotação", "en": "Stock price"}, "fr", "Stock price"),
        ({"en": "Stock price"}, "pt", "Stock price"),
        ({"pt": "Cotação"}, "en", "Cotação"),
        ({"pt": "Cotação"}, "fr", "Cotação"),
        # any other language only when neither is there (a catalog entry from elsewhere)
        ({"es": "Cotización"}, "pt", "Cotización"),
        ({"en": "  ", "pt": "Cotação"}, "en", "Cotação"),
        # the older one-string form keeps its convention
        ("Cotação atual (current price)", "en", "current price"),
        ("Cotação atual (current price)", "pt", "Cotação atual"),
        ("Cotação atual", "en", "Cotação atual"),
        ({}, "pt", ""),
    ],
)
def test_text_in_picks_the_language_then_english_then_portuguese(
    text: dict[str, str] | str, language: str, expected: str
) -> None:
    assert text_in(text, language) == expected


def test_all_texts_gives_every_language_for_whatever_learns_from_descriptions() -> None:
    assert all_texts({"pt": "Cotação", "en": "Stock price"}) == ["Cotação", "Stock price"]
    assert all_texts("Cotação (stock price)") == ["Cotação (stock price)"]
    assert all_texts("") == []
