"""The three manifests are valid against the published schema and declare what the core reads."""

from __future__ import annotations

import httpx
import pytest

from shared.manifest import DomainManifest, ManifestInvalid, validate_manifest


async def manifest_of(client: httpx.AsyncClient) -> DomainManifest:
    response = await client.get("/manifest")
    assert response.status_code == 200
    return validate_manifest(response.json())


async def test_every_manifest_validates_and_health_answers(
    finance_client: httpx.AsyncClient, notifier_client: httpx.AsyncClient, general_client: httpx.AsyncClient
) -> None:
    for expected, client in [
        ("finance", finance_client),
        ("notifier", notifier_client),
        ("general", general_client),
    ]:
        manifest = await manifest_of(client)
        assert manifest.domain == expected
        health = (await client.get("/health")).json()
        assert health["status"] == "ok"
        assert health["domain"] == expected
        for goal in manifest.goals:
            assert len(goal.examples) >= 10, f"{expected}.{goal.goal} needs 10+ examples"


async def test_finance_manifest_carries_its_capability_metadata(finance_client: httpx.AsyncClient) -> None:
    manifest = await manifest_of(finance_client)
    assert {c.name for c in manifest.capabilities} == {
        "get_stock_price",
        "get_top_gainers",
        "get_top_losers",
        "search_symbol",
    }
    price = manifest.capability("get_stock_price")
    assert price is not None
    meta = price.metadata
    rule = meta.decomposition.array_params[0]
    assert (rule.param_name, rule.single_param_name, rule.max_concurrency) == (
        "symbol_text",
        "symbol_text",
        4,
    )
    assert meta.composition is not None
    assert meta.composition.followup_roles == ["notifier"]
    assert meta.composition.enabled_if is not None
    assert (meta.composition.enabled_if.path, meta.composition.enabled_if.equals) == (
        "parameters.notify",
        True,
    )
    assert meta.composition.param_map["message"].from_parameters == ["_step_explanation"]
    pre = meta.flow.pre[0]
    assert (pre.type, pre.param, pre.search_capability) == ("resolve_symbol", "symbol", "search_symbol")
    assert meta.policy.idempotent is True
    assert "cotação" in meta.intent_hints.keywords and "price" in meta.intent_hints.keywords


async def test_finance_goals_entities(finance_client: httpx.AsyncClient) -> None:
    manifest = await manifest_of(finance_client)
    goals = {g.goal: g for g in manifest.goals}
    assert set(goals) >= {"GET_QUOTE", "TOP_MOVERS"}

    quote = goals["GET_QUOTE"]
    symbol = quote.entities_schema["symbol_text"]
    assert (symbol.type, symbol.required, symbol.multiple) == ("string", True, True)
    notify = quote.entities_schema["notify"]
    assert notify.type == "boolean" and {"telegram", "manda", "send"} <= set(notify.synonyms["true"])
    assert quote.capabilities == ["get_stock_price"]

    movers = goals["TOP_MOVERS"]
    direction = movers.entities_schema["direction"]
    assert direction.values == ["GAINERS", "LOSERS", "BOTH"]
    assert direction.default is None
    assert direction.capability_map == {
        "GAINERS": "get_top_gainers",
        "LOSERS": "get_top_losers",
        "BOTH": ["get_top_gainers", "get_top_losers"],
    }
    assert {"altas", "subiram", "gainers"} <= set(direction.synonyms["GAINERS"])
    assert {"baixas", "caíram", "losers"} <= set(direction.synonyms["LOSERS"])
    assert "altas e baixas" in direction.synonyms["BOTH"]
    assert movers.entities_schema["market_text"].type == "string"


async def test_notifier_and_general_roles(
    notifier_client: httpx.AsyncClient, general_client: httpx.AsyncClient
) -> None:
    notifier = await manifest_of(notifier_client)
    send = notifier.capability("send_telegram_message")
    assert send is not None and send.role == "notifier"
    assert send.parameters["required"] == ["message"]
    # a send that may have reached it is never retried under a fresh key (only undelivered ones are)
    assert send.metadata.policy.idempotent is False

    general = await manifest_of(general_client)
    assert general.confidence_gate is False
    fallback = general.capability("out_of_scope")
    assert fallback is not None and fallback.role == "fallback"
    assert {g.goal for g in general.goals} == {"HELP", "SMALL_TALK"}


def test_a_domain_name_registration_could_not_take_is_refused_with_its_field_path() -> None:
    """A manifest's ``domain`` is its registered name: one longer than registration takes could
    be served but never registered, so the manifest itself is refused."""
    manifest = {"domain": "d" * 65, "version": "1", "description": "too long", "capabilities": []}
    with pytest.raises(ManifestInvalid) as refused:
        validate_manifest(manifest)
    assert [e["path"] for e in refused.value.errors] == ["domain"]
    assert validate_manifest({**manifest, "domain": "d" * 64}).domain == "d" * 64
