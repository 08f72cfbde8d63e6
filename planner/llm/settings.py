"""Settings of the LLM planner (env vars, validated once at start).

Off by default (``PLANNER_LLM=off``): every plan comes from the deterministic decomposer. With
``PLANNER_LLM=fallback`` the LLM plans the requests the decomposer cannot express (a condition,
a comparison, a selection, several goals chained); with ``always`` it plans every request that
reached the planner. The endpoint is any OpenAI-compatible ``/chat/completions``: its own
``PLANNER_LLM_BASE_URL`` / ``PLANNER_LLM_MODEL`` / ``PLANNER_LLM_API_KEY``, else the intent
adapter's ``LLM_*``. The key is a secret: never logged, masked in the traces.
"""

from __future__ import annotations

from typing import Literal

from pydantic import Field, SecretStr

from shared.settings import LlmSettings

PlannerMode = Literal["off", "fallback", "always"]
#: How the plan is asked for: a tool call, structured output, or "auto" (tools first, then
#: ``json_schema``, then ``json_object``, remembering the first the server accepts).
OutputMode = Literal["auto", "tools", "json_schema", "json_object"]


class PlannerLlmSettings(LlmSettings):
    #: ``off``; ``fallback``: the LLM plans only what the deterministic plan cannot express;
    #: ``always``: every request that reached the planner (docs/planning.md).
    planner_llm: PlannerMode = "off"
    #: The planner's endpoint, up to ``/v1`` (e.g. http://127.0.0.1:8000/v1); unset: ``LLM_BASE_URL``.
    planner_llm_base_url: str | None = None
    #: The model the server knows; unset: ``LLM_MODEL``.
    planner_llm_model: str | None = None
    #: Sent as a bearer token (a secret: never logged, masked in traces); unset: ``LLM_API_KEY``.
    planner_llm_api_key: SecretStr | None = None
    #: How the plan is asked for: ``auto``, ``tools``, ``json_schema`` or ``json_object``.
    planner_llm_output: OutputMode = "auto"
    #: The sampling temperature of the planner's requests (0 to 2).
    planner_llm_temperature: float = Field(default=0.0, ge=0, le=2)
    #: One request to the endpoint may take this long; past it the call counts as failed.
    planner_llm_timeout_s: float = Field(default=20.0, gt=0)
    #: All of one turn's planning (the plan and its correction) must fit in this.
    planner_llm_deadline_s: float = Field(default=45.0, gt=0)
    #: Steps of one proposed plan.
    planner_llm_max_steps: int = Field(default=12, ge=1, le=64)
    #: Calls to the endpoint in one run (the plan, its correction, rewrites).
    planner_llm_max_calls: int = Field(default=4, ge=1, le=20)
    #: Rewrites of a failing plan by the LLM in one run.
    planner_llm_max_replans: int = Field(default=1, ge=0, le=5)

    @property
    def base_url(self) -> str | None:
        return self.planner_llm_base_url or self.llm_base_url

    @property
    def model(self) -> str | None:
        return self.planner_llm_model or self.llm_model

    @property
    def api_key(self) -> SecretStr | None:
        return self.planner_llm_api_key or self.llm_api_key

    @property
    def enabled(self) -> bool:
        return self.planner_llm != "off" and bool(self.base_url and self.model)
