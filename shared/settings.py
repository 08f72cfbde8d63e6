"""Settings conventions shared by every service: env vars, validated once at start."""

from __future__ import annotations

from pydantic import Field, SecretStr
from pydantic_settings import BaseSettings, SettingsConfigDict


class ServiceSettings(BaseSettings):
    """Base for each service's one settings class (``GatewaySettings``, a domain's settings...)."""

    model_config = SettingsConfigDict(env_file=".env", env_file_encoding="utf-8", extra="ignore")

    #: The level of the process's log (``DEBUG``, ``INFO``, ``WARNING``...).
    log_level: str = "INFO"


class LlmSettings(ServiceSettings):
    """An OpenAI-compatible chat endpoint (``LLM_BASE_URL``, ``LLM_MODEL``, ``LLM_API_KEY``);
    without a base URL and a model, nothing calls an LLM. The key is a secret, never logged."""

    llm_base_url: str | None = Field(default=None, description="e.g. http://host:8000/v1")
    #: The endpoint's API key (a secret: never logged).
    llm_api_key: SecretStr | None = None
    #: The model to ask; with ``LLM_BASE_URL``, turns the LLM on.
    llm_model: str | None = None

    @property
    def llm_enabled(self) -> bool:
        return bool(self.llm_base_url and self.llm_model)
