"""What the embedded adapter learns from a catalog: the trained model and its calibration report.

Plain data (numpy arrays and floats) so that ``intent.model_store`` can write it to disk and
read it back without running any training code.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
import numpy.typing as npt

from intent.calibration import PlattCalibrator
from intent.classifier import DenseSoftmaxClassifier, SoftmaxClassifier
from intent.entities import GoalEntityExtractor
from intent.features import FloatArray, IntArray, TfidfFeatures
from shared.catalog import GoalRef


@dataclass
class CalibrationReport:
    """What the held-out fit measured (shown by the benchmark and useful in logs)."""

    temperature: float = 1.0
    platt: tuple[float, float] = (1.0, 0.0)
    inscope: tuple[float, ...] | None = None
    heldout: int = 0
    heldout_accuracy: float = 0.0
    ece_before: float = 0.0
    ece_after: float = 0.0
    negatives: int = 0
    #: ensemble (TF-IDF + embeddings) numbers; zero when the encoder is not installed
    ensemble_heldout_accuracy: float = 0.0
    ensemble_ece: float = 0.0
    fast_accept: float = 1.0
    fast_share: float = 0.0
    dense_weight: float = 0.0


@dataclass
class EmbeddingPart:
    """The second (semantic) model of the cascade and its calibration; messages are embedded by
    the process-wide ``intent.embeddings.load_encoder()``."""

    classifier: DenseSoftmaxClassifier
    #: unit vectors of every training document, grouped by goal (``offsets[g]:offsets[g+1]``)
    examples: FloatArray
    offsets: IntArray
    tfidf_temperature: float
    dense_temperature: float
    temperature: float
    platt: PlattCalibrator
    fast_accept: float

    def logits(self, tfidf_logits: FloatArray, vectors: FloatArray) -> FloatArray:
        """Ensemble logits: the sum of both models' temperature-scaled logits, scaled again."""
        z = tfidf_logits / self.tfidf_temperature + self.classifier.logits(vectors) / self.dense_temperature
        out: FloatArray = (z / self.temperature).astype(np.float32)
        return out

    def nearest(self, vector: FloatArray, goal: int) -> float:
        """Cosine of ``vector`` with the closest training document of ``goal``."""
        block = self.examples[self.offsets[goal] : self.offsets[goal + 1]]
        return float((block @ vector).max()) if len(block) else 0.0


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
    embedding: EmbeddingPart | None = None
    #: warm-started from the previous model with its calibration (``intent.incremental``): answers
    #: until the full training replaces it, and is never stored
    provisional: bool = False
    #: each goal's domain, in goal order: a pinned domain masks the others without a Python loop
    domains: npt.NDArray[np.str_] = field(init=False, repr=False)

    def __post_init__(self) -> None:
        self.domains = np.array([g.domain for g in self.goals], dtype=str)
