"""Trained intent models kept on disk, so a restart with an unchanged catalog skips training.

A model is stored as one ``<key>.npz`` file: numpy arrays plus a JSON document (``meta``) with
the scalars and the vocabulary; nothing is pickled, so a stored file can never run code. The key
hashes the catalog, the training parameters, a format version and the training code itself.
Files are written to a temporary name and renamed into place, so readers never see half a
file; a file that cannot be read anyway (truncated, edited, older layout) is reported with a
warning and the caller trains again and overwrites it.
"""

from __future__ import annotations

import contextlib
import dataclasses
import fcntl
import functools
import hashlib
import importlib
import json
import logging
import os
import tempfile
import zipfile
from collections.abc import Callable, Iterator, Mapping
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from intent.calibration import PlattCalibrator
from intent.classifier import DenseConfig, DenseSoftmaxClassifier, SoftmaxClassifier, TrainConfig
from intent.embeddings import SentenceEncoder
from intent.entities import GoalEntityExtractor
from intent.features import TfidfFeatures
from intent.model import CalibrationReport, EmbeddedModel, EmbeddingPart
from shared.catalog import Catalog, GoalRef

log = logging.getLogger(__name__)

#: The file layout; bump it when what ``write_model`` stores changes.
FORMAT_VERSION = 1
#: Modules whose source decides what training produces.
TRAINING_MODULES = (
    "intent.augment",
    "intent.calibration",
    "intent.classifier",
    "intent.embedded",
    "intent.embeddings",
    "intent.features",
    "intent.model",
    "intent.text",
    "shared.i18n.folding",
)
#: Models kept per directory (the most recently used); catalogs of tests and bench runs come and go.
KEEP_MODELS = 16

ExtractorFactory = Callable[[GoalRef, Catalog], GoalEntityExtractor]
_UNREADABLE = (OSError, ValueError, KeyError, TypeError, EOFError, zipfile.BadZipFile)


class StoredModelInvalid(ValueError):
    """A stored file does not hold a model this code can use for this catalog."""


@functools.cache
def training_code_digest() -> str:
    """Hash of the training modules' source: editing them invalidates every stored model, so
    nobody has to remember bumping a version for a change in how models are trained."""
    digest = hashlib.sha256()
    for name in TRAINING_MODULES:
        source = importlib.import_module(name).__file__
        digest.update(Path(source).read_bytes() if source else name.encode())
    return digest.hexdigest()


def model_key(catalog: Catalog, training: Mapping[str, Any]) -> str:
    """The stored model's name: catalog fingerprint, ``training`` parameters, format and code."""
    material = {
        "format": FORMAT_VERSION,
        "catalog": catalog.fingerprint,
        "training": training,
        "code": training_code_digest(),
    }
    return hashlib.sha256(json.dumps(material, sort_keys=True, default=str).encode()).hexdigest()[:32]


def training_parameters(
    config: TrainConfig, dense: DenseConfig, negatives: list[str], encoder: str | None
) -> dict[str, Any]:
    """The run-time inputs of training besides the catalog (constants are in the code digest)."""
    return {
        "train": dataclasses.asdict(config),
        "dense": dataclasses.asdict(dense),
        "negatives": negatives,
        "encoder": encoder,
    }


class ModelStore:
    """A directory of stored models (created on first save)."""

    def __init__(self, directory: Path):
        self.directory = directory

    def path(self, key: str) -> Path:
        return self.directory / f"{key}.npz"

    @property
    def embeddings_directory(self) -> Path:
        """Where ``intent.embedding_cache`` keeps the sentence vectors of training texts."""
        return self.directory / "embeddings"

    @contextlib.contextmanager
    def training(self, key: str) -> Iterator[None]:
        """Held while the model of ``key`` is trained: gateways sharing the directory train a
        catalog once, the others wait here and then load what the first stored. Blocks (call it
        from a worker thread); without a writable directory it does not lock at all."""
        try:
            self.directory.mkdir(parents=True, exist_ok=True)
            handle = open(self.directory / f".{key}.lock", "a+b")  # noqa: SIM115 - held across the yield
        except OSError as exc:
            log.warning("cannot lock %s (%s); training without coordination", self.directory, exc)
            yield
            return
        with handle:
            fcntl.flock(handle, fcntl.LOCK_EX)
            try:
                yield
            finally:
                fcntl.flock(handle, fcntl.LOCK_UN)

    def load(
        self,
        key: str,
        catalog: Catalog,
        extractor_of: ExtractorFactory,
    ) -> EmbeddedModel | None:
        """The stored model for ``key``, or None when there is none or it cannot be used."""
        path = self.path(key)
        if not path.is_file():
            return None
        try:
            model = read_model(path, key, catalog, extractor_of)
        except _UNREADABLE as exc:
            log.warning("stored intent model %s is unusable (%s); training again", path, exc)
            return None
        with contextlib.suppress(OSError):
            os.utime(path)  # most recently used: kept by ``prune``
        return model

    def save(self, key: str, model: EmbeddedModel) -> None:
        """Store ``model`` under ``key``; a failure to write is logged, never raised."""
        if model.provisional:  # a warm start is replaced by its full training: only that is kept
            return
        try:
            self.directory.mkdir(parents=True, exist_ok=True)
            write_model(self.path(key), key, model)
            self.prune()
        except OSError as exc:
            log.warning("could not store the intent model in %s (%s)", self.directory, exc)

    def prune(self, keep: int = KEEP_MODELS) -> None:
        """Delete all but the ``keep`` most recently used models."""
        stored = []
        for path in self.directory.glob("*.npz"):
            with contextlib.suppress(FileNotFoundError):  # another process pruned it first
                stored.append((path.stat().st_mtime, path))
        for _, path in sorted(stored, reverse=True)[keep:]:
            with contextlib.suppress(FileNotFoundError):
                path.unlink()
            with contextlib.suppress(FileNotFoundError):
                (self.directory / f".{path.stem}.lock").unlink()


def write_model(path: Path, key: str, model: EmbeddedModel) -> None:
    """Write ``model`` to ``path`` atomically (a temporary file in the same directory, renamed)."""
    arrays: dict[str, npt.NDArray[Any]] = {
        "idf": model.features.idf,
        "tfidf_weights": model.classifier.weights,
        "centroids": model.centroids,
    }
    embedding: dict[str, Any] | None = None
    if model.embedding is not None:
        part = model.embedding
        arrays |= {
            "dense_weights": part.classifier.weights,
            "dense_bias": part.classifier.bias,
            "examples": part.examples,
            "offsets": part.offsets,
        }
        embedding = {
            "tfidf_temperature": part.tfidf_temperature,
            "dense_temperature": part.dense_temperature,
            "temperature": part.temperature,
            "platt": _platt_state(part.platt),
            "fast_accept": part.fast_accept,
        }
    features = model.features
    meta = {
        "format": FORMAT_VERSION,
        "key": key,
        "goals": [[g.domain, g.goal.goal] for g in model.goals],
        "features": {
            "grams": features.grams,
            "min_df": features.min_df,
            "char_range": list(features.char_range),
            "char_weight": features.char_weight,
        },
        "temperature": model.temperature,
        "platt": _platt_state(model.platt),
        "report": dataclasses.asdict(model.report),
        "embedding": embedding,
    }
    arrays["meta"] = np.frombuffer(json.dumps(meta).encode(), dtype=np.uint8)
    fd, temporary = tempfile.mkstemp(dir=path.parent, prefix=f".{path.stem}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as out:
            np.savez(out, allow_pickle=False, **arrays)
        os.chmod(temporary, 0o644)  # mkstemp's 0600 would hide the model from other users
        os.replace(temporary, path)
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(temporary)
        raise


def read_model(
    path: Path,
    key: str,
    catalog: Catalog,
    extractor_of: ExtractorFactory,
) -> EmbeddedModel:
    """The model stored at ``path``, checked against ``key`` and ``catalog``."""
    with np.load(path, allow_pickle=False) as data:
        arrays = {name: data[name] for name in data.files}
    meta = json.loads(arrays.pop("meta").tobytes())
    if meta.get("format") != FORMAT_VERSION or meta.get("key") != key:
        raise StoredModelInvalid(f"format {meta.get('format')!r}, key {meta.get('key')!r}")
    goals = catalog.goals()
    if meta["goals"] != [[g.domain, g.goal.goal] for g in goals]:
        raise StoredModelInvalid("its goals are not the catalog's")
    n_classes = len(goals)
    spec = meta["features"]
    char_low, char_high = spec["char_range"]
    features = TfidfFeatures.restore(
        spec["grams"],
        arrays["idf"],
        min_df=int(spec["min_df"]),
        char_range=(int(char_low), int(char_high)),
        char_weight=float(spec["char_weight"]),
    )
    expected = (features.n_features, n_classes)
    for name in ("tfidf_weights", "centroids"):
        if arrays[name].shape != expected:
            raise StoredModelInvalid(f"{name} has shape {arrays[name].shape}, expected {expected}")
    classifier = SoftmaxClassifier(n_classes)
    classifier.weights = arrays["tfidf_weights"]
    embedding = None
    if meta["embedding"] is not None:
        embedding = _embedding_part(meta["embedding"], arrays, n_classes)
    report = dict(meta["report"])
    report["platt"] = tuple(report["platt"])
    report["inscope"] = tuple(report["inscope"]) if report["inscope"] is not None else None
    return EmbeddedModel(
        goals=goals,
        features=features,
        classifier=classifier,
        centroids=arrays["centroids"],
        temperature=float(meta["temperature"]),
        platt=_platt(meta["platt"]),
        extractors={(ref.domain, ref.goal.goal): extractor_of(ref, catalog) for ref in goals},
        report=CalibrationReport(**report),
        embedding=embedding,
    )


def _embedding_part(
    meta: dict[str, Any], arrays: dict[str, npt.NDArray[Any]], n_classes: int
) -> EmbeddingPart:
    weights, bias = arrays["dense_weights"], arrays["dense_bias"]
    examples, offsets = arrays["examples"], arrays["offsets"]
    dimension = SentenceEncoder.dimension
    if weights.shape != (dimension, n_classes) or bias.shape != (n_classes,):
        raise StoredModelInvalid(f"dense weights have shape {weights.shape}")
    if offsets.shape != (n_classes + 1,) or examples.shape != (int(offsets[-1]), dimension):
        raise StoredModelInvalid(f"examples have shape {examples.shape}")
    classifier = DenseSoftmaxClassifier(n_classes)
    classifier.weights, classifier.bias = weights, bias
    return EmbeddingPart(
        classifier=classifier,
        examples=examples,
        offsets=offsets,
        tfidf_temperature=float(meta["tfidf_temperature"]),
        dense_temperature=float(meta["dense_temperature"]),
        temperature=float(meta["temperature"]),
        platt=_platt(meta["platt"]),
        fast_accept=float(meta["fast_accept"]),
    )


def _platt_state(platt: PlattCalibrator) -> dict[str, Any]:
    inscope = list(platt.inscope) if platt.inscope is not None else None
    return {"correct": list(platt.correct), "inscope": inscope}


def _platt(state: dict[str, Any]) -> PlattCalibrator:
    a, b = state["correct"]
    inscope = state["inscope"]
    return PlattCalibrator(
        correct=(float(a), float(b)),
        inscope=tuple(float(v) for v in inscope) if inscope is not None else None,
    )
