"""The warm start of a catalog change (``intent.incremental``): the previous TF-IDF vocabulary is
kept and extended by the new goals' n-grams, and new texts are encoded in a thread of their own
while the TF-IDF part trains."""

from __future__ import annotations

import threading
from collections.abc import Sequence

import numpy as np

from intent.classifier import TrainConfig
from intent.embedded import DENSE, catalog_documents, train_model
from intent.embedding_cache import CachedEncoder
from intent.features import FloatArray, TfidfFeatures
from intent.incremental import extended_features, warm_start
from tests.intent.test_embedding_cache import CountingEncoder, cache, synthetic


def test_the_vocabulary_is_extended_not_refitted() -> None:
    previous = TfidfFeatures().fit(["previsao do tempo", "receita de bolo"])
    extended = extended_features(previous, ["cotacao do dolar", "cotacao do euro"], n_documents=4)
    n = len(previous.grams)
    assert extended.grams[:n] == previous.grams  # every kept n-gram keeps its column...
    assert np.array_equal(extended.idf[: n + 1], previous.idf)  # ...and its idf weight
    added = extended.grams[n:]
    assert "wcotacao" in added and "wdo" not in added  # "do" was known already
    # an n-gram in both new texts of the four documents, as a fit on all four would weigh it
    assert np.isclose(extended.idf[extended.vocab["wcotacao"]], np.log(5 / 3) + 1.0)
    assert extended.transform(["cotacao"]).n_cols == extended.n_features


def test_texts_that_add_nothing_keep_the_previous_features() -> None:
    previous = TfidfFeatures().fit(["previsao do tempo", "receita de bolo"])
    assert extended_features(previous, ["receita", "tempo"], n_documents=4) is previous
    assert extended_features(previous, [], n_documents=2) is previous


def test_ngrams_under_min_df_are_not_added() -> None:
    previous = TfidfFeatures(min_df=2).fit(["previsao do tempo", "previsao de bolo"])
    extended = extended_features(previous, ["cotacao do dolar", "cotacao do euro"], n_documents=4)
    added = extended.grams[len(previous.grams) :]
    assert "wcotacao" in added and "wdolar" not in added and "weuro" not in added


class ThreadRecordingEncoder(CountingEncoder):
    """``CountingEncoder`` that also records the thread each batch was encoded in."""

    def __init__(self) -> None:
        super().__init__()
        self.threads: list[str] = []

    def encode(self, texts: Sequence[str]) -> FloatArray:
        self.threads.append(threading.current_thread().name)
        return super().encode(texts)


def test_only_new_texts_are_encoded_in_a_thread_of_their_own() -> None:
    encoder = ThreadRecordingEncoder()
    cached = CachedEncoder(encoder, cache(None))
    previous = train_model(synthetic(3), encoder=cached)
    assert previous is not None and previous.embedding is not None
    known = set(encoder.seen)
    encoder.seen.clear()
    encoder.threads.clear()

    docs = catalog_documents(synthetic(4), cached)
    model = warm_start(previous, docs, TrainConfig(), DENSE)
    assert encoder.seen and set(encoder.seen) == set(docs.texts) - known
    assert all(name.startswith("warm-start-encoder") for name in encoder.threads)
    assert model.embedding is not None
    assert model.embedding.examples.shape == (len(docs.texts), CountingEncoder.dimension)
    assert model.provisional and len(model.goals) == 40
