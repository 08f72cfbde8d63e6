"""A minimal Telegram Bot API client (``sendMessage`` only).

The bot token is part of the request URL, and httpx puts URLs into its exceptions and its INFO
logs; so every error raised here is rebuilt from the API's own answer, never from the URL, and
httpx's request logging is kept at WARNING.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

from pydantic import SecretStr

if TYPE_CHECKING:
    import httpx

#: Telegram rejects longer texts; longer messages are sent in several parts.
MAX_MESSAGE_CHARS = 4096

logging.getLogger("httpx").setLevel(logging.WARNING)  # its INFO lines contain the token URL


class TelegramError(Exception):
    """The Bot API could not deliver the message. The text never contains the token."""

    def __init__(self, message: str, *, status_code: int | None = None, recoverable: bool = True):
        super().__init__(message)
        self.status_code = status_code
        self.recoverable = recoverable


def split_message(text: str, limit: int = MAX_MESSAGE_CHARS) -> list[str]:
    """Parts of at most ``limit`` characters, cut at a line break when there is one.

    >>> split_message("ab\\ncd", limit=3)
    ['ab', 'cd']
    """
    parts: list[str] = []
    while len(text) > limit:
        cut = text.rfind("\n", 0, limit)
        cut = cut if cut > 0 else limit
        parts.append(text[:cut])
        text = text[cut:].lstrip("\n")
    parts.append(text)
    return parts


class TelegramClient:
    def __init__(self, http: httpx.AsyncClient, token: SecretStr, api_base: str):
        self._http = http
        self._token = token
        self._api_base = api_base.rstrip("/")

    async def send_message(self, chat_id: str, text: str) -> list[int]:
        """Send ``text`` (split if too long); returns Telegram's message ids."""
        return [await self._send_part(chat_id, part) for part in split_message(text)]

    async def _send_part(self, chat_id: str, text: str) -> int:
        # imported on first send: most processes never send, and httpx costs CPU at every start
        import httpx

        url = f"{self._api_base}/bot{self._token.get_secret_value()}/sendMessage"
        try:
            response = await self._http.post(url, json={"chat_id": chat_id, "text": text})
        except httpx.TimeoutException:
            raise TelegramError("Telegram Bot API did not answer in time") from None
        except httpx.HTTPError as exc:
            raise TelegramError(f"Telegram Bot API unreachable ({type(exc).__name__})") from None
        try:
            body = response.json()
        except ValueError:
            body = {}
        if response.status_code != 200 or not body.get("ok"):
            description = body.get("description") or response.reason_phrase or "no description"
            # 4xx other than 429 (rate limit) means the request itself is wrong: retrying won't help
            recoverable = response.status_code == 429 or response.status_code >= 500
            raise TelegramError(
                f"Telegram Bot API refused the message: {response.status_code} {description}",
                status_code=response.status_code,
                recoverable=recoverable,
            )
        return int(body.get("result", {}).get("message_id", 0))
