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

import math
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


def fit_logistic(
    x: FloatArray,
    y: npt.NDArray[np.bool_],
    l2: float = 1e-3,
    weights: npt.NDArray[np.float64] | None = None,
) -> tuple[float, ...]:
    """Coefficients then intercept of ``P(y) = sigmoid(x @ coef + intercept)``; x is (n,) or (n, k).

    Damped Newton with a ridge on the coefficients only: a penalty on the intercept pulls every
    probability towards 0.5 and makes an accurate model report low confidences (under-confidence
    is miscalibration too). ``weights`` are per-sample weights.
    """
    xm = x.reshape(len(x), -1).astype(np.float64)
    k = xm.shape[1]
    if len(y) < 4 or y.all() or not y.any():
        return (*([0.0] * k), 5.0) if y.all() or not len(y) else (*([0.0] * k), -5.0)
    mu, sd = xm.mean(axis=0), xm.std(axis=0)
    sd[sd == 0] = 1.0
    xs = np.hstack([(xm - mu) / sd, np.ones((len(xm), 1))])
    t = y.astype(np.float64)
    sw = np.ones(len(t)) if weights is None else weights.astype(np.float64)
    sw = sw / sw.mean()
    penalty = np.r_[np.full(k, l2), 0.0]
    w = np.zeros(k + 1)
    for _ in range(100):
        z = np.clip(xs @ w, -30, 30)
        p = 1 / (1 + np.exp(-z))
        grad = xs.T @ (sw * (p - t)) / len(t) + penalty * w
        hess = (xs.T * (sw * p * (1 - p))) @ xs / len(t) + np.diag(penalty + 1e-6)
        step = np.linalg.solve(hess, grad)
        step *= min(1.0, 5.0 / (float(np.abs(step).max()) + 1e-12))  # damping
        w -= step
        if float(np.abs(step).max()) < 1e-8:
            break
    coef = w[:k] / sd  # back to the raw features' scale
    return (*(float(c) for c in coef), float(w[k] - coef @ mu))


def fit_logistic_1d(
    x: FloatArray,
    y: npt.NDArray[np.bool_],
    l2: float = 1e-3,
    weights: npt.NDArray[np.float64] | None = None,
) -> tuple[float, float]:
    """``(slope, intercept)`` of a one-feature ``fit_logistic``."""
    slope, intercept = fit_logistic(x.reshape(-1), y, l2, weights)
    return slope, intercept


#: Largest share of out-of-scope messages the in-scope factor assumes (see ``PlattCalibrator.fit``):
#: negatives never outweigh the in-scope examples.
MAX_OOS_PRIOR = 0.5


@dataclass
class PlattCalibrator:
    """``confidence = P(top goal right | in scope) * P(in scope | similarity)``.

    The first factor maps the logit of the temperature-scaled top probability (fitted on
    held-out in-scope examples); the second maps the similarities of the message to the top
    goal's examples — one column, or several (e.g. TF-IDF and embedding cosines) — fitted on
    held-out in-scope examples vs out-of-scope negatives.
    """

    correct: tuple[float, float] = (1.0, 0.0)
    inscope: tuple[float, ...] | None = None

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
            # negatives (left-out goals, fallback hints) can outnumber what real traffic holds:
            # cap their total weight so the fitted out-of-scope prior is at most MAX_OOS_PRIOR
            n_pos, n_neg = int(pos.sum()), int(negative.sum())
            cap = MAX_OOS_PRIOR / (1 - MAX_OOS_PRIOR) * n_pos
            weights = np.where(negative, min(1.0, cap / n_neg), 1.0)
            self.inscope = fit_logistic(similarity, pos, weights=weights)
        return self

    def __call__(self, top_prob: FloatArray, similarity: FloatArray) -> FloatArray:
        a, b = self.correct
        out: FloatArray = 1 / (1 + np.exp(-np.clip(a * _logit(top_prob) + b, -30, 30)))
        if self.inscope is not None:
            coef, intercept = np.array(self.inscope[:-1]), self.inscope[-1]
            z = similarity.reshape(len(top_prob), -1).astype(np.float64) @ coef + intercept
            out = out / (1 + np.exp(-np.clip(z, -30, 30)))
        return out.astype(np.float32)

    def one(self, top_prob: float, *similarity: float) -> float:
        """``self`` for a single message, in plain floats: a parse scores one message, and numpy's
        per-call overhead on one-element arrays is most of the cost there."""
        a, b = self.correct
        q = min(max(top_prob, 1e-6), 1 - 1e-6)
        out = _sigmoid(a * math.log(q / (1 - q)) + b)
        if self.inscope is not None:
            *coef, intercept = self.inscope
            out *= _sigmoid(sum(c * s for c, s in zip(coef, similarity, strict=True)) + intercept)
        return out


def _sigmoid(z: float) -> float:
    return 1 / (1 + math.exp(-min(max(z, -30.0), 30.0)))


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
