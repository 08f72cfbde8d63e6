"""The notifier domain: ``send_telegram_message`` (role ``notifier``) plus ``GET /outbox``.

Other domains never call it directly: the planner adds it as a follow-up step when a capability's
``composition`` metadata asks for the ``notifier`` role (e.g. "manda a cotação da Vale no meu
telegram"). With ``TELEGRAM_BOT_TOKEN`` it delivers through the Bot API; without one it stores
the message in a durable outbox, so the platform works offline and nothing is lost.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from fastapi import FastAPI, Query

from domains.notifier.outbox import Outbox, OutboxEntry
from domains.notifier.settings import NotifierSettings
from domains.notifier.telegram import TelegramClient, TelegramError
from sdk.idempotency import current_key
from sdk.service import DomainService, fail
from shared.i18n import Catalog, Language, as_language
from shared.models import DomainOutput, ExecutionIntent

if TYPE_CHECKING:
    import httpx

VERSION = "1.0.0"

MESSAGES = Catalog.by_language(
    {
        "pt": {
            "sent": "Mensagem enviada pelo Telegram.",
            "stored": "Telegram não configurado: guardei a mensagem na caixa de saída.",
            "missing_message": "Não há mensagem para enviar.",
            "missing_chat": "Não sei para qual chat do Telegram enviar (configure TELEGRAM_CHAT_ID).",
            "failed": "Não consegui enviar pelo Telegram: {reason}",
        },
        "en": {
            "sent": "Message sent via Telegram.",
            "stored": "Telegram is not configured: I kept the message in the outbox.",
            "missing_message": "There is no message to send.",
            "missing_chat": "I don't know which Telegram chat to send to (set TELEGRAM_CHAT_ID).",
            "failed": "I could not send it via Telegram: {reason}",
        },
    }
)

PARAMETERS: dict[str, Any] = {
    "type": "object",
    "properties": {
        "message": {"type": "string", "minLength": 1, "description": "Text to send."},
        "chat_id": {
            "type": ["string", "integer"],
            "description": "Telegram chat; defaults to TELEGRAM_CHAT_ID.",
        },
    },
    "required": ["message"],
}

OUTPUT_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "delivered_via": {"type": "string", "enum": ["outbox", "telegram"]},
        "outbox_id": {"type": "integer"},
        "chat_id": {"type": ["string", "null"]},
        "message_ids": {"type": "array", "items": {"type": "integer"}},
        "created_at": {"type": "string"},
    },
    "required": ["delivered_via", "outbox_id"],
}

METADATA: dict[str, Any] = {
    "intent_hints": {
        "keywords": ["telegram", "notificar", "enviar mensagem", "notify", "send message"],
        "examples": ["manda no meu telegram", "send it to my telegram"],
    },
    # sending twice means two messages. Not idempotent, so the engine never retries a send that may
    # have reached the notifier (a timeout, an answer it could not check: such a retry would carry a
    # fresh Idempotency-Key and send again); a send that never reached it (connection refused) is
    # retried, and a background run waits for it (BACKGROUND_UNDELIVERED_RETRY_S). A repeat under
    # the same key (a run resumed after a crash) is answered from the durable key store.
    "policy": {"idempotent": False, "attempts": 2, "timeout_s": 15.0, "backoff_s": 1.0},
    "progress": {"pt": "Enviando a mensagem pelo Telegram…", "en": "Sending the Telegram message…"},
}


def _ex(text: str, message: str) -> dict[str, Any]:
    return {"text": text, "entities": {"message": message}}


#: Sending a message of the person's own: "manda no telegram: reunião às 15h". The message is the
#: words after the colon or the cue ("dizendo", "saying"); without them the platform asks.
SEND_MESSAGE: dict[str, Any] = {
    "goal": "SEND_MESSAGE",
    "description": {"pt": "Enviar uma mensagem pelo Telegram", "en": "Send a Telegram message"},
    "capabilities": ["send_telegram_message"],
    "entities_schema": {
        "message": {
            "type": "string",
            "required": True,
            "description": {"pt": "A mensagem a enviar", "en": "The message to send"},
        }
    },
    "examples": [
        _ex("manda no telegram: reunião às 15h", "reunião às 15h"),
        _ex("manda no meu telegram: comprar pão", "comprar pão"),
        _ex("envia uma mensagem no telegram dizendo que o relatório está pronto", "o relatório está pronto"),
        _ex("avisa no telegram que o servidor caiu", "o servidor caiu"),
        _ex("me manda uma mensagem no telegram que eu preciso ligar pro banco", "eu preciso ligar pro banco"),
        _ex("envie no telegram: buscar as crianças às 17h", "buscar as crianças às 17h"),
        _ex("send a telegram message saying the meeting is at 3pm", "the meeting is at 3pm"),
        _ex("send me a telegram saying dinner is ready", "dinner is ready"),
        _ex("telegram me: pick up the kids at 5", "pick up the kids at 5"),
        _ex("message me on telegram: call the bank", "call the bank"),
        _ex("notify me on telegram that the build passed", "the build passed"),
        _ex("text my telegram saying I will be late", "I will be late"),
    ],
}


class Notifier:
    def __init__(self, settings: NotifierSettings, http: httpx.AsyncClient | None = None):
        self.settings = settings
        self.outbox = Outbox(settings.notifier_outbox_path)
        self._http = http
        self._owns_http = http is None

    def _telegram(self) -> TelegramClient:
        token = self.settings.telegram_bot_token
        if token is None:
            raise RuntimeError("Telegram is not configured")
        if self._http is None:
            # imported here: with Telegram off (the default) httpx is never needed
            import httpx

            self._http = httpx.AsyncClient(timeout=self.settings.telegram_timeout_s)
        return TelegramClient(self._http, token, self.settings.telegram_api_base)

    async def aclose(self) -> None:
        if self._owns_http and self._http is not None:
            await self._http.aclose()
            self._http = None

    async def send(self, intent: ExecutionIntent) -> DomainOutput:
        language = as_language(intent.context.get("language"))
        message = intent.parameters.get("message")
        if not isinstance(message, str) or not message.strip():
            return fail(MESSAGES.t("missing_message", language), "missing_parameter")
        raw_chat = intent.parameters.get("chat_id") or self.settings.telegram_chat_id
        chat_id = str(raw_chat) if raw_chat not in (None, "") else None

        # the outbox is keyed by the call's Idempotency-Key: a call re-run under it sends nothing new
        key = current_key()
        if not self.settings.telegram_enabled:
            entry = await asyncio.to_thread(
                self.outbox.add, message, chat_id=chat_id, delivered_via="outbox", idempotency_key=key
            )
            return _delivered(entry, MESSAGES.t("stored", language))
        if chat_id is None:
            return fail(MESSAGES.t("missing_chat", language), "missing_chat_id")
        sent = await asyncio.to_thread(self.outbox.find, key) if key is not None else None
        if sent is not None:
            return _delivered(sent, MESSAGES.t("sent", language))
        return await self._send_by_telegram(message, chat_id, key, language)

    async def _send_by_telegram(
        self, message: str, chat_id: str, key: str | None, language: Language
    ) -> DomainOutput:
        try:
            message_ids = await self._telegram().send_message(chat_id, message)
        except TelegramError as exc:
            return fail(
                MESSAGES.t("failed", language, reason=exc),
                "telegram_error",
                recoverable=exc.recoverable,
                metadata={"status_code": exc.status_code},
            )
        entry = await asyncio.to_thread(
            self.outbox.add, message, chat_id=chat_id, delivered_via="telegram", idempotency_key=key
        )
        return _delivered(entry, MESSAGES.t("sent", language), message_ids=message_ids)


def _delivered(entry: OutboxEntry, explanation: str, **extra: object) -> DomainOutput:
    """A send's answer: where the message went and its outbox record (``extra``: Telegram's ids)."""
    return DomainOutput(
        status="success",
        result={
            "delivered_via": entry.delivered_via,
            "outbox_id": entry.id,
            "chat_id": entry.chat_id,
            **extra,
            "created_at": entry.created_at,
        },
        explanation=explanation,
    )


@dataclass(frozen=True)
class NotifierDomain:
    service: DomainService
    app: FastAPI
    notifier: Notifier


def build(settings: NotifierSettings | None = None, http: httpx.AsyncClient | None = None) -> NotifierDomain:
    """The service and its app. ``http`` lets tests fake the Bot API (an outside service)."""
    notifier = Notifier(settings or NotifierSettings(), http)
    svc = DomainService(
        "notifier",
        VERSION,
        {
            "pt": "Envia mensagens às pessoas pelo Telegram, ou guarda numa caixa de saída",
            "en": "Sends messages to people by Telegram, or keeps them in an outbox",
        },
    )
    svc.capability(
        "send_telegram_message",
        {"pt": "Envia uma mensagem pelo Telegram", "en": "Send a Telegram message"},
        parameters=PARAMETERS,
        output_schema=OUTPUT_SCHEMA,
        role="notifier",
        metadata=METADATA,
    )(notifier.send)
    svc.add_goal(SEND_MESSAGE)

    @asynccontextmanager
    async def lifespan(_: FastAPI) -> AsyncIterator[None]:
        try:
            yield
        finally:
            await notifier.aclose()

    app = svc.app(lifespan=lifespan)

    @app.get("/outbox")
    async def read_outbox(limit: int | None = Query(default=None, ge=1, le=10_000)) -> dict[str, Any]:
        """Every message handled, newest last (``limit``: only the most recent ones)."""
        entries = await asyncio.to_thread(notifier.outbox.entries, limit)
        return {"messages": [e.as_dict() for e in entries], "count": len(entries)}

    return NotifierDomain(svc, app, notifier)
