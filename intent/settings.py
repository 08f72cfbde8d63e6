"""Settings of the intent layer (env vars, validated once at start).

``LLM_BASE_URL`` + ``LLM_MODEL`` switch on the LLM adapter (with the embedded one as fallback);
without them the embedded adapter runs alone. ``LLM_API_KEY`` is a secret and never logged.
"""

from __future__ import annotations

from pathlib import Path
from typing import Literal

from pydantic import Field, field_validator

from shared.settings import LlmSettings


class IntentSettings(LlmSettings):
    """The LLM endpoint (``LlmSettings``, a ``ServiceSettings``) plus the intent layer's own knobs."""

    #: "auto" = llm when LLM_BASE_URL and LLM_MODEL are set, else embedded.
    intent_adapter: Literal["auto", "embedded", "lexical", "llm"] = "auto"
    #: One request to the LLM endpoint may take this long; then the fallback adapter answers.
    llm_timeout_s: float = Field(default=8.0, gt=0)
    #: The LLM's sampling temperature for intent parsing.
    llm_temperature: float = Field(default=0.0, ge=0, le=2)
    #: Calibrated confidence below this -> goal=None (out of scope). 0.5 = "more likely right
    #: than wrong" on the calibrated scale (see bench/results/intent.md).
    intent_oos_threshold: float = Field(default=0.5, ge=0, le=1)
    #: Use the sentence encoder (when its packages are installed); False = TF-IDF path only.
    intent_embeddings: bool = True
    #: Learn each goal's examples as typed in chat and with other lookup values swapped in. Off by
    #: default: it lifts held-out goal accuracy, but a one-word request ("cotações") fell out of
    #: scope, a new domain's clear requests were confirmed instead of answered, and CLINC150's
    #: in-scope accuracy dropped (bench/results/understanding.md).
    intent_augment: bool = False
    #: Top two goals closer than this (calibrated) -> "did you mean A or B?".
    intent_choice_margin: float = Field(default=0.2, ge=0, le=1)
    #: The IANA zone "amanhã às 14h" is resolved in when a request's metadata gives none
    #: (``metadata.time_zone`` on /v1/chat/completions and the REST entry).
    intent_time_zone: str = "UTC"
    #: Where trained models are kept and reused while the catalog is unchanged (relative to the
    #: working directory, like the other var/ paths); empty = never stored, train at every start.
    intent_cache_dir: Path | None = Path("var/intent-cache")

    @field_validator("intent_time_zone")
    @classmethod
    def _known_zone(cls, value: str) -> str:
        from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

        try:
            ZoneInfo(value)
        except (ZoneInfoNotFoundError, ValueError):
            raise ValueError(
                f"unknown time zone {value!r} (an IANA name such as 'America/Sao_Paulo')"
            ) from None
        return value

    @field_validator("intent_cache_dir", mode="before")
    @classmethod
    def _blank_is_none(cls, value: object) -> object:
        return value or None
