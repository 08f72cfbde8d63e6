"""Entity extraction driven by a goal's ``entities_schema`` and its (annotated) examples.

* enum: the longest phrase among each value's synonyms (and the value itself) that occurs in the
  text, tolerant of accents, case and one typo in longer words ("altas e baixas" beats "altas").
* boolean: ``True`` when one of ``synonyms["true"]`` occurs.
* string: spans of the person's own words, cut exactly from the original text. Words that the
  goal's examples use *around* entities (carrier words such as "preço", "cotação", "price"),
  function words, and words already taken by enum/boolean entities are not entity words. The
  words that precede/follow annotated spans in examples ("da X", "price of X", "in the X") are
  learned as contexts, used to tell several string entities apart and to drop stray words.
  ``multiple: true`` returns a list when several spans are named.

Nothing here knows any domain: everything comes from the manifest.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from rapidfuzz.distance import Levenshtein

from intent.text import STOP_EN, STOP_PT, Token, tokens, words
from shared.manifest import EntitySpec, Goal, GoalExample

STOP = STOP_PT | STOP_EN
#: Words that separate several named values ("Apple, Microsoft e Nvidia").
LIST_SEPARATORS = frozenset({"e", "and", "ou", "or", "nem"})
#: Function words allowed inside a capitalised name ("Banco do Brasil", "Bank of America").
NAME_JOINERS = frozenset({"do", "da", "de", "dos", "das", "of", "the", "del", "la", "y"})
_BREAK = re.compile(r"[,;:?!()\[\]\"]")


def fuzzy_equal(a: str, b: str) -> bool:
    """Equal, or one edit apart for words of 5+ letters (two for 9+): typos, not other words."""
    if a == b:
        return True
    shortest = min(len(a), len(b))
    if shortest < 5:
        return False
    budget = 2 if shortest >= 9 else 1
    return Levenshtein.distance(a, b, score_cutoff=budget) <= budget


def find_phrase(phrase: list[str], toks: list[Token], used: list[bool]) -> list[tuple[int, int]]:
    """Every (start, end) token range of ``toks`` matching ``phrase`` and not already used."""
    if not phrase:
        return []
    n = len(phrase)
    first = phrase[0]
    hits = []
    for i in range(len(toks) - n + 1):
        # the first word rules out almost every position: test it before building anything
        if not fuzzy_equal(first, toks[i].text) or any(used[i : i + n]):
            continue
        if all(fuzzy_equal(phrase[k], toks[i + k].text) for k in range(1, n)):
            hits.append((i, i + n))
    return hits


@dataclass
class _StringContext:
    left: Counter[str] = field(default_factory=Counter)
    right: Counter[str] = field(default_factory=Counter)


@dataclass
class _Span:
    first: int
    last: int  # inclusive token index
    start: int
    end: int
    score: float = 0.0


def _phrases(spec: EntitySpec, value: str) -> list[list[str]]:
    raw = [value.replace("_", " "), *spec.synonyms.get(value, [])]
    out = [words(p) for p in raw]
    return [p for p in out if p]


class GoalEntityExtractor:
    """Built once per goal at ``update_catalog``; ``extract(text)`` per message."""

    def __init__(self, goal: Goal, extra_carrier: list[str] | None = None):
        self.goal = goal
        self.specs = goal.entities_schema
        self._enum: dict[str, list[tuple[str, list[str]]]] = {}
        self._bool: dict[str, list[list[str]]] = {}
        self._strings: list[str] = []
        for name, spec in self.specs.items():
            if spec.type == "enum":
                pairs = [(v, p) for v in spec.values or [] for p in _phrases(spec, v)]
                # longest phrases first: "altas e baixas" (BOTH) before "altas" (GAINERS)
                self._enum[name] = sorted(pairs, key=lambda vp: -len(vp[1]))
            elif spec.type == "boolean":
                self._bool[name] = sorted(
                    (words(p) for p in spec.synonyms.get("true", [])), key=len, reverse=True
                )
            else:
                self._strings.append(name)
        self._contexts = {name: _StringContext() for name in self._strings}
        self._carrier: set[str] = set()
        #: joiners seen inside annotated spans ("bolo de cenoura"): allowed in lower-case names too
        self._joiners: set[str] = set()
        entity_words: set[str] = set()
        for example in goal.examples:
            if isinstance(example, GoalExample) and example.entities:
                entity_words |= self._learn(example)
            else:
                text = example if isinstance(example, str) else example.text
                # lower-case words of plain examples are phrasing; capitalised ones may be names
                self._carrier.update(words(" ".join(w for w in text.split() if w == w.lower())))
        for phrase in extra_carrier or []:
            self._carrier.update(words(phrase))
        self._carrier -= entity_words
        self._carrier -= STOP

    def _learn(self, example: GoalExample) -> set[str]:
        """Record contexts of annotated spans; words outside them are carrier words."""
        toks = tokens(example.text)
        inside = [False] * len(toks)
        norm_text = [t.text for t in toks]
        for name, value in example.entities.items():
            if name not in self._contexts:
                continue
            for v in value if isinstance(value, list) else [value]:
                target = words(str(v))
                for i in range(len(toks) - len(target) + 1):
                    if target and norm_text[i : i + len(target)] == target:
                        for k in range(i, i + len(target)):
                            inside[k] = True
                        self._joiners.update(w for w in target[1:-1] if w in NAME_JOINERS)
                        if i > 0:
                            self._contexts[name].left[norm_text[i - 1]] += 1
                        j = i + len(target)
                        if j < len(toks):
                            self._contexts[name].right[norm_text[j]] += 1
                        break
        for tok, is_inside in zip(toks, inside, strict=True):
            if not is_inside:
                self._carrier.add(tok.text)
        return {t.text for t, ins in zip(toks, inside, strict=True) if ins}

    # ---------------------------------------------------------------- extraction

    def extract(self, text: str) -> dict[str, Any]:
        toks = tokens(text)
        used = [False] * len(toks)
        found: dict[str, Any] = {}
        for name, pairs in self._enum.items():
            hits: list[tuple[int, str]] = []
            for value, phrase in pairs:
                for i, j in find_phrase(phrase, toks, used):
                    for k in range(i, j):
                        used[k] = True
                    hits.append((i, value))
            if hits:
                ordered = list(dict.fromkeys(v for _, v in sorted(hits)))
                found[name] = ordered if self.specs[name].multiple and len(ordered) > 1 else hits[0][1]
        for name, phrases in self._bool.items():
            for phrase in phrases:
                matches = find_phrase(phrase, toks, used)
                for i, j in matches:
                    for k in range(i, j):
                        used[k] = True
                if matches:
                    found[name] = True
        if self._strings:
            found.update(self._extract_strings(text, toks, used))
        return found

    def _is_candidate(self, tok: Token, used: bool) -> bool:
        if used or tok.text in STOP:
            return False
        if tok.text in self._carrier:
            return False
        return not (
            len(tok.text) >= 5 and any(fuzzy_equal(tok.text, c) for c in self._carrier if len(c) >= 5)
        )

    def _spans(self, text: str, toks: list[Token], used: list[bool]) -> list[_Span]:
        cand = [self._is_candidate(t, u) for t, u in zip(toks, used, strict=True)]
        spans: list[_Span] = []
        current: _Span | None = None
        for i, tok in enumerate(toks):
            gap = text[toks[i - 1].end : tok.start] if i > 0 else ""
            broken = bool(_BREAK.search(gap))
            if cand[i]:
                if current is not None and not broken and current.last == i - 1:
                    current.last, current.end = i, tok.end
                else:
                    current = _Span(i, i, tok.start, tok.end)
                    spans.append(current)
            elif (
                current is not None
                and current.last == i - 1
                and tok.text in NAME_JOINERS
                and not broken
                and i + 1 < len(toks)
                and cand[i + 1]
                and (
                    tok.text in self._joiners
                    or (text[current.start].isupper() and text[toks[i + 1].start].isupper())
                )
                and not _BREAK.search(text[tok.end : toks[i + 1].start])
            ):
                current.last, current.end = i, tok.end  # "Banco do" ... continues with "Brasil"
        return spans

    def _extract_strings(self, text: str, toks: list[Token], used: list[bool]) -> dict[str, Any]:
        spans = self._spans(text, toks, used)
        if not spans:
            return {}
        assigned: dict[str, list[_Span]] = {name: [] for name in self._strings}
        for span in spans:
            left = toks[span.first - 1].text if span.first > 0 else ""
            right = toks[span.last + 1].text if span.last + 1 < len(toks) else ""
            scores = {
                name: self._contexts[name].left[left] + self._contexts[name].right[right]
                for name in self._strings
            }
            best = max(
                self._strings,
                key=lambda n: (scores[n], self.specs[n].required, -self._strings.index(n)),
            )
            span.score = scores[best]
            assigned[best].append(span)
        out: dict[str, Any] = {}
        for name, chosen in assigned.items():
            if not chosen:
                continue
            strong = [s for s in chosen if s.score > 0 or _looks_like_name(text[s.start : s.end])]
            chosen = strong or chosen
            values = [text[s.start : s.end] for s in chosen]
            if self.specs[name].multiple and len(values) > 1:
                out[name] = list(dict.fromkeys(values))
            else:
                best_span = max(chosen, key=lambda s: (s.score, s.end - s.start))
                out[name] = text[best_span.start : best_span.end]
        return out


def _looks_like_name(span: str) -> bool:
    """Capitalised or containing a digit: "Apple", "PETR4", "itaú Unibanco"."""
    return any(ch.isupper() or ch.isdigit() for ch in span)


def normalised_in(value: str, text: str) -> bool:
    """Whether ``value`` occurs in ``text`` ignoring accents/case (used to distrust LLM spans)."""
    v = " ".join(words(value))
    return bool(v) and f" {v} " in f" {' '.join(words(text))} "
