"""Registration lint: goals of different domains that people could confuse.

When a domain registers, its goals are compared with every other domain's goals by TF-IDF cosine
of their descriptions + examples; pairs above the threshold are reported so a conflict is
visible before it misroutes people.

The vectors are the ones ``intent.features.TfidfFeatures`` (fitted on the goals' texts, one text
per goal) would give: idf over the catalog's goals, ``1 + log(count)`` term weights, the word and
char n-gram blocks each normalised to unit length. Cutting each goal's text into n-grams is most
of the cost, and from one registration to the next almost every goal's text is unchanged: each
text's n-gram counts are kept (:class:`NgramCounts`), so a registration cuts only the new
domain's texts (the gateway lints its catalog once at start for that); only the pairs involving
the registering domain are scored.
"""

from __future__ import annotations

import threading
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt
from pydantic import BaseModel

from intent.embedded import goal_documents
from intent.features import FloatArray, IntArray, vocabulary_grams
from shared.catalog import Catalog


class GoalOverlap(BaseModel):
    domain_a: str
    goal_a: str
    domain_b: str
    goal_b: str
    similarity: float


#: The numbered n-grams :class:`NgramCounts` keeps before it starts afresh (each registration of
#: changed texts numbers a few more; 160 goals use ~6,000).
MAX_NGRAMS = 100_000


@dataclass(frozen=True)
class _Ngrams:
    """One text's distinct n-grams as column numbers, their counts, and which are char n-grams."""

    columns: IntArray
    counts: FloatArray
    is_char: npt.NDArray[np.bool_]


class NgramCounts:
    """The n-gram counts of the texts of the last catalog linted, by text (content, not identity):
    a text seen then is not cut again. N-grams are numbered once, in the order first met."""

    def __init__(self, max_ngrams: int = MAX_NGRAMS) -> None:
        self.max_ngrams = max_ngrams
        self._by_text: dict[str, _Ngrams] = {}
        self._numbers: dict[str, int] = {}
        self._lock = threading.Lock()  # registrations lint in worker threads

    def __len__(self) -> int:
        return len(self._by_text)

    @property
    def n_columns(self) -> int:
        """How many n-grams are numbered (up to ``max_ngrams``, then they are numbered afresh)."""
        return len(self._numbers)

    def of(self, texts: Sequence[str]) -> list[_Ngrams]:
        with self._lock:
            if len(self._numbers) > self.max_ngrams:
                self._by_text, self._numbers = {}, {}
            found = [self._by_text.get(text) or self._cut(text) for text in texts]
            # only this catalog's texts are kept: the texts of a replaced domain go
            self._by_text = dict(zip(texts, found, strict=True))
            return found

    def _cut(self, text: str) -> _Ngrams:
        counts = Counter(vocabulary_grams(text))
        numbers = self._numbers
        return _Ngrams(
            columns=np.array([numbers.setdefault(g, len(numbers)) for g in counts], dtype=np.int64),
            counts=np.array(list(counts.values()), dtype=np.float32),
            is_char=np.array([g[0] == "c" for g in counts], dtype=bool),
        )


_COUNTS = NgramCounts()


def goal_overlaps(catalog: Catalog, threshold: float = 0.3, domain: str | None = None) -> list[GoalOverlap]:
    """Cross-domain goal pairs whose text similarity is at least ``threshold``, most similar first.

    ``domain`` limits the report to pairs involving that domain (the one registering).
    """
    goals = catalog.goals()
    if len(goals) < 2:
        return []
    texts = []
    for ref in goals:
        fixed, examples = goal_documents(ref, catalog)
        texts.append(" . ".join([*fixed, *examples]))
    vectors = _tfidf_rows(_COUNTS.of(texts))
    involved = [i for i, ref in enumerate(goals) if domain is None or ref.domain == domain]
    sims = vectors[involved] @ vectors.T
    pairs: dict[tuple[int, int], float] = {}
    for row, i in enumerate(involved):
        for j in np.flatnonzero(sims[row] >= threshold).tolist():
            if goals[i].domain != goals[j].domain:
                pairs[min(i, j), max(i, j)] = float(sims[row, j])
    found = [
        GoalOverlap(
            domain_a=goals[i].domain,
            goal_a=goals[i].goal.goal,
            domain_b=goals[j].domain,
            goal_b=goals[j].goal.goal,
            similarity=round(similarity, 3),
        )
        for (i, j), similarity in sorted(pairs.items())
    ]
    return sorted(found, key=lambda o: -o.similarity)


def _tfidf_rows(texts: list[_Ngrams]) -> FloatArray:
    """Unit-length TF-IDF rows of ``texts`` (dense: one row per goal, one column per n-gram they
    use), idf fitted on them."""
    numbered = np.concatenate([t.columns for t in texts])
    used, columns = np.unique(numbered, return_inverse=True)  # the n-grams these texts use, 0..k-1
    df = np.bincount(columns, minlength=len(used))
    idf = (np.log((1 + len(texts)) / (1 + df)) + 1.0).astype(np.float32)
    rows = np.zeros((len(texts), len(used)), dtype=np.float32)
    start = 0
    for i, text in enumerate(texts):
        cols = columns[start : start + len(text.columns)]
        start += len(text.columns)
        values = (1.0 + np.log(text.counts)) * idf[cols]
        for block in (text.is_char, ~text.is_char):  # each block unit length, as TfidfFeatures does
            norm = float(np.sqrt(np.sum(values[block] ** 2)))
            if norm > 0:
                values[block] /= norm
        rows[i, cols] = values
    rows /= np.maximum(np.linalg.norm(rows, axis=1, keepdims=True), 1e-12)
    return rows
