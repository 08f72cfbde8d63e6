"""Research domain configuration from the environment (``RESEARCH_*``, ``LLM_*``).

``LLM_BASE_URL`` switches the agents to an OpenAI-compatible LLM; ``LLM_API_KEY`` is a
``SecretStr`` (never in a repr, a log line or an error). ``LLM_MODEL``, when set, overrides every
agent's YAML ``model`` (one server usually serves one model); otherwise each agent asks for its own.
"""

from __future__ import annotations

from pathlib import Path

from pydantic import Field, SecretStr
from pydantic_settings import SettingsConfigDict

from domains.research.config import DEFAULT_AGENTS_DIR
from shared.settings import ServiceSettings


class ResearchSettings(ServiceSettings):
    # unprefixed: the documented variable names are the field names (LLM_BASE_URL...)
    model_config = SettingsConfigDict(env_prefix="")

    research_database_url: str = "sqlite+aiosqlite:///var/research.sqlite3"
    research_agents_dir: Path = DEFAULT_AGENTS_DIR
    llm_base_url: str | None = None
    llm_api_key: SecretStr | None = None
    llm_model: str | None = None
    research_llm_timeout_s: float = Field(default=20.0, gt=0)

    @property
    def llm_enabled(self) -> bool:
        return bool(self.llm_base_url)
