"""The LLM adapter against a protocol-faithful fake OpenAI server (over httpx's ASGI transport)."""

from __future__ import annotations

import json
from typing import Any

import httpx
import pytest
from pydantic import SecretStr

from intent.embedded import EmbeddedIntentAdapter
from intent.llm import OUT_OF_SCOPE, LlmIntentAdapter, build_schema
from intent.settings import IntentSettings
from shared.catalog import Catalog
from tests.intent.fake_openai_server import FakeOpenAI


def _reply(goal: str, **entities: Any) -> str:
    base: dict[str, Any] = {
        "city_text": None,
        "unit": None,
        "notify": None,
        "direction": None,
        "region_text": None,
    }
    return json.dumps({"goal": goal, "entities": {**base, **entities}, "confidence": 0.9, "language": "pt"})


def _adapter(
    fake: FakeOpenAI, catalog: Catalog, embedded: EmbeddedIntentAdapter, timeout: float = 2.0
) -> LlmIntentAdapter:
    settings = IntentSettings(
        llm_base_url="http://llm.test/v1",
        llm_model="fake-model",
        llm_api_key=SecretStr("sk-test"),
        llm_timeout_s=timeout,
    )
    llm = LlmIntentAdapter(settings, fallback=embedded, transport=httpx.ASGITransport(app=fake.app()))
    llm.catalog = catalog  # the embedded fallback is already trained on this catalog
    return llm


@pytest.fixture
def fake() -> FakeOpenAI:
    return FakeOpenAI(api_key="sk-test")


def test_schema_is_strict_and_built_from_manifests(catalog: Catalog) -> None:
    schema = build_schema(catalog)
    assert schema["additionalProperties"] is False
    assert schema["properties"]["entities"]["additionalProperties"] is False
    assert set(schema["properties"]["goal"]["enum"]) == {
        "weather.GET_FORECAST",
        "weather.EXTREME_CITIES",
        "chat.GREET",
        OUT_OF_SCOPE,
    }
    assert schema["properties"]["entities"]["properties"]["direction"]["enum"] == [
        "HOTTEST",
        "COLDEST",
        "BOTH",
        None,
    ]
    assert sorted(schema["required"]) == ["confidence", "entities", "goal", "language"]


async def test_json_schema_path(fake: FakeOpenAI, catalog: Catalog, adapter: EmbeddedIntentAdapter) -> None:
    fake.reply = lambda body: _reply("weather.GET_FORECAST", city_text=["Recife", "Natal"], unit="CELSIUS")
    llm = _adapter(fake, catalog, adapter)
    out = await llm.parse("previsão em Recife e Natal em celsius")
    assert (out.primary_domain, out.goal, out.adapter) == ("weather", "GET_FORECAST", "llm")
    assert out.entities == {"city_text": ["Recife", "Natal"], "unit": "CELSIUS"}
    sent = fake.requests[0]
    assert sent["response_format"]["type"] == "json_schema"
    assert sent["response_format"]["json_schema"]["strict"] is True
    assert sent["response_format"]["json_schema"]["schema"]["properties"]["goal"]["enum"][-1] == OUT_OF_SCOPE
    await llm.aclose()


async def test_falls_back_to_json_object_after_a_400(
    fake: FakeOpenAI, catalog: Catalog, adapter: EmbeddedIntentAdapter
) -> None:
    fake.reject = {"json_schema"}
    fake.reply = lambda body: _reply("chat.GREET")
    llm = _adapter(fake, catalog, adapter)
    out = await llm.parse("oi")
    assert out.goal == "GREET" and out.adapter == "llm"
    assert [r.get("response_format", {}).get("type") for r in fake.requests] == ["json_schema", "json_object"]
    await llm.parse("olá")  # the working mode is remembered
    assert fake.requests[-1]["response_format"]["type"] == "json_object"
    await llm.aclose()


async def test_prompt_only_when_both_formats_are_rejected(
    fake: FakeOpenAI, catalog: Catalog, adapter: EmbeddedIntentAdapter
) -> None:
    fake.reject = {"json_schema", "json_object"}
    fake.reply = lambda body: "```json\n" + _reply(OUT_OF_SCOPE) + "\n```"
    llm = _adapter(fake, catalog, adapter)
    out = await llm.parse("quem ganhou a copa?")
    assert out.goal is None and out.adapter == "llm"
    assert "response_format" not in fake.requests[-1]
    assert "JSON schema of the reply" in fake.requests[-1]["messages"][0]["content"]
    await llm.aclose()


async def test_timeout_falls_back_to_embedded(
    fake: FakeOpenAI, catalog: Catalog, adapter: EmbeddedIntentAdapter
) -> None:
    fake.delay_s = 5.0
    llm = _adapter(fake, catalog, adapter, timeout=0.2)
    out = await llm.parse("qual a previsão do tempo em Recife?")
    assert out.adapter == "llm->embedded"
    assert out.goal == "GET_FORECAST"  # the embedded adapter answered
    assert any("timed out" in n for n in out.notes)
    await llm.aclose()


@pytest.mark.parametrize(
    "content",
    [
        "this is not json",
        json.dumps({"goal": "weather.NOPE", "entities": {}, "confidence": 0.9, "language": "pt"}),
        json.dumps({"goal": "chat.GREET", "entities": {}, "confidence": 0.9, "language": "pt", "extra": 1}),
    ],
)
async def test_invalid_reply_falls_back_to_embedded(
    fake: FakeOpenAI, catalog: Catalog, adapter: EmbeddedIntentAdapter, content: str
) -> None:
    fake.raw_content = content
    llm = _adapter(fake, catalog, adapter)
    out = await llm.parse("oi, bom dia")
    assert out.adapter == "llm->embedded"
    assert out.goal == "GREET"
    assert any("invalid" in n for n in out.notes)
    await llm.aclose()


async def test_never_trusts_invented_ids(
    fake: FakeOpenAI, catalog: Catalog, adapter: EmbeddedIntentAdapter
) -> None:
    fake.reply = lambda body: _reply(
        "weather.GET_FORECAST", city_text="SBRF-airport-code", direction="HOTTEST"
    )
    llm = _adapter(fake, catalog, adapter)
    out = await llm.parse("previsão do tempo em Recife")
    assert out.goal == "GET_FORECAST"
    assert "city_text" not in out.entities  # not written by the person
    assert "direction" not in out.entities  # not an entity of this goal
    assert any("dropped entity city_text" in n for n in out.notes)
    await llm.aclose()


async def test_wrong_key_is_an_http_error_and_falls_back(
    catalog: Catalog, adapter: EmbeddedIntentAdapter
) -> None:
    fake = FakeOpenAI(api_key="another-key")
    llm = _adapter(fake, catalog, adapter)
    out = await llm.parse("oi")
    assert out.adapter == "llm->embedded"
    assert any("401" in n for n in out.notes)
    assert all("sk-test" not in n for n in out.notes)
    await llm.aclose()


def test_build_adapter_picks_embedded_unless_llm_is_configured() -> None:
    from intent import build_adapter
    from intent.lexical import LexicalIntentAdapter

    assert build_adapter(IntentSettings(llm_base_url=None, llm_model=None)).name == "embedded"
    llm = build_adapter(IntentSettings(llm_base_url="http://llm.test/v1", llm_model="m"))
    assert isinstance(llm, LlmIntentAdapter) and llm.fallback.name == "embedded"
    assert isinstance(build_adapter(IntentSettings(intent_adapter="lexical")), LexicalIntentAdapter)


async def test_lexical_fallback_adapter(catalog: Catalog) -> None:
    from intent.lexical import LexicalIntentAdapter

    lexical = LexicalIntentAdapter(catalog)
    out = await lexical.parse("previsão do tempo em Recife")
    assert out.goal == "GET_FORECAST" and out.entities == {"city_text": "Recife"}
    assert (await lexical.parse("xyzzy plugh")).goal is None


async def test_a_runtime_catalog_change_reaches_the_llm_schema_and_its_fallback(
    fake: FakeOpenAI, catalog: Catalog
) -> None:
    from intent.lexical import LexicalIntentAdapter

    lexical = LexicalIntentAdapter()
    settings = IntentSettings(
        llm_base_url="http://llm.test/v1", llm_model="fake-model", llm_api_key=SecretStr("sk-test")
    )
    llm = LlmIntentAdapter(settings, fallback=lexical, transport=httpx.ASGITransport(app=fake.app()))
    await llm.update_catalog_async(catalog)
    assert llm.catalog is catalog
    assert (await lexical.parse("previsão do tempo em Recife")).goal == "GET_FORECAST"
    await llm.aclose()
