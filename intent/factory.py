"""Choosing the adapter from settings."""

from __future__ import annotations

from intent.base import IntentAdapter
from intent.classifier import TrainConfig
from intent.embedded import EmbeddedIntentAdapter
from intent.lexical import LexicalIntentAdapter
from intent.settings import IntentSettings


def build_adapter(settings: IntentSettings | None = None) -> IntentAdapter:
    """Embedded unless ``LLM_BASE_URL`` + ``LLM_MODEL`` are set (or ``INTENT_ADAPTER`` says otherwise)."""
    settings = settings or IntentSettings()
    kind = settings.intent_adapter
    if kind == "lexical":
        return LexicalIntentAdapter(oos_threshold=settings.intent_oos_threshold)
    embedded = EmbeddedIntentAdapter(
        oos_threshold=settings.intent_oos_threshold,
        choice_margin=settings.intent_choice_margin,
        use_embeddings=settings.intent_embeddings,
        cache_dir=settings.intent_cache_dir,
        time_zone=settings.intent_time_zone,
        config=TrainConfig(augment=settings.intent_augment),
    )
    if kind == "llm" or (kind == "auto" and settings.llm_enabled):
        from intent.llm import LlmIntentAdapter

        return LlmIntentAdapter(settings, fallback=embedded)
    return embedded
