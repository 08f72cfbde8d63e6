"""The three agents as callables: LLM first when configured, the offline rules otherwise.

Each call returns an :class:`AgentResult` with the output JSON, how it was produced (``llm``,
``offline``, or ``offline_fallback`` after an LLM error / invalid reply, with the reason) and the
token counts (the server's ``usage`` with an LLM, an estimate offline).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

from domains.research import analysis
from domains.research.config import AgentConfig
from domains.research.llm import ChatClient, LLMError, LLMReply, parse_json_object
from domains.research.text import Lang, estimate_tokens
from domains.research.wording import MESSAGES
from shared import i18n

Mode = Literal["llm", "offline", "offline_fallback"]


def _answer_language(lang: Lang) -> str:
    """The answer's language named in Portuguese, the language of the agents' prompts."""
    return i18n.t(f"language.{lang}", "pt")


@dataclass(frozen=True)
class AgentResult:
    output: dict[str, Any]
    mode: Mode
    tokens_input: int
    tokens_output: int
    #: Why the offline logic answered although an LLM is configured (``offline_fallback``).
    fallback_reason: str | None = None
    model: str | None = None
    extra: dict[str, Any] = field(default_factory=dict)


# ------------------------------------------------------------------ reply validation


class _Reply(BaseModel):
    model_config = ConfigDict(extra="ignore")


class OrchestratorReply(_Reply):
    maturity: Literal["vague", "semi_formed", "complete"]


class StructurerReply(_Reply):
    context: str = Field(min_length=1)
    problem: str = Field(min_length=1)
    contribution: str = Field(min_length=1)
    structured_question: str = Field(min_length=3)


class Improvement(_Reply):
    aspect: str = Field(min_length=1)
    gap: str = Field(min_length=1)
    suggestion: str = Field(min_length=1)


class MethodologistReply(_Reply):
    status: Literal["approved", "needs_refinement", "rejected"]
    justification: str = Field(min_length=1)
    improvements: list[Improvement] = Field(default_factory=list)
    clarifications: dict[str, Any] = Field(default_factory=dict)

    @model_validator(mode="after")
    def _refinement_says_what(self) -> MethodologistReply:
        if self.status == "needs_refinement" and not self.improvements:
            raise ValueError("needs_refinement without improvements")
        return self


def _first_error(exc: ValidationError) -> str:
    err = exc.errors()[0]
    where = ".".join(str(p) for p in err["loc"]) or "$"
    return f"invalid reply ({where}: {err['msg']})"


# ------------------------------------------------------------------ the agents


class Agents:
    """The runtime of the three configured agents (one per role)."""

    def __init__(self, configs: Mapping[str, AgentConfig], llm: ChatClient | None = None):
        self.configs = dict(configs)
        self.llm = llm

    @property
    def windows(self) -> dict[str, int]:
        return {role: c.memory_window for role, c in self.configs.items()}

    def _memory_context(self, role: str, memory: Sequence[Mapping[str, Any]], lang: Lang) -> str:
        if not memory:
            return ""
        head = MESSAGES.t("agent.memory", lang)
        return head + "\n" + "\n".join(f"- {e['event_id']}: {e['summary']}" for e in memory)

    async def _ask(self, role: str, user: str, memory: Sequence[Mapping[str, Any]], lang: Lang) -> LLMReply:
        """One LLM call within the agent's ``context_limit`` (memory dropped first, then the input cut)."""
        assert self.llm is not None
        config = self.configs[role]
        extra = self._memory_context(role, memory, lang)
        budget = config.context_limit - estimate_tokens(config.prompt)
        if estimate_tokens(extra) + estimate_tokens(user) > budget:
            extra = ""
        if estimate_tokens(user) > budget:
            user = user[: max(0, budget) * 4]
        return await self.llm.complete(config, user, system_extra=extra)

    def _offline(
        self, role: str, prompt_text: str, output: dict[str, Any], reason: str | None
    ) -> AgentResult:
        tokens_in = estimate_tokens(self.configs[role].prompt) + estimate_tokens(prompt_text)
        tokens_out = estimate_tokens(" ".join(str(v) for v in output.values()))
        mode: Mode = "offline" if reason is None else "offline_fallback"
        return AgentResult(output, mode, tokens_in, tokens_out, reason)

    async def _llm_or_offline(
        self,
        role: str,
        user: str,
        memory: Sequence[Mapping[str, Any]],
        lang: Lang,
        reply_model: type[BaseModel],
        offline: Callable[[], dict[str, Any]],
    ) -> AgentResult:
        """The LLM's validated JSON when an LLM is configured and answers well; otherwise the
        offline rules, with the reason the LLM was not used (kept in the result)."""
        reason = None
        if self.llm is not None:
            try:
                reply = await self._ask(role, user, memory, lang)
                parsed = reply_model.model_validate(parse_json_object(reply.content))
                return AgentResult(
                    parsed.model_dump(),
                    "llm",
                    reply.prompt_tokens,
                    reply.completion_tokens,
                    model=reply.model,
                )
            except LLMError as exc:
                reason = str(exc)
            except ValidationError as exc:
                reason = _first_error(exc)
        return self._offline(role, user, offline(), reason)

    async def classify(self, text: str, lang: Lang, memory: Sequence[Mapping[str, Any]] = ()) -> AgentResult:
        """Orchestrator: maturity of the person's text (vague | semi_formed | complete)."""
        user = f"INPUT DO USUÁRIO:\n{text}"
        return await self._llm_or_offline(
            "orchestrator",
            user,
            memory,
            lang,
            OrchestratorReply,
            lambda: {"maturity": analysis.classify_maturity(text)},
        )

    async def structure(
        self,
        idea: str,
        lang: Lang,
        *,
        previous_question: str | None = None,
        details: str | None = None,
        memory: Sequence[Mapping[str, Any]] = (),
    ) -> AgentResult:
        """Structurer: JSON with context, problem, contribution and structured_question."""
        user = f"OBSERVAÇÃO DO USUÁRIO:\n{idea}"
        if previous_question:
            user += f"\n\nVERSÃO ANTERIOR DA QUESTÃO:\n{previous_question}"
        if details:
            user += f"\n\nDETALHES NOVOS PARA O REFINAMENTO:\n{details}"
        user += f"\n\nIDIOMA DA RESPOSTA: {_answer_language(lang)}"
        return await self._llm_or_offline(
            "structurer",
            user,
            memory,
            lang,
            StructurerReply,
            lambda: analysis.structure(idea, lang, previous_question=previous_question, details=details),
        )

    async def evaluate(
        self, question: str, lang: Lang, memory: Sequence[Mapping[str, Any]] = ()
    ) -> AgentResult:
        """Methodologist: status, justification, improvements[{aspect, gap, suggestion}], clarifications."""
        user = f"HIPÓTESE / QUESTÃO A AVALIAR:\n{question}\n\nIDIOMA DA RESPOSTA: {_answer_language(lang)}"
        return await self._llm_or_offline(
            "methodologist", user, memory, lang, MethodologistReply, lambda: analysis.evaluate(question, lang)
        )
