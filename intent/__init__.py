"""The intent layer: text -> ``IntentOutput`` (goal + human-friendly entities), learned from manifests.

``build_adapter(settings)`` returns the embedded adapter, or the LLM adapter (with the embedded
one as its fallback) when ``LLM_BASE_URL`` and ``LLM_MODEL`` are set.
"""

from __future__ import annotations

from intent.base import IntentAdapter, needs_choice
from intent.factory import build_adapter
from intent.settings import IntentSettings

__all__ = ["IntentAdapter", "IntentSettings", "build_adapter", "needs_choice"]
