"""Synthesis: one answer text for the person from the steps of a ``report`` plan.

* :class:`ConcatSynthesis` (default) appends each successful step's explanation and reports the
  gaps (steps that failed, were skipped or cancelled) in the person's language.
* :class:`LlmSynthesis` asks an OpenAI-compatible ``/chat/completions`` endpoint to weave the
  findings together (configured by :class:`shared.settings.LlmSettings`); if that call fails the
  answer falls back to concatenation and says so in ``strategy``.

Both report ``confidence`` (the weakest successful step's confidence scaled by the share of
required steps that answered) and ``gaps``.
"""

from __future__ import annotations

import json
import logging
from typing import Protocol

import httpx
from pydantic import BaseModel, Field

from shared import i18n
from shared.models import StepTrace
from shared.settings import LlmSettings
from shared.status import RunStatus

log = logging.getLogger(__name__)


class Gap(BaseModel):
    step: int
    capability: str
    status: RunStatus
    reason: str = ""


class Synthesis(BaseModel):
    text: str
    confidence: float = Field(ge=0.0, le=1.0)
    gaps: list[Gap] = Field(default_factory=list)
    strategy: str


class SynthesisStrategy(Protocol):
    name: str

    async def synthesize(
        self, query: str, traces: list[StepTrace], required: dict[int, bool], language: str
    ) -> Synthesis: ...


def gaps_of(traces: list[StepTrace]) -> list[Gap]:
    return [
        Gap(step=t.id, capability=t.capability, status=t.status, reason=t.error or "")
        for t in traces
        if t.status is not RunStatus.COMPLETED
    ]


def confidence_of(traces: list[StepTrace], required: dict[int, bool]) -> float:
    done = [t for t in traces if t.status is RunStatus.COMPLETED and t.output is not None]
    if not done:
        return 0.0
    wanted = [t for t in traces if required.get(t.id, True)] or traces
    coverage = sum(1 for t in wanted if t.status is RunStatus.COMPLETED) / len(wanted)
    return round(min(t.output.confidence for t in done if t.output) * coverage, 4)


def _gap_lines(gaps: list[Gap], language: str) -> list[str]:
    """One line per reason a part was not answered, in the person's words (the capability and
    status stay in the trace, for operators); two steps failed for one reason read as one line."""
    lines = (
        f"- {g.reason}"  # the domain's words, already in the person's language
        if g.reason
        else i18n.t("synthesis.gap_no_reason", language, step=g.step)
        for g in gaps
    )
    return list(dict.fromkeys(lines))


class ConcatSynthesis:
    name = "concat"

    async def synthesize(
        self, query: str, traces: list[StepTrace], required: dict[int, bool], language: str
    ) -> Synthesis:
        found = [t.output.explanation for t in traces if t.status is RunStatus.COMPLETED and t.output]
        gaps = gaps_of(traces)
        lines = [line for line in found if line]
        if gaps:
            lines.append(i18n.t("synthesis.gaps_header", language))
            lines.extend(_gap_lines(gaps, language))
        return Synthesis(
            text="\n".join(lines), confidence=confidence_of(traces, required), gaps=gaps, strategy=self.name
        )


class LlmSynthesis:
    name = "llm"

    def __init__(
        self, base_url: str, model: str, *, api_key: str | None = None, http: httpx.AsyncClient | None = None
    ):
        self.base_url = base_url.rstrip("/")
        self.model = model
        self._api_key = api_key
        self._http = http
        self._fallback = ConcatSynthesis()

    async def synthesize(
        self, query: str, traces: list[StepTrace], required: dict[int, bool], language: str
    ) -> Synthesis:
        gaps = gaps_of(traces)
        findings = [
            {"step": t.id, "capability": t.capability, "finding": t.output.explanation}
            for t in traces
            if t.status is RunStatus.COMPLETED and t.output
        ]
        # the prompt is in English, so the language's name is too
        lang = i18n.t(f"language.{i18n.as_language(language)}", "en")
        messages = [
            {
                "role": "system",
                "content": f"Write one short, final answer in {lang} using ONLY the findings. "
                "Mention what could not be answered (gaps). No preamble.",
            },
            {
                "role": "user",
                "content": json.dumps(
                    {
                        "question": query,
                        "findings": findings,
                        "gaps": [g.model_dump(mode="json") for g in gaps],
                    },
                    ensure_ascii=False,
                ),
            },
        ]
        try:
            answer = await self._complete(messages)
        except (httpx.HTTPError, ValueError, KeyError, IndexError, TypeError) as exc:
            log.warning("LLM synthesis failed (%s); falling back to concatenation", type(exc).__name__)
            fallback = await self._fallback.synthesize(query, traces, required, language)
            return fallback.model_copy(update={"strategy": "llm->concat fallback"})
        return Synthesis(
            text=answer, confidence=confidence_of(traces, required), gaps=gaps, strategy=self.name
        )

    async def _complete(self, messages: list[dict[str, str]]) -> str:
        headers = {"Authorization": f"Bearer {self._api_key}"} if self._api_key else {}
        body = {"model": self.model, "messages": messages, "temperature": 0}
        url = f"{self.base_url}/chat/completions"
        if self._http is not None:
            response = await self._http.post(url, json=body, headers=headers)
        else:
            async with httpx.AsyncClient(timeout=20.0) as http:
                response = await http.post(url, json=body, headers=headers)
        response.raise_for_status()
        content = response.json()["choices"][0]["message"]["content"]
        if not isinstance(content, str) or not content.strip():
            raise ValueError("empty completion")
        return content.strip()


def synthesis_from_settings(settings: LlmSettings) -> SynthesisStrategy:
    """``llm`` when the settings name an endpoint and a model, else ``concat``."""
    if settings.llm_base_url and settings.llm_model:
        key = settings.llm_api_key.get_secret_value() if settings.llm_api_key is not None else None
        return LlmSynthesis(settings.llm_base_url, settings.llm_model, api_key=key or None)
    return ConcatSynthesis()
