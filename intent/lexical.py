"""The lexical adapter: keyword/hint overlap, no training at all.

Kept as the simplest fallback (and a baseline): each goal's vocabulary is the words of its
description, examples, enum synonyms and its capabilities' ``intent_hints``; a message scores
the idf-weighted share of its content words found in a goal's vocabulary.
"""

from __future__ import annotations

import math
from typing import Any

from intent.embedded import goal_documents
from intent.entities import STOP, GoalEntityExtractor
from intent.text import words
from shared.catalog import Catalog, GoalRef
from shared.i18n import detect
from shared.models import GoalCandidate, IntentOutput


class LexicalIntentAdapter:
    name = "lexical"

    def __init__(self, catalog: Catalog | None = None, *, oos_threshold: float = 0.3):
        self.oos_threshold = oos_threshold
        self._goals: list[GoalRef] = []
        self._vocab: list[set[str]] = []
        self._idf: dict[str, float] = {}
        self._extractors: dict[tuple[str, str], GoalEntityExtractor] = {}
        if catalog is not None:
            self.update_catalog(catalog)

    def update_catalog(self, catalog: Catalog) -> None:
        self._goals = catalog.goals()
        self._vocab = []
        self._extractors = {}
        for ref in self._goals:
            fixed, examples = goal_documents(ref, catalog)
            self._vocab.append({w for t in fixed + examples for w in words(t) if w not in STOP})
            self._extractors[(ref.domain, ref.goal.goal)] = GoalEntityExtractor(ref.goal, extra_carrier=fixed)
        n = max(1, len(self._vocab))
        df: dict[str, int] = {}
        for vocab in self._vocab:
            for w in vocab:
                df[w] = df.get(w, 0) + 1
        self._idf = {w: math.log(1 + n / c) for w, c in df.items()}

    async def update_catalog_async(self, catalog: Catalog) -> None:
        self.update_catalog(catalog)  # no training: counting words is instant

    async def parse(
        self, text: str, *, pinned_domain: str | None = None, context: dict[str, Any] | None = None
    ) -> IntentOutput:
        out = IntentOutput(original_query=text, language=detect(text), adapter=self.name)
        content = [w for w in words(text) if w not in STOP]
        if not content or not self._goals:
            return out
        total = sum(self._idf.get(w, 1.0) for w in content)
        scored = []
        for ref, vocab in zip(self._goals, self._vocab, strict=True):
            if pinned_domain is not None and ref.domain != pinned_domain:
                continue
            hit = sum(self._idf.get(w, 1.0) for w in content if w in vocab)
            scored.append((hit / total, ref))
        scored.sort(key=lambda s: -s[0])
        out.alternatives = [
            GoalCandidate(domain=r.domain, goal=r.goal.goal, confidence=round(min(1.0, s), 4))
            for s, r in scored[:3]
        ]
        if not scored or scored[0][0] < self.oos_threshold:
            return out
        score, ref = scored[0]
        out.primary_domain, out.goal, out.confidence = ref.domain, ref.goal.goal, round(min(1.0, score), 4)
        out.entities = self._extractors[(ref.domain, ref.goal.goal)].extract(text)
        return out
