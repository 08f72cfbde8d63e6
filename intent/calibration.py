"""Turning classifier scores into a confidence that behaves like a probability.

Two steps, both fitted on held-out predictions (examples the classifier did not train on):

1. temperature scaling of the linear scores (one parameter, minimises held-out log loss), so the
   softmax over goals is a calibrated distribution *given* that the message is in scope;
2. a Platt-style logistic map from (logit of that top probability, similarity of the message to
   the top goal's examples) to "the top goal is right". Messages unlike anything in the catalog
   have low similarity, so out-of-scope text scores low even though a softmax always sums to one.
   When negative examples are available (a benchmark's out-of-scope training items) they join
   the fit as "never right".

``expected_calibration_error`` measures how far confidence is from accuracy (lower is better).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from intent.classifier import softmax
from intent.features import FloatArray


def fit_temperature(logits: FloatArray, labels: npt.NDArray[np.int64]) -> float:
    """The temperature minimising held-out negative log-likelihood (grid + refinement)."""
    if len(labels) == 0:
        return 1.0

    def nll(t: float) -> float:
        p = softmax(logits / t)
        return float(-np.mean(np.log(p[np.arange(len(labels)), labels] + 1e-12)))

    grid = np.exp(np.linspace(np.log(0.01), np.log(10.0), 60))
    best = float(min(grid, key=nll))
    for _ in range(2):
        fine = np.linspace(best * 0.8, best * 1.25, 15)
        best = float(min(fine, key=nll))
    return best


def _logit(p: FloatArray) -> FloatArray:
    q = np.clip(p, 1e-6, 1 - 1e-6)
    out: FloatArray = np.log(q / (1 - q))
    return out


def fit_logistic_1d(x: FloatArray, y: npt.NDArray[np.bool_], l2: float = 1e-2) -> tuple[float, float]:
    """``(slope, intercept)`` of ``P(y) = sigmoid(slope * x + intercept)`` (damped Newton, ridge)."""
    if len(y) < 4 or y.all() or not y.any():
        return (1.0, 0.0) if y.all() or not len(y) else (0.0, -5.0)
    mu, sd = float(np.mean(x)), float(np.std(x)) or 1.0
    xs = np.stack([(x.astype(np.float64) - mu) / sd, np.ones(len(x))], axis=1)
    t = y.astype(np.float64)
    w = np.zeros(2)
    for _ in range(100):
        z = np.clip(xs @ w, -30, 30)
        p = 1 / (1 + np.exp(-z))
        grad = xs.T @ (p - t) / len(t) + l2 * w
        hess = (xs.T * (p * (1 - p))) @ xs / len(t) + l2 * np.eye(2)
        step = np.linalg.solve(hess, grad)
        step *= min(1.0, 5.0 / (float(np.abs(step).max()) + 1e-12))  # damping
        w -= step
        if float(np.abs(step).max()) < 1e-8:
            break
    slope = float(w[0]) / sd  # back to the raw feature's scale
    return slope, float(w[1]) - slope * mu


@dataclass
class PlattCalibrator:
    """``confidence = P(top goal right | in scope) * P(in scope | similarity)``.

    The first factor maps the logit of the temperature-scaled top probability (fitted on
    held-out in-scope examples); the second maps the cosine similarity of the message to the top
    goal's examples (fitted on held-out in-scope examples vs out-of-scope negatives).
    """

    correct: tuple[float, float] = (1.0, 0.0)
    inscope: tuple[float, float] | None = None

    def fit(
        self,
        top_prob: FloatArray,
        similarity: FloatArray,
        correct: npt.NDArray[np.bool_],
        negative: npt.NDArray[np.bool_],
    ) -> PlattCalibrator:
        pos = ~negative
        if pos.any():
            self.correct = fit_logistic_1d(_logit(top_prob[pos]), correct[pos])
        if negative.any() and pos.any():
            self.inscope = fit_logistic_1d(similarity, pos)
        return self

    def __call__(self, top_prob: FloatArray, similarity: FloatArray) -> FloatArray:
        a, b = self.correct
        out: FloatArray = 1 / (1 + np.exp(-np.clip(a * _logit(top_prob) + b, -30, 30)))
        if self.inscope is not None:
            c, d = self.inscope
            out = out / (1 + np.exp(-np.clip(c * similarity + d, -30, 30)))
        return out.astype(np.float32)


def expected_calibration_error(
    confidence: FloatArray, correct: npt.NDArray[np.bool_], bins: int = 15
) -> float:
    """Weighted mean |accuracy - confidence| over equal-width confidence bins.

    >>> round(expected_calibration_error(np.array([0.9, 0.9, 0.1]), np.array([True, True, False])), 3)
    0.1
    """
    if len(confidence) == 0:
        return 0.0
    edges = np.linspace(0.0, 1.0, bins + 1)
    which = np.clip(np.digitize(confidence, edges[1:-1]), 0, bins - 1)
    total = 0.0
    for b in range(bins):
        mask = which == b
        if mask.any():
            total += mask.sum() * abs(float(correct[mask].mean()) - float(confidence[mask].mean()))
    return float(total / len(confidence))
