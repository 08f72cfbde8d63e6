"""Learning a catalog change quickly, from the model that answers now (a warm start).

A full training fits the TF-IDF and embedding classifiers six times each (five held-out folds
for calibration, then on everything): with a hundred goals that takes minutes on a small CPU.
A runtime change (one domain registered, replaced or removed) leaves most of the catalog as it
was, so the changed catalog is learned by

- keeping the previous TF-IDF vocabulary and idf weights (the carried weights were learned with
  them), extended by the n-grams of the new goals' documents, and carrying the previous weights
  and centroids over: each kept goal's column, each kept n-gram's row (refitting the vocabulary
  on every document would cut them all into n-grams again, a quarter of a second at 150 goals;
  n-grams found only in changed documents of kept goals wait for the full training);
- training only the new goals' columns: the one-vs-rest loss trains each goal's column on its
  own, so they are a small classifier over their own documents and a sample of the others (the
  kept columns wait for the full training to see the new documents as negatives);
- a few epochs of the sentence-embedding classifier from its previous weights (cheap: 384
  dimensions), when the encoder is in use; only new texts are encoded
  (``intent.embedding_cache``), in a thread of their own while the TF-IDF columns train (the
  encoder runs outside the GIL);
- keeping the previous calibration (temperatures, confidence maps, fast-path threshold): the
  kept goals' scores barely move, so it still fits.

The result is *provisional*: the adapter installs it at once and runs the full training in the
background, which replaces it (``intent.embedded``).
"""

from __future__ import annotations

import dataclasses
import math
from collections import Counter
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor

import numpy as np
import numpy.typing as npt

from intent.classifier import DenseConfig, DenseSoftmaxClassifier, SoftmaxClassifier, TrainConfig
from intent.embedding_cache import TextEncoder
from intent.entities import GoalEntityExtractor
from intent.features import Csr, FloatArray, IntArray, TfidfFeatures, vocabulary_grams
from intent.model import EmbeddedModel, EmbeddingPart
from shared.catalog import GoalRef

#: Passes over the documents from the carried weights (a full training makes far more), and at
#: least this many optimiser updates, so a small catalog's new goals are learned too.
WARM_EPOCHS = 4
WARM_DENSE_EPOCHS = 3
WARM_MIN_STEPS = 100
#: Documents of other goals the new goals' columns are trained against (a sample: a full pass
#: over a large catalog costs more than it teaches a provisional model).
WARM_NEGATIVES = 800
#: Warm-start only when the previous model knows at least this share of the new catalog's goals,
#: and the catalog has at least this many documents (a small one trains fully in a few seconds,
#: with its own calibration).
MIN_KEPT_SHARE = 0.5
WARM_MIN_DOCUMENTS = 200


@dataclasses.dataclass
class Documents:
    """What a catalog is learned from: its documents (texts, goal labels) and the sentence
    encoder to encode them with (None: TF-IDF alone)."""

    goals: list[GoalRef]
    texts: list[str]
    y: IntArray
    encoder: TextEncoder | None
    extractors: dict[tuple[str, str], GoalEntityExtractor]


def goal_mapping(previous: list[GoalRef], goals: list[GoalRef]) -> tuple[IntArray, IntArray]:
    """(new indices, previous indices) of the goals both catalogs have."""
    before = {(g.domain, g.goal.goal): i for i, g in enumerate(previous)}
    pairs = [
        (i, before[(g.domain, g.goal.goal)]) for i, g in enumerate(goals) if (g.domain, g.goal.goal) in before
    ]
    new = np.array([p[0] for p in pairs], dtype=np.int64)
    old = np.array([p[1] for p in pairs], dtype=np.int64)
    return new, old


def worth_warm_start(previous: EmbeddedModel, goals: list[GoalRef], documents: int) -> bool:
    """Whether a warm start pays: a large catalog whose goals ``previous`` mostly knows already."""
    kept, _ = goal_mapping(previous.goals, goals)
    return documents >= WARM_MIN_DOCUMENTS and len(kept) >= MIN_KEPT_SHARE * len(goals)


def carried_rows(
    previous: TfidfFeatures, features: TfidfFeatures, matrix: FloatArray, classes: tuple[IntArray, IntArray]
) -> FloatArray:
    """``matrix`` (rows: ``previous``' n-grams, columns: previous goals) moved to ``features``'
    n-grams and the new goal order; new n-grams and new goals are zero."""
    _, old_cls = classes
    old_vocab = previous.vocab
    pairs = [(i, old_vocab[g]) for g, i in features.vocab.items() if g in old_vocab]
    new_rows = np.array([0, *(p[0] for p in pairs)], dtype=np.int64)  # row 0 is the bias
    old_rows = np.array([0, *(p[1] for p in pairs)], dtype=np.int64)
    out = np.zeros((features.n_features, len(old_cls)), dtype=np.float32)
    out[new_rows] = matrix[np.ix_(old_rows, old_cls)]
    return out


def extended_features(previous: TfidfFeatures, texts: Sequence[str], n_documents: int) -> TfidfFeatures:
    """``previous``' vocabulary and idf weights, plus the n-grams of ``texts`` it lacks (those in at
    least ``min_df`` of them), weighted as a fit on all ``n_documents`` documents would weigh an
    n-gram found in those texts only. ``previous`` itself when ``texts`` add nothing."""
    df: Counter[str] = Counter()
    for text in texts:
        df.update(set(vocabulary_grams(text, previous.char_range)))
    added = sorted(g for g, n in df.items() if n >= previous.min_df and g not in previous.vocab)
    if not added:
        return previous
    counts = np.array([df[g] for g in added], dtype=np.float32)
    idf = np.concatenate([previous.idf, np.log((1 + n_documents) / (1 + counts)) + 1.0])
    return TfidfFeatures.restore(
        [*previous.grams, *added],
        idf.astype(np.float32),
        min_df=previous.min_df,
        char_range=previous.char_range,
        char_weight=previous.char_weight,
    )


def warm_start(
    previous: EmbeddedModel, docs: Documents, config: TrainConfig, dense: DenseConfig
) -> EmbeddedModel:
    """The model of ``docs``' catalog, trained from ``previous`` (see the module docstring)."""
    n_classes = len(docs.goals)
    classes = goal_mapping(previous.goals, docs.goals)
    kept, _ = classes
    new = np.setdiff1d(np.arange(n_classes), kept)
    encoder = docs.encoder if previous.embedding is not None else None
    with ThreadPoolExecutor(max_workers=1, thread_name_prefix="warm-start-encoder") as pool:
        # the encoder runs outside the GIL: the new texts are encoded while the TF-IDF part trains
        vectors = pool.submit(encoder.encode, docs.texts) if encoder is not None else None
        new_texts = [docs.texts[i] for i in np.flatnonzero(np.isin(docs.y, new))]
        features = extended_features(previous.features, new_texts, len(docs.texts))
        classifier, centroids = _warm_tfidf(previous, docs, features, classes, config)
        embedding = None
        if previous.embedding is not None and vectors is not None:
            embedding = _warm_embedding(previous.embedding, docs, vectors.result(), classes, dense)
    return EmbeddedModel(
        goals=docs.goals,
        features=features,
        classifier=classifier,
        centroids=centroids,
        temperature=previous.temperature,
        platt=previous.platt,
        extractors=docs.extractors,
        report=dataclasses.replace(previous.report),
        embedding=embedding,
        provisional=True,
    )


def _warm_tfidf(
    previous: EmbeddedModel,
    docs: Documents,
    features: TfidfFeatures,
    classes: tuple[IntArray, IntArray],
    config: TrainConfig,
) -> tuple[SoftmaxClassifier, FloatArray]:
    """The TF-IDF classifier and goal centroids over ``features``, trained from ``previous``'."""
    n_classes = len(docs.goals)
    kept, _ = classes
    new = np.setdiff1d(np.arange(n_classes), kept)
    weights = np.zeros((features.n_features, n_classes), dtype=np.float32)
    weights[:, kept] = carried_rows(previous.features, features, previous.classifier.weights, classes)
    centroids = np.zeros_like(weights)
    centroids[:, kept] = _unit_columns(carried_rows(previous.features, features, previous.centroids, classes))
    if config.loss != "hinge":  # softmax couples the columns: every one is trained, on every document
        x = features.transform(docs.texts)
        quick = _quick(config, x.n_rows)
        weights = SoftmaxClassifier(n_classes, quick).fit(x, docs.y, initial=weights).weights
        centroids[:, new] = goal_centroids(x, docs.y, n_classes)[:, new]
    elif len(new):
        # one-vs-rest: each goal's column is trained on its own, so the new goals are a small
        # classifier (their columns plus one for "any other goal", dropped) over their documents
        # and a sample of the others; the kept columns wait for the full training
        rows = _training_rows(docs.y, new)
        x = features.transform([docs.texts[i] for i in rows])
        position = np.full(n_classes, len(new), dtype=np.int64)
        position[new] = np.arange(len(new))
        small = SoftmaxClassifier(len(new) + 1, _quick(config, x.n_rows)).fit(x, position[docs.y[rows]])
        weights[:, new] = small.weights[:, : len(new)]
        centroids[:, new] = goal_centroids(x, position[docs.y[rows]], len(new) + 1)[:, : len(new)]
    classifier = SoftmaxClassifier(n_classes, config)
    classifier.weights = weights
    return classifier, centroids


def _quick(config: TrainConfig, rows: int) -> TrainConfig:
    batches = max(1, math.ceil(rows / config.batch_size))
    return dataclasses.replace(config, epochs=max(WARM_EPOCHS, math.ceil(WARM_MIN_STEPS / batches)))


def _training_rows(y: IntArray, new: IntArray) -> IntArray:
    """Every document of the new goals and an evenly spread sample of the others (negatives)."""
    is_new = np.isin(y, new)
    others = np.flatnonzero(~is_new)
    step = max(1, math.ceil(len(others) / WARM_NEGATIVES))
    rows: IntArray = np.sort(np.concatenate([np.flatnonzero(is_new), others[::step]]))
    return rows


def goal_centroids(x: Csr, labels: IntArray, n_classes: int) -> FloatArray:
    """Unit-length mean feature vector of each goal (bias row excluded), as the full training's."""
    c = np.zeros((x.n_cols, n_classes), dtype=np.float32)
    np.add.at(c, (x.indices, labels[x.row_ids()]), x.data)
    c[0] = 0.0
    return _unit_columns(c)


def _unit_columns(matrix: FloatArray) -> FloatArray:
    norms = np.linalg.norm(matrix, axis=0).astype(np.float32)
    norms[norms == 0] = 1.0
    out: FloatArray = (matrix / norms).astype(np.float32)
    return out


def _warm_embedding(
    previous: EmbeddingPart,
    docs: Documents,
    vectors: FloatArray,
    classes: tuple[IntArray, IntArray],
    dense: DenseConfig,
) -> EmbeddingPart:
    new_cls, old_cls = classes
    n_classes = len(docs.goals)
    weights = np.zeros((previous.classifier.weights.shape[0], n_classes), dtype=np.float32)
    bias = np.zeros(n_classes, dtype=np.float32)
    weights[:, new_cls] = previous.classifier.weights[:, old_cls]
    bias[new_cls] = previous.classifier.bias[old_cls]
    quick = dataclasses.replace(dense, epochs=WARM_DENSE_EPOCHS, min_steps=WARM_MIN_STEPS)
    classifier = DenseSoftmaxClassifier(n_classes, quick).fit(vectors, docs.y, initial=(weights, bias))
    examples, offsets = grouped_examples(vectors, docs.y, n_classes)
    return dataclasses.replace(previous, classifier=classifier, examples=examples, offsets=offsets)


def grouped_examples(
    vectors: FloatArray, y: IntArray, n_classes: int
) -> tuple[FloatArray, npt.NDArray[np.int64]]:
    """Vectors ordered by goal and each goal's start (``EmbeddingPart.examples`` / ``offsets``)."""
    order = np.argsort(y, kind="stable")
    offsets = np.searchsorted(y[order], np.arange(n_classes + 1)).astype(np.int64)
    return vectors[order], offsets
