"""The per-message path of the embedded adapter (issue 13's latency work): what it skips or
precomputes must not change what a parse returns.

* the cascade's fast path: a message TF-IDF is sure of is answered without the sentence encoder,
  with the goal and entities the full cascade gives; ``fast_accept`` goes under 0.9 only on
  enough held-out evidence;
* the TF-IDF row, the scalar calibration and the fuzzy word lookups equal the plain
  computations they replace.
"""

from __future__ import annotations

import dataclasses
from collections import Counter

import numpy as np
import pytest

from intent.calibration import PlattCalibrator
from intent.embedded import (
    FAST_EVIDENCE_FLOOR,
    FAST_FLOOR,
    FAST_GATE,
    FAST_MIN_EVIDENCE,
    EmbeddedIntentAdapter,
    choose_agreed_fast_accept,
    choose_fast_accept,
)
from intent.embeddings import model_files
from intent.entities import FuzzyVocabulary, fuzzy_equal
from intent.features import TfidfFeatures, analyse
from shared.catalog import Catalog

needs_encoder = pytest.mark.skipif(model_files() is None, reason="sentence encoder packages not installed")


@pytest.fixture(scope="module")
def cascade(catalog: Catalog) -> EmbeddedIntentAdapter:
    """The conftest catalog with the sentence encoder (the TF-IDF half is the same as ``adapter``'s)."""
    return EmbeddedIntentAdapter(catalog)


def _with_fast_accept(adapter: EmbeddedIntentAdapter, threshold: float) -> EmbeddedIntentAdapter:
    """A second adapter on the same trained model, with another ``fast_accept``."""
    model = adapter.model
    assert model is not None and model.embedding is not None
    other = EmbeddedIntentAdapter()
    other.catalog = adapter.catalog
    other.model = dataclasses.replace(
        model, embedding=dataclasses.replace(model.embedding, fast_accept=threshold)
    )
    return other


@needs_encoder
def test_a_message_tfidf_is_sure_of_skips_the_encoder_and_keeps_the_cascades_answer(
    cascade: EmbeddedIntentAdapter, adapter: EmbeddedIntentAdapter
) -> None:
    sure = "qual a previsão do tempo em Recife?"  # an example, word for word
    unsure = "is it going to be chilly where my sister lives"
    # TF-IDF's own confidence: the adapter without the encoder is the TF-IDF path alone
    sure_tfidf, unsure_tfidf = adapter.parse_sync(sure).confidence, adapter.parse_sync(unsure).confidence
    assert unsure_tfidf < sure_tfidf
    fast = _with_fast_accept(cascade, (sure_tfidf + unsure_tfidf) / 2)
    full = _with_fast_accept(cascade, 1.0)  # every message embedded

    answered = fast.parse_sync(sure)
    assert fast.encoded_texts == 0
    assert answered.confidence == sure_tfidf
    embedded = full.parse_sync(sure)
    assert full.encoded_texts == 1
    assert (answered.goal, answered.entities) == (embedded.goal, embedded.entities)
    assert answered.entities == {"city_text": "Recife"}

    fast.parse_sync(unsure)
    assert fast.encoded_texts == 1  # under fast_accept: the encoder is asked


@needs_encoder
async def test_the_pinned_domain_applies_on_both_paths(cascade: EmbeddedIntentAdapter) -> None:
    for threshold in (0.0, 1.0):  # everything fast / everything embedded
        other = _with_fast_accept(cascade, threshold)
        out = await other.parse("qual a previsão do tempo em Recife?", pinned_domain="chat")
        assert out.goal in (None, "GREET")
        assert all(c.domain == "chat" for c in out.alternatives)


def test_fast_accept_goes_under_the_evidence_floor_only_on_enough_held_out_examples() -> None:
    assert FAST_FLOOR < FAST_EVIDENCE_FLOOR

    def held_out(right_at_085: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """``right_at_085`` right answers at 0.85, one at 0.95, five wrong ones at 0.6."""
        conf = np.array([0.85] * right_at_085 + [0.95] + [0.6] * 5, dtype=np.float32)
        correct = np.array([True] * (right_at_085 + 1) + [False] * 5)
        return conf, correct, np.zeros(len(conf), dtype=bool)

    assert choose_fast_accept(*held_out(FAST_MIN_EVIDENCE - 1)) == pytest.approx(FAST_FLOOR)
    # one example fewer: 0.85 is not shown safe, the bar stays at the evidence floor
    assert choose_fast_accept(*held_out(FAST_MIN_EVIDENCE - 2)) == pytest.approx(FAST_EVIDENCE_FLOOR)
    # an out-of-scope negative at 0.815 puts the bar just above it, whatever the evidence
    conf, correct, negative = held_out(FAST_MIN_EVIDENCE * 2)
    leaked = (np.append(conf, 0.815), np.append(correct, False), np.append(negative, True))
    assert choose_fast_accept(*leaked) == pytest.approx(0.82)


def test_the_encoder_is_skipped_only_above_where_it_changed_nothing_on_held_out_text() -> None:
    n = FAST_MIN_EVIDENCE + 5
    # n right answers at 0.85 on which the ensemble agrees, five wrong ones at 0.6
    conf = np.array([0.85] * n + [0.6] * 5, dtype=np.float32)
    top = np.zeros(n + 5, dtype=np.int64)
    correct = np.array([True] * n + [False] * 5)
    negative = np.zeros(n + 5, dtype=bool)
    ensemble_conf = np.full(n + 5, 0.9, dtype=np.float32)

    def bar(ensemble_top: np.ndarray, e_conf: np.ndarray = ensemble_conf, c: np.ndarray = correct) -> float:
        return choose_agreed_fast_accept(conf, top, c, ensemble_top, e_conf, negative)

    assert bar(top) == pytest.approx(FAST_FLOOR)  # TF-IDF at 0.85 is what the encoder would say
    # the ensemble picks another goal for one of them: the encoder is still asked at 0.85
    flipped = top.copy()
    flipped[0] = 1
    assert bar(flipped) == 1.0
    # a wrong TF-IDF answer at 0.85 the ensemble would have asked about (under the gate)
    wrong = correct.copy()
    wrong[0] = False
    unsure = ensemble_conf.copy()
    unsure[0] = FAST_GATE - 0.1
    assert bar(top, unsure, wrong) == 1.0
    assert bar(top, ensemble_conf, wrong) == pytest.approx(FAST_FLOOR)  # the ensemble is as wrong
    # too few held-out examples above the floor: no evidence, the encoder is kept
    few = conf.copy()
    few[: n - FAST_MIN_EVIDENCE + 1] = 0.6
    assert choose_agreed_fast_accept(few, top, correct, top, ensemble_conf, negative) == 1.0


def _reference_row(features: TfidfFeatures, text: str) -> dict[int, float]:
    """The TF-IDF row computed the plain way: every n-gram string, sublinear tf, idf, block norms."""
    word_grams, char_grams = analyse(text, features.char_range)
    grams = ["w" + g for g in word_grams] + ["c" + g for g in char_grams]
    counts = Counter(features.vocab[g] for g in grams if g in features.vocab)
    values = {col: (1 + np.log(n)) * float(features.idf[col]) for col, n in counts.items()}
    for is_char, weight in ((True, features.char_weight), (False, 1.0)):
        block = [col for col in values if features.grams[col - 1].startswith("c") == is_char]
        norm = float(np.sqrt(sum(values[c] ** 2 for c in block)))
        for col in block:
            values[col] *= weight / norm
    return {0: 1.0, **values}


def test_tfidf_row_equals_the_plain_computation_on_known_and_unknown_words() -> None:
    features = TfidfFeatures().fit(["previsão do tempo em Recife", "cidades mais quentes", "bom dia"])
    for text in ["previsao do tempo", "Previsão do TEMPO em Recife!", "tempo tempo xyzzy", "qwerty", ""]:
        for _ in range(2):  # a vocabulary word's char n-grams are kept after the first message
            cols, vals = features.row(text)
            assert cols[0] == 0 and vals[0] == 1.0
            got = dict(zip(cols.tolist(), vals.tolist(), strict=True))
            expected = _reference_row(features, text)
            assert got.keys() == expected.keys(), text
            assert np.allclose([got[c] for c in expected], list(expected.values()), atol=1e-6), text
    matrix = features.transform(["previsao do tempo", "qwerty"])
    assert matrix.indices[: matrix.indptr[1]].tolist() == features.row("previsao do tempo")[0].tolist()
    # fitted again on other texts: nothing of the first vocabulary is left behind
    features.fit(["tempo de chuva", "previsões"])
    cols, vals = features.row("previsao do tempo")
    expected = _reference_row(features, "previsao do tempo")
    assert cols.tolist() == list(expected)
    assert np.allclose(vals, list(expected.values()), atol=1e-6)


@pytest.mark.parametrize("inscope", [None, (3.0, -1.0), (2.0, 5.0, -1.5)])
def test_scalar_calibration_equals_the_vectorised_one(inscope: tuple[float, ...] | None) -> None:
    platt = PlattCalibrator(correct=(1.3, 0.4), inscope=inscope)
    columns = 1 if inscope is None else len(inscope) - 1
    rng = np.random.default_rng(3)
    for top_prob in (0.0, 1e-9, 0.2, 0.5, 0.93, 1.0):
        similarity = rng.uniform(-0.2, 1.0, columns).astype(np.float32)
        vectorised = platt(np.array([top_prob], dtype=np.float32), similarity[None, :])[0]
        assert platt.one(top_prob, *similarity.tolist()) == pytest.approx(float(vectorised), abs=1e-6)


def test_fuzzy_vocabulary_finds_what_fuzzy_equal_accepts() -> None:
    vocabulary = [
        "cotacao",
        "cotacoes",
        "alta",
        "altas",
        "acoes",
        "petrobras",
        "petrobas",
        "valorizacao",
        "dia",
    ]
    index = FuzzyVocabulary(vocabulary)
    queries = ["cotacao", "cotacap", "cotacoe", "alto", "altas", "acao", "petrobraz", "petroleo"]
    queries += ["valorisacao", "valurisacao", "dia", "dias", "x", "valorizacoes"]
    for word in queries:
        expected = sorted(w for w in vocabulary if fuzzy_equal(word, w))
        assert sorted(index.matches(word)) == expected, word
        assert (word in index) == bool(expected), word
    assert "alto" not in index  # short words match exactly or not at all
