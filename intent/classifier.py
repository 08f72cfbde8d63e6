"""Multinomial logistic regression on sparse TF-IDF rows, trained with mini-batch Adam in numpy.

Why this model: a linear classifier over word + char n-grams is the strongest thing that trains
quickly on a CPU from a few examples per goal, needs no model download and is deterministic
(fixed seed, fixed order). Training touches only the weight rows of the features present in a
batch ("lazy" Adam), so large catalogs stay cheap (figures in bench/results/intent.md).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from intent.features import Csr, FloatArray, IntArray


@dataclass(frozen=True)
class TrainConfig:
    epochs: int = 8
    batch_size: int = 128
    learning_rate: float = 0.02
    l2: float = 1e-5
    seed: int = 13
    #: "softmax" (cross-entropy) or "hinge" (one-vs-rest squared hinge, as a linear SVM).
    loss: str = "hinge"
    #: Also learn each goal's examples as typed in chat and with other lookup values swapped in
    #: (``intent.augment``; off by default, see ``IntentSettings.intent_augment``).
    augment: bool = False


def softmax(z: FloatArray) -> FloatArray:
    z = z - z.max(axis=1, keepdims=True)
    e = np.exp(z)
    out: FloatArray = e / e.sum(axis=1, keepdims=True)
    return out


class SoftmaxClassifier:
    """``fit(X, y)`` then ``logits(X)``; classes are ``0..n_classes-1``."""

    def __init__(self, n_classes: int, config: TrainConfig | None = None):
        self.n_classes = n_classes
        self.config = config or TrainConfig()
        self.weights: FloatArray = np.zeros((1, n_classes), dtype=np.float32)

    def fit(self, x: Csr, y: IntArray, initial: FloatArray | None = None) -> SoftmaxClassifier:
        """Train from zero weights, or from ``initial`` (a warm start: ``(x.n_cols, n_classes)``)."""
        cfg = self.config
        n_feat, n_cls = x.n_cols, self.n_classes
        w = np.zeros((n_feat, n_cls), dtype=np.float32) if initial is None else initial.astype(np.float32)
        m = np.zeros_like(w)
        v = np.zeros_like(w)
        steps = np.zeros(n_feat, dtype=np.int64)  # per-row Adam step (lazy updates)
        rng = np.random.default_rng(cfg.seed)
        beta1, beta2, eps = 0.9, 0.999, 1e-8
        onehot = np.eye(n_cls, dtype=np.float32)
        n = x.n_rows
        for _ in range(cfg.epochs):
            order = rng.permutation(n)
            for start in range(0, n, cfg.batch_size):
                batch = order[start : start + cfg.batch_size]
                xb = x.rows(batch)
                scores = xb.dot(w)
                if cfg.loss == "softmax":
                    grad_rows = (softmax(scores) - onehot[y[batch]]) / len(batch)
                else:
                    target = 2.0 * onehot[y[batch]] - 1.0
                    slack = np.maximum(0.0, 1.0 - target * scores)
                    grad_rows = (-2.0 * target * slack / len(batch)).astype(np.float32)
                contrib = grad_rows[xb.row_ids()] * xb.data[:, None]
                sort = np.argsort(xb.indices, kind="stable")
                cols_sorted = xb.indices[sort]
                first = np.flatnonzero(np.r_[True, cols_sorted[1:] != cols_sorted[:-1]])
                touched = cols_sorted[first]
                grad = np.add.reduceat(contrib[sort], first, axis=0)
                grad += cfg.l2 * w[touched]
                steps[touched] += 1
                t = steps[touched][:, None].astype(np.float32)
                m[touched] = beta1 * m[touched] + (1 - beta1) * grad
                v[touched] = beta2 * v[touched] + (1 - beta2) * grad * grad
                m_hat = m[touched] / (1 - beta1**t)
                v_hat = v[touched] / (1 - beta2**t)
                w[touched] -= cfg.learning_rate * m_hat / (np.sqrt(v_hat) + eps)
        self.weights = w
        return self

    def logits(self, x: Csr) -> FloatArray:
        return x.dot(self.weights)

    def logits_row(self, cols: npt.NDArray[np.int64], vals: FloatArray) -> FloatArray:
        """Logits of one row given as (columns, values): the per-message fast path."""
        out: FloatArray = vals @ self.weights[cols]
        return out


@dataclass(frozen=True)
class DenseConfig:
    epochs: int = 30
    batch_size: int = 64
    learning_rate: float = 0.01
    l2: float = 1e-4
    #: logits scale: unit-length embeddings need a large scale to reach confident softmaxes
    scale: float = 10.0
    seed: int = 13
    min_steps: int = 600


class DenseSoftmaxClassifier:
    """Multinomial logistic regression on dense unit vectors (sentence embeddings), Adam in numpy.

    Why not a nearest-centroid rule: a learned linear map weighs the embedding dimensions that
    separate *these* goals (more accurate than centroids on CLINC150, see bench/results/intent.md).
    """

    def __init__(self, n_classes: int, config: DenseConfig | None = None):
        self.n_classes = n_classes
        self.config = config or DenseConfig()
        self.weights: FloatArray = np.zeros((1, n_classes), dtype=np.float32)
        self.bias: FloatArray = np.zeros(n_classes, dtype=np.float32)

    def fit(
        self, x: FloatArray, y: IntArray, initial: tuple[FloatArray, FloatArray] | None = None
    ) -> DenseSoftmaxClassifier:
        """Train from zero, or from ``initial`` = (weights, bias) as ``logits`` uses them (a warm start)."""
        cfg = self.config
        n, dim = x.shape
        xs = (x * cfg.scale).astype(np.float32)
        w = np.zeros((dim, self.n_classes), dtype=np.float32)
        b = np.zeros(self.n_classes, dtype=np.float32)
        if initial is not None:
            w = (initial[0] / cfg.scale).astype(np.float32)
            b = initial[1].astype(np.float32)
        params = [w, b]
        m = [np.zeros_like(p) for p in params]
        v = [np.zeros_like(p) for p in params]
        onehot = np.eye(self.n_classes, dtype=np.float32)
        rng = np.random.default_rng(cfg.seed)
        batches = max(1, -(-n // cfg.batch_size))
        epochs = max(cfg.epochs, -(-cfg.min_steps // batches))
        t = 0
        for _ in range(epochs):
            order = rng.permutation(n)
            for start in range(0, n, cfg.batch_size):
                idx = order[start : start + cfg.batch_size]
                xb = xs[idx]
                g = (softmax(xb @ w + b) - onehot[y[idx]]) / len(idx)
                grads = [xb.T @ g + cfg.l2 * w, g.sum(axis=0)]
                t += 1
                for p, mm, vv, gr in zip(params, m, v, grads, strict=True):
                    mm *= 0.9
                    mm += 0.1 * gr
                    vv *= 0.999
                    vv += 0.001 * gr * gr
                    p -= cfg.learning_rate * (mm / (1 - 0.9**t)) / (np.sqrt(vv / (1 - 0.999**t)) + 1e-8)
        self.weights, self.bias = w * cfg.scale, b
        return self

    def logits(self, x: FloatArray) -> FloatArray:
        out: FloatArray = x @ self.weights + self.bias
        return out
