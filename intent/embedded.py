"""The embedded adapter: offline, deterministic, learns only from the registered manifests.

Training documents per goal: its description, its examples, the ``intent_hints`` (keywords and
examples) of every capability it maps to, and its enum values with their synonyms. Features are
TF-IDF word 1-2 + char 2-5 grams (``intent.features``), the classifier a linear model
(``intent.classifier``), and confidence is calibrated on held-out examples
(``intent.calibration``). Everything is rebuilt by ``update_catalog``.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import numpy.typing as npt

from intent.base import CHOICE_NOTE, DEFAULT_CHOICE_MARGIN, too_close
from intent.calibration import PlattCalibrator, expected_calibration_error, fit_temperature
from intent.classifier import SoftmaxClassifier, TrainConfig, softmax
from intent.entities import GoalEntityExtractor
from intent.features import Csr, FloatArray, TfidfFeatures
from intent.text import detect_language
from shared.catalog import Catalog, GoalRef
from shared.models import GoalCandidate, IntentOutput

#: Minimum optimiser updates, so a catalog of a few dozen examples still converges.
MIN_STEPS = 400


@dataclass
class _Doc:
    text: str
    label: int
    #: examples may be held out for calibration; descriptions/keywords always train
    holdout_ok: bool


@dataclass
class CalibrationReport:
    """What the held-out fit measured (shown by the benchmark and useful in logs)."""

    temperature: float = 1.0
    platt: tuple[float, float] = (1.0, 0.0)
    inscope: tuple[float, float] | None = None
    heldout: int = 0
    heldout_accuracy: float = 0.0
    ece_before: float = 0.0
    ece_after: float = 0.0
    negatives: int = 0


def goal_documents(ref: GoalRef, catalog: Catalog) -> tuple[list[str], list[str]]:
    """(always-train texts, example texts) a goal is learned from."""
    goal = ref.goal
    fixed = [goal.description]
    manifest = catalog.manifest(ref.domain)
    mapped = list(goal.capabilities)
    for spec in goal.entities_schema.values():
        for target in (spec.capability_map or {}).values():
            mapped.extend([target] if isinstance(target, str) else target)
        if spec.type == "enum":
            for value in spec.values or []:
                fixed.append(" ".join([value.replace("_", " ").lower(), *spec.synonyms.get(value, [])]))
    examples = list(goal.example_texts())
    for name in dict.fromkeys(mapped):
        cap = manifest.capability(name) if manifest else None
        if cap is None:
            continue
        hints = cap.metadata.intent_hints
        fixed.extend(hints.keywords)
        examples.extend(hints.examples)
    return fixed, examples


@dataclass
class EmbeddedModel:
    goals: list[GoalRef]
    features: TfidfFeatures
    classifier: SoftmaxClassifier
    centroids: FloatArray
    temperature: float
    platt: PlattCalibrator
    extractors: dict[tuple[str, str], GoalEntityExtractor]
    report: CalibrationReport = field(default_factory=CalibrationReport)


def _centroids(x: Csr, labels: npt.NDArray[np.int64], n_classes: int) -> FloatArray:
    """Unit-length mean feature vector of each goal (bias column excluded)."""
    c = np.zeros((x.n_cols, n_classes), dtype=np.float32)
    rows = x.row_ids()
    np.add.at(c, (x.indices, labels[rows]), x.data)
    c[0] = 0.0
    norms = np.linalg.norm(c, axis=0).astype(np.float32)
    norms[norms == 0] = 1.0
    out: FloatArray = c / norms
    return out


def _similarity(x: Csr, centroids: FloatArray) -> FloatArray:
    """Cosine of each row with each centroid."""
    data = x.data.copy()
    data[x.indices == 0] = 0.0
    norms = np.sqrt(np.add.reduceat(data * data, x.indptr[:-1]))
    norms[norms == 0] = 1.0
    sims = Csr(x.indptr, x.indices, data, x.n_cols).dot(centroids)
    out: FloatArray = (sims / norms[:, None]).astype(np.float32)
    return out


def _train(x: Csr, labels: npt.NDArray[np.int64], n_classes: int, config: TrainConfig) -> SoftmaxClassifier:
    batches = max(1, math.ceil(x.n_rows / config.batch_size))
    epochs = max(config.epochs, math.ceil(MIN_STEPS / batches))
    cfg = TrainConfig(**{**config.__dict__, "epochs": epochs})
    return SoftmaxClassifier(n_classes, cfg).fit(x, labels)


def train_model(
    catalog: Catalog, *, config: TrainConfig | None = None, negatives: Sequence[str] = ()
) -> EmbeddedModel | None:
    """Fit features, classifier and calibration from the catalog (None when it has no goals)."""
    config = config or TrainConfig()
    goals = catalog.goals()
    if not goals:
        return None
    docs: list[_Doc] = []
    for label, ref in enumerate(goals):
        fixed, examples = goal_documents(ref, catalog)
        docs.extend(_Doc(t, label, False) for t in fixed if t.strip())
        docs.extend(_Doc(t, label, True) for t in examples if t.strip())
    texts = [d.text for d in docs]
    features = TfidfFeatures(min_df=2 if len(docs) > 2000 else 1).fit(texts)
    x = features.transform(texts)
    y = np.array([d.label for d in docs], dtype=np.int64)
    n_classes = len(goals)

    # held-out predictions for calibration: k folds on small catalogs, one 20% fold on large ones
    folds = 5
    fold_of = np.full(len(docs), -1, dtype=np.int64)
    seen: dict[int, int] = {}
    for i, d in enumerate(docs):
        if d.holdout_ok:
            seen[d.label] = seen.get(d.label, 0) + 1
            fold_of[i] = seen[d.label] % folds
    counts = np.bincount(y[fold_of >= 0], minlength=n_classes)
    fold_of[(fold_of >= 0) & (counts[y] < 2)] = -1  # a goal's only example always trains
    small = len(docs) <= 3000
    used_folds = range(folds) if small else range(1)
    leave_goal_out = small and not negatives and n_classes >= 3
    left_out = np.zeros(n_classes, dtype=bool)
    held_logits, held_sims, held_labels = [], [], []
    for f in used_folds:
        test = np.flatnonzero(fold_of == f)
        if len(test) == 0:
            continue
        train_mask = fold_of != f
        if leave_goal_out:
            # goals left out of this fold's training: their held-out examples are real
            # out-of-scope text for the remaining catalog (negatives without any extra data)
            left_out = np.arange(n_classes) % folds == f
            train_mask &= ~left_out[y]
        train_idx = np.flatnonzero(train_mask)
        clf = _train(x.rows(train_idx), y[train_idx], n_classes, config)
        cents = _centroids(x.rows(train_idx), y[train_idx], n_classes)
        xt = x.rows(test)
        held_logits.append(clf.logits(xt))
        held_sims.append(_similarity(xt, cents))
        held_labels.append(np.where(left_out[y[test]], -1, y[test]) if leave_goal_out else y[test])
        if negatives:
            xn = features.transform(list(negatives))
            held_logits.append(clf.logits(xn))
            held_sims.append(_similarity(xn, cents))
            held_labels.append(np.full(len(negatives), -1, dtype=np.int64))
    classifier = _train(x, y, n_classes, config)
    centroids = _centroids(x, y, n_classes)
    report = CalibrationReport()
    temperature, platt = 1.0, PlattCalibrator()
    if held_logits:
        logits = np.concatenate(held_logits)
        sims = np.concatenate(held_sims)
        labels = np.concatenate(held_labels)
        inscope = labels >= 0
        temperature = fit_temperature(logits[inscope], labels[inscope])
        probs = softmax(logits / temperature)
        top = probs.argmax(axis=1)
        top_prob = probs.max(axis=1)
        top_sim = sims[np.arange(len(top)), top]
        correct = top == labels
        platt.fit(top_prob, top_sim, correct, ~inscope)
        calibrated = platt(top_prob, top_sim)
        report = CalibrationReport(
            temperature=temperature,
            platt=platt.correct,
            inscope=platt.inscope,
            heldout=int(inscope.sum()),
            heldout_accuracy=float(correct[inscope].mean()) if inscope.any() else 0.0,
            ece_before=expected_calibration_error(top_prob, correct),
            ece_after=expected_calibration_error(calibrated, correct),
            negatives=int((~inscope).sum()),
        )
    extractors = {}
    for ref in goals:
        fixed, _ = goal_documents(ref, catalog)
        extractors[(ref.domain, ref.goal.goal)] = GoalEntityExtractor(ref.goal, extra_carrier=fixed)
    return EmbeddedModel(goals, features, classifier, centroids, temperature, platt, extractors, report)


class EmbeddedIntentAdapter:
    """``IntentAdapter`` over an ``EmbeddedModel``; see the module docstring."""

    name = "embedded"

    def __init__(
        self,
        catalog: Catalog | None = None,
        *,
        oos_threshold: float = 0.8,
        choice_margin: float = DEFAULT_CHOICE_MARGIN,
        config: TrainConfig | None = None,
        negatives: Sequence[str] = (),
    ):
        self.oos_threshold = oos_threshold
        self.choice_margin = choice_margin
        self.config = config or TrainConfig()
        #: out-of-scope texts used only to fit calibration (a benchmark's oos_train), never goals
        self.negatives = list(negatives)
        self.model: EmbeddedModel | None = None
        self.catalog = Catalog()
        if catalog is not None:
            self.update_catalog(catalog)

    def update_catalog(self, catalog: Catalog) -> None:
        self.catalog = catalog
        self.model = train_model(catalog, config=self.config, negatives=self.negatives)

    async def parse(
        self, text: str, *, pinned_domain: str | None = None, context: dict[str, Any] | None = None
    ) -> IntentOutput:
        return self.parse_sync(text, pinned_domain=pinned_domain, context=context)

    def scores(self, text: str, pinned_domain: str | None = None) -> tuple[FloatArray, float, float]:
        """(probabilities over goals, calibrated top confidence, similarity to the top goal)."""
        model = self.model
        if model is None:
            return np.zeros(0, dtype=np.float32), 0.0, 0.0
        cols, vals = model.features.row(text)
        logits = model.classifier.logits_row(cols, vals) / model.temperature
        if pinned_domain is not None:
            mask = np.array([g.domain != pinned_domain for g in model.goals])
            if mask.all():
                return np.zeros(len(model.goals), dtype=np.float32), 0.0, 0.0
            logits = np.where(mask, -np.inf, logits)
        probs = softmax(logits[None, :])[0]
        top = int(probs.argmax())
        body = vals[1:]
        norm = float(np.sqrt(np.dot(body, body))) or 1.0
        sim = float(body @ model.centroids[cols[1:], top]) / norm if len(body) else 0.0
        conf = float(
            model.platt(np.array([probs[top]], dtype=np.float32), np.array([sim], dtype=np.float32))[0]
        )
        return probs, conf, sim

    def parse_sync(
        self, text: str, *, pinned_domain: str | None = None, context: dict[str, Any] | None = None
    ) -> IntentOutput:
        out = IntentOutput(original_query=text, language=detect_language(text), adapter=self.name)
        model = self.model
        if model is None:
            out.notes.append("no goals registered")
            return out
        probs, conf, _ = self.scores(text, pinned_domain)
        if conf == 0.0 and not probs.any():
            out.notes.append(f"pinned domain {pinned_domain!r} has no goals")
            return out
        order = np.argsort(-probs)[:3]
        top_p = float(probs[order[0]]) or 1.0
        out.alternatives = [
            GoalCandidate(
                domain=model.goals[i].domain,
                goal=model.goals[i].goal.goal,
                confidence=round(min(1.0, conf * float(probs[i]) / top_p), 4),
            )
            for i in order
            if probs[i] > 0
        ]
        best = model.goals[int(order[0])]
        out.confidence = round(conf, 4)
        if len(out.alternatives) >= 2 and too_close(
            out.alternatives[0].confidence,
            out.alternatives[1].confidence,
            self.choice_margin,
            self.oos_threshold,
        ):
            a, b = out.alternatives[0], out.alternatives[1]
            out.notes.append(f"{CHOICE_NOTE}: {a.domain}.{a.goal} or {b.domain}.{b.goal}")
        if conf < self.oos_threshold:
            out.notes.append(f"out of scope: confidence {conf:.2f} < threshold {self.oos_threshold:.2f}")
            return out
        out.primary_domain = best.domain
        out.goal = best.goal.goal
        out.entities = model.extractors[(best.domain, best.goal.goal)].extract(text)
        return out

    @property
    def calibration(self) -> CalibrationReport:
        return self.model.report if self.model else CalibrationReport()
