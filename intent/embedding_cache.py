"""Sentence embeddings of training texts, kept by content hash so a retrain encodes only new texts.

Encoding is most of what training a catalog with the sentence encoder costs; a catalog change
(one domain registered or removed) leaves almost every text as it was. Each vector is keyed by
``sha256(encoder id, text)``: a different encoder never reuses another's vectors, and an
unchanged text is never encoded twice — in this process (memory) or across restarts and gateway
replicas sharing the directory (disk).

On disk the cache is a folder of *shards*, ``<encoder>-<hash>.npz``, each holding the keys
(``uint8`` rows of 32 bytes) and vectors (``float32``) of one batch of new texts: nothing is
pickled, a shard is written under a temporary name and renamed into place (readers never see half
a file), and processes sharing the folder never overwrite each other's shards — each one only
adds. When there are many shards, loading merges them into one (written the same way) and
removes the merged ones. A shard that cannot be read is skipped with a warning (its texts are
encoded again).
"""

from __future__ import annotations

import contextlib
import hashlib
import logging
import os
import tempfile
import threading
import zipfile
from collections.abc import Sequence
from pathlib import Path
from typing import Protocol

import numpy as np
import numpy.typing as npt

from intent.features import FloatArray

log = logging.getLogger(__name__)

#: Shards loaded before they are merged into one (each retrain that met new texts adds one).
MAX_SHARDS = 16
_KEY_BYTES = 32
_UNREADABLE = (OSError, ValueError, KeyError, EOFError, zipfile.BadZipFile)


class TextEncoder(Protocol):
    """What the cache wraps: ``intent.embeddings.SentenceEncoder``'s batch interface."""

    dimension: int

    def encode(self, texts: Sequence[str]) -> FloatArray: ...


def text_key(encoder_id: str, text: str) -> bytes:
    """The content hash a text's vector is kept under (32 bytes)."""
    return hashlib.sha256(f"{encoder_id}\x00{text}".encode()).digest()


class EmbeddingCache:
    """Vectors by ``text_key``; ``directory=None`` keeps them in memory only."""

    def __init__(self, encoder_id: str, directory: Path | None = None, dimension: int = 384):
        self.encoder_id = encoder_id
        self.directory = directory
        self.dimension = dimension
        self._vectors: dict[bytes, FloatArray] = {}
        self._loaded_shards: set[str] = set()
        self._lock = threading.Lock()
        #: texts encoded by this cache (not found in memory or on disk), for tests and logs
        self.encoded = 0

    @property
    def _prefix(self) -> str:
        # the encoder id is free text: its hash names the files
        return hashlib.sha256(self.encoder_id.encode()).hexdigest()[:16]

    def __len__(self) -> int:
        return len(self._vectors)

    def encode(self, encoder: TextEncoder, texts: Sequence[str]) -> FloatArray:
        """``(len(texts), dimension)`` vectors; only texts never seen before reach ``encoder``.

        Thread-safe: retrains run in worker threads, and two of them may overlap."""
        keys = [text_key(self.encoder_id, t) for t in texts]
        with self._lock:
            self._load_new_shards()
            missing: dict[bytes, str] = {}
            for key, text in zip(keys, texts, strict=True):
                if key not in self._vectors:
                    missing[key] = text
        if missing:
            vectors = encoder.encode(list(missing.values()))
            fresh = dict(zip(missing.keys(), vectors.astype(np.float32), strict=True))
            with self._lock:
                self._vectors.update(fresh)
                self.encoded += len(fresh)
                self._write_shard(fresh)
        if not texts:
            return np.zeros((0, self.dimension), dtype=np.float32)
        return np.stack([self._vectors[k] for k in keys])

    # ------------------------------------------------------------------ disk

    def _shards(self) -> list[Path]:
        if self.directory is None or not self.directory.is_dir():
            return []
        return sorted(self.directory.glob(f"{self._prefix}-*.npz"))

    def _load_new_shards(self) -> None:
        """Read the shards this process has not read yet (its own and other processes')."""
        shards = self._shards()
        for path in shards:
            if path.name in self._loaded_shards:
                continue
            try:
                keys, vectors = _read_shard(path, self.dimension)
            except FileNotFoundError:  # merged away by another process meanwhile
                continue
            except _UNREADABLE as exc:
                log.warning(
                    "embedding cache shard %s is unusable (%s); its texts will be encoded again", path, exc
                )
                self._loaded_shards.add(path.name)
                continue
            for key, vector in zip(keys, vectors, strict=True):
                self._vectors.setdefault(bytes(key), vector)
            self._loaded_shards.add(path.name)
        if len(shards) > MAX_SHARDS:
            self._merge(shards)

    def _merge(self, shards: list[Path]) -> None:
        """Write every vector in memory as one shard, then remove the shards it covers."""
        merged = self._write_shard(self._vectors)
        if merged is None:
            return
        for path in shards:
            if path != merged and path.name in self._loaded_shards:
                with contextlib.suppress(FileNotFoundError):
                    path.unlink()

    def _write_shard(self, vectors: dict[bytes, FloatArray]) -> Path | None:
        """Store ``vectors`` as a new shard; a failure to write is logged, never raised."""
        if self.directory is None or not vectors:
            return None
        keys = np.frombuffer(b"".join(vectors), dtype=np.uint8).reshape(len(vectors), _KEY_BYTES)
        # named by its content: the same batch written twice (two replicas) is one file
        name = f"{self._prefix}-{hashlib.sha256(keys.tobytes()).hexdigest()[:24]}.npz"
        path = self.directory / name
        try:
            self.directory.mkdir(parents=True, exist_ok=True)
            _write_atomically(path, keys, np.stack(list(vectors.values())).astype(np.float32))
        except OSError as exc:
            log.warning("could not store embeddings in %s (%s)", self.directory, exc)
            return None
        self._loaded_shards.add(name)
        return path


def _read_shard(path: Path, dimension: int) -> tuple[npt.NDArray[np.uint8], FloatArray]:
    with np.load(path, allow_pickle=False) as data:
        keys, vectors = data["keys"], data["vectors"]
    if keys.dtype != np.uint8 or keys.ndim != 2 or keys.shape[1] != _KEY_BYTES:
        raise ValueError(f"keys have shape {keys.shape} and type {keys.dtype}")
    if vectors.shape != (len(keys), dimension):
        raise ValueError(f"vectors have shape {vectors.shape}, expected {(len(keys), dimension)}")
    return keys, vectors.astype(np.float32, copy=False)


def _write_atomically(path: Path, keys: npt.NDArray[np.uint8], vectors: FloatArray) -> None:
    fd, temporary = tempfile.mkstemp(dir=path.parent, prefix=f".{path.stem}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as out:
            np.savez(out, allow_pickle=False, keys=keys, vectors=vectors)
        os.chmod(temporary, 0o644)  # mkstemp's 0600 would hide it from other users
        os.replace(temporary, path)
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(temporary)
        raise


class CachedEncoder:
    """``encoder`` whose batch ``encode`` goes through ``cache`` (what training is given)."""

    def __init__(self, encoder: TextEncoder, cache: EmbeddingCache):
        self.encoder = encoder
        self.cache = cache
        self.dimension = encoder.dimension

    def encode(self, texts: Sequence[str]) -> FloatArray:
        return self.cache.encode(self.encoder, texts)


_caches: dict[tuple[str, Path | None], EmbeddingCache] = {}
_caches_lock = threading.Lock()


def shared_cache(encoder_id: str, directory: Path | None) -> EmbeddingCache:
    """The process-wide cache of ``encoder_id`` in ``directory`` (None: memory only), so adapters
    of one process (tests, benchmarks, the LLM adapter's fallback) share what was encoded."""
    key = (encoder_id, directory.resolve() if directory is not None else None)
    with _caches_lock:
        if key not in _caches:
            _caches[key] = EmbeddingCache(encoder_id, key[1])
        return _caches[key]
