"""Settings of the intent layer (env vars, validated once at start).

``LLM_BASE_URL`` + ``LLM_MODEL`` switch on the LLM adapter (with the embedded one as fallback);
without them the embedded adapter runs alone. ``LLM_API_KEY`` is a secret and never logged.
"""

from __future__ import annotations

from typing import Literal

from pydantic import Field, SecretStr
from pydantic_settings import BaseSettings, SettingsConfigDict


class IntentSettings(BaseSettings):
    model_config = SettingsConfigDict(env_file=".env", env_file_encoding="utf-8", extra="ignore")

    #: "auto" = llm when LLM_BASE_URL and LLM_MODEL are set, else embedded.
    intent_adapter: Literal["auto", "embedded", "lexical", "llm"] = "auto"
    llm_base_url: str | None = Field(
        default=None, description="OpenAI-compatible base URL, e.g. http://host:8000/v1"
    )
    llm_api_key: SecretStr | None = None
    llm_model: str | None = None
    llm_timeout_s: float = Field(default=8.0, gt=0)
    llm_temperature: float = Field(default=0.0, ge=0, le=2)
    #: Calibrated confidence below this -> goal=None (out of scope). 0.5 = "more likely right
    #: than wrong" on the calibrated scale (see bench/results/intent.md).
    intent_oos_threshold: float = Field(default=0.5, ge=0, le=1)
    #: Use the sentence encoder (when its packages are installed); False = TF-IDF path only.
    intent_embeddings: bool = True
    #: Top two goals closer than this (calibrated) -> "did you mean A or B?".
    intent_choice_margin: float = Field(default=0.2, ge=0, le=1)

    @property
    def llm_enabled(self) -> bool:
        return bool(self.llm_base_url and self.llm_model)
