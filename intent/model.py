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
from intent.entities import NOT_ENTITY, FuzzyVocabulary, GoalEntityExtractor, fuzzy_equal
from intent.features import FloatArray, IntArray, TfidfFeatures
from intent.synonyms import learnt_synonyms
from intent.text import tokens, verb_stem
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


#: Shorter words are corrected by no one: a typo of a short word is often another word.
MIN_TYPO_LETTERS = 5
#: Verb forms are related from this length: a shorter word is too often another word.
MIN_VERB_LETTERS = 4


def _a_typo_of(written: str, word: str) -> bool:
    """Whether ``written`` reads as a slip in typing ``word``: as long, letters swapped or
    mistyped within a typo's distance, the first and the last kept. A word that ends otherwise
    is most often another form of it ("ganhou" is no "ganhos", "shares" no "share"), and one a
    letter shorter or longer another word ("compara" is no "compra")."""
    return (
        len(written) == len(word)
        and written[0] == word[0]
        and written[-1] == word[-1]
        and fuzzy_equal(written, word)
    )


def _verb_forms(learnt: frozenset[str], language: str) -> dict[str, str]:
    """The learnt form of each verb, by its stem (:func:`verb_stem`), of the learnt words that
    are forms of a verb in ``language`` (the shortest of several): the examples use one form,
    people another ("apaga" of "apagar", "cancelar" of "cancela", "renewing" of "renew"). A
    noun or an adjective is no verb's form ("atraso", "atrasado" of "atrasar")."""
    forms: dict[str, str] = {}
    for word in sorted(learnt, key=lambda w: (len(w), w)):
        stem = verb_stem(word, language) if len(word) >= MIN_VERB_LETTERS and word not in NOT_ENTITY else None
        if stem is not None:
            forms.setdefault(stem, word)
    return forms


#: The languages whose verb forms :meth:`EmbeddedModel.spelled` reads as the learnt form.
#: English is not one: its inflections gained nothing on the dev splits, and on CLINC150 they
#: cost one in-scope case (0.9537 -> 0.9533); the sentence encoder reads English forms anyway.
SPELLED_VERBS = ("pt",)


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
    #: the words the classifier learnt, looked up with a typo's tolerance (:meth:`spelled`)
    words: FuzzyVocabulary = field(init=False, repr=False)
    #: the learnt form of each verb by its stem, per language (:func:`_verb_forms`)
    verbs: dict[str, dict[str, str]] = field(init=False, repr=False)
    #: a learnt verb of the same action for each everyday verb not learnt (:mod:`intent.synonyms`)
    synonyms: dict[str, str] = field(init=False, repr=False)

    def __post_init__(self) -> None:
        self.domains = np.array([g.domain for g in self.goals], dtype=str)
        self.words = FuzzyVocabulary(g[1:] for g in self.features.vocab if g[0] == "w" and " " not in g)
        self.verbs = {language: _verb_forms(self.words.words, language) for language in SPELLED_VERBS}
        self.synonyms = learnt_synonyms(self.words.words)

    def spelled(self, text: str, language: str | None = None) -> str:
        """``text`` with each word the classifier never learnt replaced by a learnt verb of the
        same action (:mod:`intent.synonyms`: "*tira* eu da aula" -> "cancela"), the one learnt word a
        typo away ("mechanical *keybaord*" -> "keyboard") or by the learnt form of the same verb in
        the message's ``language`` (:func:`_verb_forms`: "*compara* a v1" -> "comparar",
        "*renovando* o livro" -> "renovar"; Portuguese only, :data:`SPELLED_VERBS`); the text
        itself when none is. For classifying only: entity values are cut from the text as written."""
        out, end = [], 0
        for tok in tokens(text):
            word = tok.text
            if word in self.words.words or word in NOT_ENTITY:
                continue  # a function or filler word is a word of its own ("então" is no "estão")
            # an everyday verb of the same action as a learnt one: "*tira* eu da aula" -> "cancela"
            meant = self.synonyms.get(word)
            if meant is None and len(word) < MIN_VERB_LETTERS:
                continue
            if meant is None and language in self.verbs:
                stem = verb_stem(word, language)  # None: no verb's form ("atraso" is a noun)
                meant = self.verbs[language].get(stem) if stem else None
            if meant is None and len(word) >= MIN_TYPO_LETTERS:
                near = [w for w in self.words.matches(word) if _a_typo_of(word, w)]
                meant = near[0] if len(near) == 1 else None  # two words as close: no guess
            if meant is None and (language != "pt" or verb_stem(word, language) is None):
                # "renw", "poter": a letter left out; a verb's own form is no slip ("compra" is
                # no "compara")
                meant = self.words.dropped.get(word)
            if meant is None:
                continue
            out += [text[end : tok.start], meant]
            end = tok.end
        return "".join([*out, text[end:]]) if out else text
