"""Notifier configuration from the environment (``TELEGRAM_*``, ``NOTIFIER_OUTBOX_PATH``).

The bot token is a ``SecretStr`` so it never shows up in a repr, a log line or an error.
"""

from __future__ import annotations

from pathlib import Path

from pydantic import SecretStr
from pydantic_settings import SettingsConfigDict

from shared.settings import ServiceSettings


class NotifierSettings(ServiceSettings):
    # unprefixed: the documented variable names are the field names (TELEGRAM_BOT_TOKEN...)
    model_config = SettingsConfigDict(env_prefix="")

    #: Without a token, messages go to the outbox instead of Telegram.
    telegram_bot_token: SecretStr | None = None
    telegram_chat_id: str | None = None
    telegram_api_base: str = "https://api.telegram.org"
    telegram_timeout_s: float = 10.0
    #: Relative paths are relative to the working directory the service starts in.
    notifier_outbox_path: Path = Path("var/notifier_outbox.sqlite3")

    @property
    def telegram_enabled(self) -> bool:
        return self.telegram_bot_token is not None and bool(self.telegram_bot_token.get_secret_value())
