"""String entities: a CRF sequence tagger beside the shipped learned-context extractor.

    .venv/bin/pip install sklearn-crfsuite      # or: pip install -e '.[bench]'
    python bench/entity_tagger_eval.py [--set bench/nlu_eval_set.jsonl]
                                       [--out bench/results/entity_tagger.md] [--rounds 5]
                                       [--no-encoder] [--grid]

Issue 13 asks for entity extraction "as Rasa's DIET/CRF does". The platform ships a
learned-context extractor instead (``intent/entities.py``). This benchmark measures both on the
same data so the choice rests on numbers; nothing in the runtime path uses it.

* **Training data**: the annotated examples (``GoalExample`` with ``entities``) of the catalog
  ``bench/nlu_eval.py`` builds (finance with its lookup table, general, notifier, research, the
  benchmark-only currency domain), tokenised with ``intent.text.tokens`` (as the extractor does)
  and tagged BIO by span match of each *string* entity's annotated value. Enum and boolean
  entities are values chosen by synonyms, not spans, so the comparison covers string entities
  only. Plain (unannotated) examples of goals that have no string entity are added as all-``O``
  sentences (they cannot contain one); plain examples of goals that do have string entities are
  left out (nobody marked their spans).
* **Features per token**: normalised word, word shape, is-title, is-upper, has-digit,
  prefix/suffix 3, previous/next word, the gold goal, gazetteer membership (the annotated values
  plus the lookup tables' names and aliases; one-word values with the extractor's typo
  tolerance). Variants add context features the production extractor also reads (punctuation
  before the token, capital owed to a sentence start, function/filler word of ``intent.text``)
  and the sentence encoder's cluster of the word (k-means over the training vocabulary).
* **Evaluation**: every row of the set with a gold goal and gold entities; both systems are given
  the GOLD goal, so only extraction is compared; (entity, value) pairs exactly as
  ``bench/nlu_eval.py``'s ``pairs`` makes them (exact span as written). A CRF label of an entity the
  gold goal does not have is dropped (the production extractor is per goal too). Junk spans: the
  predicted pairs not in the gold on the ``chatty`` rows.
* **Time**: the median, over ``--rounds`` passes, of each pass's median ms per message (warm);
  the CRF's training time.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from collections import Counter
from collections.abc import Callable, Collection, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

try:
    import sklearn_crfsuite
except ImportError:  # an optional benchmark dependency: say how to get it
    raise SystemExit(
        "bench/entity_tagger_eval.py needs sklearn-crfsuite: "
        ".venv/bin/pip install sklearn-crfsuite  (or pip install -e '.[bench]')"
    ) from None

import nlu_eval  # noqa: E402
import numpy as np  # noqa: E402
from nlu_eval import pairs, shipped_catalog  # noqa: E402

from intent.embedded import entity_extractor  # noqa: E402
from intent.embeddings import load_encoder  # noqa: E402
from intent.entities import FuzzyVocabulary, GoalEntityExtractor  # noqa: E402
from intent.text import FILLER_EN, FILLER_PT, STOP_EN, STOP_PT, Token, tokens, words  # noqa: E402
from shared.catalog import Catalog, GoalRef  # noqa: E402
from shared.manifest import Goal, GoalExample  # noqa: E402

DEFAULT_SET = ROOT / "bench" / "nlu_eval_set.jsonl"
DEFAULT_OUT = ROOT / "bench" / "results" / "entity_tagger.md"
NOT_ENTITY = STOP_PT | STOP_EN | FILLER_PT | FILLER_EN
PUNCTUATION = frozenset(',;:?!()[]"')
SENTENCE_END = frozenset(".!?")
#: fixed CRF settings (sklearn-crfsuite's tutorial values); nothing is tuned on the evaluation set
CRF_SETTINGS: dict[str, Any] = {
    "algorithm": "lbfgs",
    "c1": 0.1,
    "c2": 0.1,
    "max_iterations": 100,
    "all_possible_transitions": True,
}
ENCODER_CLUSTERS = 48
AUGMENT_PER_EXAMPLE = 4

Features = dict[str, str | float | bool]


def string_entities(goal: Goal) -> list[str]:
    return [n for n, s in goal.entities_schema.items() if s.type not in ("enum", "boolean")]


def goal_key(domain: str, goal: Goal) -> str:
    return f"{domain}.{goal.goal}"


# ---------------------------------------------------------------- training data


@dataclass
class Sentence:
    text: str
    goal: str  # "domain.GOAL"
    toks: list[Token]
    tags: list[str]
    #: gazetteer entries only this sentence gives (left out of its own features)
    own_phrases: set[tuple[str, tuple[str, ...]]] = field(default_factory=set)
    own_words: set[str] = field(default_factory=set)


def bio_tags(text: str, toks: list[Token], entities: dict[str, Any], names: list[str]) -> list[str]:
    """BIO tags of the string entities' annotated values, found as token spans of ``text``."""
    tags = ["O"] * len(toks)
    norm = [t.text for t in toks]
    for name in names:
        value = entities.get(name)
        if value is None:
            continue
        for v in value if isinstance(value, list) else [value]:
            target = words(str(v))
            for i in range(len(toks) - len(target) + 1):
                if (
                    target
                    and norm[i : i + len(target)] == target
                    and all(t == "O" for t in tags[i : i + len(target)])
                ):
                    tags[i] = f"B-{name}"
                    for k in range(i + 1, i + len(target)):
                        tags[k] = f"I-{name}"
                    break
            else:
                print(f"warning: annotated {name}={v!r} not found as a span of {text!r}", file=sys.stderr)
    return tags


def training_sentences(catalog: Catalog, gazetteer: Gazetteer) -> list[Sentence]:
    out: list[Sentence] = []
    for ref in catalog.goals():
        names = string_entities(ref.goal)
        for example in ref.goal.examples:
            annotated = isinstance(example, GoalExample) and bool(example.entities)
            text = example if isinstance(example, str) else example.text
            if not annotated and names:
                continue  # spans of a goal with string entities, nobody marked: unknown tags
            toks = tokens(text)
            entities = example.entities if isinstance(example, GoalExample) else {}
            sentence = Sentence(
                text, goal_key(ref.domain, ref.goal), toks, bio_tags(text, toks, entities, names)
            )
            if isinstance(example, GoalExample):
                sentence.own_phrases, sentence.own_words = gazetteer.own_values(example, names)
            out.append(sentence)
    return out


def augmented_sentences(catalog: Catalog, per_example: int) -> list[Sentence]:
    """The CRF's best shot with so few spans: each annotated example of an entity with a lookup
    table again, its value replaced by ``per_example`` of the table's names/aliases (taken in
    turn). The substituted name is left out of that sentence's gazetteer features, so these
    sentences teach contexts and shapes, not the table."""
    out: list[Sentence] = []
    for ref in catalog.goals():
        names = string_entities(ref.goal)
        for name in names:
            table = [a for e in ref.goal.entities_schema[name].lookup or () for a in dict.fromkeys(e.aliases)]
            turn = 0
            for example in ref.goal.examples:
                if not isinstance(example, GoalExample) or not isinstance(example.entities.get(name), str):
                    continue
                value = example.entities[name]
                if value not in example.text:
                    continue
                for alias in table[turn : turn + per_example] if table else []:
                    text = example.text.replace(value, alias, 1)
                    entities = {**example.entities, name: alias}
                    toks = tokens(text)
                    phrase = tuple(words(alias))
                    out.append(
                        Sentence(
                            text,
                            goal_key(ref.domain, ref.goal),
                            toks,
                            bio_tags(text, toks, entities, names),
                            own_phrases={(name, phrase)},
                            own_words=set(phrase),
                        )
                    )
                turn = (turn + per_example) % max(len(table), 1)
    return out


# ---------------------------------------------------------------- features


class Gazetteer:
    """Known values per string entity: annotated values and lookup-table names/aliases.

    A training sentence sees the gazetteer *without* the values only it annotates (leave one
    out): with them, every training span is in the gazetteer and the CRF learns "not in the
    gazetteer = not an entity", which no held-out name satisfies.
    """

    def __init__(self, catalog: Catalog):
        #: entity -> known phrase -> how many sources give it (examples, lookup entries)
        self.sources: dict[str, Counter[tuple[str, ...]]] = {}
        for ref in catalog.goals():
            for name in string_entities(ref.goal):
                known = self.sources.setdefault(name, Counter())
                for example in ref.goal.examples:
                    if isinstance(example, GoalExample):
                        known.update(set(annotated_phrases(example, name)))
                for entry in ref.goal.entities_schema[name].lookup or ():
                    known.update({tuple(words(p)) for p in (entry.value, *entry.aliases)} - {()})
        #: one-word values, with the production extractor's typo tolerance ("petrobrass")
        self.single = {n: FuzzyVocabulary(p[0] for p in ps if len(p) == 1) for n, ps in self.sources.items()}
        self.multi = {n: [p for p in ps if len(p) > 1] for n, ps in self.sources.items()}
        self.word_sources: Counter[str] = Counter()
        for ps in self.sources.values():
            for phrase, count in ps.items():
                for w in set(phrase):
                    self.word_sources[w] += count

    def own_values(
        self, example: GoalExample, names: list[str]
    ) -> tuple[set[tuple[str, tuple[str, ...]]], set[str]]:
        """The (entity, phrase) pairs and words that only ``example`` gives the gazetteer."""
        phrases = {(n, p) for n in names for p in annotated_phrases(example, n) if self.sources[n][p] == 1}
        counted = Counter(w for _, p in phrases for w in set(p))
        return phrases, {w for w, c in counted.items() if self.word_sources[w] <= c}

    def marks(self, toks: list[Token], excluded: Collection[tuple[str, tuple[str, ...]]]) -> list[set[str]]:
        """For each token, the entities one of whose known values covers it here."""
        norm = [t.text for t in toks]
        out: list[set[str]] = [set() for _ in toks]
        for name in self.sources:
            for i, word in enumerate(norm):
                if any((name, (w,)) not in excluded for w in self.single[name].matches(word)):
                    out[i].add(name)
            for phrase in self.multi[name]:
                if (name, phrase) in excluded:
                    continue
                n = len(phrase)
                for i in range(len(norm) - n + 1):
                    if tuple(norm[i : i + n]) == phrase:
                        for k in range(i, i + n):
                            out[k].add(name)
        return out

    def knows(self, value: str) -> bool:
        phrase = tuple(words(value))
        return any(phrase in known for known in self.sources.values())


def annotated_phrases(example: GoalExample, name: str) -> list[tuple[str, ...]]:
    value = example.entities.get(name)
    if value is None:
        return []
    found = [tuple(words(str(v))) for v in (value if isinstance(value, list) else [value])]
    return [p for p in found if p]


class WordClusters:
    """The sentence encoder's vector of a word, as the nearest of k-means centroids fitted on the
    training vocabulary; unseen words are encoded when met (one encoder call each)."""

    def __init__(self, vocabulary: Iterable[str], k: int):
        from sklearn.cluster import KMeans

        encoder = load_encoder()
        if encoder is None:
            raise SystemExit("the encoder-cluster variant needs the sentence encoder packages")
        self.encoder = encoder
        vocab = sorted(set(vocabulary))
        vectors = encoder.encode(vocab)
        self.kmeans = KMeans(n_clusters=min(k, len(vocab)), n_init=4, random_state=0).fit(vectors)
        self.known: dict[str, int] = dict(zip(vocab, (int(c) for c in self.kmeans.labels_), strict=True))
        self.unseen_encoded = 0

    def cluster(self, word: str) -> int:
        found = self.known.get(word)
        if found is not None:
            return found
        # not cached across messages: a runtime would pay this for every new word
        self.unseen_encoded += 1
        vector = self.encoder.encode_one(word)[np.newaxis, :]
        return int(self.kmeans.predict(vector)[0])


def shape(word: str) -> str:
    letters = [c for c in word if c.isalpha()]
    digits = any(c.isdigit() for c in word)
    if letters and digits:
        return "mixed"
    if digits:
        return "dd"
    if not letters:
        return "other"
    if all(c.isupper() for c in letters):
        return "XXX" if len(letters) > 1 else "X"
    if letters[0].isupper():
        return "Xxxx"
    if any(c.isupper() for c in letters):
        return "xXx"
    return "xxxx"


@dataclass(frozen=True)
class FeatureSet:
    name: str
    #: punctuation before the token, sentence-start capital, function/filler word
    context: bool = False
    encoder: bool = False
    #: train also on ``augmented_sentences``
    augment: bool = False


class Featuriser:
    def __init__(self, gazetteer: Gazetteer, features: FeatureSet, clusters: WordClusters | None):
        self.gazetteer = gazetteer
        self.features = features
        self.clusters = clusters

    def __call__(
        self,
        text: str,
        toks: list[Token],
        goal: str,
        own_phrases: Collection[tuple[str, tuple[str, ...]]] = (),
        own_words: Collection[str] = (),
    ) -> list[Features]:
        marks = self.gazetteer.marks(toks, own_phrases)
        norm = [t.text for t in toks]
        out: list[Features] = []
        for i, tok in enumerate(toks):
            surface = text[tok.start : tok.end]
            f: Features = {
                "bias": 1.0,
                "word": tok.text,
                "shape": shape(surface),
                "is_title": surface[:1].isupper() and surface[1:] == surface[1:].lower(),
                "is_upper": surface.isupper(),
                "has_digit": any(c.isdigit() for c in surface),
                "prefix3": tok.text[:3],
                "suffix3": tok.text[-3:],
                "prev": norm[i - 1] if i > 0 else "<s>",
                "next": norm[i + 1] if i + 1 < len(toks) else "</s>",
                "goal": goal,
                "in_gazetteer": tok.text in self.gazetteer.word_sources and tok.text not in own_words,
            }
            for name in marks[i]:
                f[f"gazetteer:{name}"] = True
            if self.features.context:
                gap = text[toks[i - 1].end : tok.start] if i > 0 else "."
                f["punct_before"] = any(c in PUNCTUATION for c in gap)
                f["sentence_start"] = any(c in SENTENCE_END for c in gap)
                f["function_word"] = tok.text in NOT_ENTITY
                f["prev_function_word"] = i > 0 and norm[i - 1] in NOT_ENTITY
            if self.clusters is not None:
                f["cluster"] = str(self.clusters.cluster(tok.text))
                if i > 0:
                    f["prev_cluster"] = str(self.clusters.cluster(norm[i - 1]))
            out.append(f)
        return out


# ---------------------------------------------------------------- the two extractors


class CrfExtractor:
    def __init__(
        self, featurise: Featuriser, sentences: list[Sentence], settings: dict[str, Any] | None = None
    ):
        self.featurise = featurise
        started = time.perf_counter()
        x = [featurise(s.text, s.toks, s.goal, s.own_phrases, s.own_words) for s in sentences]
        self.feature_seconds = time.perf_counter() - started
        self.crf = sklearn_crfsuite.CRF(**(settings or CRF_SETTINGS))
        started = time.perf_counter()
        self.crf.fit(x, [s.tags for s in sentences])
        self.fit_seconds = time.perf_counter() - started

    def extract(self, text: str, goal: str, names: list[str], multiple: set[str]) -> dict[str, Any]:
        toks = tokens(text)
        if not toks:
            return {}
        tags: list[str] = self.crf.predict_single(self.featurise(text, toks, goal))
        spans: dict[str, list[str]] = {}
        current: tuple[str, int, int] | None = None  # (entity, first, last)
        for i, tag in enumerate([*tags, "O"]):
            label = tag[2:] if tag != "O" else ""
            continues = current is not None and tag.startswith("I-") and label == current[0]
            if current is not None and not continues:
                name, first, last = current
                spans.setdefault(name, []).append(text[toks[first].start : toks[last].end])
                current = None
            if continues and current is not None:
                current = (current[0], current[1], i)
            elif label in names:  # a label of another goal's entity is not this goal's
                current = (label, i, i)
        out: dict[str, Any] = {}
        for name, values in spans.items():
            unique = list(dict.fromkeys(values))
            out[name] = unique if name in multiple and len(unique) > 1 else unique[0]
        return out


# ---------------------------------------------------------------- evaluation


@dataclass
class Tally(nlu_eval.Tally):
    """nlu_eval's counts (its goal and junk-step fields stay unused here), with the values missed."""

    #: the gold values missed (as written)
    missed_values: list[str] = field(default_factory=list)


@dataclass
class Case:
    text: str
    lang: str
    chatty: bool
    goal: str
    names: list[str]
    multiple: set[str]
    gold: dict[str, Any]


def cases(rows: list[dict[str, Any]], catalog: Catalog) -> list[Case]:
    out = []
    for row in rows:
        if row.get("goal") is None or row.get("entities") is None:
            continue
        goal = catalog.find_goal(row["domain"], row["goal"])
        if goal is None:
            raise SystemExit(f"unknown gold goal {row['domain']}.{row['goal']}")
        names = string_entities(goal)
        gold = {k: v for k, v in row["entities"].items() if k in names}
        multiple = {n for n in names if goal.entities_schema[n].multiple}
        out.append(
            Case(
                row["text"],
                row["lang"],
                bool(row.get("chatty")),
                goal_key(row["domain"], goal),
                names,
                multiple,
                gold,
            )
        )
    return out


Extract = Callable[[Case], dict[str, Any]]


def evaluate(items: list[Case], extract: Extract) -> dict[str, Tally]:
    tallies = {key: Tally() for key in ("all", "pt", "en", "chatty")}
    for case in items:
        predicted_entities = extract(case)
        predicted, expected = pairs(predicted_entities), pairs(case.gold)
        for key in ["all", case.lang, *(["chatty"] if case.chatty else [])]:
            t = tallies[key]
            t.n += 1
            t.tp += sum((predicted & expected).values())
            t.fp += sum((predicted - expected).values())
            t.fn += sum((expected - predicted).values())
            t.missed_values += [json.loads(v) for (_, v) in (expected - predicted).elements()]
            t.messages_with_junk += bool(predicted - expected)
            if predicted != expected:
                t.misses.append(f"`{case.text}` → {predicted_entities} (expected {case.gold})")
    return tallies


def median_ms(items: list[Case], extract: Extract, rounds: int) -> float:
    for case in items:  # warm-up
        extract(case)
    medians = []
    for _ in range(rounds):
        times = []
        for case in items:
            started = time.perf_counter()
            extract(case)
            times.append((time.perf_counter() - started) * 1000)
        medians.append(statistics.median(times))
    return statistics.median(medians)


@dataclass
class Result:
    system: str
    tallies: dict[str, Tally]
    ms: float
    note: str = ""


def production(catalog: Catalog) -> Extract:
    extractors: dict[str, GoalEntityExtractor] = {
        goal_key(ref.domain, ref.goal): entity_extractor(GoalRef(ref.domain, ref.goal), catalog)
        for ref in catalog.goals()
    }

    def extract(case: Case) -> dict[str, Any]:
        found = extractors[case.goal].extract(case.text)
        return {k: v for k, v in found.items() if k in case.names}

    return extract


def crf_extract(crf: CrfExtractor) -> Extract:
    return lambda case: crf.extract(case.text, case.goal, case.names, case.multiple)


def grid_upper_bound(
    gazetteer: Gazetteer, sentences: list[Sentence], items: list[Case], clusters: WordClusters | None
) -> str:
    """The best F1 over a c1/c2 grid, chosen on the evaluation set itself: what the CRF could
    reach at most with these features and data (tuning on the test set flatters it)."""
    variant = FeatureSet("grid", context=True, encoder=clusters is not None)
    featurise = Featuriser(gazetteer, variant, clusters)
    scores: list[tuple[float, float, float]] = []
    for c1 in (0.0, 0.05, 0.1, 0.3, 1.0):
        for c2 in (0.001, 0.01, 0.1, 1.0):
            crf = CrfExtractor(featurise, sentences, {**CRF_SETTINGS, "c1": c1, "c2": c2})
            scores.append((evaluate(items, crf_extract(crf))["all"].f1(), c1, c2))
    best = max(scores)
    return (
        f"Upper bound (`--grid`, context{' + encoder' if clusters else ''} features, c1/c2 chosen ON the "
        f"evaluation set over {len(scores)} settings): best F1 {best[0]:.3f} at c1={best[1]}, c2={best[2]}; "
        f"range {min(s[0] for s in scores):.3f}-{best[0]:.3f}."
    )


# ---------------------------------------------------------------- report


def report(
    results: list[Result],
    n_train: int,
    n_spans: int,
    items: list[Case],
    command: str,
    crf_notes: list[str],
    gazetteer: Gazetteer,
) -> str:
    with_gold = sum(1 for c in items if c.gold)
    chatty = sum(1 for c in items if c.chatty)
    lines = [
        "# String entities: CRF tagger vs. the shipped extractor (`bench/entity_tagger_eval.py`)",
        "",
        f"Command: `{command}` (needs `sklearn-crfsuite`: `.venv/bin/pip install sklearn-crfsuite` or",
        "`pip install -e '.[bench]'`). Benchmark only; the runtime path is unchanged.",
        "",
        f"Training: {n_train} sentences from the shipped catalog's examples (+ currency), "
        f"{n_spans} annotated",
        "string-entity spans, BIO-tagged on `intent.text.tokens`. Evaluation: "
        f"{len(items)} rows of `bench/nlu_eval_set.jsonl`",
        f"with a gold goal and gold entities ({with_gold} with a string entity, {chatty} chatty); "
        "both systems get",
        "the GOLD goal; STRING entities only (enums/booleans are synonym values, not spans). Pairs as",
        "`bench/nlu_eval.py` counts them: exact span as written, one pair per list element.",
        "",
        "| system | P | R | F1 | F1 pt | F1 en | junk spans (chatty) | chatty msgs with junk "
        "| junk spans (all) | median ms/msg |",
        "|---|---|---|---|---|---|---|---|---|---|",
    ]
    for r in results:
        t = r.tallies
        lines.append(
            f"| {r.system} | {t['all'].precision():.3f} | {t['all'].recall():.3f} | **{t['all'].f1():.3f}** "
            f"| {t['pt'].f1():.3f} | {t['en'].f1():.3f} | {t['chatty'].fp} "
            f"| {t['chatty'].messages_with_junk} "
            f"| {t['all'].fp} | {r.ms:.3f} |"
        )
    lines += ["", "Per language (P / R / F1, messages):", ""]
    lines += ["| system | pt | en | chatty |", "|---|---|---|---|"]
    for r in results:
        cells = [
            f"{t.precision():.3f} / {t.recall():.3f} / {t.f1():.3f} ({t.n})"
            for t in (r.tallies["pt"], r.tallies["en"], r.tallies["chatty"])
        ]
        lines.append(f"| {r.system} | {' | '.join(cells)} |")
    lines += ["", *crf_notes, ""]
    shipped, *crfs = results
    best = max(crfs, key=lambda r: r.tallies["all"].f1())
    winner = shipped if shipped.tallies["all"].f1() >= best.tallies["all"].f1() else best
    lines += [
        f"**Higher F1: {winner.system}** ({shipped.system} {shipped.tallies['all'].f1():.3f}, best CRF "
        f"variant ({best.system}) {best.tallies['all'].f1():.3f}; chatty junk spans "
        f"{shipped.tallies['chatty'].fp} vs {best.tallies['chatty'].fp}).",
        "",
        "Missed gold values that no gazetteer entry knows (neither an annotated example value nor a "
        "lookup-table name/alias), i.e. names only context and shape can find:",
        "",
    ]
    for r in results:
        missed = r.tallies["all"].missed_values
        unknown = [v for v in missed if not gazetteer.knows(v)]
        lines.append(f"- {r.system}: {len(unknown)} of {len(missed)} missed values ({', '.join(unknown)})")
    lines.append("")
    for r in results:
        misses = r.tallies["all"].misses
        lines += [f"## Misses: {r.system} ({len(misses)})", ""]
        if r.note:
            lines += [r.note, ""]
        lines += [*(f"- {m}" for m in misses), ""]
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--set", type=Path, default=DEFAULT_SET)
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT)
    parser.add_argument("--rounds", type=int, default=5, help="timing passes over the set")
    parser.add_argument("--no-encoder", action="store_true", help="skip the encoder-cluster variant")
    parser.add_argument(
        "--grid",
        action="store_true",
        help="also fit c1/c2 ON the evaluation set (an optimistic upper bound for the CRF, not a result)",
    )
    args = parser.parse_args()
    rows = [json.loads(line) for line in args.set.read_text().splitlines() if line.strip()]
    catalog = shipped_catalog()
    items = cases(rows, catalog)
    gazetteer = Gazetteer(catalog)
    sentences = training_sentences(catalog, gazetteer)
    n_spans = sum(tag.startswith("B-") for s in sentences for tag in s.tags)

    notes = [f"CRF settings: {CRF_SETTINGS} (fixed; nothing tuned on the evaluation set)."]
    started = time.perf_counter()
    prod = production(catalog)
    notes.append(
        f"Shipped extractor: built for every goal in {(time.perf_counter() - started) * 1000:.0f} ms "
        "(`entity_extractor` per goal, as `update_catalog` does)."
    )
    results = [
        Result(
            "shipped learned-context extractor", evaluate(items, prod), median_ms(items, prod, args.rounds)
        )
    ]
    variants = [
        FeatureSet("CRF: listed features"),
        FeatureSet("CRF: + context features", context=True),
    ]
    clusters: WordClusters | None = None
    if not args.no_encoder:
        started = time.perf_counter()
        vocabulary = {t.text for s in sentences for t in s.toks} | set(gazetteer.word_sources)
        clusters = WordClusters(vocabulary, ENCODER_CLUSTERS)
        notes.append(
            f"Encoder clusters: {len(clusters.known)} training/gazetteer words encoded and clustered "
            f"(k={ENCODER_CLUSTERS}) in {time.perf_counter() - started:.1f} s."
        )
        variants.append(FeatureSet("CRF: + context + encoder clusters", context=True, encoder=True))
    variants.append(
        FeatureSet(
            "CRF: + context" + ("" if args.no_encoder else " + encoder") + " + lookup names in templates",
            context=True,
            encoder=not args.no_encoder,
            augment=True,
        )
    )
    augmented = augmented_sentences(catalog, AUGMENT_PER_EXAMPLE)
    notes.append(
        f"Lookup names in templates: {len(augmented)} extra training sentences "
        f"({AUGMENT_PER_EXAMPLE} table names per annotated example of an entity with a lookup table)."
    )
    for variant in variants:
        featurise = Featuriser(gazetteer, variant, clusters if variant.encoder else None)
        crf = CrfExtractor(featurise, sentences + augmented if variant.augment else sentences)
        run = crf_extract(crf)
        before = clusters.unseen_encoded if clusters else 0
        tallies = evaluate(items, run)
        unseen = (clusters.unseen_encoded - before) if clusters and variant.encoder else 0
        results.append(Result(variant.name, tallies, median_ms(items, run, args.rounds)))
        notes.append(
            f"{variant.name}: training {crf.fit_seconds * 1000:.0f} ms (fit) "
            f"+ {crf.feature_seconds * 1000:.0f} ms "
            f"(features), {len(crf.crf.state_features_)} state features"
            + (f"; {unseen} unseen-word encodes in one evaluation pass" if variant.encoder else "")
            + "."
        )
    if args.grid:
        notes.append(grid_upper_bound(gazetteer, sentences, items, clusters))
    command = (
        "python bench/entity_tagger_eval.py"
        + (" --no-encoder" if args.no_encoder else "")
        + (" --grid" if args.grid else "")
    )
    text = report(results, len(sentences), n_spans, items, command, notes, gazetteer)
    args.out.write_text(text)
    print(text)
    print(
        json.dumps(
            {
                r.system: {
                    "precision": round(r.tallies["all"].precision(), 4),
                    "recall": round(r.tallies["all"].recall(), 4),
                    "f1": round(r.tallies["all"].f1(), 4),
                    "chatty_junk_spans": r.tallies["chatty"].fp,
                    "median_ms": round(r.ms, 3),
                }
                for r in results
            },
            ensure_ascii=False,
        )
    )


if __name__ == "__main__":
    main()
