"""Telegram channel: Bot API webhook updates in, the answer back as a webhook reply.

Telegram lets a webhook answer with a Bot API method call, so the gateway replies with
``{"method": "sendMessage", ...}`` and needs no bot token of its own. The webhook is enabled by
``TELEGRAM_WEBHOOK_SECRET``, which Telegram echoes in ``X-Telegram-Bot-Api-Secret-Token``.

The webhook's conversations belong to the Telegram tenant: no API key reads or continues them.
"""

from __future__ import annotations

import hmac
import json
from typing import Any

from fastapi import APIRouter, Request
from fastapi.exceptions import RequestValidationError
from pydantic import BaseModel, ConfigDict, ValidationError

from gateway.deps import SettingsDep, TurnsDep
from gateway.settings import GatewaySettings
from gateway.storage.principals import TELEGRAM_SESSION_PREFIX, TELEGRAM_TENANT
from gateway.validation import check_json, check_message_text
from shared.errors import Forbidden, InvalidRequest, Unauthorized
from shared.models import EntryRequest

router = APIRouter()


class TelegramChat(BaseModel):
    model_config = ConfigDict(extra="allow")
    id: int


class TelegramMessage(BaseModel):
    model_config = ConfigDict(extra="allow")
    message_id: int
    chat: TelegramChat
    text: str | None = None


class TelegramUpdate(BaseModel):
    model_config = ConfigDict(extra="allow")
    update_id: int
    message: TelegramMessage | None = None


def _check_secret(request: Request, settings: GatewaySettings) -> None:
    secret = settings.telegram_webhook_secret
    if secret is None:
        raise Forbidden("The Telegram channel is disabled: set TELEGRAM_WEBHOOK_SECRET to enable it.")
    given = request.headers.get("x-telegram-bot-api-secret-token", "")
    if not hmac.compare_digest(given.encode(), secret.get_secret_value().encode()):
        raise Unauthorized("Bad Telegram webhook secret token.")


def _parse_update(body: bytes, max_chars: int) -> TelegramUpdate:
    """The update, or the same 400 FastAPI gives a body it parses itself; an update whose texts no
    turn may take (a NUL, a lone surrogate, a number no column holds, a text longer than
    ``max_chars``) is a 400 naming the field, before anything runs."""
    try:
        payload = json.loads(body)
    except json.JSONDecodeError as exc:
        where = ("body", exc.pos)
        raise RequestValidationError(
            [{"type": "json_invalid", "loc": where, "msg": "JSON decode error", "ctx": {"error": exc.msg}}]
        ) from None
    except UnicodeDecodeError:
        raise InvalidRequest("body: not UTF-8 text", param="body") from None
    except RecursionError:  # nested deeper than the parser goes: no update is
        raise InvalidRequest("body: JSON nested too deeply", param="body") from None
    check_json(payload)
    try:
        update = TelegramUpdate.model_validate(payload)
    except ValidationError as exc:
        raise RequestValidationError([{**e, "loc": ("body", *e["loc"])} for e in exc.errors()]) from None
    if update.message is not None and update.message.text is not None:
        check_message_text(update.message.text, max_chars, "message.text")
    return update


@router.post("/channels/telegram/webhook")
async def telegram_webhook(request: Request, settings: SettingsDep, turns: TurnsDep) -> dict[str, Any]:
    # the secret first: a caller without it learns nothing about what a valid update looks like
    _check_secret(request, settings)
    update = _parse_update(await request.body(), settings.max_message_chars)
    message = update.message
    if message is None or not (message.text or "").strip():
        return {"ok": True}  # edits, stickers, joins: nothing to answer
    run = await turns.handle(
        EntryRequest(
            session_id=f"{TELEGRAM_SESSION_PREFIX}{message.chat.id}",
            input_text=(message.text or "").strip(),
            channel="telegram",
            metadata={"telegram_update_id": update.update_id},
        ),
        tenant=TELEGRAM_TENANT,
    )
    return {
        "method": "sendMessage",
        "chat_id": message.chat.id,
        "text": run.answer,
        "reply_to_message_id": message.message_id,
    }
