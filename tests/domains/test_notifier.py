"""send_telegram_message: durable outbox without a bot, the Bot API (faked) with one."""

from __future__ import annotations

import json
import logging
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import httpx
import pytest

from domains.notifier.service import build
from domains.notifier.settings import NotifierSettings
from tests.domains.conftest import Execute, client_for, executor, outbox_settings

TOKEN = "123456:SECRET-test-token"


async def read_outbox(client: httpx.AsyncClient, **params: Any) -> list[dict[str, Any]]:
    response = await client.get("/outbox", params=params)
    assert response.status_code == 200
    messages: list[dict[str, Any]] = response.json()["messages"]
    return messages


async def test_without_token_messages_go_to_the_outbox(
    notifier: Execute, notifier_client: httpx.AsyncClient
) -> None:
    first = await notifier("send_telegram_message", {"message": "PETR4 a 38,42 BRL", "chat_id": 42})
    second = await notifier("send_telegram_message", {"message": "segunda"}, language="en")
    assert first["status"] == "success" and first["result"]["delivered_via"] == "outbox"
    assert first["explanation"] == "Telegram não configurado: guardei a mensagem na caixa de saída."
    assert second["explanation"] == "Telegram is not configured: I kept the message in the outbox."
    messages = await read_outbox(notifier_client)
    assert [(m["message"], m["chat_id"], m["delivered_via"]) for m in messages] == [
        ("PETR4 a 38,42 BRL", "42", "outbox"),
        ("segunda", None, "outbox"),
    ]
    assert messages[0]["id"] == first["result"]["outbox_id"] and messages[0]["created_at"]
    assert [m["message"] for m in await read_outbox(notifier_client, limit=1)] == ["segunda"]


async def test_outbox_survives_recreating_the_service(outbox_path: Path) -> None:
    async with client_for(build(outbox_settings(outbox_path)).app) as client:
        await executor(client, "notifier")("send_telegram_message", {"message": "antes do restart"})
    async with client_for(build(outbox_settings(outbox_path)).app) as client:
        await executor(client, "notifier")("send_telegram_message", {"message": "depois"})
        assert [m["message"] for m in await read_outbox(client)] == ["antes do restart", "depois"]


async def test_idempotency_key_replays_the_first_result(
    notifier: Execute, notifier_client: httpx.AsyncClient
) -> None:
    first = await notifier("send_telegram_message", {"message": "uma vez só"}, key="run-1:step-2")
    again = await notifier("send_telegram_message", {"message": "uma vez só"}, key="run-1:step-2")
    assert again["result"] == first["result"]
    assert again["metadata"]["idempotent_replay"] is True
    assert len(await read_outbox(notifier_client)) == 1


async def test_missing_message_is_a_failure(notifier: Execute, notifier_client: httpx.AsyncClient) -> None:
    out = await notifier("send_telegram_message", {"message": ""})
    assert out["status"] == "failure"
    assert out["failure"] == {"reason": "missing_parameter", "recoverable": False, "suggestions": []}
    assert await read_outbox(notifier_client) == []


@asynccontextmanager
async def with_bot_api(
    settings: NotifierSettings, handler: Callable[[httpx.Request], httpx.Response]
) -> AsyncIterator[httpx.AsyncClient]:
    """A notifier app whose outgoing HTTP goes to ``handler`` instead of api.telegram.org."""
    async with (
        httpx.AsyncClient(transport=httpx.MockTransport(handler)) as http,
        client_for(build(settings, http).app) as client,
    ):
        yield client


class FakeBotApi:
    """Stands in for api.telegram.org (an outside service) behind httpx.MockTransport."""

    def __init__(self, status: int = 200, body: dict[str, Any] | None = None):
        self.requests: list[httpx.Request] = []
        self.status = status
        self.body = body

    def __call__(self, request: httpx.Request) -> httpx.Response:
        self.requests.append(request)
        body = (
            self.body
            if self.body is not None
            else {"ok": True, "result": {"message_id": 100 + len(self.requests)}}
        )
        return httpx.Response(self.status, json=body)


async def test_with_token_posts_to_the_bot_api(outbox_path: Path) -> None:
    api = FakeBotApi()
    settings = outbox_settings(outbox_path, telegram_bot_token=TOKEN, telegram_chat_id="777",
                               telegram_api_base="https://bot.example")  # fmt: skip
    async with with_bot_api(settings, api) as client:
        out = await executor(client, "notifier")("send_telegram_message", {"message": "Vale a 61,20 BRL"})
        assert out["status"] == "success"
        assert out["result"]["delivered_via"] == "telegram"
        assert out["result"]["message_ids"] == [101]
        assert out["explanation"] == "Mensagem enviada pelo Telegram."
        [request] = api.requests
        assert request.method == "POST"
        assert str(request.url) == f"https://bot.example/bot{TOKEN}/sendMessage"
        assert json.loads(request.content) == {"chat_id": "777", "text": "Vale a 61,20 BRL"}
        [logged] = await read_outbox(client)
        assert (logged["delivered_via"], logged["chat_id"]) == ("telegram", "777")


async def test_bot_api_error_is_reported_without_the_token(
    outbox_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    api = FakeBotApi(status=400, body={"ok": False, "description": "Bad Request: chat not found"})
    settings = outbox_settings(outbox_path, telegram_bot_token=TOKEN, telegram_chat_id="1")
    caplog.set_level(logging.DEBUG)
    async with with_bot_api(settings, api) as client:
        response = await client.post(
            "/execute",
            json={
                "domain": "notifier",
                "capability": "send_telegram_message",
                "parameters": {"message": "x"},
            },
        )
        out = response.json()
        assert out["status"] == "failure"
        assert out["failure"]["reason"] == "telegram_error"
        assert out["failure"]["recoverable"] is False
        assert out["metadata"] == {"status_code": 400}
        assert "chat not found" in out["explanation"] and "Telegram Bot API" in out["explanation"]
        assert await read_outbox(client) == []
    assert TOKEN not in response.text
    assert TOKEN not in caplog.text


async def test_unreachable_bot_api_is_recoverable_and_hides_the_url(outbox_path: Path) -> None:
    def refuse(request: httpx.Request) -> httpx.Response:
        raise httpx.ConnectError(f"connection refused for {request.url}", request=request)

    settings = outbox_settings(outbox_path, telegram_bot_token=TOKEN, telegram_chat_id="1")
    async with with_bot_api(settings, refuse) as client:
        out = await executor(client, "notifier")("send_telegram_message", {"message": "x"})
    assert out["status"] == "failure" and out["failure"]["recoverable"] is True
    assert TOKEN not in json.dumps(out)


async def test_token_without_chat_is_a_clear_failure(outbox_path: Path) -> None:
    api = FakeBotApi()
    settings = outbox_settings(outbox_path, telegram_bot_token=TOKEN)
    async with with_bot_api(settings, api) as client:
        out = await executor(client, "notifier")("send_telegram_message", {"message": "x"})
    assert out["failure"]["reason"] == "missing_chat_id"
    assert api.requests == []


async def test_long_message_is_split_for_telegram(outbox_path: Path) -> None:
    api = FakeBotApi()
    settings = outbox_settings(outbox_path, telegram_bot_token=TOKEN, telegram_chat_id="9")
    text = "\n".join(f"linha {n} " + "x" * 90 for n in range(80))  # ~7.9k chars
    async with with_bot_api(settings, api) as client:
        out = await executor(client, "notifier")("send_telegram_message", {"message": text})
    assert out["result"]["message_ids"] == [101, 102]
    sent = [json.loads(r.content)["text"] for r in api.requests]
    assert all(len(part) <= 4096 for part in sent)
    assert "\n".join(sent) == text
