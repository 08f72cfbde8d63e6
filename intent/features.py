"""TF-IDF features over normalised text: word 1-2 grams plus char 2-5 grams inside word boundaries.

Word n-grams carry meaning; character n-grams make the model tolerant of missing accents, plural
endings and small typos ("cotacao", "cotaçao", "cotaco" share most of their n-grams). Each block
is L2-normalised on its own and the blocks are concatenated, as scikit-learn's FeatureUnion of two
TfidfVectorizers would do. Matrices are kept as CSR arrays in plain numpy (no scipy needed).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import pairwise

import numpy as np
import numpy.typing as npt

from intent.text import words

FloatArray = npt.NDArray[np.float32]
IntArray = npt.NDArray[np.int64]

#: Column 0 is a constant bias feature, so every row has at least one non-zero entry.
BIAS = 0


def analyse(text: str, char_range: tuple[int, int] = (2, 5)) -> tuple[list[str], list[str]]:
    """The word and char n-grams of a text (normalised)."""
    ws = words(text)
    word_grams = ws + [f"{a} {b}" for a, b in pairwise(ws)]
    lo, hi = char_range
    char_grams: list[str] = []
    for w in ws:
        padded = f" {w} "
        for n in range(lo, hi + 1):
            if n > len(padded):
                break
            char_grams.extend(padded[i : i + n] for i in range(len(padded) - n + 1))
    return word_grams, char_grams


def vocabulary_grams(text: str, char_range: tuple[int, int] = (2, 5)) -> list[str]:
    """The n-grams of a text as :class:`TfidfFeatures` names its columns: word n-grams prefixed
    ``w``, char n-grams ``c`` (the same string is a different column in each)."""
    word_grams, char_grams = analyse(text, char_range)
    return ["w" + g for g in word_grams] + ["c" + g for g in char_grams]


@dataclass
class Csr:
    """A minimal CSR matrix: row i has columns ``indices[indptr[i]:indptr[i+1]]``."""

    indptr: IntArray
    indices: IntArray
    data: FloatArray
    n_cols: int

    @property
    def n_rows(self) -> int:
        return len(self.indptr) - 1

    def rows(self, which: IntArray) -> Csr:
        """Sub-matrix of the given rows (vectorised gather)."""
        starts = self.indptr[which]
        lengths = self.indptr[which + 1] - starts
        indptr = np.zeros(len(which) + 1, dtype=np.int64)
        np.cumsum(lengths, out=indptr[1:])
        offsets = np.repeat(starts - indptr[:-1], lengths) + np.arange(indptr[-1])
        return Csr(indptr, self.indices[offsets], self.data[offsets], self.n_cols)

    def dot(self, dense: FloatArray) -> FloatArray:
        """``self @ dense`` for a dense (n_cols, k) matrix; every row must be non-empty."""
        contrib = dense[self.indices] * self.data[:, None]
        out: FloatArray = np.add.reduceat(contrib, self.indptr[:-1], axis=0)
        return out

    def row_ids(self) -> IntArray:
        return np.repeat(np.arange(self.n_rows), np.diff(self.indptr))


class TfidfFeatures:
    """Fit a vocabulary and idf weights on training texts; transform texts to L2-normalised rows."""

    def __init__(self, *, min_df: int = 1, char_range: tuple[int, int] = (2, 5), char_weight: float = 1.0):
        self.min_df = min_df
        self.char_range = char_range
        self.char_weight = char_weight
        self.vocab: dict[str, int] = {}
        self.idf: FloatArray = np.zeros(1, dtype=np.float32)
        self._is_char: npt.NDArray[np.bool_] = np.zeros(1, dtype=bool)
        #: char n-gram columns of vocabulary words, as ``_char_columns`` found them
        self._word_char_columns: dict[str, tuple[int, ...]] = {}

    @property
    def n_features(self) -> int:
        return len(self.vocab) + 1

    @property
    def grams(self) -> list[str]:
        """The vocabulary in column order (column ``i + 1`` is ``grams[i]``)."""
        return list(self.vocab)

    @classmethod
    def restore(
        cls,
        grams: Sequence[str],
        idf: FloatArray,
        *,
        min_df: int = 1,
        char_range: tuple[int, int] = (2, 5),
        char_weight: float = 1.0,
    ) -> TfidfFeatures:
        """Features as ``fit`` left them, from ``grams`` and ``idf`` (what ``intent.model_store`` keeps)."""
        if len(idf) != len(grams) + 1:
            raise ValueError(f"{len(grams)} grams need {len(grams) + 1} idf weights, got {len(idf)}")
        features = cls(min_df=min_df, char_range=char_range, char_weight=char_weight)
        features._set_vocabulary(list(grams), idf.astype(np.float32))
        return features

    def _grams(self, text: str) -> list[str]:
        return vocabulary_grams(text, self.char_range)

    def fit(self, texts: Sequence[str]) -> TfidfFeatures:
        df: Counter[str] = Counter()
        for text in texts:
            df.update(set(self._grams(text)))
        kept = sorted(g for g, n in df.items() if n >= self.min_df)
        n_docs = len(texts)
        idf = np.ones(len(kept) + 1, dtype=np.float32)
        counts = np.array([df[g] for g in kept], dtype=np.float32)
        idf[1:] = np.log((1 + n_docs) / (1 + counts)) + 1.0
        self._set_vocabulary(kept, idf)
        return self

    def _set_vocabulary(self, kept: list[str], idf: FloatArray) -> None:
        self.vocab = {g: i + 1 for i, g in enumerate(kept)}
        self.idf = idf
        self._word_char_columns = {}
        is_char = np.zeros(self.n_features, dtype=bool)
        is_char[1:] = [g.startswith("c") for g in kept]
        self._is_char = is_char

    def row(self, text: str) -> tuple[npt.NDArray[np.int64], FloatArray]:
        """One text as (columns, values) arrays, the bias column first: the per-message path."""
        counts = self._counts(text)
        if not counts:
            return np.array([BIAS], dtype=np.int64), np.ones(1, dtype=np.float32)
        cols = np.empty(len(counts) + 1, dtype=np.int64)
        cols[0] = BIAS
        cols[1:] = np.fromiter(counts.keys(), dtype=np.int64, count=len(counts))
        tf = 1.0 + np.log(np.fromiter(counts.values(), dtype=np.float32, count=len(counts)))
        vals = np.empty(len(cols), dtype=np.float32)
        vals[0] = 1.0
        body = vals[1:]  # a view: normalising it fills ``vals``
        body[:] = tf * self.idf[cols[1:]]
        is_char = self._is_char[cols[1:]]
        for mask, weight in ((is_char, self.char_weight), (~is_char, 1.0)):
            norm = float(np.sqrt(np.sum(body[mask] ** 2)))
            if norm > 0:
                body[mask] *= weight / norm
        return cols, vals

    def _counts(self, text: str) -> Counter[int]:
        """How often each known n-gram occurs in ``text``, by column."""
        vocab = self.vocab
        ws = words(text)
        keys = ["w" + w for w in ws]
        keys += [f"w{a} {b}" for a, b in pairwise(ws)]
        columns = [vocab[k] for k in keys if k in vocab]
        for w in ws:
            columns += self._char_columns(w)
        return Counter(columns)

    def _char_columns(self, word: str) -> tuple[int, ...]:
        """The columns of ``word``'s known char n-grams, in order. A vocabulary word's are kept
        (the vocabulary bounds them): messages are mostly words the catalog uses."""
        known = self._word_char_columns.get(word)
        if known is not None:
            return known
        padded = f" {word} "
        lo, hi = self.char_range
        keys = [
            f"c{padded[i : i + n]}"
            for n in range(lo, min(hi, len(padded)) + 1)
            for i in range(len(padded) - n + 1)
        ]
        columns = tuple(self.vocab[k] for k in keys if k in self.vocab)
        if "w" + word in self.vocab:
            self._word_char_columns[word] = columns
        return columns

    def _row(self, text: str) -> tuple[list[int], list[float]]:
        cols, vals = self.row(text)
        return cols.tolist(), vals.tolist()

    def transform(self, texts: Sequence[str]) -> Csr:
        indptr = [0]
        indices: list[int] = []
        data: list[float] = []
        for text in texts:
            cols, vals = self._row(text)
            indices.extend(cols)
            data.extend(vals)
            indptr.append(len(indices))
        return Csr(
            np.asarray(indptr, dtype=np.int64),
            np.asarray(indices, dtype=np.int64),
            np.asarray(data, dtype=np.float32),
            self.n_features,
        )
