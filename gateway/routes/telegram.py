"""Telegram channel: Bot API webhook updates in, the answer back as a webhook reply.

Telegram lets a webhook answer with a Bot API method call, so the gateway replies with
``{"method": "sendMessage", ...}`` and needs no bot token of its own. The webhook is enabled by
``TELEGRAM_WEBHOOK_SECRET``, which Telegram echoes in ``X-Telegram-Bot-Api-Secret-Token``.
"""

from __future__ import annotations

import hmac
from typing import Any

from fastapi import APIRouter, Request
from pydantic import BaseModel, ConfigDict

from gateway.deps import SettingsDep, TurnsDep
from shared.errors import Forbidden, Unauthorized
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


@router.post("/channels/telegram/webhook")
async def telegram_webhook(
    update: TelegramUpdate, request: Request, settings: SettingsDep, turns: TurnsDep
) -> dict[str, Any]:
    secret = settings.telegram_webhook_secret
    if secret is None:
        raise Forbidden("The Telegram channel is disabled: set TELEGRAM_WEBHOOK_SECRET to enable it.")
    given = request.headers.get("x-telegram-bot-api-secret-token", "")
    if not hmac.compare_digest(given.encode(), secret.get_secret_value().encode()):
        raise Unauthorized("Bad Telegram webhook secret token.")
    message = update.message
    if message is None or not (message.text or "").strip():
        return {"ok": True}  # edits, stickers, joins: nothing to answer
    run = await turns.handle(
        EntryRequest(
            session_id=f"telegram-{message.chat.id}",
            input_text=(message.text or "").strip(),
            channel="telegram",
            metadata={"telegram_update_id": update.update_id},
        )
    )
    return {
        "method": "sendMessage",
        "chat_id": message.chat.id,
        "text": run.answer,
        "reply_to_message_id": message.message_id,
    }
