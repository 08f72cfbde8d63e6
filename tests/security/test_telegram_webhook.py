"""The Telegram webhook checks its secret before it looks at the body: a caller without the
secret gets 401 whatever it sends, and learns nothing about what a valid update looks like."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from tests.conftest import Process, gateway_over

SECRET = "webhook-secret-for-tests"
URL = "/channels/telegram/webhook"


@pytest.fixture(scope="module")
def gateway(
    domain_processes: dict[str, Process], tmp_path_factory: pytest.TempPathFactory
) -> Iterator[Process]:
    work = tmp_path_factory.mktemp("telegram")
    with gateway_over(domain_processes, work, {"TELEGRAM_WEBHOOK_SECRET": SECRET}) as started:
        yield started


def _post(gateway: Process, secret: str | None, **body: Any) -> httpx.Response:
    headers = {"X-Telegram-Bot-Api-Secret-Token": secret} if secret is not None else {}
    return httpx.post(f"{gateway.url}{URL}", headers=headers, timeout=60, **body)


@pytest.mark.parametrize(
    "body",
    [{"content": b"not json"}, {"json": {"update_id": "x"}}, {"json": []}, {"json": {"update_id": 1}}],
    ids=["not-json", "bad-field", "not-an-object", "valid"],
)
@pytest.mark.parametrize("secret", [None, "wrong"])
def test_without_the_secret_every_body_is_401(
    gateway: Process, secret: str | None, body: dict[str, Any]
) -> None:
    response = _post(gateway, secret, **body)
    assert response.status_code == 401, response.text
    assert response.json()["error"]["type"] == "authentication_error"


def test_with_the_secret_a_bad_body_names_its_field(gateway: Process) -> None:
    response = _post(gateway, SECRET, json={"update_id": "x"})
    assert response.status_code == 400
    assert response.json()["error"]["param"] == "update_id"
    not_json = _post(gateway, SECRET, content=b"{oops")
    assert not_json.status_code == 400
    assert not_json.json()["error"]["code"] == "invalid_json"
    assert "at character 1" in not_json.json()["error"]["message"]


def test_with_the_secret_a_message_is_answered_in_the_chat(gateway: Process) -> None:
    update = {
        "update_id": 9,
        "message": {"message_id": 3, "chat": {"id": 770001}, "text": "preço da Petrobras"},
    }
    response = _post(gateway, SECRET, json=update)
    assert response.status_code == 200, response.text
    reply = response.json()
    assert (
        reply["method"] == "sendMessage" and reply["chat_id"] == 770001 and reply["reply_to_message_id"] == 3
    )
    assert "PETR4" in reply["text"]
    # an update without a message (an edit, a sticker) is acknowledged and not answered
    assert _post(gateway, SECRET, json={"update_id": 10}).json() == {"ok": True}


def _update_with(text_json: str, chat_id: str = "770002") -> bytes:
    """An update whose message text is the JSON literal ``text_json``, escapes as written."""
    return (
        '{"update_id": 11, "message": {"message_id": 4, "chat": {"id": '
        + chat_id
        + '}, "text": '
        + text_json
        + "}}"
    ).encode()


#: what an answer must never carry (issue 24, finding 7)
INTERNAL = ("Traceback", "sqlalchemy", "sqlite3", "asyncpg", "RecursionError", "UnicodeDecodeError", 'File "')


@pytest.mark.parametrize(
    ("body", "param"),
    [
        (_update_with('"oi\\u0000"'), "message.text"),
        (_update_with('"oi \\udc80"'), "message.text"),
        (_update_with('"' + "a" * 40_000 + '"'), "message.text"),
        (_update_with('"oi"', chat_id="9" * 400), "message.chat.id"),
        (_update_with('"oi"').replace(b'"oi"', b'"o\xff\xfei"'), "body"),
        (b"[" * 100_000 + b"]" * 100_000, "body"),
    ],
    ids=["NUL", "lone surrogate", "too long", "huge int", "invalid UTF-8", "deep JSON"],
)
def test_an_update_no_turn_may_take_is_a_400_naming_its_field(
    gateway: Process, body: bytes, param: str
) -> None:
    response = _post(gateway, SECRET, content=body)
    assert response.status_code == 400, response.text
    assert response.json()["error"]["param"] == param, response.text
    for marker in INTERNAL:
        assert marker not in response.text, response.text
