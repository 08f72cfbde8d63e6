"""Agent cards built from manifests, read back with the official a2a-sdk's card parser."""

from __future__ import annotations

from typing import Any

import httpx
from a2a.client.card_resolver import parse_agent_card

from sdk.service import DomainService
from shared.agent_card import MAX_EXAMPLES, card_json, domain_card, platform_card, skills
from shared.manifest import DomainManifest, validate_manifest
from shared.models import DomainOutput, ExecutionIntent


def manifest(domain: str = "weather", **extra: Any) -> DomainManifest:
    return validate_manifest(
        {
            "domain": domain,
            "version": "0.2.0",
            "description": f"{domain} things",
            "capabilities": [
                {"name": f"{domain}_forecast", "description": "Today's forecast"},
                {
                    "name": f"{domain}_alerts",
                    "description": "Storm alerts",
                    "metadata": {"intent_hints": {"examples": ["any storm alerts?"]}},
                },
            ],
            "goals": [
                {
                    "goal": f"{domain.upper()}_FORECAST",
                    "description": "Forecast for a city",
                    "capabilities": [f"{domain}_forecast"],
                    "examples": [f"weather in city {i}" for i in range(MAX_EXAMPLES + 5)]
                    + [{"text": "weather in city 0", "entities": {}}],
                }
            ],
            **extra,
        }
    )


def test_each_goal_is_a_skill_with_its_examples_and_loose_capabilities_follow() -> None:
    found = skills(manifest())
    assert [s.id for s in found] == ["WEATHER_FORECAST", "weather_alerts"]
    forecast, alerts = found
    assert forecast.name == "Weather forecast"
    assert forecast.description == "Forecast for a city"
    assert list(forecast.examples) == [f"weather in city {i}" for i in range(MAX_EXAMPLES)]
    assert list(forecast.tags) == ["weather", "weather_forecast"]
    assert list(alerts.examples) == ["any storm alerts?"]


def test_a_domain_card_round_trips_through_the_sdk_parser() -> None:
    data = card_json(domain_card(manifest(), "http://127.0.0.1:9001/"))
    assert data["capabilities"] == {"streaming": False}
    assert data["defaultInputModes"] == ["text/plain", "application/json"]
    assert data["supportedInterfaces"][0]["url"] == "http://127.0.0.1:9001/execute"
    parsed = parse_agent_card(data)
    assert (parsed.name, parsed.description, parsed.version) == ("weather", "weather things", "0.2.0")
    assert [s.id for s in parsed.skills] == ["WEATHER_FORECAST", "weather_alerts"]


def test_the_platform_card_joins_every_domain_and_speaks_both_protocol_versions() -> None:
    card = platform_card(
        [manifest("weather"), manifest("tides")],
        name="orchestrator",
        description="d",
        version="1",
        rpc_url="http://gw/a2a",
        bearer=True,
    )
    data = card_json(card)
    assert {s["id"] for s in data["skills"]} == {
        "WEATHER_FORECAST",
        "weather_alerts",
        "TIDES_FORECAST",
        "tides_alerts",
    }
    assert [i["protocolVersion"] for i in data["supportedInterfaces"]] == ["1.0", "0.3"]
    # 0.3 clients read these top-level fields
    assert data["url"] == "http://gw/a2a" and data["protocolVersion"] == "0.3"
    assert data["capabilities"]["streaming"] is True
    assert data["securitySchemes"]["bearer"]["httpAuthSecurityScheme"]["scheme"] == "bearer"
    assert data["securityRequirements"] == [{"schemes": {"bearer": {}}}]
    parsed = parse_agent_card(data)
    assert parsed.security_schemes["bearer"].http_auth_security_scheme.scheme == "bearer"


def test_without_keys_the_platform_card_declares_no_scheme() -> None:
    data = card_json(
        platform_card([], name="o", description="d", version="1", rpc_url="http://gw/a2a", bearer=False)
    )
    assert "securitySchemes" not in data and "security" not in data
    assert data["skills"] == [] or "skills" not in data


async def test_an_sdk_domain_serves_its_card_at_the_well_known_path() -> None:
    service = DomainService("echo", "1.2.3", "Repeats what it is told")

    @service.capability("echo", "Repeat the text")
    def echo(intent: ExecutionIntent) -> DomainOutput:
        return DomainOutput(status="success", explanation=intent.original_query)

    service.add_goal(
        {"goal": "ECHO", "description": "repeat text", "capabilities": ["echo"], "examples": ["say hi"]}
    )
    transport = httpx.ASGITransport(app=service.app())
    async with httpx.AsyncClient(transport=transport, base_url="http://echo.internal:9000") as client:
        response = await client.get("/.well-known/agent-card.json")
    assert response.status_code == 200
    card = parse_agent_card(response.json())
    assert (card.name, card.version) == ("echo", "1.2.3")
    assert [(s.id, list(s.examples)) for s in card.skills] == [("ECHO", ["say hi"])]
    assert card.supported_interfaces[0].url == "http://echo.internal:9000/execute"
