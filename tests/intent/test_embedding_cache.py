"""Embeddings kept by content hash (memory and disk), and catalog changes learned incrementally."""

from __future__ import annotations

import hashlib
import importlib.util
import logging
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from intent.embedded import EmbeddedIntentAdapter
from intent.embedding_cache import MAX_SHARDS, EmbeddingCache
from intent.features import FloatArray
from shared.catalog import Catalog
from shared.manifest import validate_manifest


class CountingEncoder:
    """A deterministic stand-in for the ONNX sentence encoder that records what it was asked."""

    dimension = 8

    def __init__(self) -> None:
        self.seen: list[str] = []

    def encode(self, texts: Sequence[str]) -> FloatArray:
        self.seen.extend(texts)
        rows = [np.frombuffer(hashlib.sha256(t.encode()).digest()[:32], dtype=np.uint8) for t in texts]
        vectors = np.array(rows, dtype=np.float32)[:, : self.dimension] + 1.0
        out: FloatArray = vectors / np.linalg.norm(vectors, axis=1, keepdims=True)
        return out


def cache(directory: Path | None, encoder_id: str = "toy") -> EmbeddingCache:
    return EmbeddingCache(encoder_id, directory, dimension=CountingEncoder.dimension)


def test_only_texts_never_seen_are_encoded() -> None:
    encoder, vectors = CountingEncoder(), cache(None)
    first = vectors.encode(encoder, ["a", "b", "a"])
    second = vectors.encode(encoder, ["b", "c"])
    assert encoder.seen == ["a", "b", "c"]
    assert np.array_equal(first[1], second[0])
    assert np.array_equal(first[0], first[2])
    assert vectors.encoded == 3


def test_a_restart_on_the_same_directory_encodes_nothing(tmp_path: Path) -> None:
    cache(tmp_path).encode(CountingEncoder(), ["one", "two"])
    encoder = CountingEncoder()
    restarted = cache(tmp_path)
    got = restarted.encode(encoder, ["two", "one"])
    assert encoder.seen == [] and restarted.encoded == 0
    assert np.allclose(got, CountingEncoder().encode(["two", "one"]))
    # nothing is pickled: every file is a plain npz of keys and vectors
    for path in tmp_path.glob("*.npz"):
        with np.load(path, allow_pickle=False) as data:
            assert sorted(data.files) == ["keys", "vectors"]


def test_another_encoder_never_reuses_these_vectors(tmp_path: Path) -> None:
    cache(tmp_path, "model-a").encode(CountingEncoder(), ["same text"])
    encoder = CountingEncoder()
    cache(tmp_path, "model-b").encode(encoder, ["same text"])
    assert encoder.seen == ["same text"]


def test_replicas_sharing_a_directory_see_each_others_texts(tmp_path: Path) -> None:
    a, b = cache(tmp_path), cache(tmp_path)
    a.encode(CountingEncoder(), ["only a knew this"])
    encoder = CountingEncoder()
    b.encode(encoder, ["only a knew this", "new"])
    assert encoder.seen == ["new"]


def test_an_unreadable_shard_is_skipped_and_its_texts_encoded_again(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    cache(tmp_path).encode(CountingEncoder(), ["x"])
    (shard,) = tmp_path.glob("*.npz")
    shard.write_bytes(b"not a zip file")
    encoder = CountingEncoder()
    with caplog.at_level(logging.WARNING, logger="intent.embedding_cache"):
        cache(tmp_path).encode(encoder, ["x"])
    assert encoder.seen == ["x"]
    assert "unusable" in caplog.text


def test_shards_are_merged_so_they_never_pile_up(tmp_path: Path) -> None:
    writer = cache(tmp_path)
    texts = [f"text {i}" for i in range(3 * MAX_SHARDS)]
    for text in texts:  # every retrain that met a new text adds a shard
        writer.encode(CountingEncoder(), [text])
    assert len(list(tmp_path.glob("*.npz"))) <= MAX_SHARDS + 1
    encoder = CountingEncoder()
    cache(tmp_path).encode(encoder, texts)
    assert encoder.seen == []


def _synthetic_catalog_module() -> Any:
    """``bench/registration_catalog.py`` (a script, not a package module): its manifests."""
    path = Path(__file__).resolve().parents[2] / "bench" / "registration_catalog.py"
    spec = importlib.util.spec_from_file_location("synthetic_catalog", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


domain_manifest = _synthetic_catalog_module().domain_manifest


def synthetic(domains: int) -> Catalog:
    return Catalog([validate_manifest(domain_manifest(i)) for i in range(domains)])


async def test_a_large_catalog_change_is_warm_started_then_fully_trained_in_the_background() -> None:
    adapter = EmbeddedIntentAdapter(synthetic(3), use_embeddings=False)
    assert adapter.training_runs == 1 and adapter.model is not None and not adapter.model.provisional
    vocabulary = adapter.model.features.grams
    grown = synthetic(4)
    new_goal = domain_manifest(3)["goals"][0]

    await adapter.update_catalog_async(grown)
    assert adapter.model is not None and adapter.model.provisional  # answers at once...
    assert adapter.catalog is grown
    # with the previous vocabulary (the new goals' n-grams added after it), not a refit one
    assert adapter.model.features.grams[: len(vocabulary)] == vocabulary
    assert len(adapter.model.features.grams) > len(vocabulary)
    assert adapter.parse_sync(new_goal["examples"][0]["text"]).goal == new_goal["goal"]

    await adapter.settled()
    assert adapter.model.provisional is False  # ...and is replaced by its full training
    assert (adapter.training_runs, adapter.background_trainings) == (2, 1)
    assert adapter.parse_sync(new_goal["examples"][0]["text"]).goal == new_goal["goal"]


async def test_the_full_training_is_stored_and_a_replica_loads_it(tmp_path: Path) -> None:
    first = EmbeddedIntentAdapter(synthetic(3), use_embeddings=False, cache_dir=tmp_path)
    await first.update_catalog_async(synthetic(4))
    await first.settled()
    assert first.background_trainings == 1

    # another gateway on the same directory replays the same change: nothing is trained in full
    replica = EmbeddedIntentAdapter(synthetic(3), use_embeddings=False, cache_dir=tmp_path)
    assert replica.training_runs == 0  # its start-up catalog was stored too
    await replica.update_catalog_async(synthetic(4))
    await replica.settled()
    assert replica.model is not None and not replica.model.provisional
    assert (replica.training_runs, replica.background_trainings) == (0, 0)
