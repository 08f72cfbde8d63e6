"""The embedded adapter: offline, deterministic, learns only from the registered manifests.

Training documents per goal: its description, its examples, the ``intent_hints`` (keywords and
examples) of every capability it maps to, and its enum values with their synonyms. Features are
TF-IDF word 1-2 + char 2-5 grams (``intent.features``), the classifier a linear model
(``intent.classifier``), and confidence is calibrated on held-out examples
(``intent.calibration``).

Everything is rebuilt when the catalog changes: ``update_catalog`` blocks (start-up),
``update_catalog_async`` trains in a worker thread while the previous model keeps answering; on a
large catalog it first installs a warm start from the previous model (``intent.incremental``)
and runs the full training in the background. With a ``cache_dir`` the trained model is stored
(``intent.model_store``) and reused as long as the catalog and the training code are unchanged,
so a restart does not train again, and training texts' sentence vectors are kept by content hash
(``intent.embedding_cache``), so only texts never seen are encoded.

When the sentence-encoder packages are installed (``intent.embeddings``) a second linear model
learns from MiniLM embeddings of the same documents, and the two are combined as a *cascade*:
a message the TF-IDF model is already sure about (calibrated confidence >= ``fast_accept``, set
on held-out data so that nearly all of those messages are right and almost no out-of-scope
text gets there) is answered at once, without the encoder; the others are embedded and scored
by the sum of both temperature-scaled models, with a confidence that also uses the message's
cosine to the nearest example of the chosen goal (out-of-scope text is far from every example).
Without the packages the adapter is the TF-IDF path alone.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
import math
import re
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar, cast

import numpy as np
import numpy.typing as npt

from intent.augment import augmented
from intent.base import CHOICE_NOTE, DEFAULT_CHOICE_MARGIN, GUESSED_NOTE, LONE_VALUE_NOTE, too_close
from intent.calibration import PlattCalibrator, expected_calibration_error, fit_temperature
from intent.classifier import (
    DenseConfig,
    DenseSoftmaxClassifier,
    SoftmaxClassifier,
    TrainConfig,
    softmax,
)
from intent.embedding_cache import CachedEncoder, TextEncoder, shared_cache
from intent.embeddings import MODEL_NAME, encoder_installed, load_encoder, preload_encoder
from intent.entities import (
    NOT_ENTITY,
    OBJECT_STARTERS,
    STOP,
    GoalEntityExtractor,
    capitalised_inside,
    content_words,
    stems,
    verbal_gerunds,
)
from intent.features import Csr, FloatArray, IntArray, TfidfFeatures
from intent.incremental import Documents, warm_start, worth_warm_start
from intent.model import CalibrationReport, EmbeddedModel, EmbeddingPart
from intent.model_store import ModelStore, model_key, training_parameters
from intent.readings import Readings
from intent.synonyms import ACTION_OF
from intent.text import (
    POSSESSIVES,
    asks_a_price,
    asks_about_words,
    asks_advice,
    clauses,
    colon_lead_in,
    expand_shorthands,
    how_to_verb,
    politeness_part,
    price_question,
    request_part,
    sentences,
    status_question,
    tokens,
    verb_stem,
    words,
)
from intent.typed import Clock
from shared.catalog import Catalog, GoalRef
from shared.entities import Entities
from shared.errors import PlatformError
from shared.i18n import detect, vote
from shared.i18n.bilingual import all_texts
from shared.manifest import Capability, Goal
from shared.models import GoalCandidate, IntentOutput

log = logging.getLogger(__name__)
T = TypeVar("T")

#: Minimum optimiser updates, so a catalog of a few dozen examples still converges.
MIN_STEPS = 400


class IntentTrainingFailed(PlatformError):
    """A changed catalog could not be learned; the previous model keeps answering."""

    status_code = 503
    code = "intent_training_failed"


@dataclass
class _Doc:
    text: str
    label: int
    #: examples may be held out for calibration; descriptions/keywords always train
    holdout_ok: bool


#: Fast path: minimum accuracy of the TF-IDF model above ``fast_accept`` on held-out examples,
#: and maximum share of out-of-scope negatives allowed to reach it.
FAST_MIN_ACCURACY = 0.99
FAST_MAX_NEGATIVES = 0.01
#: ...and never below this: a fast answer must clear the gateway's confirmation gate (0.7) by a
#: margin.
FAST_FLOOR = 0.8
#: Under ``FAST_EVIDENCE_FLOOR`` only when at least ``FAST_MIN_EVIDENCE`` held-out in-scope
#: examples are above the threshold (30 right out of 30 bounds the error rate by 10 % at 95 %
#: confidence, the rule of three); small catalogs, with few held-out examples, keep 0.9.
#: (Issue 13: on the shipped catalog the rule picks 0.86, 45/45 held-out examples right and none
#: of 91 negatives above it; the fixed 0.9 sent 56 % of the benchmark's messages to the encoder
#: for the same answers; bench/results/nlu_eval.md.)
FAST_EVIDENCE_FLOOR = 0.9
FAST_MIN_EVIDENCE = 30
#: The gateway's default confirmation gate: a wrong or out-of-scope reading the ensemble scores
#: under it is asked about instead of run, so the encoder made a difference there.
FAST_GATE = 0.7
#: tried in this order; on a tie (tiny catalogs fit held-out data perfectly) equal weights win
MIX_WEIGHTS = (1.0, 0.75, 1.5, 0.5, 2.0, 0.25, 0.0)
DENSE = DenseConfig(scale=1.0, l2=1e-5, learning_rate=0.03, epochs=60)


def choose_agreed_fast_accept(
    tfidf_conf: FloatArray,
    tfidf_top: IntArray,
    tfidf_correct: npt.NDArray[np.bool_],
    ensemble_top: IntArray,
    ensemble_conf: FloatArray,
    negative: npt.NDArray[np.bool_],
) -> float:
    """Lowest TF-IDF confidence above which, on held-out text, the encoder changed nothing a
    person would see (1.0 = none): the ensemble picks the same goal on every row above it, and
    no wrong or out-of-scope row above it is one the ensemble would have put under the gate.
    Text that clears such a threshold gains only latency from an encode (most parses reached
    the encoder for the answer TF-IDF had already given)."""
    pos = ~negative
    caught = (tfidf_top != ensemble_top) | ((~tfidf_correct | negative) & (ensemble_conf < FAST_GATE))
    for threshold in np.arange(FAST_FLOOR, 1.0, 0.01):
        above = tfidf_conf >= threshold - 1e-9
        if (above & pos).sum() < FAST_MIN_EVIDENCE:
            break
        if not (above & caught).any():
            return float(round(threshold, 2))
    return 1.0


def _nll(logits: FloatArray, labels: IntArray) -> float:
    p = softmax(logits.astype(np.float32))
    return float(-np.mean(np.log(p[np.arange(len(labels)), labels] + 1e-12)))


def _nearest_by_goal(held: FloatArray, train: FloatArray, labels: IntArray, n_classes: int) -> FloatArray:
    """(n_held, n_classes): each held vector's best cosine among each goal's training vectors."""
    order = np.argsort(labels, kind="stable")
    sims = held @ train[order].T
    starts = np.searchsorted(labels[order], np.arange(n_classes))
    present = np.bincount(labels, minlength=n_classes) > 0
    out = np.zeros((len(held), n_classes), dtype=np.float32)
    if present.any():
        reduced = np.maximum.reduceat(sims, starts[present], axis=1)
        out[:, present] = reduced
    return out


def choose_fast_accept(
    conf: FloatArray, correct: npt.NDArray[np.bool_], negative: npt.NDArray[np.bool_]
) -> float:
    """Lowest TF-IDF confidence above which answers need no embedding (1.0 = always embed)."""
    pos = ~negative
    for threshold in np.arange(FAST_FLOOR, 1.0, 0.01):
        above = conf >= threshold
        if not (above & pos).any():
            break
        if threshold < FAST_EVIDENCE_FLOOR - 1e-9 and (above & pos).sum() < FAST_MIN_EVIDENCE:
            continue
        accuracy = float(correct[above & pos].mean())
        leaked = float(above[negative].mean()) if negative.any() else 0.0
        if accuracy >= FAST_MIN_ACCURACY and leaked <= FAST_MAX_NEGATIVES:
            return float(round(threshold, 2))
    return 1.0


#: The confidence of a request whose goal is the classifier's first choice, clearly ahead of the
#: second, with every required entity (and at least one) said: above the confidence gate's default.
CLEAR_REQUEST_CONFIDENCE = 0.8
#: How far ahead of the runner-up (on the calibrated scale) the first goal must be.
CLEAR_REQUEST_MARGIN = 0.1
#: The stems of the verbs that ask for something to be done, besides the everyday verbs of an
#: action: "how do I *get* a cleaning?" asks for the goal, "how do I *clean* my pool?" does not.
_ASKING_STEMS = frozenset(
    verb_stem(verb)
    for verb in (
        *ACTION_OF,
        *("get", "have", "request", "arrange", "hire", "order", "ask", "make", "reserve"),
        *("pedir", "solicitar", "contratar", "encomendar", "marcar", "reservar", "chamar", "conseguir"),
    )
)
#: Under the out-of-scope threshold but at least this sure, a clear request is still read (its
#: entities from the goal's table or of the goal's type, and a word of the goal's own phrasing:
#: "chove em floripa amanha?" has a city, a day and "chove"); text with a name in it and nothing
#: of the goal's phrasing ("restaurante em São Paulo") is not.
RESCUE_FLOOR = 0.3
#: Under the rescue floor, a first goal is still read when its reading accounts for every word.
EXPLAINED_FLOOR = 0.15
#: A message made only of a reading goal's own words needs this many of them to be that goal's.
OWN_WORDS_ENOUGH = 2
#: A message made only of an acting goal's own words and values, short of one it requires, needs
#: this many of them (values counted) to be asked for the rest.
_ENOUGH_SAID = 3


def clear_request(goal: Goal, intent: IntentOutput) -> bool:
    """Whether ``intent`` names ``goal``'s entities: every required one, at least one in all,
    and the goal is not a near tie with another (a "did you mean A or B?")."""
    said = {name for name, value in intent.entities.items() if value not in (None, "", [])}
    return bool(said) and not goal.missing_required(said) and _clearly_first(intent)


def _clearly_first(intent: IntentOutput) -> bool:
    """Whether ``intent``'s goal is no near tie: no "did you mean A or B?" noted, and
    :data:`CLEAR_REQUEST_MARGIN` ahead of the runner-up."""
    if any(note.startswith(CHOICE_NOTE) for note in intent.notes):
        return False
    alternatives = intent.alternatives
    return (
        len(alternatives) < 2
        or alternatives[0].confidence - alternatives[1].confidence >= CLEAR_REQUEST_MARGIN
    )


#: A goal that needs this many values, all said with evidence and nothing else, is not named by
#: chance, however its request is phrased.
_NAMED_BY_ITS_VALUES = 3


def _required_count(goal: Goal) -> int:
    """How many of ``goal``'s entities are required."""
    return sum(1 for spec in goal.entities_schema.values() if spec.required)


def _reads_in_full(ref: GoalRef, readings: Readings) -> bool:
    """Whether ``ref``'s reading of the message has every value it requires, each said with
    evidence, none guessed."""
    reading = readings.of(ref)
    return (
        not reading.guessed
        and not ref.goal.missing_required(reading.entities)
        and readings.extractor(ref).evidenced(reading.entities)
    )


def _then_its_domain(best: GoalRef, order: IntArray, model: EmbeddedModel) -> Iterator[GoalRef]:
    """The first goals after ``best``, then the other goals of its domain, however far down the
    classifier put them ("quantas pessoas cabem na tumba?" is the room's, not its booking's)."""
    first = {int(index) for index in order}
    yield from (model.goals[int(index)] for index in order[1:])
    yield from (ref for k, ref in enumerate(model.goals) if k not in first and ref.domain == best.domain)


def _named_from_its_tables(ref: GoalRef, readings: Readings) -> Entities | None:
    """``ref``'s entities in the message when every required one is said with evidence, none is
    guessed and one comes from a lookup table; ``None`` otherwise."""
    entities = readings.of(ref).entities
    if not entities or not _reads_in_full(ref, readings) or not readings.extractor(ref).from_table(entities):
        return None
    return entities


def _written_as_a_name(text: str, value: str) -> bool:
    """Whether ``value`` is written in ``text`` capitalised, and not where a sentence starts."""
    at = text.find(value)
    toks = tokens(text)
    first = next((i for i, tok in enumerate(toks) if tok.start == at), None)
    return first is not None and capitalised_inside(text, toks, first)


#: A date or a date-time value, as the typed entities give them.
_A_DAY = re.compile(r"\d{4}-\d{2}-\d{2}")


def _reads_more(refs: list[GoalRef], readings: Readings) -> int | None:
    """Which of two goals reads every value the other reads in the message, and more, each with
    evidence: "faxina quarta 13h" says a service a price and a visit both take, and a day and a
    time only the visit does. ``None`` when neither does, when they share no value (or a value
    is guessed)."""
    found = [readings.of(ref) for ref in refs]
    if any(reading.guessed for reading in found):
        return None
    for wide, narrow in ((0, 1), (1, 0)):
        more, fewer = found[wide].entities, found[narrow].entities
        if (
            fewer  # a value both read: the two goals are about the same thing
            and len(more) > len(fewer)
            and _reads_all_of(more, fewer)
            and readings.extractor(refs[wide]).evidenced(more)
        ):
            return wide
    return None


#: The words that hang a value off the noun before them: "a receita *de* bolo", "a recipe *for* cake".
_OF = frozenset({"de", "do", "da", "dos", "das", "for", "of"})
_THE = frozenset({"the", "o", "a", "os", "as"})


def _about_another_noun(text: str, best: GoalRef, out: IntentOutput, model: EmbeddedModel) -> str | None:
    """The noun a value of the goal's table hangs off ("a *receita* de bolo de cenoura", "a
    *recipe* for carrot cake", "a *letra* de Yellow"), when the goal leaves it unexplained, no
    goal of any domain knows the word, and the value is all the goal read and nothing asks for
    the goal in its words: the message asks for that thing of the value, not for what the goal
    does with it. ``None`` otherwise."""
    extractor = model.extractors[(best.domain, best.goal.goal)]
    left = set(extractor.unexplained_words(text, out.entities))
    said = words(text)
    if not left or len(out.entities) != 1 or any(extractor.asked_with(w) for w in said):
        # "*book* dog training for Thor": the goal's own verb asks for it; "a pia do 302 ta
        # entupida … amanha": the goal's other values say it is asked for
        return None
    for value in out.entities.values():
        if not isinstance(value, str) or not extractor.knows_value(value):
            continue
        own = words(value)
        for i in (i for i in range(2, len(said)) if said[i : i + len(own)] == own):
            # "the recipe of *the* carrot cake"
            of = i - 2 if said[i - 1] in _THE and i >= 3 else i - 1
            noun = said[of - 1]
            if (
                said[of] in _OF
                and noun in left
                and not any(x.uses_phrasing(noun) or x.knows_value(noun) for x in model.extractors.values())
            ):
                return noun
    return None


#: How a question opens when it asks for something to be done ("can I get…?", "pode comprar…?"),
#: not what there is.
_ASKS_TO_ACT = (
    ("can", "i"),
    ("could", "i"),
    ("can", "you"),
    ("could", "you"),
    ("would", "you"),
    ("posso",),
    ("pode",),
    ("poderia",),
    ("consegue",),
    ("da", "pra"),
)


def _object_owner(
    text: str, foreign: list[str], best: GoalRef, order: IntArray, readings: Readings, model: EmbeddedModel
) -> GoalRef | None:
    """Another of the first goals phrased with every word ``best`` does not know, or naming it
    from its tables, and with another word of the message besides (its verb: "*cancel* my
    enrollment", "amzn *price* rn"), accounting for every word, none of its values guessed;
    ``None`` when there is none."""
    for index in order:
        ref = model.goals[int(index)]
        if ref == best:
            continue
        extractor = readings.extractor(ref)
        reading = readings.of(ref)
        listed = _words_of(_named_from_its_tables(ref, readings) or {})
        if (
            all(extractor.uses_phrasing(w) or w in listed for w in foreign)
            and set(extractor.phrasing_words(text)) - set(foreign)
            and not reading.guessed
            and not extractor.unexplained_words(text, reading.entities)
        ):
            return ref
    return None


def _opening_verb(text: str) -> str | None:
    """The first word of ``text`` that could name something, unless an article or a possessive
    comes before it, which makes it an object: "*cancel* my uber" opens with a verb, "is my
    *print* job done?" with none."""
    said = words(text)
    first = next((i for i, w in enumerate(said) if w not in NOT_ENTITY), None)
    if first is None or (first > 0 and said[first - 1] in OBJECT_STARTERS):
        return None
    return said[first]


def _words_of(entities: Entities) -> set[str]:
    """The words of every value of ``entities``, normalised."""
    return {
        w
        for value in entities.values()
        for item in (value if isinstance(value, list) else [value])
        for w in words(str(item))
    }


def _reads_all_of(theirs: Entities, own: Entities, reader: GoalEntityExtractor | None = None) -> bool:
    """Whether ``theirs`` holds every value of ``own``, each the same, or, given the ``reader`` of
    ``theirs``, the same entry of its lookup table ("seoul room" and "seoul")."""
    return all(
        theirs.get(name) == value or (reader is not None and reader.one_entry(name, theirs.get(name), value))
        for name, value in own.items()
    )


def _kin(extractors: dict[tuple[str, str], GoalEntityExtractor], ref: GoalRef) -> list[GoalEntityExtractor]:
    """The extractors of the other goals of ``ref``'s domain."""
    return [x for (domain, goal), x in extractors.items() if domain == ref.domain and goal != ref.goal.goal]


def _kin_words(
    extractors: dict[tuple[str, str], GoalEntityExtractor], ref: GoalRef, unexplained: list[str]
) -> list[str]:
    """The words of ``unexplained`` that another goal of ``ref``'s domain is phrased with."""
    kin = _kin(extractors, ref)
    return [w for w in unexplained if any(x.uses_phrasing(w) for x in kin)]


def _flat_values(entities: Entities) -> list[object]:
    """Every value of ``entities``, each of a list on its own."""
    return [item for value in entities.values() for item in (value if isinstance(value, list) else [value])]


#: how far down the classifier's order a goal whose switch the message says is looked for
SWITCH_CANDIDATES = 3


#: Words a goal does not know that a question naming one of its things by its code may say too
#: ("has PX7388 been *delivered* yet?").
_FEW_UNKNOWN = 2

#: Words a goal does not know that, outnumbering its own and the values said, make a message another
#: one's when it also lacks a required value.
_MANY_UNKNOWN = 2


def _values_said(entities: Entities) -> int:
    """How many values ``entities`` holds, each of a list counted."""
    return sum(len(v) if isinstance(v, list) else 1 for v in entities.values())


def _only_one_reads_its_values(refs: list[GoalRef], readings: Readings) -> int | None:
    """Which of two goals reads every value it requires, with evidence, when the other reads
    none at all: "tosa qto sai?" says a service a price takes and no company a quote needs.
    ``None`` otherwise."""
    complete = [_required_count(ref.goal) > 0 and _reads_in_full(ref, readings) for ref in refs]
    for chosen in (0, 1):
        if complete[chosen] and not complete[1 - chosen] and not readings.of(refs[1 - chosen]).entities:
            return chosen
    return None


#: The action (:mod:`intent.synonyms`) that undoes what an acting goal makes.
_UNDO = "cancel"


def _undoing(extractor: GoalEntityExtractor, text: str) -> str | None:
    """The cancelling verb a request opens with when the goal's own phrasing cancels nothing
    ("cancela", "desmarcar", "drop"), else ``None``."""
    verb = extractor.unsupported_action(text)
    return verb if verb is not None and any(ACTION_OF.get(w) == _UNDO for w in words(verb)) else None


def _opens_with_an_undo(extractor: GoalEntityExtractor, text: str) -> str | None:
    """The cancelling verb a message opens with, whatever follows it ("*cancela* protocolo
    PR48125", "*cancel* protocol PR48125"), when it is no word of the goal's own phrasing; else
    ``None``. Weaker than :func:`_undoing` (no object needs to follow): only ever a reason to read
    the domain's cancellation instead, never to leave the goal out."""
    first = next((w for w in words(text) if w not in NOT_ENTITY), None)
    if first is None or ACTION_OF.get(first) != _UNDO or extractor.uses_phrasing(first):
        return None
    return first


def _says_nothing_of(extractor: GoalEntityExtractor, text: str, entities: Entities) -> bool:
    """Whether the message says nothing of a goal that takes values: none of its values and no
    word of its phrasing (a goal that takes no value is all its examples' words: never so)."""
    return bool(extractor.specs) and not entities and not extractor.phrasing_words(text)


def _another_action_alone(extractor: GoalEntityExtractor, text: str, entities: Entities) -> str | None:
    """The verb the message opens with when the goal does not do it and the message says nothing
    else of the goal (:func:`_says_nothing_of`); ``None`` otherwise."""
    return extractor.unsupported_action(text) if _says_nothing_of(extractor, text, entities) else None


def _nothing_of_the_goal(extractor: GoalEntityExtractor, text: str, entities: Entities) -> bool:
    """Whether the message says nothing of the goal (:func:`_says_nothing_of`) and has words it
    does not account for ("me lembra de tomar remédio às 20h" read as a research idea)."""
    return _says_nothing_of(extractor, text, entities) and bool(extractor.unexplained_words(text, entities))


def _other_object(extractor: GoalEntityExtractor, text: str, entities: Entities) -> bool:
    """Whether the message's values are all of a type any request carries (a day, a time, a
    number) and it names something the goal does not know: "agenda uma *reunião* quinta às 14h"
    has a booking's day and time, and is no doctor's appointment. A gerund used as a verb is no
    such thing: "what's *playing* tomorrow?" says what happens on the day, and names nothing else
    ("a *meeting*" does)."""
    if not extractor.only_typed(entities):
        return False
    verbs = verbal_gerunds(text)
    return any(word not in verbs for word in extractor.unexplained_words(text, entities))


def _about_the_goal(extractor: GoalEntityExtractor, text: str, entities: Entities) -> bool:
    """Whether the message says something of the goal besides its values: a word of its own
    phrasing, or nothing else at all. "quem descobriu o *Brasil*?" names a market and says
    nothing of top movers; "Brasil?" and "maiores altas no Brasil" do."""
    return bool(extractor.phrasing_words(text)) or not extractor.unexplained_words(text, entities)


def _clear_for(
    goal: Goal,
    extractor: GoalEntityExtractor,
    text: str,
    out: IntentOutput,
    *,
    rescued: bool,
    approved: bool = False,
) -> bool:
    """Whether ``out`` is a clear request for ``goal``: its own values, every required one said
    and listed where it has a table (or, for a goal that asks for a yes before it acts,
    ``approved``, said: the approval shows the name), none only of a type any request carries
    beside something the goal does not know, and no verb of an action the goal does not do; and
    for a goal the classifier alone would have left out of scope (``rescued``), something of the
    goal said besides them."""
    return (
        clear_request(goal, out)
        and (approved or not extractor.unlisted_required(out.entities))
        and not _other_object(extractor, text, out.entities)
        and not _another_action_on_it(extractor, text)
        and (not rescued or _about_the_goal(extractor, text, out.entities))
    )


def _another_action_on_it(extractor: GoalEntityExtractor, text: str) -> bool:
    """Whether the request opens with the everyday verb of an action the goal does not do: "*pay*
    my credit card bill" names a statement's card ("I *have* an early flight…" opens with no
    action)."""
    verb = extractor.unsupported_action(text)
    return verb is not None and any(word in ACTION_OF for word in words(verb))


def goal_documents(ref: GoalRef, catalog: Catalog) -> tuple[list[str], list[str]]:
    """(always-train texts, example texts) a goal is learned from."""
    goal = ref.goal
    # every language's phrasing, as one document (as when manifests wrote "pt (en)" strings)
    fixed = [" ".join(all_texts(goal.description))]
    manifest = catalog.manifest(ref.domain)
    mapped = list(goal.capabilities)
    for spec in goal.entities_schema.values():
        for target in (spec.capability_map or {}).values():
            mapped.extend([target] if isinstance(target, str) else target)
        if spec.type == "enum":
            for value in spec.values or []:
                synonyms = spec.synonyms.get(value, [])
                fixed.append(" ".join([value.replace("_", " ").lower(), *synonyms]))
                # each synonym is also a short document of its own: "boa tarde" alone should
                # look like this goal, not only as a few n-grams inside one long list
                fixed.extend(synonyms)
    examples = list(goal.example_texts())
    for name in dict.fromkeys(mapped):
        cap = manifest.capability(name) if manifest else None
        if cap is None:
            continue
        hints = cap.metadata.intent_hints
        fixed.extend(hints.keywords)
        examples.extend(hints.examples)
    return fixed, examples


def training_documents(ref: GoalRef, catalog: Catalog, augment: bool) -> tuple[list[str], list[str]]:
    """``goal_documents`` with the goal's augmented texts among the always-train ones (never held
    out: a variant of a held-out example would flatter the calibration)."""
    fixed, examples = goal_documents(ref, catalog)
    return ([*fixed, *augmented(ref.goal)] if augment else fixed), examples


def entity_extractor(ref: GoalRef, catalog: Catalog) -> GoalEntityExtractor:
    """The extractor of ``ref``'s entities, the words the goal is learned from being phrasing."""
    fixed, _ = goal_documents(ref, catalog)
    manifest = catalog.manifest(ref.domain)
    related = [g for g in manifest.goals if g.goal != ref.goal.goal] if manifest else []
    return GoalEntityExtractor(ref.goal, extra_carrier=fixed, related=related)


def fallback_examples(catalog: Catalog) -> list[str]:
    """Out-of-scope examples a catalog declares: ``intent_hints.examples`` of fallback capabilities.

    The domain that answers out-of-scope requests knows best what they look like; its examples
    are never a goal, only "not any goal" evidence for calibration.
    """
    used = {(g.domain, c) for g in catalog.goals() for c in g.goal.capabilities}
    return [
        text
        for ref in catalog.with_role("fallback")
        if (ref.domain, ref.capability.name) not in used  # a goal's own hints are positives
        for text in ref.capability.metadata.intent_hints.examples
        if text.strip()
    ]


def _centroids(x: Csr, labels: npt.NDArray[np.int64], n_classes: int) -> FloatArray:
    """Unit-length mean feature vector of each goal (bias column excluded)."""
    c = np.zeros((x.n_cols, n_classes), dtype=np.float32)
    rows = x.row_ids()
    np.add.at(c, (x.indices, labels[rows]), x.data)
    c[0] = 0.0
    norms = np.linalg.norm(c, axis=0).astype(np.float32)
    norms[norms == 0] = 1.0
    out: FloatArray = c / norms
    return out


def _similarity(x: Csr, centroids: FloatArray) -> FloatArray:
    """Cosine of each row with each centroid."""
    data = x.data.copy()
    data[x.indices == 0] = 0.0
    norms = np.sqrt(np.add.reduceat(data * data, x.indptr[:-1]))
    norms[norms == 0] = 1.0
    sims = Csr(x.indptr, x.indices, data, x.n_cols).dot(centroids)
    out: FloatArray = (sims / norms[:, None]).astype(np.float32)
    return out


def _centroid_cosine(model: EmbeddedModel, cols: IntArray, vals: FloatArray, goal: int) -> float:
    """Cosine of one ``TfidfFeatures.row`` (bias column excluded) with ``goal``'s centroid."""
    body = vals[1:]
    if not len(body):
        return 0.0
    norm = float(np.sqrt(np.dot(body, body))) or 1.0
    return float(body @ model.centroids[cols[1:], goal]) / norm


def _train(x: Csr, labels: npt.NDArray[np.int64], n_classes: int, config: TrainConfig) -> SoftmaxClassifier:
    batches = max(1, math.ceil(x.n_rows / config.batch_size))
    epochs = max(config.epochs, math.ceil(MIN_STEPS / batches))
    cfg = TrainConfig(**{**config.__dict__, "epochs": epochs})
    return SoftmaxClassifier(n_classes, cfg).fit(x, labels)


def catalog_documents(catalog: Catalog, encoder: TextEncoder | None, augment: bool = True) -> Documents:
    """Every training document of ``catalog`` (as ``train_model`` builds them), for a warm start
    (``intent.incremental``)."""
    goals = catalog.goals()
    texts: list[str] = []
    labels: list[int] = []
    for label, ref in enumerate(goals):
        fixed, examples = training_documents(ref, catalog, augment)
        kept = [t for t in [*fixed, *examples] if t.strip()]
        texts.extend(kept)
        labels.extend([label] * len(kept))
    return Documents(
        goals=goals,
        texts=texts,
        y=np.array(labels, dtype=np.int64),
        encoder=encoder,
        extractors={(ref.domain, ref.goal.goal): entity_extractor(ref, catalog) for ref in goals},
    )


def _warm_start_pays(previous: EmbeddedModel, catalog: Catalog) -> bool:
    documents = 0
    for ref in catalog.goals():
        fixed, examples = goal_documents(ref, catalog)
        documents += len(fixed) + len(examples)
    return worth_warm_start(previous, catalog.goals(), documents)


def train_model(
    catalog: Catalog,
    *,
    config: TrainConfig | None = None,
    negatives: Sequence[str] = (),
    encoder: TextEncoder | None = None,
) -> EmbeddedModel | None:
    """Fit features, classifier and calibration from the catalog (None when it has no goals)."""
    config = config or TrainConfig()
    goals = catalog.goals()
    if not goals:
        return None
    negatives = [*negatives, *fallback_examples(catalog)]
    docs = _documents(goals, catalog, config)
    texts = [d.text for d in docs]
    features = TfidfFeatures(min_df=2 if len(docs) > 2000 else 1).fit(texts)
    x = features.transform(texts)
    y = np.array([d.label for d in docs], dtype=np.int64)
    n_classes = len(goals)
    vectors = encoder.encode(texts) if encoder is not None else None
    neg_vectors = encoder.encode(list(negatives)) if encoder is not None and negatives else None
    held = _held_out(docs, x, y, n_classes, config, features, negatives, vectors, neg_vectors)
    classifier = _train(x, y, n_classes, config)
    centroids = _centroids(x, y, n_classes)
    report = CalibrationReport()
    temperature, platt = 1.0, PlattCalibrator()
    embedding: EmbeddingPart | None = None
    if held.logits:
        logits = np.concatenate(held.logits)
        sims = np.concatenate(held.sims)
        labels = np.concatenate(held.labels)
        temperature, platt, calibrated, report = _calibrate(logits, sims, labels)
        if vectors is not None and encoder is not None and held.dense:
            embedding, report = _fit_embedding_part(
                encoder,
                vectors,
                y,
                n_classes,
                (logits, np.concatenate(held.dense), np.concatenate(held.near), sims, labels),
                (temperature, calibrated),
                report,
            )
    extractors = {(ref.domain, ref.goal.goal): entity_extractor(ref, catalog) for ref in goals}
    return EmbeddedModel(
        goals, features, classifier, centroids, temperature, platt, extractors, report, embedding
    )


def _documents(goals: Sequence[GoalRef], catalog: Catalog, config: TrainConfig) -> list[_Doc]:
    """Every goal's training texts, labelled by the goal's position."""
    docs: list[_Doc] = []
    for label, ref in enumerate(goals):
        fixed, examples = training_documents(ref, catalog, config.augment)
        docs.extend(_Doc(t, label, False) for t in fixed if t.strip())
        docs.extend(_Doc(t, label, True) for t in examples if t.strip())
    return docs


#: Folds of held-out examples for calibration on small catalogs (one 20% fold on large ones).
_FOLDS = 5


def _fold_of(docs: list[_Doc], y: IntArray, n_classes: int) -> IntArray:
    """Each document's calibration fold; -1 for those that always train (descriptions,
    keywords, a goal's only example)."""
    fold_of = np.full(len(docs), -1, dtype=np.int64)
    seen: dict[int, int] = {}
    for i, d in enumerate(docs):
        if d.holdout_ok:
            seen[d.label] = seen.get(d.label, 0) + 1
            fold_of[i] = seen[d.label] % _FOLDS
    counts = np.bincount(y[fold_of >= 0], minlength=n_classes)
    fold_of[(fold_of >= 0) & (counts[y] < 2)] = -1  # a goal's only example always trains
    return fold_of


@dataclass
class _HeldOut:
    """Predictions on text each fold's model did not train on, for calibration: the TF-IDF
    classifier's logits and centroid similarities, the labels (-1: out of scope), and with an
    encoder the dense classifier's logits and the nearest examples' similarities."""

    logits: list[FloatArray] = field(default_factory=list)
    sims: list[FloatArray] = field(default_factory=list)
    labels: list[IntArray] = field(default_factory=list)
    dense: list[FloatArray] = field(default_factory=list)
    near: list[FloatArray] = field(default_factory=list)


def _held_out(
    docs: list[_Doc],
    x: Csr,
    y: IntArray,
    n_classes: int,
    config: TrainConfig,
    features: TfidfFeatures,
    negatives: Sequence[str],
    vectors: FloatArray | None,
    neg_vectors: FloatArray | None,
) -> _HeldOut:
    """Held-out predictions: k folds on small catalogs, one 20% fold on large ones."""
    fold_of = _fold_of(docs, y, n_classes)
    small = len(docs) <= 3000
    used_folds = range(_FOLDS) if small else range(1)
    leave_goal_out = small and n_classes >= 3
    left_out = np.zeros(n_classes, dtype=bool)
    held = _HeldOut()
    for f in used_folds:
        test = np.flatnonzero(fold_of == f)
        if len(test) == 0:
            continue
        train_mask = fold_of != f
        if leave_goal_out:
            # goals left out of this fold's training: their held-out examples are real
            # out-of-scope text for the remaining catalog (negatives without any extra data)
            left_out = np.arange(n_classes) % _FOLDS == f
            train_mask &= ~left_out[y]
        train_idx = np.flatnonzero(train_mask)
        clf = _train(x.rows(train_idx), y[train_idx], n_classes, config)
        cents = _centroids(x.rows(train_idx), y[train_idx], n_classes)
        xt = x.rows(test)
        held.logits.append(clf.logits(xt))
        held.sims.append(_similarity(xt, cents))
        held.labels.append(np.where(left_out[y[test]], -1, y[test]) if leave_goal_out else y[test])
        if vectors is not None:
            dense = DenseSoftmaxClassifier(n_classes, DENSE).fit(vectors[train_idx], y[train_idx])
            held.dense.append(dense.logits(vectors[test]))
            held.near.append(_nearest_by_goal(vectors[test], vectors[train_idx], y[train_idx], n_classes))
        if negatives:
            xn = features.transform(list(negatives))
            held.logits.append(clf.logits(xn))
            held.sims.append(_similarity(xn, cents))
            held.labels.append(np.full(len(negatives), -1, dtype=np.int64))
            if vectors is not None and neg_vectors is not None:
                held.dense.append(dense.logits(neg_vectors))
                held.near.append(_nearest_by_goal(neg_vectors, vectors[train_idx], y[train_idx], n_classes))
    return held


def _calibrate(
    logits: FloatArray, sims: FloatArray, labels: IntArray
) -> tuple[float, PlattCalibrator, FloatArray, CalibrationReport]:
    """Temperature and Platt scaling fitted on held-out predictions: (temperature, the
    calibrator, the calibrated held-out confidences, the report)."""
    inscope = labels >= 0
    temperature = fit_temperature(logits[inscope], labels[inscope])
    probs = softmax(logits / temperature)
    top = probs.argmax(axis=1)
    top_prob = probs.max(axis=1)
    top_sim = sims[np.arange(len(top)), top]
    correct = top == labels
    platt = PlattCalibrator()
    platt.fit(top_prob, top_sim, correct, ~inscope)
    calibrated = platt(top_prob, top_sim)
    report = CalibrationReport(
        temperature=temperature,
        platt=platt.correct,
        inscope=platt.inscope,
        heldout=int(inscope.sum()),
        heldout_accuracy=float(correct[inscope].mean()) if inscope.any() else 0.0,
        ece_before=expected_calibration_error(top_prob, correct),
        ece_after=expected_calibration_error(calibrated, correct),
        negatives=int((~inscope).sum()),
    )
    return temperature, platt, calibrated, report


def _mix_weight(
    tfidf_logits: FloatArray,
    tfidf_temperature: float,
    dense_logits: FloatArray,
    dense_temperature: float,
    labels: IntArray,
) -> tuple[float, float]:
    """How much the semantic model counts, and the mix's temperature: the weight with the best
    held-out log-likelihood (on a tiny Portuguese catalog the English encoder is worth less
    than on CLINC150)."""
    inscope = labels >= 0
    best: tuple[float, float, float] | None = None
    for weight in MIX_WEIGHTS:
        z = tfidf_logits / tfidf_temperature + weight * dense_logits / dense_temperature
        t = fit_temperature(z[inscope], labels[inscope])
        nll = _nll((z[inscope] / t).astype(np.float32), labels[inscope])
        if best is None or nll < best[0] - 1e-9:
            best = (nll, weight, t)
    assert best is not None
    return best[1], best[2]


def _fit_embedding_part(
    encoder: TextEncoder,
    vectors: FloatArray,
    y: IntArray,
    n_classes: int,
    held: tuple[FloatArray, FloatArray, FloatArray, FloatArray, IntArray],
    tfidf: tuple[float, FloatArray],
    report: CalibrationReport,
) -> tuple[EmbeddingPart, CalibrationReport]:
    """Fit the dense model on everything and calibrate the ensemble on the held-out predictions.

    ``held`` = (TF-IDF logits, dense logits, nearest-example embedding cosines per goal, TF-IDF
    centroid cosines per goal, labels; -1 = out of scope); ``tfidf`` = (TF-IDF temperature,
    TF-IDF calibrated confidences of the same rows). The in-scope factor uses both cosines of the
    chosen goal: the embedding one knows paraphrases, the TF-IDF one the catalog's own words
    (an English encoder says little about Portuguese text).
    """
    tfidf_logits, dense_logits, near, centroid_sims, labels = held
    tfidf_temperature, tfidf_conf = tfidf
    inscope = labels >= 0
    dense_temperature = fit_temperature(dense_logits[inscope], labels[inscope])
    mix = (tfidf_logits, tfidf_temperature, dense_logits, dense_temperature)
    weight, temperature = _mix_weight(*mix, labels)
    z = tfidf_logits / tfidf_temperature + weight * dense_logits / dense_temperature
    probs = softmax((z / temperature).astype(np.float32))
    top = probs.argmax(axis=1)
    top_prob = probs.max(axis=1)
    rows = np.arange(len(top))
    nearest = np.stack([near[rows, top], centroid_sims[rows, top]], axis=1)
    correct = top == labels
    platt = PlattCalibrator().fit(top_prob, nearest, correct, ~inscope)
    calibrated = platt(top_prob, nearest)
    tfidf_top = tfidf_logits.argmax(axis=1)
    tfidf_correct = tfidf_top == labels
    fast_accept = min(
        choose_fast_accept(tfidf_conf, tfidf_correct, ~inscope),
        choose_agreed_fast_accept(tfidf_conf, tfidf_top, tfidf_correct, top, calibrated, ~inscope),
    )
    order = np.argsort(y, kind="stable")
    offsets = np.searchsorted(y[order], np.arange(n_classes + 1)).astype(np.int64)
    part = EmbeddingPart(
        classifier=DenseSoftmaxClassifier(n_classes, DENSE).fit(vectors, y),
        examples=vectors[order],
        offsets=offsets,
        tfidf_temperature=tfidf_temperature,
        dense_temperature=dense_temperature / weight if weight > 0 else float("inf"),
        temperature=temperature,
        platt=platt,
        fast_accept=fast_accept,
    )
    fast = tfidf_conf >= fast_accept
    # the cascade's confidence on the held-out rows: TF-IDF's when fast, the ensemble's otherwise
    cascade_conf = np.where(fast, tfidf_conf, calibrated)
    cascade_correct = np.where(fast, tfidf_correct, correct)
    report.ensemble_heldout_accuracy = float(cascade_correct[inscope].mean()) if inscope.any() else 0.0
    report.ensemble_ece = expected_calibration_error(cascade_conf, cascade_correct)
    report.fast_accept = fast_accept
    report.fast_share = float(fast.mean())
    report.dense_weight = weight
    return part, report


async def _in_daemon_thread(work: Callable[[], T]) -> T:
    """``work()`` in a daemon thread of its own: unlike ``asyncio.to_thread``, a shutdown does not
    wait for it (a full training can take minutes; what it stores is written atomically)."""
    loop = asyncio.get_running_loop()
    future: asyncio.Future[T] = loop.create_future()

    def settle(result: T | None, error: BaseException | None) -> None:
        if future.done():  # the waiter was cancelled
            return
        if error is not None:
            future.set_exception(error)
        else:
            future.set_result(cast(T, result))

    def run() -> None:
        try:
            result, error = work(), None
        except BaseException as exc:
            result, error = None, exc
        with contextlib.suppress(RuntimeError):  # the loop closed meanwhile: nobody is waiting
            loop.call_soon_threadsafe(settle, result, error)

    threading.Thread(target=run, name="intent-full-training", daemon=True).start()
    return await future


def _out_of_scope(out: IntentOutput, why: str) -> IntentOutput:
    """``out`` read as no goal (out of scope), with why in its notes."""
    out.notes.append(f"out of scope: {why}")
    out.goal = None
    out.primary_domain = None
    out.entities = {}
    return out


class EmbeddedIntentAdapter:
    """``IntentAdapter`` over an ``EmbeddedModel``; see the module docstring."""

    name = "embedded"

    def __init__(
        self,
        catalog: Catalog | None = None,
        *,
        oos_threshold: float = 0.5,
        choice_margin: float = DEFAULT_CHOICE_MARGIN,
        config: TrainConfig | None = None,
        negatives: Sequence[str] = (),
        use_embeddings: bool = True,
        cache_dir: Path | None = None,
        time_zone: str = "UTC",
    ):
        self.oos_threshold = oos_threshold
        #: the zone dates and times are resolved in when a message's context gives none
        self.time_zone = time_zone
        #: False = TF-IDF path only, even when the sentence-encoder packages are installed
        self.use_embeddings = use_embeddings
        self.choice_margin = choice_margin
        self.config = config or TrainConfig()
        #: out-of-scope texts used only to fit calibration (a benchmark's oos_train), never goals
        self.negatives = list(negatives)
        #: trained models are kept here and reused for an unchanged catalog (None = never stored)
        self.store = ModelStore(cache_dir) if cache_dir is not None else None
        #: sentence vectors of training texts by content hash, on disk next to the stored models
        self.embeddings = shared_cache(MODEL_NAME, self.store.embeddings_directory if self.store else None)
        #: models this adapter built for a catalog change: full trainings and warm starts (a stored
        #: one being reused does not count, nor does a full training that replaces a warm start)
        self.training_runs = 0
        #: full trainings run in the background to replace a warm-started model
        self.background_trainings = 0
        #: texts scored with the sentence encoder (the others took the TF-IDF fast path)
        self.encoded_texts = 0
        self.model: EmbeddedModel | None = None
        self.catalog = Catalog()
        # catalog changes are numbered so a slow retrain never replaces a newer model
        self._requested = 0
        self._installed = 0
        self._pending: tuple[Catalog, int] | None = None
        self._trainer: asyncio.Task[None] | None = None
        self._refining: tuple[Catalog, int] | None = None
        self._refiner: asyncio.Task[None] | None = None
        if catalog is not None:
            self.update_catalog(catalog)

    def update_catalog(self, catalog: Catalog) -> None:
        """Learn ``catalog`` now, blocking the caller (start-up, scripts, benchmarks)."""
        self._requested += 1
        self._install(catalog, self.build_model(catalog), self._requested)

    async def update_catalog_async(self, catalog: Catalog) -> None:
        """Learn ``catalog`` in a worker thread while the previous model keeps answering.

        Returns once a model of this catalog (or of a newer one: changes arriving during a
        retrain are coalesced, only the latest is trained) answers: the stored one, or one
        warm-started from the model answering now (``intent.incremental``), whose full training
        then runs in the background and replaces it (:meth:`settled` waits for that). Raises
        ``IntentTrainingFailed`` when that training failed; the previous model stays in place.
        """
        self._requested += 1
        generation = self._requested
        self._pending = (catalog, generation)
        if self._trainer is None or self._trainer.done():
            self._trainer = asyncio.create_task(self._train_pending())
        # shielded: a caller that gives up waiting must not cancel a retrain others wait for
        await asyncio.shield(self._trainer)
        if self._installed < generation:
            raise IntentTrainingFailed(f"could not learn catalog {catalog.fingerprint}; see the log")

    async def _train_pending(self) -> None:
        while self._pending is not None:
            catalog, generation = self._pending
            self._pending = None
            try:
                model = await asyncio.to_thread(self.build_model, catalog, self.model)
            except Exception:
                log.exception("training the intent model failed; the previous model keeps answering")
                continue
            if generation > self._installed:
                self._install(catalog, model, generation)
                if model is not None and model.provisional:
                    self._refine_later(catalog, generation)

    def _refine_later(self, catalog: Catalog, generation: int) -> None:
        self._refining = (catalog, generation)
        if self._refiner is None or self._refiner.done():
            self._refiner = asyncio.create_task(self._refine())

    async def _refine(self) -> None:
        """Full trainings of warm-started models, in a worker thread, the latest change only."""
        while self._refining is not None:
            catalog, generation = self._refining
            self._refining = None
            if generation != self._installed:  # a newer change came in: its own refinement follows
                continue
            try:
                model = await _in_daemon_thread(functools.partial(self.build_model, catalog, background=True))
            except Exception:
                log.exception("the full intent training failed; the warm-started model keeps answering")
                continue
            if generation == self._installed:
                self._install(catalog, model, generation)

    async def settled(self) -> None:
        """Wait until no full training is running or due in the background."""
        while self._refiner is not None and not self._refiner.done():
            await asyncio.shield(self._refiner)

    def _install(self, catalog: Catalog, model: EmbeddedModel | None, generation: int) -> None:
        self.catalog, self.model, self._installed = catalog, model, generation

    def build_model(
        self, catalog: Catalog, warm_from: EmbeddedModel | None = None, *, background: bool = False
    ) -> EmbeddedModel | None:
        """The model of ``catalog``: the stored one when its key matches; else warm-started from
        ``warm_from`` when it knows most of the goals (provisional, never stored); else trained
        (and stored). ``background``: a full training replacing a warm start."""
        if not catalog.goals():
            return None
        if self.store is None:
            if warm_from is not None and _warm_start_pays(warm_from, catalog):
                return self._warm_start(catalog, warm_from)
            return self._train(catalog, background)
        key = self._key(catalog)
        model = self._load(key, catalog)
        if model is not None:
            return model
        if warm_from is not None and _warm_start_pays(warm_from, catalog):
            return self._warm_start(catalog, warm_from)
        # gateways sharing the directory train a catalog once: the others wait here, then load it
        with self.store.training(key):
            model = self._load(key, catalog)
            if model is None:
                model = self._train(catalog, background)
                if model is not None:
                    self.store.save(key, model)
        return model

    def _key(self, catalog: Catalog) -> str:
        with_encoder = self.use_embeddings and encoder_installed()
        parameters = training_parameters(
            self.config, DENSE, self.negatives, MODEL_NAME if with_encoder else None
        )
        return model_key(catalog, parameters)

    def _load(self, key: str, catalog: Catalog) -> EmbeddedModel | None:
        assert self.store is not None
        model = self.store.load(key, catalog, entity_extractor)
        if model is not None:
            log.info("intent model of catalog %s loaded from %s", catalog.fingerprint, self.store.path(key))
            if model.embedding is not None:
                preload_encoder()  # needed by the first unsure message only: start-up need not wait
        return model

    def _encoder(self) -> CachedEncoder | None:
        """The sentence encoder behind this adapter's embedding cache (None: TF-IDF alone)."""
        encoder = load_encoder() if self.use_embeddings else None
        return CachedEncoder(encoder, self.embeddings) if encoder is not None else None

    def _train(self, catalog: Catalog, background: bool = False) -> EmbeddedModel | None:
        if background:
            self.background_trainings += 1
        else:
            self.training_runs += 1
        # announced before the work (the launcher shows progress from this line to the next)
        goals = len(catalog.goals())
        log.info("training the intent model of catalog %s: %d goals", catalog.fingerprint, goals)
        started = time.perf_counter()
        model = train_model(catalog, config=self.config, negatives=self.negatives, encoder=self._encoder())
        log.info(
            "intent model of catalog %s trained in %.1f s", catalog.fingerprint, time.perf_counter() - started
        )
        return model

    def _warm_start(self, catalog: Catalog, previous: EmbeddedModel) -> EmbeddedModel:
        self.training_runs += 1
        started = time.perf_counter()
        encoder = self._encoder() if previous.embedding is not None else None
        model = warm_start(
            previous, catalog_documents(catalog, encoder, self.config.augment), self.config, DENSE
        )
        log.info(
            "intent model of catalog %s warm-started in %.2f s; its full training follows in the background",
            catalog.fingerprint,
            time.perf_counter() - started,
        )
        return model

    async def parse(
        self, text: str, *, pinned_domain: str | None = None, context: dict[str, Any] | None = None
    ) -> IntentOutput:
        return self.parse_sync(text, pinned_domain=pinned_domain, context=context)

    def scores(self, text: str, pinned_domain: str | None = None) -> tuple[FloatArray, float, float]:
        """(probabilities over goals, calibrated top confidence, similarity to the top goal).

        TF-IDF first; the sentence encoder only when TF-IDF's confidence is under ``fast_accept``.
        The similarity is the TF-IDF centroid cosine on the fast path, the nearest-example
        embedding cosine otherwise.
        """
        model = self.model
        if model is None:
            return np.zeros(0, dtype=np.float32), 0.0, 0.0
        cols, vals = model.features.row(text)
        raw = model.classifier.logits_row(cols, vals)
        excluded = np.zeros(len(model.goals), dtype=bool)
        if pinned_domain is not None:
            excluded = model.domains != pinned_domain
            if excluded.all():
                return np.zeros(len(model.goals), dtype=np.float32), 0.0, 0.0
        probs = softmax(np.where(excluded, -np.inf, raw / model.temperature)[None, :])[0]
        top = int(probs.argmax())
        sim = _centroid_cosine(model, cols, vals, top)
        conf = model.platt.one(float(probs[top]), sim)
        part = model.embedding
        if part is None or conf >= part.fast_accept:
            return probs, conf, sim
        encoder = load_encoder()
        if encoder is None:  # stored with the encoder, which is no longer installed
            return probs, conf, sim
        vector = encoder.encode_one(text)
        self.encoded_texts += 1
        z = part.logits(raw[None, :], vector[None, :])[0]
        probs = softmax(np.where(excluded, -np.inf, z)[None, :])[0]
        top = int(probs.argmax())
        sim = part.nearest(vector, top)
        lexical = _centroid_cosine(model, cols, vals, top)
        conf = part.platt.one(float(probs[top]), sim, lexical)
        return probs, conf, sim

    def parse_sync(
        self, text: str, *, pinned_domain: str | None = None, context: dict[str, Any] | None = None
    ) -> IntentOutput:
        out = IntentOutput(original_query=text, language=detect(text), adapter=self.name)
        model = self.model
        if model is None:
            out.notes.append("no goals registered")
            return out
        probs, conf = self._read_scores(text, pinned_domain)
        if conf == 0.0 and not probs.any():
            out.notes.append(f"pinned domain {pinned_domain!r} has no goals")
            return out
        order = self._rank(out, probs, conf, model)
        best = model.goals[int(order[0])]
        # a question about what the person has, read as such: its question words are no object
        status = False
        if conf >= RESCUE_FLOOR and (own := self._status_goal(text, best, probs, model)) is not None:
            status = True
            # "tenho reserva pra sábado?", "am I booked for anything on tuesday": a question about
            # what the person has reads their records, not the goal that makes a new one
            note = f"status question: {own.goal.goal} reads what was made"
            best, conf = own, self._replaced(out, best, own, note)
            out.notes = [n for n in out.notes if not n.startswith(CHOICE_NOTE)]
        clock = Clock.of(context, self.time_zone)
        readings = Readings(text, clock, out.language, model.extractors)
        if not status and not pinned_domain and (lead := self._led_in(text, best, readings)) is not None:
            # "envia no telegram: reunião com a professora helena quinta 15h": what follows the
            # colon is the message, whatever goal its own words ask for
            best, conf = lead, self._replaced(out, best, lead, f"{lead.goal.goal}'s lead-in before a colon")
        if (broken := self._tie_broken(text, out, readings, model)) is not None:
            best, conf = broken
        elif (
            not status
            and conf < self.oos_threshold
            and (framed := self._framed(text, order, pinned_domain, readings))
        ):
            # "open a ticket: the scanner jams on every page": the problem's words ask for no goal
            probs, conf = framed
            # the frame is ranked afresh: the first ranking's notes (a choice between two goals
            # among them) describe a reading that no longer decides
            out.notes = []
            order = self._rank(out, probs, conf, model)
            best = model.goals[int(order[0])]
            out.notes.append(f"read without its free text: {best.goal.goal}'s request")
        idea = (
            None
            if broken is not None or status or pinned_domain
            else self._an_idea(text, order, readings, model)
        )
        if idea is not None:
            # "acho que chamados urgentes são resolvidos mais rápido em prédios com zelador": a
            # repair's words inside a statement the research examples open the same way
            best, conf = (
                idea,
                self._replaced(out, best, idea, f"{idea.goal.goal}'s lead-in opens a statement"),
            )
        listed = None
        if idea is None and self._outreads_free_text(text, best, out, order, readings):
            # "…I'd love to book her a first lesson this saturday at 11am if you still have a
            # slot": a day, a time and an instrument with evidence, against an idea made of the
            # words left over; the free text takes any words, so it is no choice to offer
            out.notes = [n for n in out.notes if not n.startswith(CHOICE_NOTE)]
        kept = RESCUE_FLOOR <= conf < self.oos_threshold and self._kept_though_unsure(
            text, best, out, order, readings
        )
        if (
            not kept
            and EXPLAINED_FLOOR <= conf < self.oos_threshold
            and self._explained_in_full(text, best, out, order, readings)
        ):
            # the runner-up is no alternative to offer: its words leave some of the message out
            out.notes = [n for n in out.notes if not n.startswith(CHOICE_NOTE)]
            out.alternatives = out.alternatives[:1]
            note = f"every word is {best.goal.goal}'s or a value it reads (confidence raised)"
            conf = self._raised_to(out, best, note)
        named: tuple[GoalRef, bool] | None = None
        if conf < self.oos_threshold and not kept:
            named = self._named_from_table(text, order, readings, model)
            if named is None and (further := self._named_further(text, probs, order, readings, model)):
                named = further, False
            priced = (
                None
                if named is not None
                else self._priced_by_a_reader(text, best, conf, out, order, readings)
            )
            if priced is not None:
                # "qto sai 4 galões?": unsure of the order, whose jugs its price reads; a price asked
                note = f"a price asked of what {best.goal.goal} acts on: {priced.goal.goal}'s"
                note += " (confidence raised)"
                best, conf = priced, self._replaced(out, best, priced, note)
            elif named is None:
                out.notes.append(f"out of scope: confidence {conf:.2f} < threshold {self.oos_threshold:.2f}")
                return out
        if named is not None:
            listed, lone = named
            # a choice between two other goals is no question to ask of the one named
            named_goal = f"{listed.domain}.{listed.goal.goal}"
            out.notes = [n for n in out.notes if not n.startswith(CHOICE_NOTE) or named_goal in n.split()]
            note = (
                f"{LONE_VALUE_NOTE} of {listed.goal.goal}'s tables (confidence raised)"
                if lone
                else f"named from {listed.goal.goal}'s tables (confidence raised)"
            )
            best, conf = listed, self._raised_to(out, listed, note)
        reading = readings.of(best)
        if listed is None and (owner := self._table_owner(best, reading.entities, order, readings, model)):
            # "books by gabo?", "is itau up or down today?": a name from another goal's table,
            # which the first goal has no place for, says which goal of the domain is meant
            note = f"{owner.goal.goal}'s table names what {best.goal.goal} takes no value of"
            best, conf = owner, self._replaced(out, best, owner, note)
            reading = readings.of(best)
        if (
            listed is None
            and pinned_domain is None
            and (whole := self._a_fragment_of_another_name(best, reading.entities, order, readings))
            is not None
        ):
            # "is the little prince in stock": no company called Little, a part of a book's title
            note = f"{whole.goal.goal}'s table names a whole of what {best.goal.goal} read as a new name"
            best, conf = whole, self._replaced(out, best, whole, note)
            reading = readings.of(best)
        sibling = (
            None
            if listed is not None or status
            else self._sibling_explains(text, best, order, readings, model)
            or self._asked_of_a_reader(text, best, order, readings, model)
        )
        #: the goal the message was read as before a sibling of its domain took it over
        read_first = best
        if sibling is not None:
            # "corrida de casa pra congonhas quinta 14h pra 3 pessoas": a day, a time and a
            # party a price does not read, and a booking reads all of it; "ainda tem ingresso pro
            # Cirque na quinta?" is asked of the availability, not of a purchase short of a count
            note = f"{sibling.goal.goal} reads what {best.goal.goal} does, and the rest of the message"
            best, conf = sibling, self._replaced(out, best, sibling, note)
            reading = readings.of(best)
        extractor = readings.extractor(best)
        # a copy: the reading is shared with the rules above, and the answer is the caller's
        out.entities, guessed = dict(reading.entities), set(reading.guessed)
        out.primary_domain = best.domain
        out.goal = best.goal.goal
        if best.goal.missing_required(out.entities) and (part := request_part(text)) != text:
            # greetings and thanks around the request end none of its sentences ("Bom dia! O
            # Excel fecha sozinho. Pode abrir um chamado? Obrigado!"): its values are read from
            # the request part too, and the reading that misses fewer required values wins
            part_guessed: set[str] = set()
            found = extractor.extract(part, clock=clock, language=out.language, guessed=part_guessed)
            if len(best.goal.missing_required(found)) < len(best.goal.missing_required(out.entities)):
                out.entities, guessed = found, part_guessed
        if any(note.startswith(CHOICE_NOTE) for note in out.notes) and self._switch_explains(
            text, best, out, pinned_domain, model
        ):
            out.notes = [n for n in out.notes if not n.startswith(CHOICE_NOTE)]
            out.notes.append(
                f"choice dropped: the runner-up's words switch on {best.goal.goal}'s composition"
            )
        if (
            pinned_domain is None
            and (not out.entities or best.goal.missing_required(out.entities))
            and (switched := self._switched_on(text, best, order, readings, model)) is not None
        ):
            # "uber quote and text me on telegram": a quote sent by Telegram, not a message
            # with nothing to say
            note = f"{switched.goal.goal} with its switch on, not {best.goal.goal} short of a value"
            conf, extractor, guessed = self._read_instead(out, best, switched, note, readings)
            best = switched
        if pinned_domain is None and not status and (foreign := self._something_else(text, best, out, model)):
            # "quanto ta o polimento ai": no company, and a car wash's price of its wax, read
            owner = _object_owner(text, foreign, best, order, readings, model) or self._reader_of(
                text, foreign, best, readings, model
            )
            if owner is None:
                # "cancel my gym membership": the verb of an order's cancellation, an object it
                # does not know and no order number; the goal is not forced onto it
                return _out_of_scope(
                    out, f"{best.goal.goal} lacks a required value and {foreign} is nothing it knows"
                )
            # "cancel my enrollment": a ticket's cancellation's verb, and the object another of
            # the first goals is phrased with
            note = f"{foreign} is {owner.goal.goal}'s object, which {best.goal.goal} does not know"
            conf, extractor, guessed = self._read_instead(out, best, owner, note, readings)
            best = owner
        borrowed = [] if pinned_domain is not None else self._borrowed(text, best, out.entities, model)
        # "price of the *lemon pie*": a value another domain's table lists, which moves the request
        # only to a goal asked for it ("quanto ta a *coca cola* na bolsa" is a company's quote too)
        named_elsewhere = (
            []
            if pinned_domain is not None or borrowed
            else self._borrowed(text, best, out.entities, model, known=True)
        )
        if borrowed or named_elsewhere:
            said = [w for item in borrowed or named_elsewhere for w in words(item)]
            owner = _object_owner(text, said, best, order, readings, model) or self._reader_of(
                text, said, best, readings, model
            )
            if owner is None and borrowed:
                # "quanto custa um *carro* zero": no company a quote knows, and a word of car rental's
                return _out_of_scope(
                    out, f"{borrowed} is no value of {best.goal.goal}'s, and another domain's word"
                )
            if owner is not None:
                # "quanto tá a *escova*?": no company, and a value of a salon's price from its table
                taken = borrowed or named_elsewhere
                note = f"{taken} is {owner.goal.goal}'s, which {best.goal.goal} does not know"
                conf, extractor, guessed = self._read_instead(out, best, owner, note, readings)
                best = owner
        if pinned_domain is None and (money := extractor.currencies(out.entities, out.language)):
            # "quanto tá o dólar hoje?": an exchange rate, not a company's quote
            return _out_of_scope(out, f"{money} is a currency, not what {best.goal.goal} takes")
        if pinned_domain is None and not status and (noun := _about_another_noun(text, best, out, model)):
            # "me passa a receita de bolo de cenoura": a cake the bakery prices, and a recipe of it,
            # which no goal gives
            return _out_of_scope(out, f"the message asks for the {noun!r} of a value, which no goal knows")
        if pinned_domain is None and not status and (other := self._value_alone(text, best, out, model)):
            # "baixa o pdf do dom casmurro": a title a renewal knows, and another action on it
            return _out_of_scope(
                out, f"{best.goal.goal} changes something and the message says only its values beside {other}"
            )
        if pinned_domain is None and not status and self._a_name_alone(text, best, out, model):
            # "Torto Arado?" with no catalogue to look it up in: a renewal is not started by a
            # title alone
            return _out_of_scope(
                out, f"{best.goal.goal} changes something and the message is one of its values alone"
            )
        free_to_drop = pinned_domain is None and not status
        if free_to_drop and (verb := _another_action_alone(extractor, text, out.entities)):
            # "reserva um hotel em Gramado" read as a research idea: a verb the goal does not do,
            # and not one word or value of the goal's
            return _out_of_scope(out, f"{verb!r} is nothing {best.goal.goal} does, and nothing of it is said")
        if (
            free_to_drop
            and conf < CLEAR_REQUEST_CONFIDENCE
            and self._acts(best)
            and _nothing_of_the_goal(extractor, text, out.entities)
        ):
            # "me lembra de tomar remédio às 20h" read as a research idea: a goal that starts
            # something is not started on the classifier's unsure word alone; one that only reads
            # is answered ("whens my next appt": reading costs nothing)
            return _out_of_scope(out, f"nothing of {best.goal.goal} is said, and the classifier is unsure")
        if free_to_drop and (coded := self._coded_as_another(best, out, order, readings)) is not None:
            # "qual o status do pedido pr 48125": an order's words, and a code of the letters a
            # document's protocols start with
            note = f"the code is of {coded.goal.goal}'s shape, not of {best.goal.goal}'s"
            conf, extractor, guessed = self._read_instead(out, best, coded, note, readings)
            best = coded
        if free_to_drop and (undo := _undoing(extractor, text)):
            undoer = self._undoer(text, undo, best, readings, model)
            if undoer is None:
                # "cancela minha reserva de carregador": a booking goal's words, and the verb that
                # undoes what it makes; no goal of its domain cancels it, none is started instead,
                # nor is it read ("cancela minha reserva PK1042" asks no reservation's status)
                return _out_of_scope(out, f"{undo!r} undoes what {best.goal.goal} makes or reads")
            # "cancel our escape room on Friday": the booking's words, and its domain's cancellation
            note = f"{undo!r} is {undoer.goal.goal}'s verb, which undoes what {best.goal.goal} makes"
            conf, extractor, guessed = self._read_instead(out, best, undoer, note, readings)
            best = undoer
        elif (
            free_to_drop
            and (undo := _opens_with_an_undo(extractor, text))
            and (undoer := self._undoer(text, undo, best, readings, model, same_values=True)) is not None
        ):
            # "cancela protocolo PR48125": a status's words, opened by its domain's cancellation
            note = f"{undo!r} is {undoer.goal.goal}'s verb, which undoes what {best.goal.goal} reads"
            conf, extractor, guessed = self._read_instead(out, best, undoer, note, readings)
            best = undoer
        how = None
        if free_to_drop:
            how = self._how_to_it_does_not_tell(text, best, extractor)
            if how is None and read_first != best:
                # "how do I clean my pool?" read as the cleaning's price: the booking it was read
                # as first has the cleaning done
                how = self._how_to_it_does_not_tell(text, read_first, readings.extractor(read_first))
        if how is not None:
            # "how do I hem pants without a sewing machine?": how to do it oneself, where the goal
            # has it done ("how do I *book* a tour?" asks for the goal's own action)
            return _out_of_scope(
                out, f"the message asks how to {how!r} oneself, which {best.goal.goal} won't tell"
            )
        if free_to_drop and asks_about_words(text) and not self._own_texts_ask(best, asks_about_words):
            # "what does a koi fish tattoo mean?", "como se diz visita guiada em inglês?": a
            # question about language, not a session to book nor a tour
            return _out_of_scope(out, f"the message asks about words, which {best.goal.goal} won't tell")
        if free_to_drop and any(self._advice_it_does_not_give(text, ref) for ref in (best, read_first)):
            # "me indica uma pousada barata", "what's the best hotel in rio?": advice asked of a
            # domain whose goal books is no booking, nor a list of bookings a sibling read it as
            return _out_of_scope(out, f"the message asks for advice, which {best.goal.goal} does not give")
        if guessed:
            out.notes.append(f"{GUESSED_NOTE}: {sorted(guessed)} (the only words left, no evidence)")
        elif conf < CLEAR_REQUEST_CONFIDENCE and (
            _clear_for(
                best.goal,
                extractor,
                text,
                out,
                rescued=conf < self.oos_threshold,
                approved=self._approved(best),
            )
            # a goal that only reads, asked of a name no table lists and of nothing else: asking
            # first would cost the person a turn, where reading costs nothing
            or self._read_with_a_new_name(text, best, order, readings)
            or self._price_asked_of_its_reader(text, best, out, extractor)
        ):
            # the goal's own entities, every required one said: evidence the classifier's score
            # alone does not carry ("how's Curitiba looking weather-wise?")
            out.confidence = CLEAR_REQUEST_CONFIDENCE
            out.alternatives[0] = out.alternatives[0].model_copy(
                update={"confidence": CLEAR_REQUEST_CONFIDENCE}
            )
            out.notes.append(f"clear request: {sorted(out.entities)} said (confidence {conf:.2f} raised)")
        return out

    def _led_in(self, text: str, best: GoalRef, readings: Readings) -> GoalRef | None:
        """The goal the words before a colon ask for, when its free text is all that follows the
        colon: "manda no telegram: a marina vai faltar amanhã" sends a message about an absence.
        ``None`` when there is no such lead-in or it asks for ``best``."""
        model = self.model
        split = colon_lead_in(text)
        if model is None or split is None:
            return None
        head, tail = split
        if not content_words(head) or not tail.strip():
            return None
        probs, conf = self._read_scores(head, None)
        lead = model.goals[int(probs.argmax())]
        if conf < self.oos_threshold or lead == best:
            return None
        payload = readings.extractor(lead).free_text(readings.of(lead).entities)
        return lead if any(" ".join(tail.split()) == " ".join(value.split()) for value in payload) else None

    def _framed(
        self, text: str, order: IntArray, pinned_domain: str | None, readings: Readings
    ) -> tuple[FloatArray, float] | None:
        """The scores of the message without the free text one of the first goals reads in it,
        when that is the goal's request, in scope: "open a ticket: the scanner jams on every page"
        frames a problem whose own words say nothing of any goal, and dilute the frame's."""
        model = self.model
        if model is None:
            return None
        for index in order:
            ref = model.goals[int(index)]
            payload = readings.extractor(ref).free_text(readings.of(ref).entities)
            frame = text
            for value in payload:
                frame = frame.replace(value, " ")
            if not payload or not content_words(frame):
                continue
            probs, conf = self._read_scores(frame, pinned_domain)
            if conf >= self.oos_threshold and model.goals[int(probs.argmax())] == ref:
                return probs, conf
        return None

    def _read_scores(self, text: str, pinned_domain: str | None) -> tuple[FloatArray, float]:
        """The goals' probabilities and the calibrated confidence of the surer reading of
        ``text``: whole, or its request part alone."""
        # the goals' examples spell words out: "qto ta a vale hj" is read as "quanto está a vale hoje"
        read = expand_shorthands(text)
        probs, conf, _ = self.scores(read, pinned_domain)
        spelled = self.model.spelled(read, vote(read)) if self.model is not None else read
        if spelled != read:
            # "whats the prise of aple": the typos read as the words meant too, the surer wins
            spelled_probs, spelled_conf, _ = self.scores(spelled, pinned_domain)
            if spelled_conf > conf:
                probs, conf, read = spelled_probs, spelled_conf, spelled
        part = request_part(read)
        greeted = False
        if part != read:
            # greetings and thanks around a request can outweigh it ("Oi, tudo bem? ... cotação
            # da Vale, obrigado!"): the request alone is read too, and the surer reading wins
            part_probs, part_conf, _ = self.scores(part, pinned_domain)
            # the request alone reads as another goal, in scope: the greeting was what made the
            # whole message that goal ("Good morning, could you please pay the condo fee? Many
            # thanks." is no small talk)
            other = probs.size > 0 and int(part_probs.argmax()) != int(probs.argmax())
            # the greeting, not the request, made the whole message its goal
            greeted = other
            if part_conf > conf or (other and part_conf >= self.oos_threshold):
                probs, conf = part_probs, part_conf
                greeted = False
            elif other and len(content_words(part)) > 1 and self._greeting_alone(read, probs, pinned_domain):
                # the request alone, unsure, rather than the greeting's goal; its surest sentence
                # may still decide below. One word after a greeting is whom it greets ("hi, ai")
                probs, conf = part_probs, part_conf
        said = sentences(part) if greeted else []
        if len(said) > 1:
            # greetings made the whole message their goal and the request part alone is unsure: a
            # longer message tells the problem first and asks last ("Bom dia! O Excel fecha
            # sozinho. Poderia abrir um chamado? Obrigado!"), so the surest sentence decides when
            # it reads in scope
            one = max((self.scores(sentence, pinned_domain)[:2] for sentence in said), key=lambda pc: pc[1])
            if one[1] >= self.oos_threshold:
                probs, conf = one
        return probs, conf

    def _greeting_alone(self, text: str, probs: FloatArray, pinned_domain: str | None) -> bool:
        """Whether the politeness of ``text`` alone reads as the goal the whole message reads as:
        then that goal is the greeting's ("Bom dia! Tudo bem? ... queria garantir a sala Ipê ...
        Muito obrigado desde já!" is no small talk), and the request is read on its own words."""
        polite = politeness_part(text)
        return bool(polite) and int(self.scores(polite, pinned_domain)[0].argmax()) == int(probs.argmax())

    def _rank(self, out: IntentOutput, probs: FloatArray, conf: float, model: EmbeddedModel) -> IntArray:
        """The first three goals' positions, best first; ``out`` gets them as its alternatives,
        its confidence, and a choice note when the first two are too close to tell."""
        order = np.argsort(-probs)[:3]
        top_p = float(probs[order[0]]) or 1.0
        out.alternatives = [
            GoalCandidate(
                domain=model.goals[i].domain,
                goal=model.goals[i].goal.goal,
                confidence=round(min(1.0, conf * float(probs[i]) / top_p), 4),
            )
            for i in order
            if probs[i] > 0
        ]
        out.confidence = round(conf, 4)
        if len(out.alternatives) >= 2 and too_close(
            out.alternatives[0].confidence,
            out.alternatives[1].confidence,
            self.choice_margin,
            self.oos_threshold,
        ):
            a, b = out.alternatives[0], out.alternatives[1]
            out.notes.append(f"{CHOICE_NOTE}: {a.domain}.{a.goal} or {b.domain}.{b.goal}")
        return order

    def _unknown_to_its_domain(self, text: str, ref: GoalRef, readings: Readings) -> list[str]:
        """The words of ``text`` that no goal of ``ref``'s domain accounts for, each with its own
        reading ("cabem" of "quantos jogadores cabem na sala?", where players are the booking's)."""
        unknown = readings.extractor(ref).unexplained_words(text, readings.of(ref).entities)
        for kin in self.model.goals if self.model is not None else []:
            if kin.domain == ref.domain and kin != ref and unknown:
                left = readings.extractor(kin).unexplained_words(text, readings.of(kin).entities)
                unknown = [w for w in unknown if w in left]
        return unknown

    def _price_asked_of_its_reader(
        self, text: str, best: GoalRef, out: IntentOutput, extractor: GoalEntityExtractor
    ) -> bool:
        """Whether ``text`` asks a price of ``best``, clearly the classifier's first goal, one that
        only reads, requires nothing left unsaid and whose own texts ask prices, in words it all
        accounts for ("qual o valor da limpeza de piscina?", "what do your coffee bags cost?"):
        reading a price costs nothing, asking first costs the person a turn."""
        return (
            not self._acts(best)
            and asks_a_price(text)
            and not best.goal.missing_required(out.entities)
            and _clearly_first(out)
            and self._own_texts_ask(best, asks_a_price)
            and not extractor.unexplained_words(text, out.entities)
        )

    def _priced_by_a_reader(
        self, text: str, best: GoalRef, conf: float, out: IntentOutput, order: IntArray, readings: Readings
    ) -> GoalRef | None:
        """The reader of ``best``'s domain a price question asks (:meth:`_asked_of_a_reader`), when
        the classifier is unsure of ``best`` and the reader's reading is a clear request after all
        (:meth:`_rescued`); ``None`` otherwise."""
        model = self.model
        if model is None or conf < RESCUE_FLOOR or not asks_a_price(text):
            return None
        reader = self._asked_of_a_reader(text, best, order, readings, model)
        return reader if reader is not None and self._rescued(text, reader, out, readings) else None

    @staticmethod
    def _raised_to(out: IntentOutput, ref: GoalRef, note: str) -> float:
        """``ref`` first among ``out``'s alternatives, at least at the clear-request confidence."""
        first = out.alternatives[0] if out.alternatives else None
        already = first is not None and (first.domain, first.goal) == (ref.domain, ref.goal.goal)
        conf = max(CLEAR_REQUEST_CONFIDENCE, out.confidence if already else 0.0)
        out.confidence = conf
        out.alternatives = [
            GoalCandidate(domain=ref.domain, goal=ref.goal.goal, confidence=conf),
            *(a for a in out.alternatives if (a.domain, a.goal) != (ref.domain, ref.goal.goal)),
        ]
        out.notes.append(note)
        return conf

    @classmethod
    def _replaced(cls, out: IntentOutput, first: GoalRef, chosen: GoalRef, note: str) -> float:
        """``chosen`` read in place of ``first`` (:meth:`_raised_to`), which is no alternative to
        offer when another: the words that chose ``chosen`` ruled it out."""
        if chosen != first:
            out.alternatives = [
                a for a in out.alternatives if (a.domain, a.goal) != (first.domain, first.goal.goal)
            ]
        return cls._raised_to(out, chosen, note)

    @classmethod
    def _read_instead(
        cls, out: IntentOutput, first: GoalRef, chosen: GoalRef, note: str, readings: Readings
    ) -> tuple[float, GoalEntityExtractor, set[str]]:
        """``chosen`` read in place of ``first`` (:meth:`_replaced`): ``out`` takes its reading's
        entities (a copy), domain and goal; its confidence, its extractor and the values its
        reading guessed are returned."""
        conf = cls._replaced(out, first, chosen, note)
        reading = readings.of(chosen)
        out.entities = dict(reading.entities)
        out.primary_domain, out.goal = chosen.domain, chosen.goal.goal
        return conf, readings.extractor(chosen), set(reading.guessed)

    def _coded_as_another(
        self, best: GoalRef, out: IntentOutput, order: IntArray, readings: Readings
    ) -> GoalRef | None:
        """Another of the first goals that reads, in full, a code of the shape its examples write,
        when ``best`` reads one of a shape its own examples never write ("pr 48125" to an order
        status whose orders are "AG6101"); ``None`` otherwise."""
        model = self.model
        if model is None or readings.extractor(best).codes_of_their_shape(out.entities) is not False:
            return None
        for index in order[1:]:
            ref = model.goals[int(index)]
            theirs = readings.of(ref).entities
            if readings.extractor(ref).codes_of_their_shape(theirs) and _reads_in_full(ref, readings):
                return ref
        return None

    def _tie_broken(
        self, text: str, out: IntentOutput, readings: Readings, model: EmbeddedModel
    ) -> tuple[GoalRef, float] | None:
        """The one of two goals too close to tell apart whose own words account for the whole
        message while the other's leave some unexplained ("can u *book* pilates for me" between a
        class's booking and its cancellation, "cancelar *aluguel*" between a class's and a car's
        cancellation), at the confidence of the two together: the message is surely one of them,
        and its words say which. ``None`` when there is no such tie or the words do not decide."""
        if len(out.alternatives) < 2:
            return None
        pair = out.alternatives[:2]
        tied = any(n.startswith(CHOICE_NOTE) for n in out.notes)
        # an unsure first goal and a runner-up that together are sure: the verb the message opens
        # with may still say which ("quero *cancelar* a locação do carro", a rental's booking at
        # 0.48 and its cancellation at 0.27)
        unsure = pair[0].confidence < self.oos_threshold <= pair[0].confidence + pair[1].confidence
        if not tied and not unsure:
            return None
        refs = [next(g for g in model.goals if (g.domain, g.goal.goal) == (a.domain, a.goal)) for a in pair]
        if not tied:
            verb = self._opening_verb_decides(text, refs, model)
            if verb is None:
                return None
            return self._chosen_of_two(
                out, pair, refs, verb, f"the message opens with {refs[verb].goal.goal}'s verb"
            )
        unexplained = []
        for ref in refs:
            extractor = readings.extractor(ref)
            reading = readings.of(ref)
            words_left = extractor.unexplained_words(text, reading.entities)
            unexplained.append(bool(words_left or reading.guessed or not extractor.phrasing_words(text)))
        if unexplained.count(False) == 1:
            chosen = unexplained.index(False)
            why = f"only {refs[chosen].goal.goal}'s words account for the message"
        elif (verb := self._opening_verb_decides(text, refs, model)) is not None:
            chosen = verb
            why = f"the message opens with {refs[chosen].goal.goal}'s verb"
        elif (wider := _reads_more(refs, readings)) is not None:
            chosen = wider
            why = f"{refs[chosen].goal.goal} reads every value the other does, and more"
        elif (complete := _only_one_reads_its_values(refs, readings)) is not None:
            chosen = complete
            why = f"only {refs[chosen].goal.goal} reads its required values in the message"
        elif (reader := self._values_alone_read_first(text, refs, readings)) is not None:
            chosen = reader
            why = f"the message is only values both read, and {refs[chosen].goal.goal} only reads"
        elif (reader := self._complete_question_read(text, refs, readings)) is not None:
            chosen = reader
            why = f"a question {refs[chosen].goal.goal} reads every value of, and it only reads"
        else:
            return None
        return self._chosen_of_two(out, pair, refs, chosen, why)

    @staticmethod
    def _chosen_of_two(
        out: IntentOutput, pair: list[GoalCandidate], refs: list[GoalRef], chosen: int, why: str
    ) -> tuple[GoalRef, float]:
        """``refs[chosen]`` first, at the confidence of the two together: the message is surely
        one of them, and ``why`` says which."""
        conf = min(1.0, pair[0].confidence + pair[1].confidence)
        out.alternatives = [
            pair[chosen].model_copy(update={"confidence": round(conf, 4)}),
            pair[1 - chosen],
            *out.alternatives[2:],
        ]
        out.confidence = round(conf, 4)
        out.notes = [n for n in out.notes if not n.startswith(CHOICE_NOTE)]
        out.notes.append(f"choice decided: {why}")
        return refs[chosen], conf

    def _values_alone_read_first(self, text: str, refs: list[GoalRef], readings: Readings) -> int | None:
        """Which of two goals only reads, when the other changes something and the message is
        nothing but values both read alike ("painting" between a visit's booking and its price):
        reading costs nothing, and the answer says what booking would. ``None`` otherwise."""
        first, second = (readings.of(ref).entities for ref in refs)
        if not first or first != second:
            return None
        if not set(content_words(text)) <= set(content_words(" ".join(map(str, _flat_values(first))))):
            return None
        readers = [k for k, ref in enumerate(refs) if self._only_reads(ref) and not self._acts(ref)]
        return readers[0] if len(readers) == 1 else None

    def _complete_question_read(self, text: str, refs: list[GoalRef], readings: Readings) -> int | None:
        """Which of two goals only reads, when the message is a question, that goal reads every
        value it requires with evidence, and every word unless the question is about a price, and
        the other, which changes something, lacks one: "quanto sai a bike elétrica por 3 horas?"
        asks a rental's price, not for a rental with no station. ``None`` otherwise."""
        if not text.rstrip().endswith("?"):
            return None
        complete = [_reads_in_full(ref, readings) for ref in refs]
        if complete.count(True) != 1:
            return None
        chosen = complete.index(True)
        reader, other = refs[chosen], refs[1 - chosen]
        if not readings.of(reader).entities:
            return None  # "o cinema tem estacionamento?" says nothing a listing of sessions reads
        if not price_question(text) and readings.extractor(reader).unexplained_words(
            text, readings.of(reader).entities
        ):
            return None  # "where can I *buy* hair dye?" asks no price of a salon's colouring
        return chosen if self._only_reads(reader) and self._acts(other) else None

    @staticmethod
    def _opening_verb_decides(text: str, refs: list[GoalRef], model: EmbeddedModel) -> int | None:
        """Which of two goals of one domain the verb the message opens with names, when no other
        goal of the domain uses it: "quero *cancelar* a locação do carro" names the domain's thing
        (the booking's word) and the cancelling's action, and the action decides. ``None`` when
        the goals are of two domains or the verb does not tell them apart; a verb several goals
        of the domain use ("you could *say* my name is nick") names none of them."""
        if refs[0].domain != refs[1].domain:
            return None
        extractors = [model.extractors[(ref.domain, ref.goal.goal)] for ref in refs]
        verbs = [x.unsupported_action(text) for x in extractors]
        if (verbs[0] is None) == (verbs[1] is None):
            return None
        chosen = 0 if verbs[0] is None else 1
        verb = words(str(verbs[1 - chosen]))
        if not verb:
            return None
        users = [
            x
            for (domain, _), x in model.extractors.items()
            if domain == refs[0].domain and x.uses_phrasing(verb[0])
        ]
        return chosen if users == [extractors[chosen]] else None

    @staticmethod
    def _borrowed(
        text: str, best: GoalRef, entities: Entities, model: EmbeddedModel, *, known: bool = False
    ) -> list[str]:
        """The values of ``best``'s required table entities that name nothing of their table and
        have a word another domain's goals are phrased with (or, with ``known``, are a value
        another domain's goal knows: "price of the *lemon pie*"): the message is about that
        domain's thing, not a name ``best`` has yet to learn. A value written capitalised inside
        the sentence is a name ("uma ação da *Booking*")."""
        extractor = model.extractors[(best.domain, best.goal.goal)]
        others = [x for (domain, _), x in model.extractors.items() if domain != best.domain]
        return [
            str(item)
            for name in extractor.unlisted_required(entities)
            for value in [entities[name]]
            for item in (value if isinstance(value, list) else [value])
            if (
                any(other.knows_value(str(item)) for other in others)
                if known
                else any(other.uses_phrasing(w) for w in words(str(item)) for other in others)
            )
            and not _written_as_a_name(text, str(item))
        ]

    def _value_alone(self, text: str, best: GoalRef, out: IntentOutput, model: EmbeddedModel) -> list[str]:
        """The words the goal does not know, when ``best`` changes something and the message says
        nothing of it but its values: no word of its phrasing, and those words not outweighed by
        its required values, or by all its values when each has evidence (:meth:`_outweighed`). A
        value of the goal's tables is no request to act on it: "baixa o pdf do *dom casmurro*",
        "qual o resumo de *dom casmurro*?" name a book a renewal knows and ask something else of
        it."""
        if not out.entities or not self._acts(best):
            return []
        extractor = model.extractors[(best.domain, best.goal.goal)]
        if extractor.phrasing_words(text):
            return []
        unexplained = extractor.unexplained_words(text, out.entities)
        # every value said with evidence outweighs words the goal does not know, optional ones
        # too: "tickets for the whole family (5 of us) … Moana 2 this Saturday at 3:30"
        said = len(out.entities) if extractor.evidenced(out.entities) else 0
        weight = max(_required_count(best.goal), said)
        if not unexplained or self._outweighed(text, best, unexplained, weight, model):
            return []
        return unexplained

    def _a_name_alone(self, text: str, best: GoalRef, out: IntentOutput, model: EmbeddedModel) -> bool:
        """Whether ``best`` changes something and the message is one of its names and nothing
        else: every content word is the value of one of its string entities."""
        if _values_said(out.entities) != 1 or not self._acts(best):
            return False
        extractor = model.extractors[(best.domain, best.goal.goal)]
        ((name, value),) = out.entities.items()
        spec = best.goal.entities_schema.get(name)
        # an enum's word alone is what the goal is about ("faxina"); a free-text idea no name
        if (
            spec is None
            or spec.type != "string"
            or not isinstance(value, str)
            or extractor.free_text(out.entities)
        ):
            return False
        return set(content_words(text)) <= set(content_words(value))

    def _capabilities(self, ref: GoalRef) -> list[Capability | None]:
        """``ref``'s capabilities as its manifest declares them (``None`` for one it lacks)."""
        manifest = self.catalog.manifest(ref.domain)
        return [manifest.capability(name) for name in ref.goal.capabilities] if manifest else []

    def _acts(self, ref: GoalRef) -> bool:
        """Whether one of ``ref``'s capabilities changes something (asks for approval or is not
        safe to repeat): the goal makes something new, unlike one that reads."""
        return any(
            c is not None and (c.metadata.policy.confirm or not c.metadata.policy.idempotent)
            for c in self._capabilities(ref)
        )

    def _advice_it_does_not_give(self, text: str, best: GoalRef) -> bool:
        """Whether ``text`` asks for advice, none of ``best``'s own texts doing so (a goal that
        recommends says so in its examples). An opinion ("the best hotel") is asked of a goal
        that changes something only: "the best stocks today" are what top movers read."""
        opinion = self._acts(best)
        if not asks_advice(text, opinion=opinion):
            return False
        return not self._own_texts_ask(best, lambda t: asks_advice(t, opinion=opinion))

    def _own_texts_ask(self, ref: GoalRef, asks: Callable[[str], object]) -> bool:
        """Whether ``asks`` holds for one of ``ref``'s own texts (its descriptions, keywords and
        examples): what a goal says of itself decides whether a kind of question is its own."""
        fixed, examples = goal_documents(ref, self.catalog)
        return any(asks(t) for t in (*fixed, *examples))

    def _how_to_it_does_not_tell(
        self, text: str, best: GoalRef, extractor: GoalEntityExtractor
    ) -> str | None:
        """The verb ``text`` asks how to do oneself, when it is no word of ``best``'s phrasing (or,
        of a goal that has something done, the doing itself rather than the asking for it: "como
        eu *limpo* a piscina sozinho?" of a cleaning visit's booking, where "how do I *book* a
        cleaning?" asks for the goal) and none of the goal's own texts asks how to do something;
        ``None`` otherwise."""
        verb = how_to_verb(text)
        if verb is None or (
            extractor.asked_with(verb) and (not self._acts(best) or verb_stem(verb) in _ASKING_STEMS)
        ):
            return None
        return None if self._own_texts_ask(best, how_to_verb) else verb

    def _every_capability(self, ref: GoalRef, holds: Callable[[Capability], bool]) -> bool:
        """Whether ``ref`` has capabilities, its manifest declares each, and ``holds`` for each."""
        caps = self._capabilities(ref)
        return bool(caps) and all(c is not None and holds(c) for c in caps)

    def _only_reads(self, ref: GoalRef) -> bool:
        """Whether every capability of ``ref`` declares ``policy.read_only``."""
        return self._every_capability(ref, lambda c: c.metadata.policy.read_only)

    def _reads_own(self, ref: GoalRef) -> bool:
        """Whether ``ref`` reads the person's own records: it changes nothing and its phrasing
        says whose ("minhas reservas", "my classes")."""
        if self._acts(ref):
            return False
        return self._own_texts_ask(ref, lambda t: POSSESSIVES.intersection(words(t)))

    def _status_goal(
        self, text: str, best: GoalRef, probs: FloatArray, model: EmbeddedModel
    ) -> GoalRef | None:
        """The goal of ``best``'s domain that reads the person's own records, when ``text`` asks
        what the person already has ("tô com alguma consulta marcada?") and says something of the
        domain, and ``best`` makes something new there or is that goal itself; the likeliest
        such goal when the domain has several."""
        if not status_question(text) or not (self._acts(best) or self._reads_own(best)):
            return None
        domain = [i for i, ref in enumerate(model.goals) if ref.domain == best.domain]
        if not any(
            model.extractors[(best.domain, model.goals[i].goal.goal)].phrasing_words(text) for i in domain
        ):
            return None
        own = [i for i in domain if self._reads_own(model.goals[i])]
        if not own:
            return None
        chosen = model.goals[max(own, key=lambda i: float(probs[i]))]
        reads = [model.goals[i] for i in domain if not self._acts(model.goals[i])]
        return self._one_of_mine(text, chosen, reads) or chosen

    def _one_of_mine(self, text: str, own: GoalRef, reads: list[GoalRef]) -> GoalRef | None:
        """The goal that reads one thing, when a status question asks about one ("cadê meu
        *chamado*?", "where's my *ticket* at?") and the goal reading the person's records says
        that thing only in the plural ("meus chamados", "my tickets"): the other goal of the
        domain that changes nothing and says it in the singular ("status do chamado 30117")."""
        said = words(text)
        things = {said[i + 1] for i, w in enumerate(said[:-1]) if w in POSSESSIVES}
        own_words = self._words_of(own)
        own_stems = {s for w in own_words for s in stems(w)}
        singular = {w for w in things if w not in own_words and own_stems.intersection(stems(w))}
        if not singular:
            return None
        return next((ref for ref in reads if ref != own and singular & self._words_of(ref)), None)

    def _words_of(self, ref: GoalRef) -> set[str]:
        """Every word ``ref`` is learned from."""
        fixed, examples = goal_documents(ref, self.catalog)
        return {w for t in (*fixed, *examples) for w in words(t)}

    def _switch_explains(
        self, text: str, best: GoalRef, out: IntentOutput, pinned_domain: str | None, model: EmbeddedModel
    ) -> bool:
        """Whether a near tie comes only from the words of one of the first goal's boolean
        switches ("me avisa no telegram quanto tá a weg": a quote sent by Telegram, not a choice
        between a quote and a message): said, and without them the first goal is clearly first."""
        if not any(
            out.entities.get(n) is True for n, s in best.goal.entities_schema.items() if s.type == "boolean"
        ):
            return False
        rest = model.extractors[(best.domain, best.goal.goal)].without_switches(text)
        if not rest:
            return False
        probs, conf, _ = self.scores(expand_shorthands(rest), pinned_domain)
        if conf < self.oos_threshold or not probs.any():
            return False
        first = model.goals[int(probs.argmax())]
        if (first.domain, first.goal.goal) != (best.domain, best.goal.goal):
            return False
        second = float(np.sort(probs)[-2]) if len(probs) > 1 else 0.0
        top = float(probs.max()) or 1.0
        return not too_close(conf, conf * second / top, self.choice_margin, self.oos_threshold)

    def _switched_on(
        self, text: str, best: GoalRef, order: IntArray, readings: Readings, model: EmbeddedModel
    ) -> GoalRef | None:
        """Another of the first goals whose boolean switch the message says, and which the
        message without the switch's words reads as, clearly and with every value it requires,
        when ``best`` read nothing or lacks a required value. ``None`` otherwise."""
        for index in order[1:SWITCH_CANDIDATES]:
            ref = model.goals[int(index)]
            reading = readings.of(ref)
            switches = [n for n, s in ref.goal.entities_schema.items() if s.type == "boolean"]
            if not any(reading.entities.get(n) is True for n in switches) or ref.goal.missing_required(
                reading.entities
            ):
                continue
            rest = readings.extractor(ref).without_switches(text)
            # "uber quote *and* … *on*": what joined the switch to the request goes with it
            kept = [w for w in (rest or "").split() if w not in STOP]
            if not kept:
                continue
            probs, conf, _ = self.scores(expand_shorthands(" ".join(kept)), None)
            if conf >= self.oos_threshold and probs.any() and model.goals[int(probs.argmax())] == ref:
                return ref
        return None

    def _something_else(self, text: str, best: GoalRef, out: IntentOutput, model: EmbeddedModel) -> list[str]:
        """The words naming what the message is about when it is not ``best``'s: a required value
        missing, content words the goal does not account for, and none of the words it shares
        with the goal is one only its domain uses (an object's name such as "pedido" or
        "appointment"): "cancel my *uber*" shares only "cancel" with an order's cancellation."""
        if not best.goal.missing_required(out.entities):
            return []
        extractor = model.extractors[(best.domain, best.goal.goal)]
        kin = [x for (domain, _), x in model.extractors.items() if domain == best.domain]
        # a word another goal of the domain uses is no other object ("consulta *marcada*")
        foreign = [
            w
            for w in extractor.unexplained_words(text, out.entities)
            if not any(x.uses_phrasing(w) for x in kin)
        ]
        if not foreign:
            return []
        if extractor.of_a_kind_of_its_own(out.entities):
            # "top up my mom's line 21 99888-7777": a phone number is what the goal is about
            return []
        said = _values_said(out.entities)
        if extractor.from_table(out.entities) and len(foreign) < said:
            # a value of the goal's tables and more values than words it does not know: the
            # goal's thing with one detail it has no value for ("adestramento pro Thor sábado 10h")
            return []
        others = [x for (domain, _), x in model.extractors.items() if domain != best.domain]
        shared = extractor.phrasing_words(text)
        if (
            len(foreign) >= _MANY_UNKNOWN
            and len(foreign) >= len(shared)
            and len(foreign) > said
            and extractor.only_typed(out.entities)
            # "I left my card at a restaurant, *block it*": a clause of the goal's words alone asks
            # for it, whatever the story around it
            and not any(
                extractor.phrasing_words(clause) and not set(words(clause)) & set(foreign)
                for clause in clauses(text)
            )
        ):
            # "posso fazer obra no apartamento no domingo?": more words the goal does not know than
            # words of its own, and no value only it knows (a day any request may carry); the
            # message is about something else
            return foreign
        # the verb a request opens with names an action, not an object: "cancel" is the only
        # cancelling of the catalog, yet "cancel my gym membership" names no reservation; a
        # value of the goal's tables said beside it ("tranfere 40 reias pro bruno") is its object
        opening = None if extractor.from_table(out.entities) else _opening_verb(text)
        # a word another goal of the domain is phrased with names its things too ("how much does
        # a *move* cost" of a moving company's quote)
        kin_said = _kin_words(model.extractors, best, [w for w in content_words(text) if w not in shared])
        objects = [w for w in [*shared, *kin_said] if w != opening]
        if any(not any(other.uses_phrasing(w) for other in others) for w in objects):
            return []
        return foreign

    def _reader_of(
        self, text: str, said: list[str], best: GoalRef, readings: Readings, model: EmbeddedModel
    ) -> GoalRef | None:
        """The one other goal that only reads, phrased with every word of ``said`` or naming it,
        with every value it requires said with evidence, and accounting for every word of the message:
        "quanto tá a *escova*?" asks a salon's price of its service, not a company's quote."""
        found = []
        for ref in model.goals:
            if ref == best or self._acts(ref):
                continue
            extractor, entities = readings.extractor(ref), readings.of(ref).entities
            if not entities or not _reads_in_full(ref, readings) or extractor.free_text(entities):
                continue  # free text names nothing: it takes any words ("um carro eletrico, qual…")
            if all(extractor.uses_phrasing(w) or w in _words_of(entities) for w in said) and not (
                extractor.unexplained_words(text, entities)
            ):
                found.append(ref)
        # two readers of the same word: the message does not say which is meant
        return found[0] if len(found) == 1 else None

    def _named_from_table(
        self, text: str, order: IntArray, readings: Readings, model: EmbeddedModel
    ) -> tuple[GoalRef, bool] | None:
        """One of the first goals, however unsure the classifier is, when the message names its
        values from its tables and says nothing it does not account for: every required value
        with evidence, one from a lookup table or an enum, and a word of the goal's phrasing or
        nothing but the values ("quero 3 fones bluetooth", "AAPL MSFT GOOG"). Words the goal does
        not know are allowed beside more required values than them (:meth:`_outweighed`). One
        value alone names the first of these goals that only reads ("tem A Hora da Estrela?"):
        reading costs nothing, and nothing else the message says points elsewhere; the flag
        says so, since after a request of another goal it rather names that goal's value."""
        for index in order:
            ref = model.goals[int(index)]
            extractor = readings.extractor(ref)
            entities = _named_from_its_tables(ref, readings)
            if entities is None:
                continue
            values = _values_said(entities)
            unexplained = extractor.unexplained_words(text, entities)
            if unexplained or extractor.unsupported_action(text) is not None:
                required = _required_count(ref.goal)
                if not self._outweighed(text, ref, unexplained, required, model) and not (
                    self._asked_by_its_code(text, ref, entities, unexplained, extractor)
                ):
                    continue
                return ref, False
            if extractor.phrasing_words(text) or values >= 2:
                return ref, False
            if not self._acts(ref):
                return ref, True
        if text.rstrip().endswith("?"):
            for ref in _then_its_domain(model.goals[int(order[0])], order[:1], model):
                if self._asked_in_its_words(text, ref, readings, model):
                    return ref, False
        return None

    def _asked_in_its_words(self, text: str, ref: GoalRef, readings: Readings, model: EmbeddedModel) -> bool:
        """Whether a question names one of ``ref``'s things from its table, ``ref`` only reads
        it, and the few words ``ref`` does not know beside it include one another goal of its
        domain writes in a value: "quantas *pessoas* cabem na tumba do faraó?" asks a room's
        details with a booking's count ("4 pessoas"), where "who directed Dune?" asks a cinema
        nothing it knows."""
        entities = _named_from_its_tables(ref, readings)
        if entities is None or not self._only_reads(ref):
            return False
        extractor = readings.extractor(ref)
        unexplained = extractor.unexplained_words(text, entities)
        if extractor.unsupported_action(text) is not None or not 0 < len(unexplained) <= _FEW_UNKNOWN:
            return False
        return any(x.writes_in_a_value(word) for x in _kin(model.extractors, ref) for word in unexplained)

    def _asked_by_its_code(
        self,
        text: str,
        ref: GoalRef,
        entities: Entities,
        unexplained: list[str],
        extractor: GoalEntityExtractor,
    ) -> bool:
        """Whether the message is a question about one of ``ref``'s things by its code, ``ref``
        only reads it, no verb of another action opens it and few words it does not know are said
        beside it: "has PX7388 been delivered yet?" asks a parcel's tracking."""
        return (
            text.rstrip().endswith("?")
            and self._only_reads(ref)
            and extractor.coded(entities)
            and extractor.unsupported_action(text) is None
            and len(unexplained) <= _FEW_UNKNOWN
        )

    @staticmethod
    def _named_further(
        text: str, probs: FloatArray, order: IntArray, readings: Readings, model: EmbeddedModel
    ) -> GoalRef | None:
        """The surest goal after the first ones that the message names wholly: every required
        value from its tables with evidence, a word of its phrasing (or a price asked of a goal
        phrased with one: "quanto tá a torta de limão?"), no word it does not know and no verb of
        another action. "quanto custam as rosas?" is a florist's price, however far down the
        classifier put it; so is a goal named by all of its values when it needs several ("can I
        get 1 family pass for March 21?" of a purchase that needs a count, a kind and a day)."""
        priced = price_question(text)
        for index in np.argsort(-probs)[len(order) :]:
            if probs[index] <= 0:
                break
            ref = model.goals[int(index)]
            extractor = readings.extractor(ref)
            # a goal with no table is never named from one: its reading is not made at all
            if not extractor.has_tables or (entities := _named_from_its_tables(ref, readings)) is None:
                continue
            if (
                (
                    extractor.phrasing_words(text)
                    or (priced and extractor.asks_a_price)
                    or _required_count(ref.goal) >= _NAMED_BY_ITS_VALUES
                )
                and not extractor.unexplained_words(text, entities)
                and extractor.unsupported_action(text) is None
            ):
                return ref
        return None

    @staticmethod
    def _outweighed(
        text: str, ref: GoalRef, unexplained: list[str], required: int, model: EmbeddedModel
    ) -> bool:
        """Whether the words ``ref``'s goal does not know say less than its ``required`` values,
        every one of them said: a goal that needs several values is not named by chance. They are
        fewer than those values, none of them is a word of another goal of its domain (an action
        on the same things: "*cancela* spinning sexta 19h" is no booking) and the message does
        not act on an amount the goal does not read ("compra 50 ações"). "*marca* spinning sexta
        19h" names a class, a day and a time of a class booking in words its examples do not use;
        "*hotel* em Recife amanhã" names only the city a forecast needs."""
        if len(unexplained) >= required:
            return False
        extractor = model.extractors[(ref.domain, ref.goal.goal)]
        opening = extractor.opening_action(text)
        if opening is not None and opening.on_amount:
            return False
        return not _kin_words(model.extractors, ref, unexplained)

    def _table_owner(
        self, best: GoalRef, own: Entities, order: IntArray, readings: Readings, model: EmbeddedModel
    ) -> GoalRef | None:
        """Another of the first goals, of the first one's domain, when the message names a value
        of its lookup tables and ``own``, the first goal's reading, has no name of its own (only a
        day, a number, one of its enum's words, or nothing): every required value of that goal
        said with evidence, none guessed. ``None`` otherwise."""
        mine = model.extractors[(best.domain, best.goal.goal)]
        if any(name in mine.specs and mine.specs[name].type == "string" for name in own):
            return None  # the first goal names something of its own ("como a Natura é negociada")
        for index in order[1:]:
            ref = model.goals[int(index)]
            if ref.domain != best.domain or ref == best:
                continue
            if _named_from_its_tables(ref, readings) is not None:
                return ref
        return None

    def _asked_of_a_reader(
        self, text: str, best: GoalRef, order: IntArray, readings: Readings, model: EmbeddedModel
    ) -> GoalRef | None:
        """A goal of the first one's domain that only reads, among the first goals, when the
        message is a question, the first goal acts and lacks a required value, and the reader
        reads the same values and every one it requires: "ainda tem ingresso pro Cirque du
        Soleil na quinta?" asks what a check of availability answers, not for a purchase whose
        number of tickets is missing. A word only the first goal is phrased with ("pode
        *comprar* ingresso pro Coldplay?") keeps it. A question about a price is the reader's
        whatever the first goal reads ("quanto dá um carro grande da rodoviária pra casa?").
        ``None`` otherwise."""
        own = readings.of(best)
        priced = asks_a_price(text)
        if not self._acts(best) or not (
            priced or (text.rstrip().endswith("?") and best.goal.missing_required(own.entities))
        ):
            return None
        said_words = [t.text for t in tokens(text)]
        if not priced and any(tuple(said_words[: len(opener)]) == opener for opener in _ASKS_TO_ACT):
            return None  # "can I get floor tickets for Ivete?": a request, asked politely
        mine = readings.extractor(best)
        said = content_words(text)
        # a price is asked of the first goals only: "quanto tá o ingresso do duna?" is no list
        # of the cinema's sessions
        first = (model.goals[int(index)] for index in order[1:])
        readers = first if priced else _then_its_domain(best, order, model)
        for ref in readers:
            if ref.domain != best.domain or not self._only_reads(ref):
                continue
            theirs = readings.of(ref)
            reader = readings.extractor(ref)
            if (
                (priced or not any(mine.uses_phrasing(w) and not reader.uses_phrasing(w) for w in said))
                # "is the bowling championship on tv tonight?": a day any question carries, asked of
                # things no goal of the domain knows
                and (
                    priced
                    or not reader.only_typed(theirs.entities)
                    or len(self._unknown_to_its_domain(text, ref, readings)) < _MANY_UNKNOWN
                )
                and not theirs.guessed
                # a price asked of what the first goal does not know either is asked for too
                and (priced or not ref.goal.missing_required(theirs.entities))
                and _reads_all_of(theirs.entities, own.entities, reader)
                and reader.evidenced(theirs.entities)
            ):
                return ref
        return None

    @staticmethod
    def _an_idea(text: str, order: IntArray, readings: Readings, model: EmbeddedModel) -> GoalRef | None:
        """One of the first goals whose examples open with the words the message opens with,
        before a statement they take whole (:meth:`GoalEntityExtractor.idea_after_lead`)."""
        for index in order:
            ref = model.goals[int(index)]
            if readings.extractor(ref).idea_after_lead(text) is not None:
                return ref
        return None

    @staticmethod
    def _sibling_explains(
        text: str, best: GoalRef, order: IntArray, readings: Readings, model: EmbeddedModel
    ) -> GoalRef | None:
        """Another of the first goals, of the first one's domain, that reads every value the first
        reads (and is about the same thing: they share one), with evidence, and accounts for every
        word of the message and reads more, where the first leaves words it does not know: values
        it has no place for ("corrida de casa pra congonhas *quinta 14h pra 3 pessoas*" of a
        price). ``None`` otherwise."""
        own = readings.of(best)
        left = readings.extractor(best).unexplained_words(text, own.entities)
        if own.guessed or not own.entities:
            return None
        # every word known to the first goal, a request (no question, no price asked) may still
        # say a day only the sibling has a place for: "large unit *tomorrow* for 1 month"
        priced = price_question(text)
        day_decides = not left and not text.rstrip().endswith("?") and not priced
        if not left and not day_decides:
            return None
        verb = readings.extractor(best).unsupported_action(text)
        today = readings.clock.local().date().isoformat()
        for index in order[1:]:
            ref = model.goals[int(index)]
            if ref.domain != best.domain:
                continue
            extractor = readings.extractor(ref)
            theirs = readings.of(ref)
            if (
                theirs.guessed
                or not _reads_all_of(theirs.entities, own.entities, extractor)
                or not extractor.evidenced(theirs.entities)
                or extractor.unsupported_action(text) not in (None, verb)
                # "how much is an RV site for 2 nights, 3 people?": a price asked, not a booking
                # short of its day
                or (priced and ref.goal.missing_required(theirs.entities))
            ):
                continue
            unknown = extractor.unexplained_words(text, theirs.entities)
            more = [v for v in theirs.entities.values() if v not in own.entities.values()]
            if not set(unknown) <= set(left):
                continue  # a word only the sibling does not know rules it out
            a_later_day = any(isinstance(v, str) and _A_DAY.match(v) and v[:10] != today for v in more)
            if (unknown or day_decides) and not a_later_day:
                # words neither knows ("*teve* um incêndio na *cozinha* dia 12"), or none at all,
                # leave a day to decide: a day said from today decides nothing ("quanto de folga me
                # resta *esse ano*?" asks the balance, not a leave starting today), nor a count
                # inside a name ("sessões de Wicked: Parte *Dois*")
                continue
            if len(theirs.entities) > len(own.entities):
                return ref
        return None

    def _rescued(
        self, text: str, best: GoalRef, out: IntentOutput, readings: Readings, *, new_names: bool = False
    ) -> bool:
        """Whether an unsure first goal is a clear request after all: every required entity said
        with evidence (no guess), and a word of the goal's own phrasing, its verb acting on
        nothing the goal does not know. With ``new_names``, a name no table lists is said too,
        beside a value with evidence."""
        extractor = readings.extractor(best)
        reading = readings.of(best)
        entities = reading.entities
        if reading.guessed or not extractor.phrasing_words(text):
            return False
        if not extractor.evidenced(entities) and not (
            new_names and any(extractor.evidenced({name: value}) for name, value in entities.items())
        ):
            return False
        if _other_object(extractor, text, entities):
            return False
        if extractor.unsupported_action(text) is not None:
            return False  # "buy 10 shares of tesla": a quote's words, not a quote's request
        if extractor.unknown_object(text, entities) is not None:
            return False  # "rent an apartment in Curitiba": a rental's verb on another thing
        if _kin_words(readings.extractors, best, extractor.unexplained_words(text, entities)):
            return False  # "*price* for an SUV in Recife…": the quote's word, not the booking's
        probe = out.model_copy(update={"entities": entities})
        return clear_request(best.goal, probe)

    def _explained_in_full(
        self, text: str, best: GoalRef, out: IntentOutput, order: IntArray, readings: Readings
    ) -> bool:
        """Whether a first goal the classifier barely knows the words of is a clear request all
        the same: two values or more, every word of the message its phrasing, a value it read
        or a function word, and not so for the runner-up, whatever their margin ("yo can i get
        headshots tmrw 3pm" between a session's booking and its price); otherwise rescued
        (:meth:`_rescued`). One value alone is too little to overrule the classifier: "whats
        up" is a greeting, not the day's gainers."""
        model = self.model
        entities = readings.of(best).entities
        if (
            model is None
            or _values_said(entities) < 2
            or readings.extractor(best).unexplained_words(text, entities)
        ):
            return False
        if len(order) > 1:
            runner_up = model.goals[int(order[1])]
            if not readings.extractor(runner_up).unexplained_words(
                text, readings.of(runner_up).entities
            ) and not self._a_price_decides(text, best, runner_up):
                return False  # both account for every word: the classifier's doubt stands
        alone = out.model_copy(
            update={
                "alternatives": out.alternatives[:1],
                "notes": [n for n in out.notes if not n.startswith(CHOICE_NOTE)],
            }
        )
        # a name no table lists is shown in the approval the goal asks for before it acts ("send
        # *lilies* on Friday": the florist answers what it has after the yes)
        return self._rescued(text, best, alone, readings, new_names=self._approved(best))

    @staticmethod
    def _undoer(
        text: str,
        verb: str,
        best: GoalRef,
        readings: Readings,
        model: EmbeddedModel,
        *,
        same_values: bool = False,
    ) -> GoalRef | None:
        """The goal of ``best``'s domain phrased with ``verb``, the verb that undoes what ``best``
        makes ("cancel" of a booking's cancellation), when there is one, one that reads every value
        ``best`` reads (and each it requires) first; ``None`` otherwise. With ``same_values``, only
        such a one."""
        phrased = [
            ref
            for ref in model.goals
            if ref.domain == best.domain
            and ref != best
            and readings.extractor(ref).unsupported_action(text) is None
            and any(readings.extractor(ref).uses_phrasing(w) for w in words(verb))
        ]
        ours = readings.of(best).entities
        reading_ours = [
            ref
            for ref in phrased
            if ours and ours.items() <= readings.of(ref).entities.items() and _reads_in_full(ref, readings)
        ]
        return next(iter(reading_ours if same_values else [*reading_ours, *phrased]), None)

    def _a_price_decides(self, text: str, ref: GoalRef, other: GoalRef) -> bool:
        """Whether ``text`` asks a price, which the own texts of one of ``ref`` and ``other`` ask
        and the other's do not ("how much for 800 words into french pls": a quote, not the order,
        whichever the classifier put first)."""
        return asks_a_price(text) and self._own_texts_ask(ref, asks_a_price) != self._own_texts_ask(
            other, asks_a_price
        )

    def _approved(self, ref: GoalRef) -> bool:
        """Whether every capability of ``ref`` asks the person for a yes (``policy.confirm``)."""
        return self._every_capability(ref, lambda c: c.metadata.policy.confirm)

    def _outreads_free_text(
        self, text: str, best: GoalRef, out: IntentOutput, order: IntArray, readings: Readings
    ) -> bool:
        """Whether the first goal of a near tie reads every value it requires with evidence and is
        a clear request but for the tie, and the runner-up reads nothing but free text (an idea,
        a message), which any words fill."""
        model = self.model
        if model is None or len(order) < 2 or not any(n.startswith(CHOICE_NOTE) for n in out.notes):
            return False
        runner_up = model.goals[int(order[1])]
        theirs = readings.of(runner_up).entities
        if len(readings.extractor(runner_up).free_text(theirs)) != len(theirs):
            return False
        alone = out.model_copy(update={"notes": [n for n in out.notes if not n.startswith(CHOICE_NOTE)]})
        return _reads_in_full(best, readings) and self._rescued(text, best, alone, readings)

    def _kept_though_unsure(
        self, text: str, best: GoalRef, out: IntentOutput, order: IntArray, readings: Readings
    ) -> bool:
        """Whether an unsure first goal is read all the same: a clear request after all, one its
        values name a required value short, or a reading goal asked of a name it never saw."""
        return (
            self._rescued(text, best, out, readings)
            or self._named_short_of_values(text, best, readings)
            or self._read_with_a_new_name(text, best, order, readings)
            or self._asked_in_its_own_words(text, best, readings)
            or self._short_in_its_own_words(text, best, readings)
        )

    @staticmethod
    def _short_in_its_own_words(text: str, best: GoalRef, readings: Readings) -> bool:
        """Whether an unsure goal is asked for all the same, a required value short: every word of
        the message its phrasing, a value it read with evidence or a function word, and enough of
        them, values counted ("send 2 jugs tomorrow", "send 1 jug"). What it lacks is asked for;
        nothing acts on it."""
        extractor = readings.extractor(best)
        reading = readings.of(best)
        entities = reading.entities
        # the noun a count is said with is the goal's word too ("4 *jugs*")
        nouns = extractor.annotated_words(entities) & set(words(text))
        own = set(extractor.phrasing_words(text)) | nouns
        return bool(
            entities
            and own
            and not reading.guessed
            and best.goal.missing_required(entities)
            and extractor.evidenced(entities)
            and len(own) + _values_said(entities) >= _ENOUGH_SAID
            and not extractor.unexplained_words(text, entities)
            and extractor.unsupported_action(text) is None
        )

    def _asked_in_its_own_words(self, text: str, best: GoalRef, readings: Readings) -> bool:
        """Whether an unsure goal that only reads is asked all the same: every word of the
        message is the goal's phrasing, a value it read or a function word, two of its own words
        at least ("quero saber as coberturas do meu seguro"); what it lacks is asked for."""
        if not self._only_reads(best):
            return False
        extractor = readings.extractor(best)
        reading = readings.of(best)
        own = set(extractor.phrasing_words(text))
        return (
            not reading.guessed
            and len(own) >= OWN_WORDS_ENOUGH
            and not extractor.unexplained_words(text, reading.entities)
            and extractor.unsupported_action(text) is None
        )

    def _read_with_a_new_name(self, text: str, best: GoalRef, order: IntArray, readings: Readings) -> bool:
        """Whether an unsure goal that only reads is asked all the same: a word of its phrasing and
        every required value in its place, though no table lists them, and nothing else said
        ("kroger quote pls", "how's walmart trading today": a company the examples never name).
        Reading costs nothing, where the manifest says the goal only reads; others need evidence."""
        if not self._only_reads(best):
            return False
        extractor = readings.extractor(best)
        reading = readings.of(best)
        entities = reading.entities
        return bool(
            entities
            and not reading.guessed
            and not best.goal.missing_required(entities)
            and extractor.phrasing_words(text)
            and not extractor.unexplained_words(text, entities)
            and extractor.unsupported_action(text) is None
            and not self._named_in_another_table(best, entities, order, readings)
        )

    def _named_in_another_table(
        self, best: GoalRef, entities: Entities, order: IntArray, readings: Readings
    ) -> bool:
        """Whether the words of ``entities`` are all part of a value another goal names from its
        tables: "is the *little* prince in stock" names a book, no company called Little."""
        model = self.model
        said = _words_of(entities)
        if model is None or not said:
            return False
        for index in order:
            ref = model.goals[int(index)]
            if ref != best and said <= _words_of(_named_from_its_tables(ref, readings) or {}):
                return True
        return False

    def _a_fragment_of_another_name(
        self, best: GoalRef, entities: Entities, order: IntArray, readings: Readings
    ) -> GoalRef | None:
        """Another of the first goals, one that only reads first, when ``best`` reads names its
        tables do not list, and their words are only a part of a value another goal names from its
        tables in the message. ``None`` otherwise."""
        model = self.model
        names = {n: v for n, v in entities.items() if n in best.goal.entities_schema}
        names = {n: v for n, v in names.items() if best.goal.entities_schema[n].type == "string"}
        if model is None or not names or readings.extractor(best).from_table(names):
            return None
        said = _words_of(names)
        wholes = [
            ref
            for ref in (model.goals[int(index)] for index in order)
            if ref != best and said < _words_of(_named_from_its_tables(ref, readings) or {})
        ]
        return next((ref for ref in wholes if self._only_reads(ref)), next(iter(wholes), None))

    def _named_short_of_values(self, text: str, best: GoalRef, readings: Readings) -> bool:
        """Whether an unsure first goal is still asked for, a required value short: its own verb
        and a value of its table with evidence, beside fewer words it does not know than values
        said ("agenda *adestramento* pro Thor sábado 10h" books Thor on a day at a time, and the
        service is asked)."""
        extractor = readings.extractor(best)
        reading = readings.of(best)
        entities = reading.entities
        if (
            reading.guessed
            or not best.goal.missing_required(entities)
            or not extractor.phrasing_words(text)
            or not extractor.evidenced(entities)
            or not extractor.from_table(entities)
            or extractor.unsupported_action(text) is not None
        ):
            return False
        said = _values_said(entities)
        return len(extractor.unexplained_words(text, entities)) < said

    @property
    def calibration(self) -> CalibrationReport:
        return self.model.report if self.model else CalibrationReport()
