"""Entity extraction driven by a goal's ``entities_schema`` and its (annotated) examples.

* enum: the longest phrase among each value's synonyms (and the value itself) that occurs in the
  text, tolerant of accents, case and one typo in longer words ("altas e baixas" beats "altas").
* enum roles: two or more enum entities of one goal with the same ``values`` are *roles* of one
  type (``from_currency`` / ``to_currency``). Every mention of a value is found once, then given
  to the role whose cue words precede it: the words the annotated examples put before each role
  ("100 dólares" -> the number, "para reais" -> ``para``), plus built-in cues for roles named
  ``from_*``/``origin_*``/``source_*`` ("de", "from") and ``to_*``/``destination_*``/``target_*``
  ("para", "em", "por", "to", "into"). Mentions without a cue fill the remaining roles in the
  order the schema declares them.
* boolean: ``True`` when one of ``synonyms["true"]`` occurs.
* string: spans of the person's own words, cut exactly from the original text. Words that the
  goal's examples use *around* entities (carrier words such as "preço", "cotação", "price"),
  function words, filler (greetings, politeness, time words, verbs of asking: ``intent.text``)
  and words already taken by enum/boolean entities are not entity words. A span must also
  *look like* the entity: the annotated values teach its shape (an entity whose values are all
  numbers takes only numbers, and a name entity never takes a bare number) and its vocabulary
  (known values split a list typed without commas: "petrobras vale itau"). A span is kept only
  with evidence: a known value, a learned context ("da X", "price of X", "in the X"), or a name's
  look (capitalised inside a sentence, all-caps, letters and digits as in "PETR4"); a required
  entity without a lookup table and with no such span takes its only candidate when a phrasing
  word is beside it; one with a table never guesses. ``multiple: true`` returns a list when
  several spans are named.

Nothing here knows any domain: everything comes from the manifest.
"""

from __future__ import annotations

import re
import statistics
from collections import Counter, defaultdict
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field, replace
from datetime import datetime
from functools import cached_property
from itertools import pairwise
from zoneinfo import ZoneInfo

from rapidfuzz import process
from rapidfuzz.distance import OSA

from intent.synonyms import ACTION_OF, actions_of
from intent.text import (
    FILLER_EN,
    FILLER_PT,
    INDEFINITES,
    MIN_VERB_STEM,
    SHORTHANDS,
    STOP_EN,
    STOP_PT,
    Token,
    expand_shorthands,
    is_gerund,
    price_judged,
    price_per_one,
    price_verbs,
    tokens,
    verb_stem,
)
from intent.typed import PARTY_ENDS, RECOGNIZER, Clock, TypedSpan, measures, names_a_currency
from shared.clock import utcnow
from shared.entities import Entities, EntityValue, TypedValue
from shared.i18n import detect, normalise, vote
from shared.i18n.languages import LANGUAGES
from shared.manifest import TYPED_ENTITY_TYPES, EntitySpec, Goal, GoalExample

STOP = STOP_PT | STOP_EN
#: a word this short with a letter left out is too often another word
MIN_DROPPED_LETTERS = 4
#: a bare number this large is a code or a document's digits, never an amount left unsaid
MAX_BARE_AMOUNT = 10_000_000
#: a word written with and without in one entry out of this many of a table is the table's kind
KIND_SHARE = 3
FILLER = FILLER_PT | FILLER_EN
#: Words that are never (part of) an entity value: function words and filler.
NOT_ENTITY = STOP | FILLER
#: Articles: what follows a verb that is also a name ("quanto vale *a* Petrobras").
ARTICLES = frozenset({"o", "a", "os", "as", "um", "uma"})
#: Words that separate several named values ("Apple, Microsoft e Nvidia").
LIST_SEPARATORS = frozenset({"e", "and", "ou", "or", "nem"})
#: Function words allowed inside a capitalised name ("Banco do Brasil", "Bank of America").
NAME_JOINERS = frozenset({"do", "da", "de", "dos", "das", "of", "the", "del", "la", "y"})
_BREAK = re.compile(r"[,;:?!()\[\]\"]")
_SENTENCE_END = re.compile(r"[.!?]")
#: Cue words of roles named by convention (``from_currency``, ``to_city``...), by name prefix.
FROM_CUES = frozenset({"de", "do", "da", "dos", "das", "from"})
TO_CUES = frozenset({"para", "pra", "pro", "em", "por", "to", "into", "in"})
ROLE_CUES: dict[str, frozenset[str]] = {
    "from_": FROM_CUES,
    "origin_": FROM_CUES,
    "source_": FROM_CUES,
    "to_": TO_CUES,
    "destination_": TO_CUES,
    "target_": TO_CUES,
}
#: Verbs that say a place's role in a trip, by a word of the entity's name: "me *busca* no
#: aeroporto", "*pick* me *up* at the airport", "*drop* me home". Examples rarely write them; the
#: words between the verb and the place (a pronoun, a preposition) are looked through.
VERB_CUES: dict[str, frozenset[str]] = {
    "pickup": frozenset({"pega", "pegar", "busca", "buscar", "apanha", "up", "collect"}),
    "dropoff": frozenset({"leva", "levar", "deixa", "deixar", "larga", "drop", "take"}),
}
_THROUGH = frozenset({"me", "no", "na", "em", "nos", "at", "in", "on", "the", "o", "a", "off"})
#: The kinds of span that say when.
_DAY_TYPES = frozenset({"date", "time", "datetime"})
#: A day said only as "soon" ("asap"), which the recogniser reads as today.
_SOON = frozenset({"asap", "as soon as possible", "o quanto antes", "quanto antes"})
#: A count of hours written alone ("2h", "3 hrs"), without minutes or a half of the day.
_BARE_HOURS = re.compile(r"(\d{1,2})\s*(?:h|hs|hr|hrs)", re.IGNORECASE)
#: Words that make the hours after them a clock time ("às 2h", "at 2h").
_CLOCK_LEADS = frozenset({"as", "às", "at", "pelas", "@", "das", "from"})


def _after_a_clock_lead(text: str, span: TypedSpan) -> bool:
    """Whether the word before ``span`` makes it a clock time ("*às* 2h", "*at* 2 hours")."""
    before = text[: span.start].split()
    return bool(before) and before[-1].lower() in _CLOCK_LEADS


def _as_hours(text: str, span: TypedSpan) -> TypedSpan | None:
    """A time written as a bare count of hours ("2h") and not after a clock's preposition, as
    that many hours; ``None`` for anything else."""
    if span.type != "time":
        return None
    match = _BARE_HOURS.fullmatch(text[span.start : span.end].strip())
    if match is None or _after_a_clock_lead(text, span):
        return None
    return replace(span, type="duration", value=f"PT{int(match.group(1))}H", lasting=None)


#: A length of time in hours that the recogniser reads as a clock ("1 hora e meia" is 01:30).
_HOURS_LONG = re.compile(
    r"(?:\d{1,2}|uma?|duas|dois|tr[eê]s|an?|one|two|three)\s+(?:horas?|hours?)"
    r"(?:\s+(?:e\s+meia|and\s+a\s+half))?",
    re.IGNORECASE,
)


def _hours_long(text: str, span: TypedSpan) -> TypedSpan | None:
    """A time written as a count of hours, and a half ("1 hora e meia", "two hours"), not after a
    clock's preposition, as that long; ``None`` for anything else."""
    if span.type != "time" or not isinstance(span.value, str):
        return None
    if not _HOURS_LONG.fullmatch(text[span.start : span.end].strip()) or _after_a_clock_lead(text, span):
        return None
    hours, minutes = (int(part) for part in span.value.split(":")[:2])
    hours = hours % 12 or 12
    lasting = f"PT{hours}H" + (f"{minutes}M" if minutes else "")
    return replace(span, type="duration", value=lasting, lasting=None)


#: What a number is as a context word: "100 dólares" and "1200 yen" teach the same thing.
NUMBER = "<number>"
#: Annotated values this long on average (in words) make an entity free text.
FREE_TEXT_WORDS = 3
#: A built-in cue counts less than a context the domain's own examples taught.
DEFAULT_CUE_WEIGHT = 0.5


def words(text: str) -> list[str]:
    """The words of ``text`` as a message's tokens are: a value, a table's name and an example are
    read like the messages they are looked for in ("Pós 50GB" is "pos", "50", "gb")."""
    return [t.text for t in tokens(text)]


#: Words this long allow two typing slips instead of one.
LONG_WORD = 9


def fuzzy_equal(a: str, b: str) -> bool:
    """Equal, or one edit apart for words of 5+ letters (two for 9+): typos, not other words.
    Two letters swapped count as one edit ("keybaord"), the commonest slip of fast typing."""
    if a == b:
        return True
    shortest = min(len(a), len(b))
    if shortest < 5:
        return False
    budget = 2 if shortest >= LONG_WORD else 1
    return OSA.distance(a, b, score_cutoff=budget) <= budget


#: Vowels a finger slips between: neighbours on a keyboard's top row.
_VOWEL_SLIPS = frozenset({("u", "i"), ("i", "u"), ("i", "o"), ("o", "i")})


def _another_vowel(a: str, b: str) -> bool:
    """Whether ``a`` and ``b`` differ in one vowel of their root that no slip of a finger gives:
    most often two words ("chuveiro" is no "chaveiro"), not a typo of one. A vowel of the ending
    is the same word's other form ("pintar" of "pintor")."""
    if len(a) != len(b):
        return False
    differ = [(k, x, y) for k, (x, y) in enumerate(zip(a, b, strict=True)) if x != y]
    if len(differ) != 1:
        return False
    k, x, y = differ[0]
    return k < len(a) - 2 and x in "aeiou" and y in "aeiou" and (x, y) not in _VOWEL_SLIPS


def stem(word: str) -> str:
    """``word`` without a plural's ending, the same for both languages' regular plurals:
    "garrafas" / "garrafa", "thermoses" / "thermos", "mouses" / "mouse" meet at one form."""
    out = word
    while len(out) > 4 and out[-1] in "se":
        out = out[:-1]
    return out


#: Portuguese plurals of words ending in "-ão" (accents folded): "cotações", "pães", "mãos".
_PLURAL_OF_AO = ("oes", "aes", "aos")


def stems(word: str) -> tuple[str, ...]:
    """The forms a plural ``word`` meets its singular at: its :func:`stem`, and for a Portuguese
    plural in "-ões"/"-ães"/"-ãos" its singular in "-ão" ("cotacoes" / "cotacao"; an English
    "shoes" keeps meeting "shoe" by its stem)."""
    if len(word) >= 4 and word.endswith(_PLURAL_OF_AO):
        return (stem(word), word[:-3] + "ao")
    return (stem(word),)


def with_a_letter_dropped(learnt: Iterable[str]) -> dict[str, str]:
    """Each learnt word, by how it is written with one of its inner letters left out where
    fingers skip one: a letter of a double ("poter", "aple") or a vowel ("renw"). The first and
    the last are kept; a word two learnt words shorten to is neither's."""
    found: dict[str, set[str]] = defaultdict(set)
    for word in learnt:
        if len(word) <= MIN_DROPPED_LETTERS or word in NOT_ENTITY:
            continue
        for i in range(1, len(word) - 1):
            if word[i] in _VOWELS or word[i] in (word[i - 1], word[i + 1]):
                found[word[:i] + word[i + 1 :]].add(word)
    return {written: next(iter(meant)) for written, meant in found.items() if len(meant) == 1}


_VOWELS = frozenset("aeiou")


class FuzzyVocabulary:
    """Words looked up with ``fuzzy_equal``'s tolerance: one rapidfuzz call compares a word with
    every long word of the vocabulary (at most two edits), instead of a Python loop of
    ``fuzzy_equal`` calls; ``fuzzy_equal`` then applies its own budget to the few found."""

    def __init__(self, vocabulary: Iterable[str]):
        self.words = frozenset(vocabulary)
        #: shorter words match exactly or not at all
        self._long = sorted(w for w in self.words if len(w) >= 5)
        #: a plural of a word is the word ("cotações" of "cotação"), and the singular of a
        #: plural is too ("sessão" of the examples' "sessões")
        self._by_stem: dict[str, list[str]] = {}
        for w in self.words:
            for form in stems(w):
                self._by_stem.setdefault(form, []).append(w)

    @cached_property
    def dropped(self) -> dict[str, str]:
        """The long words by how they are written with a letter left out ("renw" of "renew"):
        made on first use, as only the goals' phrasing and the classifier's words look them up."""
        return with_a_letter_dropped(self._long)

    def matches(self, word: str) -> list[str]:
        """Every word of the vocabulary ``fuzzy_equal`` to ``word``; a function word is no typo of
        another word ("*minha* matrícula" says no "manhã")."""
        found = [word] if word in self.words else []
        if len(word) >= 5 and self._long and word not in STOP:
            near = process.extract(word, self._long, scorer=OSA.distance, score_cutoff=2, limit=None)
            found += [w for w, _, _ in near if w != word and fuzzy_equal(word, w)]
        return found

    def __contains__(self, word: object) -> bool:
        return isinstance(word, str) and bool(self.matches(word))

    def knows(self, word: str) -> bool:
        """Whether ``word`` is a word of the vocabulary (typos allowed) or a plural of one
        ("cotacoes" of "cotacao", "dias" of "dia")."""
        return word in self or any(form in self._by_stem for form in stems(word)) or word in self.dropped


class KnownValues:
    """Values of one or more words, each looked up as written, in the plural or with a typo in a
    word ("sushi kenso", "petrobrass"): the matching every known value of an extractor gets."""

    def __init__(self, values: Iterable[tuple[str, ...]]):
        self.values = frozenset(v for v in values if v)
        #: the most words a value has
        self.longest = max(map(len, self.values), default=0)
        #: one-word values, looked up with a typo's tolerance
        self._words = FuzzyVocabulary(v[0] for v in self.values if len(v) == 1)
        #: values by their words' stems: a plural of a value is the value ("t-shirts")
        self._stems = {tuple(map(stem, v)) for v in self.values}
        #: values of several words by first word, looked up with a typo's tolerance
        self._long: dict[str, list[tuple[str, ...]]] = defaultdict(list)
        for value in self.values:
            if len(value) >= 2:
                self._long[value[0]].append(value)
        self._firsts = FuzzyVocabulary(self._long)

    def __contains__(self, phrase: object) -> bool:
        if not isinstance(phrase, tuple) or not phrase:
            return False
        return (
            phrase in self.values
            or (len(phrase) == 1 and phrase[0] in self._words)
            or tuple(map(stem, phrase)) in self._stems
            or (len(phrase) >= 2 and self._with_typos(phrase))
        )

    def _with_typos(self, phrase: tuple[str, ...]) -> bool:
        """A value of several words, each said as written or with a typo."""
        return any(
            len(value) == len(phrase) and all(fuzzy_equal(a, b) for a, b in zip(value, phrase, strict=True))
            for first in self._firsts.matches(phrase[0])
            for value in self._long[first]
        )


#: Chat shorthands of one word, written out ("qto" -> "quanto"): a phrase says them either way.
_WRITTEN_OUT = {short: said[0] for short, long in SHORTHANDS.items() if len(said := words(long)) == 1}


def _said_as(phrase_word: str, word: str) -> bool:
    """Whether ``word`` says ``phrase_word``: as written, with a typo, or as a chat shorthand of it
    ("*qto* custa" says "quanto custa"). A phrase's words are a language's, where another vowel
    most often makes another word ("chuveiro" is no "chaveiro"); a name's misspelling by its sound
    ("jane austin") is looked up elsewhere."""
    if _WRITTEN_OUT.get(word) == phrase_word:
        return True
    return fuzzy_equal(phrase_word, word) and (
        len(word) >= LONG_WORD or not _another_vowel(phrase_word, word)
    )


def find_phrase(
    phrase: list[str], toks: list[Token], used: list[bool], starts: Sequence[int] | None = None
) -> list[tuple[int, int]]:
    """Every (start, end) token range of ``toks`` matching ``phrase`` and not already used.

    ``starts``: the positions (ascending) whose token is known to match ``phrase[0]`` (from a
    ``FuzzyVocabulary`` of first words, looked up once per message); every position when None.
    """
    if not phrase:
        return []
    n = len(phrase)
    first = phrase[0]
    hits = []
    for i in range(len(toks) - n + 1) if starts is None else starts:
        if i > len(toks) - n:
            break
        # the first word rules out almost every position: test it before building anything
        if starts is None and not _said_as(first, toks[i].text):
            continue
        if any(used[i : i + n]):
            continue
        if all(_said_as(phrase[k], toks[i + k].text) for k in range(1, n)):
            hits.append((i, i + n))
    return hits


#: Words that open the object of a verb: "compre *100* ações", "venda *minhas* ações", "buy *the*".
_OBJECT_STARTERS = """
    o a os as um uma uns umas meu minha meus minhas seu sua seus suas esse essa esses essas
    the an my our your some all this that these those
"""
OBJECT_STARTERS = frozenset(_OBJECT_STARTERS.split())
#: Words that say what follows is no object of the verb before them: "headshots *for* my team".
_NO_OBJECT_AFTER = frozenset({"for", "to", "with", "pra", "para", "pro", "com"})


def verbal_gerunds(text: str) -> set[str]:
    """The gerunds of ``text`` used as verbs: not after an article or a possessive, which makes
    a noun of one ("what's *playing*", not "a *meeting*")."""
    toks = tokens(text)
    return {
        tok.text
        for i, tok in enumerate(toks)
        if is_gerund(tok.text) and (i == 0 or toks[i - 1].text not in OBJECT_STARTERS)
    }


#: Portuguese contractions of "para" with an article: one cue with it ("pro João" as "pra Ana").
_PARA = {"pra": "para", "pro": "para", "pras": "para", "pros": "para"}


def context_word(word: str) -> str:
    """A word as a context: numbers are all one context, and "pra", "pro" are "para"."""
    return NUMBER if word.isdigit() else _PARA.get(word, word)


def content_words(text: str) -> list[str]:
    """The words of ``text`` that could name something (no function words, no filler).

    >>> content_words("e ontem?"), content_words("e a Vale?")
    ([], ['vale'])
    """
    return [w for w in words(text) if w not in NOT_ENTITY]


@dataclass
class _StringContext:
    left: Counter[str] = field(default_factory=Counter)
    right: Counter[str] = field(default_factory=Counter)
    #: every annotated value is a number ("250"): only numbers are this entity
    numeric: bool = False
    #: ...and long ones ("48213", a barcode): identifiers, written without separators
    code: bool = False
    #: every annotated value is one word with digits in it ("BK4821"): a word without any is
    #: no value of it ("cancel my *gym membership*")
    coded: bool = False
    #: every annotated value is letters then digits ("CN4821"): the fewest and the most letters,
    #: so that the code written with a space or a dash ("cn 4821", "CN-4821") is known
    lettered: tuple[int, int] | None = None
    #: ...and the letters they start with ("cn" of "CN4821"): a code that starts the same is one
    prefixes: frozenset[str] = frozenset()
    #: the shapes of what follows those letters ("9999", or a plate's "9a99")
    tails: frozenset[str] = frozenset()
    #: the annotated values are phrases of several words (a message, an idea): the entity is
    #: the rest of the message after its cue ("saying …", "dizendo …", "…: <text>")
    free: bool = False
    #: some annotated values write a number among their words (an address: "Rua Augusta 1200")
    numbered: bool = False
    #: every annotated value writes one: a value without a number is none of this entity's
    addresses: bool = False
    #: each side's words looked up with a typo's tolerance, made again when a word was added
    _near: dict[str, FuzzyVocabulary] = field(default_factory=dict, repr=False)

    def count_left(self, word: str) -> int:
        """How many times the examples put ``word`` before the entity (:func:`_count`)."""
        return _count(self.left, self._vocabulary("left", self.left), word)

    def count_right(self, word: str) -> int:
        """How many times the examples put ``word`` after the entity (:func:`_count`)."""
        return _count(self.right, self._vocabulary("right", self.right), word)

    def _vocabulary(self, side: str, seen: Counter[str]) -> FuzzyVocabulary:
        near = self._near.get(side)
        if near is None or len(near.words) != len(seen):
            near = self._near[side] = FuzzyVocabulary(seen)
        return near


@dataclass
class _Span:
    first: int
    last: int  # inclusive token index
    start: int
    end: int
    score: float = 0.0
    #: the span is one of the values the examples annotate (or a number, for a number entity)
    known: bool = False
    #: kept only as a required entity's one candidate, with no evidence of its own
    guessed: bool = False


#: what closes a request's own words before free text: a colon, a comma, a dash
_FREE_TEXT_MARK = re.compile(r"[:,]|\s[-–—]\s")
_COLON = re.compile(":")
#: words that lead into free text in either language, after the request's own words
FREE_TEXT_LEADS = frozenset(
    {
        *("sobre", "about", "dizendo", "saying", "porque", "because", "regarding", "re", "avisando"),
        *("falando", "whether", "se"),
    }
)
#: An example's lead-in before a value that runs to its end is at most this many words.
_LEAD_WORDS = 4
#: Words of a person's own need: after "acho que" they hedge a request ("acho que vou precisar de
#: um encanador"), not state an idea.
_OWN_NEED = frozenset(
    {"eu", "vou", "preciso", "quero", "gostaria", "i", "i'll", "im", "need", "want", "wanna", "gonna"}
)
_THAT = frozenset({"que", "that"})
#: an entity annotated only with numbers of at least this many digits names things by codes
CODE_DIGITS = 5
#: a code of letters then digits, as ``words`` gives it ("cn4821")
_LETTERED = re.compile(r"([a-z]+)(\d[a-z\d]*)")
#: what may stand between a code's letters and its digits: a space or a dash
_CODE_GAP = re.compile(r"\s|\s?[-–]\s?")
#: digits going on after a separator ("10:30", "48,21"): a time or an amount, no code's digits
_MORE_DIGITS = re.compile(r"[.,:]\d")
#: a code's digits, when written apart from its letters, are at least this many
CODE_PART_DIGITS = 2
#: digits with a decimal or thousands separator inside or right after them
_DECIMAL = re.compile(r"\d[.,]\d")
#: the articles a recogniser reads as the number one
_ARTICLE_ONE = frozenset({"um", "uma", "a", "an"})


def _forms_of(noun: str) -> set[str]:
    """A noun in the singular and the plural: "mês" and "meses", "month" and "months"."""
    return {noun, noun.rstrip("s"), noun + "s", noun.removesuffix("es"), noun + "es"}


#: Units of time in each language: a count the examples say in "anos" is said in "years" too.
_TIME_UNITS = (("ano", "year"), ("mes", "month"), ("semana", "week"), ("dia", "day"), ("hora", "hour"))


def _unit_forms(unit: str) -> set[str]:
    """``unit`` in the singular and the plural, and, for a unit of time, in the other language."""
    forms = _forms_of(unit)
    for pair in _TIME_UNITS:
        if any(forms & _forms_of(word) for word in pair):
            forms |= {form for word in pair for form in _forms_of(word)}
    return forms


def _counts_a_thing(toks: list[Token], span: TypedSpan) -> bool:
    """Whether the word right after a number is a thing it counts ("3 *people*", "20
    *croissants*"), which an amount whose currency is unsaid is not ("paga 49,90 *de* luz")."""
    inside = _tokens_of(toks, span)
    if inside and toks[inside[-1]].text in PARTY_ENDS:
        return True  # "3 of us": the people asking
    after = _word_after(toks, span)
    return after is not None and after.isalpha() and after not in NOT_ENTITY


def _word_after(toks: list[Token], span: TypedSpan) -> str | None:
    """The word right after ``span``, normalised; ``None`` at the end of the message."""
    inside = _tokens_of(toks, span)
    after = inside[-1] + 1 if inside else len(toks)
    return toks[after].text if after < len(toks) else None


def _tokens_of(toks: list[Token], span: TypedSpan) -> list[int]:
    """The indexes of the tokens ``span`` covers, in order."""
    return [i for i, t in enumerate(toks) if t.start < span.end and t.end > span.start]


def _score_in(
    context: _StringContext, toks: list[Token], span: TypedSpan, beside: Sequence[TypedSpan] = ()
) -> float:
    """How many times the examples put the words beside ``span`` around the entity. A word of
    another value read ``beside`` it is none: in "de 20 a 30 de abril, *9* dias" the count
    follows the last day, and says nothing of which day starts the leave."""

    def of_another(tok: Token) -> bool:
        return any(o is not span and o.start < tok.end and tok.start < o.end for o in beside)

    inside = _tokens_of(toks, span)
    if not inside:
        return 0.0
    first, last = inside[0], inside[-1]
    left = context_word(toks[first - 1].text) if first > 0 and not of_another(toks[first - 1]) else ""
    after = last + 1
    right = context_word(toks[after].text) if after < len(toks) and not of_another(toks[after]) else ""
    return float(context.count_left(left) + context.count_right(right))


#: An ISO 8601 duration of one unit: "P3D", "PT2H", "P0.5D".
_ONE_UNIT = re.compile(r"PT?(\d+(?:\.\d+)?)[YMWDHS]")


def _score_right(context: _StringContext, toks: list[Token], span: TypedSpan) -> float:
    """How many times the examples put the word after ``span`` after the entity."""
    last = max(_tokens_of(toks, span), default=None)
    if last is None or last + 1 >= len(toks):
        return 0.0
    return float(context.count_right(context_word(toks[last + 1].text)))


def _count(seen: Counter[str], near: FuzzyVocabulary, word: str) -> int:
    """How many times the examples put ``word`` there, a typo of a long word being the word
    ("*tranfere* 40" beside "transfere 200"); ``near``: the words of ``seen``."""
    return seen[word] or sum(seen[w] for w in near.matches(word))


def _said_as_amount(number: TypedSpan, context_score: float) -> bool:
    """Whether a ``number`` span reads as an amount whose currency was left unsaid: it has
    decimals ("49,90"), or it sits between the words the examples put around the amount
    (``context_score``)."""
    return isinstance(number.value, float) or context_score > 0


def _phrases(spec: EntitySpec, value: str) -> list[list[str]]:
    raw = [value.replace("_", " "), *spec.synonyms.get(value, [])]
    out = [words(p) for p in raw]
    return [p for p in out if p]


def _default_cues(name: str) -> frozenset[str]:
    return next((cues for prefix, cues in ROLE_CUES.items() if name.startswith(prefix)), frozenset())


def _verb_cues(name: str) -> frozenset[str]:
    """The verbs of the role a word of ``name`` says ("pickup_text", "dropoff_place")."""
    parts = {*name.split("_"), name.replace("_", "")}
    roles = [cues for key, cues in VERB_CUES.items() if any(part.startswith(key) for part in parts)]
    return frozenset().union(*roles)


#: English writes these with a capital, as it writes names.
_CAPITALISED_DAYS = frozenset(
    [
        "monday",
        "tuesday",
        "wednesday",
        "thursday",
        "friday",
        "saturday",
        "sunday",
        "january",
        "february",
        "march",
        "april",
        "may",
        "june",
        "july",
        "august",
        "september",
        "october",
        "november",
        "december",
    ]
)


def _a_name_for_a_day(text: str, toks: list[Token], i: int) -> bool:
    """Whether token ``i``, read alone as a day, is written as a name: "previsão de *Natal*" is the
    city, not Christmas; English weekdays and months are capitalised as a rule, and stay days."""
    return capitalised_inside(text, toks, i) and toks[i].text not in _CAPITALISED_DAYS


#: A time that starts with a count and goes on in words ("2 half", "3 meia").
_COUNT_THEN_WORDS = re.compile(r"(\d+)\s+[^\W\d]")


#: A count written with its unit as one word ("6cm", "2kg").
_GLUED_COUNT = re.compile(r"(?<![\w.,])(\d+)([^\W\d_]+)\b")


def _glued_counts(text: str, spans: Sequence[TypedSpan], units: frozenset[str]) -> list[TypedSpan]:
    """The counts written glued to a unit among ``units`` that no span of ``spans`` reads."""
    return [
        TypedSpan("number", int(m.group(1)), m.start(1), m.end(1))
        for m in _GLUED_COUNT.finditer(text)
        if m.group(2).lower() in units and not any(s.start < m.end() and m.start() < s.end for s in spans)
    ]


#: Words that name the code said right after them ("código BL3105", "ref 4471"), accent-free.
_CODE_NAMES = frozenset(
    {"codigo", "cod", "code", "numero", "number", "num", "nr", "ref", "referencia", "reference"}
)
#: The word right after a number, glued, hyphened or spaced ("20L", "20-litre", "20 litros").
_UNIT_AFTER = re.compile(r"(?:-|\s*)([^\W\d_]+)\b")
#: "half" right after a count: a half-price ticket's, since half past is said "half 3", "3 e meia".
_HALF_AFTER = re.compile(r"\s+(half|meia)\b", re.IGNORECASE)


def _count_of_a_time(text: str, span: TypedSpan) -> TypedSpan | None:
    """The count a ``time`` span starts with, when words follow it ("2 half" of "2 half price
    tickets"); ``None`` for another span or a time written as one ("14h", "2:30", "2pm")."""
    if span.type != "time":
        return None
    written = _COUNT_THEN_WORDS.match(text, span.start, span.end)
    if written is None:
        return None
    return TypedSpan("number", int(written.group(1)), span.start, span.start + len(written.group(1)))


#: The words of a period longer than a day ("semana que vem", "this week", "next month").
_PERIOD_WORD = re.compile(r"\b(?:semana|week|m[eê]s|month|ano|year)\b", re.IGNORECASE)


def _names_a_period(text: str, span: TypedSpan) -> bool:
    """Whether ``span`` is a day that stands for a week, a month or a year (its first day ahead)."""
    return span.type == "date" and _PERIOD_WORD.search(text, span.start, span.end) is not None


#: The words that say a count is rough ("about 12", "umas 10").
_HEDGE = r"(?:about|around|roughly|approximately|uns|umas|cerca\s+de)"
#: A bare number after a hedge, which the recogniser reads as an hour ("about 12" is noon).
_ROUGH_COUNT = re.compile(_HEDGE + r"\s+(\d+)", re.IGNORECASE)


def _rough_count(text: str, span: TypedSpan) -> TypedSpan | None:
    """The number of a ``time`` span that is a hedge and a bare number ("about 12 pages long"),
    for a goal that reads no time; ``None`` otherwise."""
    if span.type != "time":
        return None
    written = _ROUGH_COUNT.fullmatch(text, span.start, span.end)
    if written is None:
        return None
    return TypedSpan("number", int(written.group(1)), written.start(1), written.end(1))


def _verb_before(toks: list[Token], first: int) -> str:
    """The word before token ``first`` past a pronoun or a preposition ("busca *no*", "drop *me*")."""
    for i in range(first - 1, max(-1, first - 4), -1):
        if toks[i].text not in _THROUGH:
            return toks[i].text
    return ""


@dataclass(frozen=True)
class OpeningAction:
    """A verb a request opens with that its goal does not do (:meth:`GoalEntityExtractor.opening_action`)."""

    verb: str
    #: A count follows the verb and is none of the goal's values: an action on an amount of
    #: something ("compra 50 ações"), which the goal does not do in any part.
    on_amount: bool


class GoalEntityExtractor:
    """Built once per goal at ``update_catalog``; ``extract(text)`` per message."""

    def __init__(self, goal: Goal, extra_carrier: list[str] | None = None, related: Sequence[Goal] = ()):
        """``related``: the other goals of the goal's domain, whose annotated values of an entity
        of the same name also teach its form (a time annotated in booking teaches cancelling)."""
        self.goal = goal
        self.specs = goal.entities_schema
        self._enum: dict[str, list[tuple[str, list[str]]]] = {}
        self._bool: dict[str, list[list[str]]] = {}
        self._strings: list[str] = []
        #: typed entities (date, time, number, money...): recognised by their form, never guessed
        self._typed: list[str] = []
        self._sort_entities()
        #: the required amount of a goal that reads no other number, count or span of time
        numeric = [n for n in self._typed if self.specs[n].type in {"number", "money", "duration"}]
        self._sole_amount = (
            numeric[0]
            if len(numeric) == 1
            and self.specs[numeric[0]].type == "money"
            and self.specs[numeric[0]].required
            else None
        )
        #: enum entities sharing their values are roles of one type, extracted together
        by_values: dict[tuple[str, ...], list[str]] = {}
        for name in self._enum:
            by_values.setdefault(tuple(sorted(self.specs[name].values or [])), []).append(name)
        self.role_groups: list[list[str]] = [names for names in by_values.values() if len(names) > 1]
        self._role_left: dict[str, Counter[str]] = {n: Counter() for g in self.role_groups for n in g}
        self._verb_cues: dict[str, frozenset[str]] = {n: _verb_cues(n) for n in self.specs}
        self._contexts = {name: _StringContext() for name in self._strings}
        #: the words an example opens with before a value that runs to its end ("acho que",
        #: "I think"): what a message opening the same way goes on to say is that value
        self._leads: dict[str, set[tuple[str, ...]]] = {name: set() for name in self._strings}
        #: the words the examples put around (and inside) a typed entity's annotation: which of
        #: two numbers is the party's size ("uma mesa ... para quatro pessoas")
        self._typed_contexts = {name: _StringContext() for name in self._typed}
        #: the words the examples annotate with a typed value ("2 *pessoas*", "às 20h"): part of it
        self._annotated_words: dict[str, set[str]] = {name: set() for name in self._typed}
        #: annotated values of the string entities, normalised: their vocabulary
        self._known: set[tuple[str, ...]] = set()
        self._carrier: set[str] = set()
        #: joiners seen inside annotated spans ("bolo de cenoura"): allowed in lower-case names too
        self._joiners: set[str] = set()
        #: the words an address's annotated values open with ("rua", "av"): a joiner after one
        #: is inside the name ("rua *da* consolação 230")
        self._address_heads: set[str] = set()
        #: table values written with a colon inside ("Duna: Parte Dois"): a colon ends a name,
        #: but not one of these
        self._colon_known: set[tuple[str, ...]] = set()
        #: one-word names of the tables that fold to a function word, as written ("Sé", not "se")
        self._accented_names: set[str] = set()
        entity_words = self._learn_examples(goal)
        #: string entities whose annotated values are dates, times, amounts...: they take the words
        #: of a span of that form ("amanhã", "R$ 30"), as written, and nothing else
        self._typed_text: dict[str, str] = {
            name: form
            for name in self._strings
            if (form := _form_of([v for g in (goal, *related) for v in _annotated(g, name)])) is not None
            and not self.specs[name].lookup
        }
        #: an article is annotated as a count ("quero comprar *uma* cafeteira"): one, in either
        #: language, though English Duckling reads no "a" as a number
        self._counts_articles = any(
            words(value) and set(words(value)) <= _ARTICLE_ONE
            for name in self.specs
            if name in self._typed_text or self.specs[name].type == "number"
            for g in (goal, *related)
            for value in _annotated(g, name)
        )
        #: each string entity's own lookup table: a name only one of them lists fills that one
        self._tables: dict[str, KnownValues] = {}
        #: entity -> a name or alias of its table, as words -> the entry's value (the first
        #: entry that writes it)
        self._entries: dict[str, dict[tuple[str, ...], str]] = defaultdict(dict)
        #: the words several entries of an entity's table are named with ("card" of "black card"
        #: and "debit card"): said alone, they name none of them
        self._shared_words: dict[str, frozenset[str]] = {}
        #: the words an entry is written with and without ("black" and "black card", "visa" and
        #: "cartão visa"): a kind the table's names add, not part of a name the table lacks
        self._kind_words: dict[str, frozenset[str]] = {}
        #: of those, the ones left out of a name at its start and at its end
        self._kind_edges: dict[str, tuple[frozenset[str], frozenset[str]]] = {}
        self._learn_lookups()
        self._known_values = KnownValues(self._known)
        #: the words other goals of the domain are phrased with ("block" of a card's block): as
        #: written, no typo of a value of this goal's ("black")
        self._kin_phrasing = frozenset(w for g in related for w in _phrasing_of(g)) - NOT_ENTITY
        phrased = set(self._carrier)
        for phrase in extra_carrier or []:
            self._carrier.update(words(phrase))
        # a value of one word that only the description or keywords say ("Book a *desk* or a
        # room", a table's alias): a value, not how the goal is asked for
        self._carrier -= {w for w in self._carrier - phrased if (w,) in self._known}
        self._carrier -= entity_words
        self._carrier -= STOP
        #: known values of several words that ordinary spans would cut, a word of theirs being a
        #: function word, filler, an indefinite word, phrasing, a gerund (read as a verb at the
        #: start of a message) or a number ("São Paulo", "banco do brasil", "bolsa brasileira",
        #: "all star", "moving van", "Gladiador 2"), or a colon inside ("Duna: Parte Dois"), by
        #: first word
        self._known_phrases: dict[str, list[tuple[str, ...]]] = defaultdict(list)
        for known in sorted(self._known, key=len, reverse=True):
            if len(known) >= 2 and (
                any(
                    w in NOT_ENTITY or w in INDEFINITES or w in self._carrier or w.isdigit() or is_gerund(w)
                    for w in known
                )
                or known in self._colon_known
            ):
                self._known_phrases[known[0]].append(known)
        # what ``extract`` looks up in every message, worked out once
        self._carrier_words = FuzzyVocabulary(self._carrier)
        #: the stems of the phrasing's verbs: another form of one is the same verb ("lista" of
        #: "listar", "renewing" of "renew")
        #: the actions the goal's phrasing verbs ask for (:mod:`intent.synonyms`): "tira" cancels
        #: like the "cancela" of its examples
        self._carrier_actions = frozenset(ACTION_OF[w] for w in self._carrier if w in ACTION_OF)
        self._carrier_stems = frozenset(
            verb_stem(w) for w in self._carrier if w not in NOT_ENTITY and len(w) >= MIN_VERB_STEM
        )
        self._role_pairs = [
            sorted({(v, tuple(p)) for name in group for v, p in self._enum[name]}, key=lambda vp: -len(vp[1]))
            for group in self.role_groups
        ]
        self._grouped = {name for group in self.role_groups for name in group}
        enum_phrases = [p for pairs in self._enum.values() for _, p in pairs]
        bool_phrases = [p for phrases in self._bool.values() for p in phrases]
        self._first_words = FuzzyVocabulary(p[0] for p in enum_phrases + bool_phrases)
        #: one-word phrases by the stem their verb forms share: "roubaram" says "roubo", "flooded"
        #: "flood"
        self._phrase_stems: dict[str, list[str]] = defaultdict(list)
        for phrase in {p[0] for p in enum_phrases + bool_phrases if len(p) == 1}:
            self._phrase_stems[verb_stem(phrase)].append(phrase)
        self._enum_and_bool_words = frozenset(w for p in enum_phrases + bool_phrases for w in p)
        self._enum_and_bool_phrases = frozenset(tuple(p) for p in enum_phrases + bool_phrases)
        #: the stems of the phrasing's own verbs, which no value's verb form may be
        self._phrasing_verbs = frozenset(
            verb_stem(w) for w in self._carrier if w not in self._enum_and_bool_words
        )

    @property
    def _numbered(self) -> bool:
        """Whether a string entity's annotated values write a number inside their words ("Rua
        Augusta 1200", "200 Oak Street"): a number beside such a value is part of it."""
        return any(self._contexts[name].numbered for name in self._strings)

    @cached_property
    def _addressed(self) -> bool:
        """Whether a string entity's annotated values are all addresses, each with its number."""
        return any(self._contexts[name].addresses for name in self._strings)

    def _a_house_number(self, toks: list[Token], inside: list[int]) -> bool:
        """Whether the digits at ``inside`` end a street's name that opens with a word of a
        street ("rua teodoro sampaio *800*") or open one that ends with such a word ("*350* Oak
        Street"), with nothing but words between."""
        # "from 12 Elm Street" is the 12th to the recogniser: its preposition is no part of a day
        if (
            not inside
            or not toks[inside[-1]].text.isdigit()
            or any(toks[i].text not in NOT_ENTITY for i in inside[:-1])
        ):
            return False
        at = inside[-1]
        heads = _STREET_HEADS | self._address_heads
        before = toks[max(0, at - _STREET_NAME_WORDS - 1) : at]
        for k in range(len(before) - 1, -1, -1):
            if not before[k].text.isalpha():
                break
            if before[k].text in heads and k < len(before) - 1:
                return True
        for tok in toks[at + 1 : at + _STREET_NAME_WORDS + 2]:
            if not tok.text.isalpha():
                return False
            if tok.text in _STREET_TAILS and tok is not toks[at + 1]:
                return True
        return False

    def _learn_lookups(self) -> None:
        """The domain's lookup tables: their names and aliases are known values; a word of the
        names of several entries is no name on its own."""
        for name in self._strings:
            table: set[tuple[str, ...]] = set()
            entries_of: dict[str, set[str]] = defaultdict(set)
            kinds: Counter[str] = Counter()
            for entry in self.specs[name].lookup or ():
                forms = {tuple(words(written)) for written in (entry.value, *entry.aliases)} - {()}
                kinds.update(
                    {
                        longer[0] if longer[1:] == shorter else longer[-1]
                        for longer in forms
                        for shorter in forms
                        if len(longer) == len(shorter) + 1 and shorter in (longer[1:], longer[:-1])
                    }
                )
                for written in (entry.value, *entry.aliases):
                    said = tuple(words(written))
                    if said:
                        table.add(said)
                        self._entries[name].setdefault(said, entry.value)
                    for word in said:
                        entries_of[word].add(entry.value)
                    if ":" in written.strip(" :"):
                        self._colon_known.add(said)
                    if len(said) == 1 and said[0] in STOP and written.strip().lower() != said[0]:
                        self._accented_names.add(written.strip().lower())
            if table:
                self._known |= table
                self._tables[name] = KnownValues(table)
                self._shared_words[name] = frozenset(
                    w for w, entries in entries_of.items() if len(entries) > 1 and (w,) not in table
                )
                # added to a good part of the names: one entry's "Gladiador 2", a few banks' "banco"
                # or courses' "digital" name a thing, not its kind
                entries = len(self.specs[name].lookup or ())
                self._kind_words[name] = frozenset(
                    w
                    for w, count in kinds.items()
                    if count > 1 and count * KIND_SHARE >= entries and w not in NOT_ENTITY and not w.isdigit()
                )
                # the table's own names written with the kind at one edge ("Garagem Paulista",
                # "Cartão virtual") keep it there: "garagem ibirapuera" is a garage's name too
                listed = self.specs[name].lookup or []
                canonical = [words(entry.value) for entry in listed]
                # a title the names abbreviate ("Prof. Ricardo Nunes", "Dr. Silva") is a courtesy,
                # not the name: "prof carla" names Carla
                titles = {
                    said[0]
                    for entry, said in zip(listed, canonical, strict=True)
                    if said and entry.value.split()[0].endswith(".")
                }
                self._kind_edges[name] = (
                    self._kind_words[name]
                    - {said[0] for said in canonical if said and said[0] not in titles},
                    self._kind_words[name] - {said[-1] for said in canonical if said},
                )

    def _sort_entities(self) -> None:
        """Each entity by kind: an enum's phrases, a boolean's, a typed or a string entity."""
        for name, spec in self.specs.items():
            if spec.type == "enum":
                pairs = [(v, p) for v in spec.values or [] for p in _phrases(spec, v)]
                # longest phrases first: "altas e baixas" (BOTH) before "altas" (GAINERS)
                self._enum[name] = sorted(pairs, key=lambda vp: -len(vp[1]))
            elif spec.type == "boolean":
                self._bool[name] = sorted(
                    (words(p) for p in spec.synonyms.get("true", [])), key=len, reverse=True
                )
            elif spec.type in TYPED_ENTITY_TYPES:
                self._typed.append(name)
            else:
                self._strings.append(name)

    def _learn_examples(self, goal: Goal) -> set[str]:
        """Learn the string entities' values and contexts and the goal's phrasing from its
        examples; the words inside annotated values (never phrasing)."""
        entity_words: set[str] = set()
        values_seen: dict[str, list[list[str]]] = {name: [] for name in self._strings}
        for example in goal.examples:
            if isinstance(example, GoalExample) and example.entities:
                entity_words |= self._learn(example, values_seen)
            else:
                text = example if isinstance(example, str) else example.text
                # lower-case words of plain examples are phrasing; capitalised ones may be names
                self._carrier.update(words(" ".join(w for w in text.split() if w == w.lower())))
        for name, values in values_seen.items():
            self._contexts[name].numeric = bool(values) and all(w.isdigit() for v in values for w in v)
            self._contexts[name].code = self._contexts[name].numeric and all(
                len(w) >= CODE_DIGITS for v in values for w in v
            )
            self._contexts[name].coded = bool(values) and all(
                len(v) == 1 and any(c.isdigit() for c in v[0]) for v in values
            )
            with_a_number = [_a_number_and_a_word(v) for v in values]
            self._contexts[name].numbered = any(with_a_number)
            # "Rua Augusta 1200", "200 Oak Street": a name with its number in every value is no
            # phrase that runs to the end of the message, whatever its length
            self._contexts[name].addresses = bool(values) and all(with_a_number)
            if self._contexts[name].addresses:
                self._address_heads.update(v[0] for v in values if len(v) > 1 and v[0].isalpha())
            self._contexts[name].free = (
                bool(values)
                and not self._contexts[name].addresses
                and statistics.mean(map(len, values)) >= FREE_TEXT_WORDS
            )
            shapes = [_LETTERED.fullmatch(v[0]) if len(v) == 1 else None for v in values]
            if values and all(shapes):
                letters = [len(m.group(1)) for m in shapes if m is not None]
                self._contexts[name].lettered = (min(letters), max(letters))
                self._contexts[name].prefixes = frozenset(m.group(1) for m in shapes if m is not None)
                self._contexts[name].tails = frozenset(_shape(m.group(2)) for m in shapes if m is not None)
            self._known.update(tuple(v) for v in values if v)
        return entity_words

    def _learn(self, example: GoalExample, values_seen: dict[str, list[list[str]]]) -> set[str]:
        """Record contexts of annotated spans; words outside them are carrier words."""
        toks = tokens(example.text)
        inside = [False] * len(toks)
        norm_text = [t.text for t in toks]
        for name, value in example.entities.items():
            if name in self._role_left:
                self._learn_role(name, str(value), toks)
                continue
            if name in self._typed:  # "amanhã", "14h": the value's words, not the goal's phrasing
                target = words(str(value))
                for i in range(len(toks) - len(target) + 1):
                    if target and norm_text[i : i + len(target)] == target:
                        inside[i : i + len(target)] = [True] * len(target)
                        context = self._typed_contexts[name]
                        j = i + len(target)
                        if i > 0:
                            context.left[context_word(norm_text[i - 1])] += 1
                        of_the_value = [_a_value_word(word, self.specs[name].type) for word in target]
                        # after a unit ("weigh 55 kg, can I…") the next word follows the unit, not
                        # the number: a bare "I'm 17, can I…" is no weight for it
                        if j < len(toks) and of_the_value[-1]:
                            context.right[context_word(norm_text[j])] += 1
                        # "2 pessoas", "às 20h": the annotation's own words beside the value, not
                        # the value's ("quatro noites" teaches "noites", not a "quatro" that a
                        # "quarto" would be one typo from)
                        for word, is_value in zip(target, of_the_value, strict=True):
                            if word not in STOP and not is_value:
                                context.left[word] += 1
                                context.right[word] += 1
                                self._annotated_words[name].add(word)
                        break
                continue
            if name not in self._contexts:
                continue
            for v in value if isinstance(value, list) else [value]:
                target = words(str(v))
                values_seen[name].append(target)
                for i in range(len(toks) - len(target) + 1):
                    if target and norm_text[i : i + len(target)] == target:
                        for k in range(i, i + len(target)):
                            inside[k] = True
                        self._joiners.update(w for w in target[1:-1] if w in NAME_JOINERS)
                        # a list word beside a value says "a list", not "this entity"; after a
                        # colon the colon is the cue ("telegram: <message>")
                        if i > 0 and ":" in example.text[toks[i - 1].end : toks[i].start]:
                            self._contexts[name].left[":"] += 1
                        elif i > 0 and norm_text[i - 1] not in LIST_SEPARATORS:
                            self._contexts[name].left[context_word(norm_text[i - 1])] += 1
                        j = i + len(target)
                        if j < len(toks) and norm_text[j] not in LIST_SEPARATORS:
                            self._contexts[name].right[context_word(norm_text[j])] += 1
                        if 0 < i <= _LEAD_WORDS and j == len(toks):
                            self._leads[name].add(tuple(norm_text[:i]))  # "acho que <idea>"
                        break
        for tok, is_inside in zip(toks, inside, strict=True):
            if not is_inside:
                self._carrier.add(tok.text)
        return {t.text for t, ins in zip(toks, inside, strict=True) if ins}

    def _learn_role(self, name: str, value: str, toks: list[Token]) -> None:
        """The word before a role's annotated value is one of that role's cues."""
        for candidate, phrase in self._enum[name]:
            if candidate != value:
                continue
            hits = find_phrase(phrase, toks, [False] * len(toks))
            if hits:
                i = hits[0][0]
                self._role_left[name][context_word(toks[i - 1].text) if i > 0 else ""] += 1
                return

    # ---------------------------------------------------------------- extraction

    def extract(
        self,
        text: str,
        *,
        prefer: str | None = None,
        clock: Clock | None = None,
        language: str | None = None,
        guessed: set[str] | None = None,
        reply: bool = False,
    ) -> Entities:
        """The entities ``text`` names. ``prefer``: the role a mention without a cue goes to first
        (the one a pending question asked for). ``clock``: the conversation's, which dates and
        times are resolved against (now, UTC when not given); ``language``: the message's.
        ``guessed`` receives the names filled only as a required entity's one candidate.
        ``reply``: ``text`` answers the question for ``prefer`` and asks nothing else, so what is
        left of it is that value, however many pieces it has."""
        toks = tokens(text)
        used = [False] * len(toks)
        found: Entities = {}
        codes = self._codes_written_apart(text, toks, used)
        # the words of a day, which an enum or a boolean may still read: "sexta *de manhã*" is a
        # Friday and a delivery window
        of_a_day: set[int] = set()
        if self._typed or self._typed_text:
            found.update(self._extract_typed(text, toks, used, prefer, clock, language, of_a_day))
        elif self._strings:
            self._days_and_times_unnamed(text, toks, used, clock, language, of_a_day)
        starts = self._phrase_starts(toks)
        for group, pairs in zip(self.role_groups, self._role_pairs, strict=True):
            found.update(self._extract_roles(group, pairs, toks, used, starts, prefer))
        free = [u and i not in of_a_day for i, u in enumerate(used)]
        # a boolean's phrase may share words with an enum's: "half *day off*" is a personal day
        # and half of one
        before_enums = list(free)
        for name, enum_pairs in self._enum.items():
            if name in self._grouped:
                continue
            hits: list[tuple[int, str]] = []
            found_at = [
                (i, j, value)
                for value, phrase in enum_pairs
                for i, j in find_phrase(phrase, toks, free, starts.get(phrase[0], ()))
                # "*may* I see my statement" asks; "statement for may" is May
                if not _a_modal_verb(phrase, toks, i)
            ]
            # of two phrases over the same words, the longer, then the one said first: "*half
            # day* passes" is half a day, though "day passes" is a phrase of a whole one
            for i, j, value in sorted(found_at, key=lambda m: (m[0] - m[1], m[0])):
                if any(free[k] for k in range(i, j)):
                    continue
                for k in range(i, j):
                    used[k] = free[k] = True
                if not _negated(text, toks, i):
                    hits.append((i, value))
            if hits:
                ordered = list(dict.fromkeys(v for _, v in sorted(hits)))
                found[name] = ordered if self.specs[name].multiple and len(ordered) > 1 else ordered[0]
        for name, phrases in self._bool.items():
            for phrase in phrases:
                matches = find_phrase(phrase, toks, before_enums, starts.get(phrase[0], ()))
                for i, j in matches:
                    for k in range(i, j):
                        used[k] = free[k] = before_enums[k] = True
                if matches:
                    found[name] = not _switched_off(text, toks, matches[0][0], language)
        for name in self._strings:
            if self._contexts[name].free and name not in found:
                free_text = self._free_text(name, text, toks, used, asked=prefer == name)
                if free_text is not None:
                    found[name] = free_text
        found.update(codes)
        if self._strings:
            strings = self._extract_strings(text, toks, used, guessed)
            found.update({k: v for k, v in strings.items() if k not in found})
        if reply and prefer is not None and prefer in self._strings and prefer not in found:
            whole = self._the_reply(text, toks, used, of_a_day, prefer)
            if whole is not None:
                found[prefer] = whole
        return found

    def _the_reply(
        self, text: str, toks: list[Token], used: list[bool], of_a_day: set[int], name: str
    ) -> str | None:
        """The words of a reply to the question for ``name``, a name no table lists, from its first
        word to its last ("bela vista, rua treze de maio 20"): asked for, all of it is the value,
        however many pieces it has. ``None`` when nothing but function words is left."""
        if self.specs[name].lookup or self._contexts[name].numeric or self._contexts[name].coded:
            return None
        left = [i for i, t in enumerate(toks) if (not used[i] or i in of_a_day) and t.text not in NOT_ENTITY]
        if not left:
            return None
        return text[toks[left[0]].start : toks[left[-1]].end]

    def _codes_written_apart(
        self, text: str, toks: list[Token], used: list[bool]
    ) -> dict[str, str | list[str]]:
        """The codes of entities annotated with letters then digits ("CN4821") written with a
        space or a dash between them ("cn 4821", "CN-4821"), joined as written ("cn4821",
        "CN4821"). The letters are as many as the annotated values have and no word of the goal's
        phrasing, a function word or filler ("às 10"); the digits stand alone ("4x4", "10h" are
        one word, never two parts)."""
        out: dict[str, str | list[str]] = {}
        for name in self._strings:
            shape = self._contexts[name].lettered
            if shape is None:
                continue
            codes: list[str] = []
            for i, (letters, digits) in enumerate(pairwise(toks)):
                if (
                    used[i]
                    or used[i + 1]
                    or not letters.text.isalpha()
                    or not shape[0] <= len(letters.text) <= shape[1]
                    # "bra-2e19": a plate's digits and letter, as the annotated codes write them
                    or not (digits.text.isdigit() or _shape(digits.text) in self._contexts[name].tails)
                    or len(digits.text) < CODE_PART_DIGITS
                    or not _CODE_GAP.fullmatch(text[letters.end : digits.start])
                    or not self._is_candidate(letters, False)
                    or _MORE_DIGITS.match(text, digits.end)
                ):
                    continue
                used[i] = used[i + 1] = True
                codes.append(text[letters.start : letters.end] + text[digits.start : digits.end])
            if codes:
                out[name] = codes if self.specs[name].multiple and len(codes) > 1 else codes[0]
        return out

    def _free_text(
        self, name: str, text: str, toks: list[Token], used: list[bool], asked: bool = False
    ) -> str | None:
        """The words after the entity's cue, as written: after a colon, comma or dash that closes
        the goal's own phrasing ("manda no telegram: reunião às 15h", "chamado urgente, o sistema
        caiu"), or after a word the examples put before it ("saying", "dizendo"), or a lead-in
        word ("sobre", "about", "dizendo que") right after the request's own words. A last
        sentence made only of the goal's phrasing ends the value ("does X? i wanna research
        that"), and is the cue when there is no other. ``asked``: the message answers a question
        for this entity, so all of it is the value. No cue, no value: a phrase is never guessed."""
        end = len(text)
        ending = _SENTENCE_END.search(text.rstrip(" \t\n?!."))
        if ending is not None:
            after = [t for t in toks if t.start > ending.start()]
            if after and all(self._phrasing(t) for t in after):
                end = ending.start()
        # a last sentence of the goal's phrasing alone is the cue; a last clause of it ("…, can
        # we research that?", "…, por favor") only ends a value another cue opens
        sentence_cut = end < len(text)
        comma = text.rfind(",", 0, end)
        if comma >= 0:
            after = [t for t in toks if comma < t.start < end]
            if after and all(self._phrasing(t) for t in after):
                end = comma
        start = None
        # a table's values are names, not phrases: only its own cues lead into one
        phrase = not self.specs[name].lookup
        for mark in (_FREE_TEXT_MARK if phrase else _COLON).finditer(text, 0, end):
            # the request's words; before a colon, values among them too: other entities' and
            # codes ("sinistro SG3307 dia 1 de março: vazou água do vizinho"). The first colon
            # that follows only such words opens the value, else the first comma or dash
            # ("seguro SG3307, alagamento ontem: a água entrou na sala"; "abre um chamado:
            # urgente, o sistema caiu")
            colon = mark.group().strip() == ":"
            before = [
                t
                for t, taken in zip(toks, used, strict=True)
                if t.end <= mark.start() and not (colon and (taken or _LETTERED.fullmatch(t.text)))
            ]
            if self._only_request(before) and (colon or start is None):
                start = mark.end()
                if colon:
                    break
        if start is None:
            context = self._contexts[name]
            for k, tok in enumerate(toks):
                if tok.end >= end:
                    break
                # a function word ("que") is a cue anywhere only when the examples taught it more
                # than once; right after the request's own words a lead-in is enough
                opens = phrase and self._only_request(toks[:k])
                taught = context.count_left(tok.text) > (1 if tok.text in STOP and not opens else 0)
                if taught or (opens and tok.text in FREE_TEXT_LEADS):
                    start = tok.end
                    if k + 1 < len(toks) and toks[k + 1].text in _THAT:  # "dizendo que ..."
                        start = toks[k + 1].end
                    break
        if start is None and (sentence_cut or (asked and phrase)):
            start = 0
        if start is None:
            return None
        # "v2 and v3 *of my hypothesis*": what the examples put after the value, and nothing but
        # the request's own words after it, ends the value
        inside = [t for t in toks if t.start >= start and t.end <= end]
        for k, tok in enumerate(inside[1:], start=1):
            if self._contexts[name].right[tok.text] > 0 and all(
                t.text in STOP or self._phrasing(t) for t in inside[k:]
            ):
                end = tok.start
                break
        value = text[start:end].strip(" \t\n\"'“”:,-")
        if not content_words(value) or (start == 0 and len(content_words(value)) < 2):
            return None
        for i, tok in enumerate(toks):
            if tok.start >= start and tok.end <= end:
                used[i] = True
        return value

    def _extract_typed(
        self,
        text: str,
        toks: list[Token],
        used: list[bool],
        prefer: str | None,
        clock: Clock | None,
        language: str | None,
        of_a_day: set[int],
    ) -> dict[str, TypedValue | list[TypedValue]]:
        """Each typed entity from a span of its type (a ``datetime`` span gives a date and a time;
        a date and a time said apart make a datetime); in the order the schema declares them,
        ``prefer`` first. The words of every span read are nobody's string value; those of a
        span read as a date alone are added to ``of_a_day``."""
        clock = clock or Clock(now=utcnow())
        language = language or detect(text)
        wanted = {self.specs[n].type for n in self._typed} | set(self._typed_text.values())
        spans = _taken_back(text, _typed_spans(text, language, clock, wanted))
        if "number" in wanted and self._known_phrases:
            # the number of a known name ("pro *Gladiador 2*") names it and counts nothing
            names = self._known_phrase_spans(toks, used)
            spans = [
                s
                for s in spans
                if s.type != "number" or not any(n.start <= s.start and s.end <= n.end for n in names)
            ]
        if self._numbered:
            # "urgent locksmith at *15* Station Road": the house's number, no three o'clock
            spans = [
                s for s in spans if s.type != "time" or not _a_number_before_a_name(toks, _tokens_of(toks, s))
            ]
        if self._addressed:
            # "na Rua Oscar Freire *500*", "at *350* Oak Street", "from *12* Elm Street": the
            # house's number, no count and no day
            spans = [s for s in spans if not self._a_house_number(toks, _tokens_of(toks, s))]
        # "asap" is a day to the recogniser and a word of the goal's urgency: the goal's own
        # phrase says what it means here
        spans = [s for s in spans if s.type not in _DAY_TYPES or not self._said_by_a_phrase(text, s)]
        if sum(s.type == "date" for s in spans) > 1:
            # "asap, tmrw": the day named says when; "as soon as possible" only how urgent
            spans = [s for s in spans if s.type != "date" or text[s.start : s.end].lower() not in _SOON]
        if "number" in wanted and self._counted_nouns:
            # "6cm" of a size the examples annotate "10 cm": the count and its unit in one word
            spans = sorted([*spans, *_glued_counts(text, spans, self._counted_nouns)], key=lambda s: s.start)
            # "o galão de *20* litros", "a 20-litre jug" to a count of jugs: how big each is
            spans = [s for s in spans if not self._measures_the_counted(text, s, language)]
        if "number" in wanted and not wanted & {"time", "datetime"}:
            # "2 half price tickets" is half past two to the recogniser, "about 12 pages" noon: to
            # a goal that reads no time, the count it starts with
            spans = [_count_of_a_time(text, s) or _rough_count(text, s) or s for s in spans]
        elif "number" in wanted:
            # "3 half price tickets", "2 meia": no half past anything is said with the count first
            spans = [
                count if (count := _count_of_a_time(text, s)) and _HALF_AFTER.match(text, count.end) else s
                for s in spans
            ]
        if "number" in wanted and "duration" not in wanted:
            # "3 dias" is a duration to the recogniser, and a count of days to a goal whose
            # examples annotate its number with that word ("5 dias", "2 days")
            spans = [self._as_count(text, s) or s for s in spans]
        if (self._counts_articles or self._counted_nouns) and "number" in wanted:
            spans = sorted(
                [
                    *spans,
                    *(
                        TypedSpan("number", 1, t.start, t.end)
                        for t, after in pairwise(toks)
                        if t.text in _ARTICLE_ONE
                        and not any(s.start <= t.start < s.end for s in spans)
                        and (
                            # "place *an order*": the article of the goal's own word counts nothing
                            (self._counts_articles and not self.uses_phrasing(after.text))
                            # "quanto custa *uma* aula?" of a count annotated "8 aulas": one of them
                            # (Portuguese "a" is "the": "quanto custa *a* aula?" counts nothing)
                            or (
                                not _forms_of(after.text).isdisjoint(self._counted_nouns)
                                and (t.text != "a" or language == "en")
                            )
                        )
                    ),
                ],
                key=lambda s: s.start,
            )
        clocks = [n for n in self._typed if self.specs[n].type in ("time", "datetime")]
        if "duration" in wanted and len(clocks) <= 1 and not any(s.type == "duration" for s in spans):
            # "das 14h às 16h": to a goal that reads one time and how long, the range's end says
            # how long (a goal with a start and an end time takes both times)
            spans = [s.as_lasting() for s in spans]
        if "duration" in wanted and sum(s.type in ("time", "datetime") for s in spans) > 1:
            # "sexta 20h pra 4, *1 hora e meia*": the second clock said in hours is how long
            spans = [_hours_long(text, s) or s for s in spans]
        if self._hours_are_a_duration(spans):
            # "aluga bike vila madalena 2h": a bare count of hours, no day and no "às", is how
            # long to a goal that needs a duration and can do without a time
            spans = [_as_hours(text, s) or s for s in spans]
        order = sorted(self._typed, key=lambda n: n != prefer)
        taken: set[tuple[int, str]] = set()  # (span index, part) already given to an entity
        counted_by: dict[int, str] = {}  # span index -> the entity it was given to
        out: dict[str, TypedValue | list[TypedValue]] = {}
        consumed: set[int] = set()
        for name in order:
            spec = self.specs[name]
            # an incident's "sexta" is the last Friday, not the next
            said = [s.leaning_past() for s in spans] if spec.prefer_dates_from == "past" else spans
            values: list[TypedValue] = []
            fitting = [
                k
                for k, span in enumerate(spans)
                if _typed_part(span, spec.type) is not None
                and (k, spec.type) not in taken
                # an article read as one ("uma mesa", "a table") is a count only of the word the
                # examples put after the entity ("uma pessoa" beside "2 pessoas"): never a guessed
                # size, nor one of the room the request is about ("reserva *um quarto*")
                and not (
                    text[span.start : span.end].lower() in _ARTICLE_ONE
                    and _score_right(self._typed_contexts[name], toks, span) <= 0
                    and not self._one_of_its_nouns(name, toks, span)
                )
                # a value another entity of its type is said beside ("2 *pessoas*" of guests,
                # not of nights): the entity declared first does not take it
                and not self._typed_elsewhere(name, toks, span, set(out))
            ]
            if not spec.multiple and len(fitting) > 1:
                # of several readings, the one whose surroundings the examples taught; an article
                # read as one ("uma mesa") only when nothing else fits
                fitting = sorted(
                    fitting,
                    key=lambda k: (
                        # "8 months" of a count the examples say in months, not a "3-bedroom" house
                        not self._says_its_unit(name, text, spans[k]),
                        # "birthday *next week*… on *Thursday* at 9pm": the day said, not the week
                        _names_a_period(text, spans[k]),
                        -self._typed_context_score(name, toks, spans[k], spans),
                        text[spans[k].start : spans[k].end].lower() in _ARTICLE_ONE,
                        k,
                    ),
                )[:1]
            for k in fitting:
                value = _typed_part(said[k], spec.type)
                assert value is not None
                taken.add((k, spec.type))
                consumed.add(k)
                counted_by[k] = name
                values.append(value)
                if not spec.multiple:
                    break
            if not values and spec.type == "datetime":
                joined = _date_and_time(said, taken, clock)
                if joined is not None:
                    values.append(joined[0])
                    consumed.update(joined[1])
            if values:
                out[name] = values if spec.multiple and len(values) > 1 else values[0]
        if self._typed_text:
            spans = _split_datetimes(text, spans, set(self._typed_text.values()), language, clock)
            for name, words_of in self._typed_text_values(text, toks, spans, prefer, taken, consumed).items():
                out[name] = words_of
        for name in order:
            if self.specs[name].type == "money" and name not in out:
                amount = self._amount_without_currency(name, toks, spans, consumed, asked=prefer == name)
                if amount is not None:
                    out[name] = amount
        for k, span in enumerate(spans):
            if span.type == "number" and k not in consumed:
                continue  # a number no typed entity took may still be a code or an amount
            for i in _tokens_of(toks, span):
                used[i] = True
                if span.type == "date" or k not in consumed:
                    # a day's words, or a value no entity took ("half day", twelve hours):
                    # an enum's or a boolean's phrase may still read them
                    of_a_day.add(i)
            if span.type == "number" and k in counted_by:
                # the noun the examples say with the count ("10 *peças*", "8 *pieces*") is the
                # count's, no other entity's value
                after = next((i for i, tok in enumerate(toks) if tok.start >= span.end), None)
                if (
                    after is not None
                    and toks[after].text in self._annotated_words[counted_by[k]]
                    # "5 *chaves de casa*" of a table's "chave de casa": the noun is the name's too
                    and not any(known.first == after for known in self._known_phrase_spans(toks, used))
                ):
                    used[after] = True
        return out

    def _one_of_its_nouns(self, name: str, toks: list[Token], span: TypedSpan) -> bool:
        """Whether the word after ``span`` is, in the singular or the plural, a noun the examples
        say with the count ``name`` ("uma *aula*" beside "8 aulas")."""
        after = _word_after(toks, span)
        return after is not None and not _forms_of(after).isdisjoint(self._annotated_words[name])

    def _measures_the_counted(self, text: str, span: TypedSpan, language: str) -> bool:
        """Whether ``span`` is a number said with a unit of measure ("20 litros", "20-litre") that
        none of the nouns the examples count is: a size, not how many."""
        unit = _UNIT_AFTER.match(text, span.end)
        return (
            span.type == "number"
            and unit is not None
            and _forms_of(normalise(unit.group(1))).isdisjoint(self._counted_nouns)
            and measures(unit.group(1), language)
        )

    @cached_property
    def _counts_something(self) -> bool:
        """Whether the goal counts something (a ``number`` entity)."""
        return any(self.specs[n].type == "number" for n in self._typed)

    @cached_property
    def _counted_nouns(self) -> frozenset[str]:
        """The nouns the examples say with a count ("aulas" of "8 aulas", "meses" of "6 meses")."""
        return frozenset(
            w for n in self._typed if self.specs[n].type == "number" for w in self._annotated_words[n]
        )

    def _says_its_unit(self, name: str, text: str, span: TypedSpan) -> bool:
        """Whether ``span`` is a count said with the unit ``name``'s examples annotate it with
        ("6 meses" of a number of months)."""
        said = words(text[span.start : span.end])
        return (
            span.type == "number"
            and len(said) > 1
            and not _unit_forms(said[-1]).isdisjoint(self._annotated_words[name])
        )

    def _said_by_a_phrase(self, text: str, span: TypedSpan) -> bool:
        """Whether the words of ``span`` are all one of the goal's enum or boolean phrases."""
        return tuple(words(text[span.start : span.end])) in self._enum_and_bool_phrases

    def _days_and_times_unnamed(
        self,
        text: str,
        toks: list[Token],
        used: list[bool],
        clock: Clock | None,
        language: str | None,
        of_a_day: set[int],
    ) -> None:
        """Marks the words of a day or a time as no string value, for a goal that takes neither:
        "corrida de casa pra congonhas *quinta 14h*" names a place, then when, which a price
        does not read. The words of a known value stay candidates ("*dom* casmurro" is a book,
        not a Sunday); an enum's or a boolean's phrase may still read the others, added to
        ``of_a_day`` ("a fatura de *fevereiro*" names a month of a statement)."""
        clock = clock or Clock(now=utcnow())
        spans = _typed_spans(text, language or detect(text), clock, {"date", "time"})
        for span in spans:
            if span.type not in _DAY_TYPES:
                continue
            inside = _tokens_of(toks, span)
            if len(inside) == 1 and _a_name_for_a_day(text, toks, inside[0]):
                continue
            if self._numbered and _a_number_before_a_name(toks, inside):
                continue  # "outage at *10* pine road": the house's number, no ten o'clock
            if self._addressed and self._a_house_number(toks, inside):
                continue  # "a coleta da rua harmonia *300*": no three o'clock either
            for i in inside:
                if not self._in_known_value(toks, i):
                    used[i] = True
                    of_a_day.add(i)

    def _in_known_value(self, toks: list[Token], i: int) -> bool:
        """Whether token ``i`` is a word of a known value written around it."""
        said = [t.text for t in toks]
        return any(
            self._is_known(tuple(said[j : j + size]))
            for size in range(1, min(self._known_values.longest, len(said)) + 1)
            for j in range(max(0, i - size + 1), min(i, len(said) - size) + 1)
        )

    def _amount_without_currency(
        self, name: str, toks: list[Token], spans: list[TypedSpan], consumed: set[int], *, asked: bool
    ) -> TypedValue | None:
        """A ``money`` value whose currency was left unsaid ("paga 49,90", "transfere 200 pra
        Ana"): a number no other entity took, where an amount is said (with decimals, between
        the words the examples put around the entity, or in answer to the question for it).
        Its ``currency`` is ``None``: the domain applies its own; the amount is never asked
        for again."""
        bare: dict[int, int | float] = {
            k: span.value
            for k, span in enumerate(spans)
            if k not in consumed
            and span.type == "number"
            and isinstance(span.value, int | float)
            # "3 people" to a goal that counts people too is a count ("40 reias" to a transfer
            # that counts nothing, an amount with its currency misspelt)
            and (asked or not self._counts_something or not _counts_a_thing(toks, span))
        }
        for k, amount in bare.items():
            if asked or _said_as_amount(spans[k], self._typed_context_score(name, toks, spans[k])):
                consumed.add(k)
                return {"amount": amount, "currency": None}
        # "quero 10 mil de limite no visa": the one number of a request whose goal counts nothing
        # else is its amount, unless it is part of a name ("final 4417") or as long as a code
        free = [k for k in bare if not self._part_of_a_known_value(toks, spans[k])]
        if self._sole_amount == name and len(free) == 1 and 0 < bare[free[0]] < MAX_BARE_AMOUNT:
            consumed.add(free[0])
            return {"amount": bare[free[0]], "currency": None}
        return None

    def _part_of_a_known_value(self, toks: list[Token], span: TypedSpan) -> bool:
        inside = _tokens_of(toks, span)
        return any(
            inside[0] in range(k.first, k.last + 1)
            for k in self._known_phrase_spans(toks, [False] * len(toks))
        )

    def _typed_text_values(
        self,
        text: str,
        toks: list[Token],
        spans: list[TypedSpan],
        prefer: str | None,
        taken: set[tuple[int, str]],
        consumed: set[int],
    ) -> dict[str, TypedValue | list[TypedValue]]:
        """The words of the spans of each learned form, given to the entity whose contexts
        (the words the examples put around it) fit best, in the schema's order on a tie."""
        out: dict[str, TypedValue | list[TypedValue]] = {}
        order = sorted(self._typed_text, key=lambda n: n != prefer)
        for name in order:
            form = self._typed_text[name]
            fitting = [
                k
                for k, span in enumerate(spans)
                if _FORMS.get(span.type) == form and (k, form) not in taken and k not in consumed
            ]
            scores = {k: self._context_score(name, toks, spans[k]) for k in fitting}
            if form == "money":  # an amount without its currency: a number where an amount is said
                fitting += [
                    k
                    for k, span in enumerate(spans)
                    if span.type == "number"
                    and k not in consumed
                    and _said_as_amount(span, self._context_score(name, toks, span))
                ]
                scores |= {
                    k: self._context_score(name, toks, spans[k]) - 0.5 for k in fitting if k not in scores
                }
            if not fitting:
                continue
            # an article read as one only when no number is said as well
            chosen = sorted(
                fitting,
                key=lambda k: (-scores[k], text[spans[k].start : spans[k].end].lower() in _ARTICLE_ONE, k),
            )
            picked = chosen if self.specs[name].multiple else chosen[:1]
            for k in picked:
                taken.add((k, form))
                consumed.add(k)
            values: list[TypedValue] = [text[spans[k].start : spans[k].end] for k in sorted(picked)]
            out[name] = values if len(values) > 1 else values[0]
        return out

    def _context_score(self, name: str, toks: list[Token], span: TypedSpan) -> float:
        """How well the words around ``span`` fit the contexts the examples taught ``name``."""
        return _score_in(self._contexts[name], toks, span)

    def _typed_context_score(
        self, name: str, toks: list[Token], span: TypedSpan, beside: Sequence[TypedSpan] = ()
    ) -> float:
        """The same for a typed entity."""
        return _score_in(self._typed_contexts[name], toks, span, beside)

    def _as_count(self, text: str, span: TypedSpan) -> TypedSpan | None:
        """A duration of one unit ("3 dias", "20 days") as the number of its unit, when a number
        entity's examples say that unit with it; ``None`` otherwise."""
        if span.type != "duration" or not isinstance(span.value, str):
            return None
        amount = _ONE_UNIT.fullmatch(span.value)
        said = words(text[span.start : span.end])
        if amount is None or not said:
            return None
        unit = said[-1]
        forms = _unit_forms(unit)
        counted = self._counted_nouns
        whole_days = _WHOLE_DAYS.fullmatch(span.value)
        if whole_days is not None and unit in _WEEK_WORDS and counted & _DAY_WORDS:
            # "for a week", "por duas semanas" to a count of days: seven days a week
            return TypedSpan("number", int(whole_days.group(1)), span.start, span.end)
        after = _NEXT_WORD.match(text, span.end)
        # "5 day *passes*": the unit names the kind of what the count counts
        of_a_counted = after is not None and bool(_forms_of(after.group(1).lower()) & counted)
        if not forms & counted and not of_a_counted:
            return None
        # the number written is the count: "half day" is twelve hours, and no count of days; "6
        # meses" is six months, though the recogniser gives it in days; "about 8 months" eight
        written = said[:-1]
        while written and written[0] in _ROUGHLY:
            written = written[1:]
        count = _written_number(" ".join(written))
        if count is None:
            return None
        # the unit of a kind ("*day* passes") stays for the words that name the kind
        last = _LAST_WORD.search(text, span.start, span.end) if of_a_counted else None
        end = span.end if last is None else last.start()
        return TypedSpan("number", int(count) if count.is_integer() else count, span.start, end)

    def annotated_words(self, names: Iterable[str]) -> set[str]:
        """The words the examples say with the typed values of ``names`` ("pessoas" of "2
        pessoas", "nights" of "2 nights"): a reply "2 pessoas" says only a value."""
        return {w for name in names for w in self._annotated_words.get(name, ())}

    def _typed_elsewhere(self, name: str, toks: list[Token], span: TypedSpan, filled: set[str]) -> bool:
        """Whether another entity of ``name``'s type, not ``filled`` yet, has the words beside
        ``span`` in its examples more often than ``name`` does: the noun a count counts first (in
        the singular or the plural), then the word after it, then both. A bare number may be an
        amount of money whose currency is unsaid: "apartamento até 3 mil" is a rent, not three
        thousand bedrooms."""
        kinds = {self.specs[name].type}
        if span.type == "number" and kinds == {"number"}:
            kinds.add("money")

        def beside(entity: str) -> tuple[bool, float, float]:
            context = self._typed_contexts[entity]
            # the noun it counts in either number ("3 *pages*" of a count annotated "5 page")
            counts_its_noun = self._one_of_its_nouns(entity, toks, span)
            return counts_its_noun, _score_right(context, toks, span), _score_in(context, toks, span)

        mine = beside(name)
        others = [n for n in self._typed if n != name and n not in filled and self.specs[n].type in kinds]
        return any(beside(other) > mine for other in others)

    def _phrase_starts(self, toks: list[Token]) -> dict[str, list[int]]:
        """For each first word of an enum or boolean phrase, the positions of the tokens it matches."""
        starts: dict[str, list[int]] = defaultdict(list)
        for i, tok in enumerate(toks):
            found = [w for w in self._first_words.matches(tok.text) if _said_as(w, tok.text)]
            if (written := _WRITTEN_OUT.get(tok.text)) is not None:
                found += [w for w in self._first_words.matches(written) if w not in found]
            if not found:
                found = self._phrase_of_its_verb(tok.text)
            for word in found:
                starts[word].append(i)
        return starts

    def _phrase_of_its_verb(self, word: str) -> list[str]:
        """The one-word phrases ``word`` is a verb form of ("ROUBARAM meu carro" says "roubo",
        "the basement flooded" "flood"); none for a verb the goal's phrasing or a request uses
        ("cancela" is no "cancelado")."""
        if word in ACTION_OF or word in NOT_ENTITY:
            return []
        forms = {form for code in ("pt", "en") if (form := verb_stem(word, code)) is not None}
        return [
            phrase for form in forms - self._phrasing_verbs for phrase in self._phrase_stems.get(form, [])
        ]

    def _hours_are_a_duration(self, spans: list[TypedSpan]) -> bool:
        """Whether this goal requires a duration and no time, and no duration and no day is said:
        what reads as an hour is then how long."""
        return self._needs_a_duration_not_a_time and not any(
            s.type in ("duration", "date", "datetime") for s in spans
        )

    @cached_property
    def _needs_a_duration_not_a_time(self) -> bool:
        """Whether this goal requires a duration and every time it reads is optional."""
        kinds = [self.specs[name] for name in self._typed]
        return any(spec.type == "duration" and spec.required for spec in kinds) and all(
            not spec.required for spec in kinds if spec.type in ("time", "datetime")
        )

    def unsupported_action(self, text: str) -> str | None:
        """The verb a request opens with when this goal does not explain it ("*compre* 100 ações
        da Petrobras", "*sell* my Apple shares"); ``None`` when the goal accounts for how the
        request starts (see :meth:`opening_action`)."""
        opening = self.opening_action(text)
        return opening.verb if opening is not None else None

    def opening_action(self, text: str) -> OpeningAction | None:
        """The verb a request opens with when this goal does not explain it: the first word that
        is no filler, no phrasing of the goal and no entity, followed by the start of an object
        (a number, an article, a possessive); and whether it acts on an amount, a count after it
        that is none of the values this goal read ("*compra 50* ações da Vale", "*buy 10* shares
        of Tesla"; "*confere a* cotação da Vale" only says how to ask for what the goal does).
        ``None`` when the goal accounts for how the request starts."""
        toks = tokens(text)
        asked = price_verbs(text)  # "qto *sai* 5 galões?": the price question's verb
        first = next(
            (
                i
                for i, t in enumerate(toks)
                if t.text not in NOT_ENTITY and not any(a <= t.start and t.end <= b for a, b in asked)
            ),
            None,
        )
        if first is None or first + 1 >= len(toks) or not self._is_candidate(toks[first], False):
            return None
        if self._inflects_phrasing(toks[first].text):
            # the goal's own verb in another form ("lista meus empréstimos"); another verb of its
            # action ("prorroga o Sapiens") is no candidate above
            return None
        following = toks[first + 1].text
        if not (following.isdigit() or following in OBJECT_STARTERS):
            return None
        if self._is_known((toks[first].text,)):
            return None  # a name that is also a verb ("quanto vale a Petrobras") is no other action
        word = text[toks[first].start : toks[first].end]
        named = self.extract(text)
        values = [v for value in named.values() for v in (value if isinstance(value, list) else [value])]
        if any(isinstance(v, str) and word in v for v in values):
            return None
        if toks[first].text in self._enum_and_bool_words or toks[first].text.isdigit():
            return None
        # an amount of money read is a count this goal reads too ("põe 2 reais no BU507718")
        amounts = [v.get("amount") if isinstance(v, dict) else v for v in values]
        on_amount = following.isdigit() and not any(
            str(_number_or_text(v)) == following for v in amounts if v is not None
        )
        return OpeningAction(word, on_amount)

    def unknown_object(self, text: str, entities: Entities) -> str | None:
        """The thing the goal's own verb acts on when the goal does not know it: the message opens
        with a word of the goal's phrasing, then an article or a possessive, then a word the goal
        does not account for ("rent an *apartment* in Curitiba" of a car rental's quote). ``None``
        when the verb's object is the goal's own or a value ("rent an SUV in Rio")."""
        toks = tokens(text)
        first = next((i for i, t in enumerate(toks) if t.text not in NOT_ENTITY), None)
        if first is None or not self.uses_phrasing(toks[first].text):
            return None
        # past the words between a verb and its object ("rent *me* an apartment")
        k = next(
            (
                i
                for i in range(first + 1, len(toks))
                if toks[i].text in OBJECT_STARTERS or toks[i].text not in NOT_ENTITY
            ),
            len(toks),
        )
        if k + 1 >= len(toks) or toks[k].text not in OBJECT_STARTERS:
            return None
        if any(t.text in _NO_OBJECT_AFTER for t in toks[first + 1 : k]):
            return None  # "need headshots *for my team*": whom the goal's thing is for
        thing = toks[k + 1].text
        return thing if thing in self.unexplained_words(text, entities) else None

    def _role_score(self, name: str, left: str) -> float:
        learned = self._role_left[name]
        return learned[left] + (DEFAULT_CUE_WEIGHT if left in _default_cues(name) else 0.0)

    def _extract_roles(
        self,
        group: list[str],
        pairs: list[tuple[str, tuple[str, ...]]],
        toks: list[Token],
        used: list[bool],
        starts: dict[str, list[int]],
        prefer: str | None,
    ) -> dict[str, str]:
        """Each mention of the group's values (``pairs``: value and phrase, longest first), given
        to the role its cue word says."""
        mentions: list[tuple[int, str]] = []
        for value, phrase in pairs:
            for i, j in find_phrase(list(phrase), toks, used, starts.get(phrase[0], ())):
                for k in range(i, j):
                    used[k] = True
                mentions.append((i, value))
        mentions.sort()
        out: dict[str, str] = {}
        open_mentions: list[tuple[int, str]] = []
        scored = []
        for i, value in mentions:
            left = context_word(toks[i - 1].text) if i > 0 else ""
            scores = {name: self._role_score(name, left) for name in group}
            best = max(scores.values())
            winners = [n for n in group if scores[n] == best]
            scored.append((best, i, value, winners[0] if best > 0 and len(winners) == 1 else None))
        # the most certain cues first; a role takes one mention
        for _, i, value, role in sorted(scored, key=lambda s: -s[0]):
            if role is not None and role not in out:
                out[role] = value
            else:
                open_mentions.append((i, value))
        free = [n for n in group if n not in out]
        if prefer in free:
            free.remove(prefer)
            free.insert(0, prefer)
        for (_, value), name in zip(sorted(open_mentions), free, strict=False):
            out[name] = value
        return out

    def _is_candidate(self, tok: Token, used: bool, named: bool = False) -> bool:
        """``named``: written capitalised inside a sentence, so filler words may be names
        ("Boa Vista", "Bom Jesus") while function words never are."""
        if used or tok.text in STOP or (tok.text in FILLER and not named):
            return False
        if tok.text in INDEFINITES and not named:
            return False
        if named:  # a name is no typo of a phrasing word ("Maria" is not "marca")
            return tok.text not in self._carrier
        if (tok.text,) in self._known and tok.text not in self._carrier:
            return True  # a value of the tables as written: "black" is a card, no typo of "block"
        if self._unwritten_verb(tok.text):
            return False  # "o que tá *passando* amanhã?", "*tira* eu da aula de yoga": no values
        return not self._carrier_words.knows(tok.text)  # the carrier words, typos and plurals included

    def _known_phrase_spans(self, toks: list[Token], used: list[bool]) -> list[_Span]:
        """The known values of several words that ordinary spans would cut ("sao paulo"), as
        written, in the plural or with a typo in a long word ("sushi kenso"), longest first, on
        words nothing else took."""
        found: list[_Span] = []
        taken = list(used)
        for i, tok in enumerate(toks):
            if taken[i]:
                continue
            # "chaves de casa" of "chave de casa": a name said in the plural
            forms = dict.fromkeys([tok.text, *sorted(_forms_of(tok.text) - {tok.text})])
            for phrase in (p for form in forms for p in self._known_phrases.get(form, ())):
                j = i + len(phrase)
                if j > len(toks) or any(taken[i:j]):
                    continue
                said = tuple(t.text for t in toks[i:j])
                if (
                    said == phrase
                    or tuple(map(stem, said)) == tuple(map(stem, phrase))
                    or all(fuzzy_equal(a, b) for a, b in zip(said, phrase, strict=True))
                ):
                    found.append(_Span(i, j - 1, tok.start, toks[j - 1].end, known=True))
                    taken[i:j] = [True] * len(phrase)
                    break
        return found

    def _spans(self, text: str, toks: list[Token], used: list[bool]) -> list[_Span]:
        protected = self._known_phrase_spans(toks, used) if self._known_phrases else []
        if protected:
            used = list(used)
            for span in protected:
                used[span.first : span.last + 1] = [True] * (span.last - span.first + 1)
        # a gerund used as a verb names nothing ("what's *playing* on saturday"), unless it is a
        # known value ("book spinning friday") or written as a name
        verbs = verbal_gerunds(text)
        cand = [
            (
                self._is_candidate(t, u, named := capitalised_inside(text, toks, i))
                and (t.text not in verbs or named or self._is_known((t.text,)))
            )
            # "aluga um patinete na *sé*": a table's name, accents and all, is no function word
            or (not u and text[t.start : t.end].lower() in self._accented_names)
            for i, (t, u) in enumerate(zip(toks, used, strict=True))
        ]
        spans: list[_Span] = []
        current: _Span | None = None
        for i, tok in enumerate(toks):
            gap = text[toks[i - 1].end : tok.start] if i > 0 else ""
            broken = bool(_BREAK.search(gap))
            # a number and a word are never one value: "troca 50", "compre 100"
            shape_changed = i > 0 and tok.text.isdigit() != toks[i - 1].text.isdigit()
            if cand[i]:
                if current is not None and not broken and not shape_changed and current.last == i - 1:
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
                    or toks[current.first].text in self._address_heads
                )
                and not _BREAK.search(text[tok.end : toks[i + 1].start])
            ):
                current.last, current.end = i, tok.end  # "Banco do" ... continues with "Brasil"
        pieces = [piece for span in spans for piece in self._split_known(text, toks, span)]
        return sorted([*pieces, *protected], key=lambda span: span.first)

    def _is_known(self, phrase: tuple[str, ...]) -> bool:
        """A known value: annotated in an example or in the lookup table; its words may have a
        typo each ("sushi kenso"); a word another goal of the domain is phrased with is one only
        as written ("block my card" names no "black" card)."""
        if len(phrase) == 1 and phrase[0] in self._kin_phrasing and phrase not in self._known:
            return False
        return phrase in self._known_values

    def _split_known(self, text: str, toks: list[Token], span: _Span) -> list[_Span]:
        """A span made of known values is a list typed without commas ("petrobras vale itau");
        unknown words between them stay spans of their own (weak unless they look like names)."""
        norm = [t.text for t in toks[span.first : span.last + 1]]
        if self._is_known(tuple(norm)):
            span.known = True
            return [span]
        if len(norm) < 2 or not self._known or all(w.isdigit() for w in norm):
            return [span]  # "1.200" is one number, whatever numbers the examples show
        longest = self._known_values.longest
        pieces: list[tuple[int, int, bool]] = []  # (first, last, known) relative to span.first
        k = 0
        while k < len(norm):
            size = next(
                (
                    n
                    for n in range(min(longest, len(norm) - k), 0, -1)
                    if self._is_known(tuple(norm[k : k + n]))
                ),
                0,
            )
            if size:
                pieces.append((k, k + size - 1, True))
                k += size
            elif pieces and not pieces[-1][2]:
                pieces[-1] = (pieces[-1][0], k, False)
                k += 1
            else:
                pieces.append((k, k, False))
                k += 1
        if not any(known for _, _, known in pieces):
            return [span]
        out = []
        for first, last, known in pieces:
            a, b = toks[span.first + first], toks[span.first + last]
            piece = _Span(span.first + first, span.first + last, a.start, b.end, known=known)
            if not known and _looks_like_name(text, toks, piece):
                return [span]  # "Itaú Unibanco": a name that only starts like a known one
            out.append(piece)
        return out

    def _extract_strings(
        self, text: str, toks: list[Token], used: list[bool], guessed: set[str] | None = None
    ) -> dict[str, str | list[str]]:
        spans = self._spans(text, toks, used)
        if not spans:
            return {}
        if self._numbered:
            spans = _numbers_joined(toks, spans)
        assigned: dict[str, list[_Span]] = {name: [] for name in self._strings}
        #: each span's other entities, best first: where a known value goes when its first
        #: entity holds a better one
        others: dict[int, list[str]] = {}
        for span in spans:
            said = [t.text for t in toks[span.first : span.last + 1]]
            is_number = all(w.isdigit() for w in said)
            # "1.432,77", "129.90": an amount or a quantity, never the digits of a code
            decimal = is_number and bool(_DECIMAL.search(text[max(0, span.start - 2) : span.end + 2]))
            eligible = [
                n
                for n in self._strings
                if self._contexts[n].numeric == is_number
                and not (decimal and self._contexts[n].code)
                and not (
                    self._contexts[n].coded
                    and not any(c.isdigit() for t in toks[span.first : span.last + 1] for c in t.text)
                )
                and n not in self._typed_text
                and not self._contexts[n].free  # a phrase comes only after its cue
                # "card statement": the word of several cards' names says no card ("my place"
                # is one place's name, though "my" and "place" are two places' words)
                and (tuple(said) in self._known or not set(said) <= self._shared_words.get(n, frozenset()))
            ]
            if not eligible:
                continue  # a bare number is no name, a word no amount
            eligible = self._listing(eligible, tuple(t.text for t in toks[span.first : span.last + 1]))
            left = context_word(toks[span.first - 1].text) if span.first > 0 else ""
            # a day, a time or a category after a place says nothing of which place it is
            after = span.last + 1
            right = context_word(toks[after].text) if after < len(toks) and not used[after] else ""
            verb = _verb_before(toks, span.first)
            beside = {t.text for t in toks[max(0, span.first - 1) : span.last + 2]}
            # "rua harmonia 300": a street and its number are an address, not a code's digits
            housed = self._addressed and any(
                self._a_house_number(toks, [i]) for i in range(span.first, span.last + 1)
            )
            scores = {
                name: self._contexts[name].left[left]
                + self._contexts[name].right[right]
                + (DEFAULT_CUE_WEIGHT if verb in self._verb_cues[name] else 0.0)
                # "cartão amex", "my elo card": the table's kind word says what the name is
                + (DEFAULT_CUE_WEIGHT if beside & self._kind_words.get(name, frozenset()) else 0.0)
                + (DEFAULT_CUE_WEIGHT if housed and self._contexts[name].addresses else 0.0)
                for name in eligible
            }
            ranked = sorted(
                eligible,
                key=lambda n: (scores[n], self.specs[n].required, -self._strings.index(n)),
                reverse=True,
            )
            best = ranked[0]
            if tuple(said) not in self._known:
                span = self._as_the_table_names(toks, used, span, best)
            span.score = scores[best]
            if is_number:
                span.known = True  # the shape is the evidence: only number entities take it
            coded = [i for i in range(span.first, span.last + 1) if any(c.isdigit() for c in toks[i].text)]
            if self._contexts[best].coded and span.last > span.first and len(coded) == 1:
                # a code is one word: "PX7388 chegou?" names "PX7388"
                i = coded[0]
                span = _Span(i, i, toks[i].start, toks[i].end, score=span.score, known=span.known)
            assigned[best].append(span)
            others[span.first] = ranked[1:]
        self._spread_known(assigned, others)
        out: dict[str, str | list[str]] = {}
        for name, chosen in assigned.items():
            # a value from a table is known or nothing: the only word left is no guess of it
            guessable = self.specs[name].required and not self.specs[name].lookup
            chosen = self._with_evidence(text, toks, chosen, guessable)
            if self._contexts[name].addresses:
                # an address is guessed only with its number: "can a locksmith *come* tomorrow"
                chosen = [
                    s
                    for s in chosen
                    if not s.guessed or any(t.text.isdigit() for t in toks[s.first : s.last + 1])
                ]
            if not chosen:
                continue
            if guessed is not None and all(s.guessed for s in chosen):
                guessed.add(name)
            values = [text[s.start : s.end] for s in chosen]
            if self.specs[name].multiple and len(values) > 1:
                out[name] = list(dict.fromkeys(values))
            else:
                best_span = max(chosen, key=lambda s: (s.known, s.score, s.end - s.start))
                out[name] = text[best_span.start : best_span.end]
        return out

    def _as_the_table_names(self, toks: list[Token], used: list[bool], span: _Span, name: str) -> _Span:
        """``span``, a name the table lacks, written as the table writes its names: without a kind
        word no entry's name has at that edge ("my elo *card*"), with one the entries' names have
        there ("*garagem* ibirapuera", as "Garagem Paulista")."""
        kinds = self._kind_words.get(name, frozenset())
        leading, trailing = self._kind_edges.get(name, (frozenset(), frozenset()))
        first, last = span.first, span.last
        while first < last and toks[first].text in leading:
            first += 1
        while last > first and toks[last].text in trailing:
            last -= 1
        if first == span.first and first > 0 and not used[first - 1]:
            before = toks[first - 1].text
            first -= before in kinds and before not in leading
        if last == span.last and last + 1 < len(toks) and not used[last + 1]:
            after = toks[last + 1].text
            last += after in kinds and after not in trailing
        if (first, last) == (span.first, span.last):
            return span
        return _Span(first, last, toks[first].start, toks[last].end, known=span.known, guessed=span.guessed)

    def _spread_known(self, assigned: dict[str, list[_Span]], others: dict[int, list[str]]) -> None:
        """Known values that lost their first entity to a better one go to another entity of
        theirs that holds nothing: "me busca no *aeroporto* amanhã e leva pra *casa*" names two
        places of one table, and the pickup's cue is nothing the examples wrote."""
        for name, chosen in list(assigned.items()):
            if self.specs[name].multiple or len(chosen) < 2:
                continue
            ranked = sorted(chosen, key=lambda s: (s.known, s.score, s.end - s.start), reverse=True)
            for span in ranked[1:]:
                if not span.known:
                    continue
                free = next((n for n in others[span.first] if not assigned[n]), None)
                if free is not None:
                    chosen.remove(span)
                    assigned[free].append(span)

    def _listing(self, eligible: list[str], phrase: tuple[str, ...]) -> list[str]:
        """``eligible`` without the entities with a lookup table that does not list ``phrase``
        when exactly one table lists it: a name only the authors' table has is an author whatever
        words are around it. When both tables or neither list it, the words around decide."""
        tabled = [n for n in eligible if n in self._tables]
        listing = [n for n in tabled if phrase in self._tables[n]]
        if len(tabled) < 2 or len(listing) != 1:
            return eligible
        return [n for n in eligible if n not in tabled or n in listing]

    def _with_evidence(
        self, text: str, toks: list[Token], spans: list[_Span], guessable: bool
    ) -> list[_Span]:
        """The spans that show they are this entity; a ``guessable`` one (required, with no lookup
        table) with none keeps its only candidate when nothing else was said or a carrier word is
        next to it ("cotação xpto"). An entity with a table takes its table's values only."""
        strong = [s.known or s.score > 0 or _looks_like_name(text, toks, s) for s in spans]
        # a capitalised word listed next to a name is a name too: "Embraer, Gerdau e Suzano"
        changed = True
        while changed:
            changed = False
            for k, span in enumerate(spans):
                if strong[k] or not text[span.start].isupper():
                    continue
                for n in (k - 1, k + 1):
                    if (
                        0 <= n < len(spans)
                        and strong[n]
                        and _listed_together(toks, spans[min(k, n)], spans[max(k, n)])
                    ):
                        strong[k] = changed = True
                        break
        named = [_looks_like_name(text, toks, s) for s in spans]
        if any(named):
            # the person capitalises names here: a lower-case known value with no context of its
            # own and no name listed beside it is a word ("quanto *vale* a ação do Santander?")
            for k, span in enumerate(spans):
                if strong[k] and not named[k] and span.score == 0 and not text[span.start].isupper():
                    neighbours = [n for n in (k - 1, k + 1) if 0 <= n < len(spans)]
                    if not any(
                        named[n] and _listed_together(toks, spans[min(k, n)], spans[max(k, n)])
                        for n in neighbours
                    ):
                        strong[k] = False
        for k, span in enumerate(spans):
            # a lower-case known value with no context of its own, followed by an article, is a
            # verb here: "quanto *vale* a Petrobras", "quanto vale o euro"; not before an hour,
            # whose "às" reads as the article "as" ("um caminhão às 8h")
            after = toks[span.last + 1].text if span.last + 1 < len(toks) else ""
            if (
                strong[k]
                and span.score == 0
                and span.first == span.last  # a verb is one word: "caminhão baú a partir das 8h"
                and after in ARTICLES
                and span.last + 2 < len(toks)
                and not toks[span.last + 2].text[:1].isdigit()
                and not _looks_like_name(text, toks, span)
            ):
                strong[k] = False
        kept = [s for s, ok in zip(spans, strong, strict=True) if ok]
        if kept:
            return kept
        if not guessable or len(spans) != 1:
            return []
        span = spans[0]
        if span.first == span.last and _a_verb_form(toks[span.first].text):
            return []  # "quero avisar que *acabou* a luz": the verb is no address, nor any name
        beside = [toks[i].text for i in (span.first - 1, span.last + 1) if 0 <= i < len(toks)]
        inside = range(span.first, span.last + 1)
        alone = all(i in inside or not self._is_content(toks[i]) for i in range(len(toks)))
        if alone or any(w in self._carrier for w in beside):
            span.guessed = True
            return spans
        return []

    def without_switches(self, text: str) -> str | None:
        """``text`` without the words of the goal's boolean switches it says ("me avisa no
        telegram" of a quote's ``notify``), normalised; ``None`` when it says none."""
        toks = tokens(text)
        used = [False] * len(toks)
        for phrases in self._bool.values():
            for phrase in phrases:
                for i, j in find_phrase(phrase, toks, used):
                    for k in range(i, j):
                        used[k] = True
        if not any(used):
            return None
        return " ".join(t.text for t, u in zip(toks, used, strict=True) if not u)

    def phrasing_words(self, text: str) -> list[str]:
        """The words of ``text`` that this goal's own phrasing uses (its examples' and
        description's words, typos allowed), function words and filler aside: "chove" for a
        forecast, "reembolso" for a refund."""
        return [t.text for t in tokens(text) if self.uses_phrasing(t.text)]

    def unexplained_words(self, text: str, entities: Entities) -> list[str]:
        """The content words of ``text`` that this goal does not account for: no phrasing of the
        goal, no function word, filler or indefinite word ("renew *all* my books"), no number, no
        part of a value in ``entities`` and no value of the goal's tables ("cancel my *gym
        membership*" of an order's cancellation)."""
        said = {
            w
            for value in entities.values()
            for item in (value if isinstance(value, list) else [value])
            if isinstance(item, str)
            for w in value_words(item)
        }
        read = expand_shorthands(text)
        typed: list[TypedSpan] = []
        if self._typed or self._typed_text:  # a value's words ("quinta", "14h", "dois")
            spans = _typed_spans(read, detect(read), Clock(now=utcnow()), {"date", "time"})
            kinds = self._day_kinds()
            typed = [span for span in spans if span.type not in _DAY_TYPES or span.type in kinds]
        # a word the examples write inside a typed value ("2 *caixas*") is the goal's own, in
        # the singular too ("1 caixa")
        units = {s for c in self._typed_contexts.values() for w, n in c.left.items() if n for s in stems(w)}
        cues = {w for name in self._strings for w in self._verb_cues[name]}  # "*drop* me home"
        # a price asked "por pessoa", "quanto *sai*", "é *caro*?": the question's own words
        per_one = [*price_per_one(read), *price_verbs(read), *price_judged(read)]
        toks = tokens(read)
        # "*pick up* my stove" of a goal phrased "schedule a pickup": one word written as two
        written_apart = {
            k
            for i, (a, b) in enumerate(pairwise(toks))
            if a.end < b.start and self._carrier_words.knows(a.text + b.text) and a.text.isalpha()
            for k in (i, i + 1)
        }
        # "*código* BL3105", "*ref* 4471": the word that names a value read right after it
        naming = {i for i, (a, b) in enumerate(pairwise(toks)) if a.text in _CODE_NAMES and b.text in said}
        return [
            t.text
            for i, t in enumerate(toks)
            if t.text not in NOT_ENTITY
            and i not in written_apart
            and i not in naming
            and not any(start <= t.start and t.end <= end for start, end in per_one)
            and t.text not in INDEFINITES
            and not t.text.isdigit()
            and t.text not in said
            and not self._carrier_words.knows(t.text)
            and not self._unwritten_verb(t.text)
            and not self._is_known((t.text,))
            and not any(span.start <= t.start and t.end <= span.end for span in typed)
            and not units.intersection(stems(t.text))
            and t.text not in cues
        ]

    def _day_kinds(self) -> set[str]:
        """The kinds of day and time spans this goal reads (a ``datetime`` reads all three): a
        day said to a goal that reads none is a word it does not account for ("faxina *quarta
        13h*" of a price)."""
        forms = {self.specs[n].type for n in self._typed} | set(self._typed_text.values())
        if "datetime" in forms:
            return set(_DAY_TYPES)
        kinds = forms & _DAY_TYPES
        return kinds | {"datetime"} if kinds else set()

    def idea_after_lead(self, text: str) -> str | None:
        """The free text of a message that opens with the words an example opens with before its
        free-text value ("acho que chamados urgentes são resolvidos mais rápido…", "I think
        remote work…"): a statement of its own, several words long, with nothing of the
        person's own need in it. ``None`` otherwise."""
        toks = tokens(text)
        said = [t.text for t in toks]
        for name, leads in self._leads.items():
            if not self._contexts[name].free:
                continue
            for lead in leads:
                rest = said[len(lead) :]
                if tuple(said[: len(lead)]) != lead or len(content_words(" ".join(rest))) < FREE_TEXT_WORDS:
                    continue
                if _OWN_NEED.intersection(rest):
                    continue
                value = self._free_text(name, text, toks, [False] * len(said))
                if value is not None:
                    return value
        return None

    def uses_phrasing(self, word: str) -> bool:
        """Whether ``word`` (normalised) is a word of this goal's own phrasing, typos allowed, or
        another form of one of its verbs ("lista" of "listar meus empréstimos")."""
        return word not in NOT_ENTITY and (
            self._carrier_words.knows(word) or self._inflects_phrasing(word) or self._same_action(word)
        )

    def asked_with(self, word: str) -> bool:
        """Whether ``word`` is how this goal is asked for: a word of its phrasing that says no
        value of it ("agendar" of a booking, not the "barra" of a hem's alteration)."""
        return self.uses_phrasing(word) and word not in self._enum_and_bool_words

    def _unwritten_verb(self, word: str) -> bool:
        """Whether ``word`` is a verb of the goal's phrasing that its examples do not write: a
        gerund of one of its verbs ("*passando*" of "que horas passa") or another verb of its
        action ("*tira*" of "cancela")."""
        return (is_gerund(word) and self._inflects_phrasing(word)) or self._same_action(word)

    @property
    def asks_a_price(self) -> bool:
        """Whether the goal's phrasing asks what something costs ("quanto custa", "price of")."""
        return "cost" in self._carrier_actions

    def _same_action(self, word: str) -> bool:
        """Whether ``word`` is an everyday verb of an action the goal's phrasing asks for
        ("prorroga" of a renewal phrased "renova", "log" of "open a ticket")."""
        return not actions_of(word).isdisjoint(self._carrier_actions)

    def _inflects_phrasing(self, word: str) -> bool:
        """Whether ``word`` is another form of a verb of the phrasing ("renovando", "renova",
        "renewing" of "renovar" and "renew")."""
        return len(word) >= MIN_VERB_STEM and verb_stem(word) in self._carrier_stems

    def free_text(self, entities: Entities) -> list[str]:
        """The values in ``entities`` of the goal's free-text entities (a problem, a message):
        what the person says there is the request's payload, not words that ask for the goal."""
        return [
            value
            for name, value in entities.items()
            if name in self._contexts and self._contexts[name].free and isinstance(value, str)
        ]

    def only_typed(self, entities: Entities) -> bool:
        """Whether every value in ``entities`` is of a type any request can carry (a date, a
        time, a number, an amount) rather than something only this goal knows."""
        return all(name in self._typed or name in self._typed_text for name in entities if name in self.specs)

    def of_a_kind_of_its_own(self, entities: Entities) -> bool:
        """Whether a value in ``entities`` is of a type no other request carries by chance (a phone
        number, an e-mail address, a link), unlike a day or a number."""
        return any(name in self.specs and self.specs[name].type in _OWN_KINDS for name in entities)

    def from_table(self, entities: Entities) -> bool:
        """Whether a value in ``entities`` is an entry of its entity's lookup table (a product, a
        city: names only this goal knows, unlike an enum's everyday words such as "up"), or a code
        of the examples' letters ("PX7388")."""
        for name, value in entities.items():
            spec = self.specs.get(name)
            if spec is None:
                continue
            if name in self._contexts and self._prefixed(name, value):
                return True
            if spec.type == "string" and spec.lookup:
                items = value if isinstance(value, list) else [value]
                if items and all(self._is_known(tuple(words(str(item)))) for item in items):
                    return True
        return False

    @cached_property
    def has_tables(self) -> bool:
        """Whether a value of this goal can come from a lookup table or be a code of its
        examples' letters (what :meth:`from_table` looks for)."""
        return any(spec.type == "string" and spec.lookup for spec in self.specs.values()) or any(
            context.prefixes for context in self._contexts.values()
        )

    def coded(self, entities: Entities) -> bool:
        """Whether a value in ``entities`` is a code of the examples' letters ("PX7388"), which
        names this goal's things and nothing else."""
        return any(name in self._contexts and self._prefixed(name, value) for name, value in entities.items())

    def one_entry(self, name: str, a: EntityValue | None, b: EntityValue | None) -> bool:
        """Whether names ``a`` and ``b`` of entity ``name`` are one entry of its lookup table,
        written two ways ("seoul room" and "seoul")."""
        if not isinstance(a, str) or not isinstance(b, str):
            return False
        entries = self._entries.get(name, {})
        entry = entries.get(tuple(words(a)))
        return entry is not None and entry == entries.get(tuple(words(b)))

    def writes_in_a_value(self, word: str) -> bool:
        """Whether ``word`` is written in a typed value its examples annotate ("4 *pessoas*")."""
        return any(word in said for said in self._annotated_words.values())

    def knows_value(self, value: str) -> bool:
        """Whether ``value`` is a value this goal knows: annotated in its examples or an entry
        of one of its lookup tables ("lemon pie" of a bakery's items)."""
        return self._is_known(tuple(words(value)))

    def unlisted_required(self, entities: Entities) -> list[str]:
        """The required entities with a lookup table whose values in ``entities`` name nothing
        of the table's: "chama um *uber*" names no product of the shop's; a list that names one
        ("Apple ... e a Microsoft" beside words read as a third) is the table's."""
        return [
            name
            for name, value in entities.items()
            if (spec := self.specs.get(name)) is not None
            and spec.required
            and spec.type == "string"
            and spec.lookup
            and not any(
                self._is_known(tuple(words(str(v)))) for v in (value if isinstance(value, list) else [value])
            )
        ]

    def currencies(self, entities: Entities, language: str) -> list[str]:
        """The values of required string entities that name a currency the examples never name
        ("quanto tá o *dólar*?" of a stock quote's company): what the message asks about is
        money, not the entity's kind of thing."""
        return [
            str(item)
            for name, value in entities.items()
            if (spec := self.specs.get(name)) is not None and spec.required and spec.type == "string"
            for item in (value if isinstance(value, list) else [value])
            if not self._is_known(tuple(words(str(item)))) and names_a_currency(str(item), language)
        ]

    def evidenced(self, entities: Entities) -> bool:
        """Whether every value in ``entities`` shows it is its entity by more than its place in
        the sentence: a value of the entity's table, an enum or boolean phrase, or a span of the
        entity's type (a date, a time, a number...). A free phrase or a name a table does not
        list is not evidence ("schedule a *team meeting*")."""
        for name, value in entities.items():
            spec = self.specs.get(name)
            if spec is None:
                return False
            if spec.type != "string" or name in self._typed_text:
                continue
            if name in self._contexts and self._contexts[name].free:
                continue  # a phrase is only read after its cue: the cue is the evidence
            if name in self._contexts and self._prefixed(name, value):
                continue  # "vs 3145": the examples' codes are written so ("VS3012")
            if (
                name in self._contexts
                and self._contexts[name].addresses
                and not isinstance(value, list)
                and _a_number_and_a_word(words(str(value)))
            ):
                continue  # "800 Hill Road": an address with its number, as the examples write one
            if not spec.lookup:
                return False
            for item in value if isinstance(value, list) else [value]:
                if not self._is_known(tuple(words(str(item)))):
                    return False
        return True

    def codes_of_their_shape(self, entities: Entities) -> bool | None:
        """Whether the codes ``entities`` holds (values of an entity whose annotated values are all
        letters then digits, "PR48125") start with the letters the examples' codes do; ``None``
        when it holds none."""
        coded = [name for name in entities if name in self._contexts and self._contexts[name].prefixes]
        if not coded:
            return None
        return all(self._prefixed(name, entities[name]) for name in coded)

    def _prefixed(self, name: str, value: EntityValue) -> bool:
        """Whether every item of ``value`` is a code of the annotated codes' shape: their letters
        first, then digits."""
        context = self._contexts[name]
        for item in value if isinstance(value, list) else [value]:
            shape = _LETTERED.fullmatch(str(item).lower())
            if shape is None or shape.group(1) not in context.prefixes:
                return False
            if len(shape.group(2)) < CODE_PART_DIGITS:
                return False
        return True

    def _only_request(self, toks: list[Token]) -> bool:
        """``toks`` are the request's own words, some of them more than function words or
        filler ("Oi," before a comma is no request)."""
        return all(self._request_word(t) for t in toks) and any(t.text not in NOT_ENTITY for t in toks)

    def _request_word(self, tok: Token) -> bool:
        """A word of the request itself: phrasing, or a word of an enum or boolean value
        ("chamado *urgente*, ...") or another verb of its action ("*log* a ticket, ...")."""
        return self._phrasing(tok) or tok.text in self._enum_and_bool_words or self._same_action(tok.text)

    def _phrasing(self, tok: Token) -> bool:
        """A function word, filler or a word of the goal's own phrasing: no part of a value."""
        return tok.text in NOT_ENTITY or tok.text in self._carrier

    def _is_content(self, tok: Token) -> bool:
        return tok.text not in NOT_ENTITY and tok.text not in self._carrier


#: The form a typed span gives a string entity that learned one (a datetime is a day).
_FORMS = {"date": "date", "datetime": "date", "time": "time", "number": "number", "money": "money"}
_FORMS |= {"duration": "duration"}
#: The instant annotated values are read at: their form does not depend on it.
_LEARNING_CLOCK = Clock(now=datetime(2026, 1, 7, 12, 0, tzinfo=ZoneInfo("UTC")))


#: English modal verbs, which an enum may list as a value's word too ("may" of May)
_MODAL_VERBS = frozenset({"may", "can", "will", "must", "might", "shall"})
#: the words a modal verb opens a question or sits between: "may I", "you may", "it may rain"
_SUBJECTS = frozenset({"i", "you", "we", "he", "she", "it", "they", "eu", "voce"})


def _a_modal_verb(phrase: list[str], toks: list[Token], at: int) -> bool:
    """Whether the one-word phrase at ``at`` that is also a modal verb ("may") is that verb where
    it stands: it opens the message, or a subject is said right before or after it."""
    if len(phrase) != 1 or phrase[0] not in _MODAL_VERBS:
        return False
    before = toks[at - 1].text if at > 0 else None
    after = toks[at + 1].text if at + 1 < len(toks) else None
    return before is None or before in _SUBJECTS or after in _SUBJECTS


#: typed values that say what a request is about
_OWN_KINDS = frozenset({"phone", "email", "url"})
#: a duration of whole days, and the words of weeks and of days
_WHOLE_DAYS = re.compile(r"P(\d+)D")
#: Words that say a count is a rough one ("*about* 8 months", "*uns* 3 meses"). Accent-free.
_ROUGHLY = frozenset({"about", "around", "roughly", "approximately", "like", "uns", "umas", "cerca", "de"})
_WEEK_WORDS = frozenset({"week", "weeks", "semana", "semanas"})
_DAY_WORDS = frozenset({"day", "days", "dia", "dias"})


def _a_number_and_a_word(said: Sequence[str]) -> bool:
    """Whether the words ``said`` hold a number and a word ("Rua Augusta 1200", "200 Oak Street")."""
    return any(w.isdigit() for w in said) and any(w.isalpha() for w in said)


def _numbers_joined(toks: list[Token], spans: list[_Span]) -> list[_Span]:
    """``spans`` with each number joined to the words right before or after it ("rua harmonia
    300", "10 pine road"): the value of an entity whose annotated values write one inside."""
    out: list[_Span] = []
    for span in spans:
        if out and out[-1].last + 1 == span.first and _one_is_a_number(toks, out[-1], span):
            last = out[-1]
            out[-1] = _Span(last.first, span.last, last.start, span.end, known=last.known or span.known)
        else:
            out.append(span)
    return out


def _one_is_a_number(toks: list[Token], left: _Span, right: _Span) -> bool:
    def number(span: _Span) -> bool:
        return all(t.text.isdigit() for t in toks[span.first : span.last + 1])

    return number(left) != number(right)


def _a_number_before_a_name(toks: list[Token], inside: list[int]) -> bool:
    """Whether the words of a time read end in a bare number followed by a word ("at 10 pine
    road"): a number written as a clock's is none ("at 10am", "às 10h")."""
    last = inside[-1]
    after = toks[last + 1].text if last + 1 < len(toks) else None
    return toks[last].text.isdigit() and after is not None and after.isalpha() and after not in NOT_ENTITY


def _a_verb_form(word: str) -> bool:
    """Whether ``word`` ends as only a verb's past or gerund does ("acabou", "caiu", "faltando",
    "stopped", "leaking")."""
    return len(word) >= MIN_VERB_STEM + 2 and _VERB_ONLY_ENDING.search(word) is not None


_VERB_ONLY_ENDING = re.compile(r"(?:ou|iu|aram|eram|iram|ando|endo|indo|ed|ing)$")


def _phrasing_of(goal: Goal) -> set[str]:
    """The words of ``goal``'s examples that are none of the values they annotate."""
    out: set[str] = set()
    for example in goal.examples:
        if isinstance(example, GoalExample):
            values = {
                w
                for v in example.entities.values()
                for item in (v if isinstance(v, list) else [v])
                for w in words(str(item))
            }
            out.update(w for w in words(example.text) if w not in values)
        else:
            out.update(words(example))
    return out


def _annotated(goal: Goal, name: str) -> list[str]:
    """The values ``goal``'s examples annotate for entity ``name``, as written."""
    out: list[str] = []
    for example in goal.examples:
        if isinstance(example, GoalExample):
            value = example.entities.get(name)
            out.extend(str(v) for v in (value if isinstance(value, list) else [value]) if v is not None)
    return out


#: letters written against digits in one word: a code ("CR7781", "BK6107"), never an amount
_CODE = re.compile(r"[^\W\d_]\d")


def _form_of(values: list[str]) -> str | None:
    """The typed form (date, time, number, money, duration) most annotated values have: each read
    whole, in any language; ``None`` for fewer than two values, for codes made only of digits
    (order numbers keep the digit shape) or when no form covers most of them."""
    if len(values) < 2 or all(v.strip().isdigit() for v in values):
        return None
    forms: Counter[str] = Counter()
    for value in values:
        for language in LANGUAGES:
            spans = RECOGNIZER.spans(
                value, language, time_zone=_LEARNING_CLOCK.time_zone, now=_LEARNING_CLOCK.now
            )
            whole = [s for s in spans if (s.end - s.start) >= 0.6 * len(value.strip()) and s.type in _FORMS]
            if whole and _FORMS[whole[0].type] in ("number", "money") and _CODE.search(value):
                break  # "CR7781" is a code, though English Duckling reads "cr" as a crore
            if whole:
                forms[_FORMS[whole[0].type]] += 1
                break
    if not forms:
        return None
    if forms["money"]:  # "19,90" beside "R$ 30": an amount whose currency was left unsaid
        forms["money"] += forms.pop("number", 0)
    form, count = forms.most_common(1)[0]
    return form if count >= 0.6 * len(values) else None


def _split_datetimes(
    text: str, spans: list[TypedSpan], forms: set[str], language: str, clock: Clock
) -> list[TypedSpan]:
    """A datetime span cut into its day and its time ("amanhã às 14h" -> "amanhã", "às 14h") when
    entities of both forms want their own words."""
    if not {"date", "time"} <= forms:
        return spans
    out: list[TypedSpan] = []
    for span in spans:
        parts = _day_and_time(text, span, language, clock) if span.type == "datetime" else None
        out.extend(parts or [span])
    return out


def _day_and_time(text: str, span: TypedSpan, language: str, clock: Clock) -> list[TypedSpan] | None:
    body = text[span.start : span.end]
    cuts = [m.start() for m in re.finditer(r"\s+", body)]
    for cut in cuts:
        left, right = body[:cut], body[cut:].lstrip()
        offset = span.start + len(body) - len(right)
        read_left = RECOGNIZER.spans(left, language, time_zone=clock.time_zone, now=clock.now)
        read_right = RECOGNIZER.spans(right, language, time_zone=clock.time_zone, now=clock.now)
        kinds = ([s.type for s in read_left], [s.type for s in read_right])
        if kinds in ((["date"], ["time"]), (["time"], ["date"])):
            a, b = read_left[0], read_right[0]
            return [
                replace(a, start=span.start + a.start, end=span.start + a.end),
                replace(b, start=offset + b.start, end=offset + b.end),
            ]
    return None


#: The word right after a span, and the last word inside one.
_NEXT_WORD = re.compile(r"[\s-]*(\w+)")
_LAST_WORD = re.compile(r"[\s-]+\w+\W*$")

#: The words a street's name opens with in Portuguese ("*rua* harmonia 300") or ends with in
#: English ("45 pine *road*"), besides those an address's annotated values open with.
_STREET_HEADS = frozenset(
    {"rua", "r", "av", "avenida", "alameda", "al", "travessa", "tv", "estrada", "rodovia", "rod"}
    | {"praca", "largo", "viela", "beco"}
)
_STREET_TAILS = frozenset(
    {"street", "st", "road", "rd", "avenue", "ave", "lane", "ln", "court", "ct", "way", "drive"}
    | {"dr", "boulevard", "blvd", "place", "pl", "terrace"}
)
#: How many words a street's name has at most between its head or tail and its number.
_STREET_NAME_WORDS = 4

#: Words that take back the value just said and give another: "quinta, *digo*, sexta", "at 7pm,
#: *I mean* 8pm"; a bare "não"/"no" only between commas ("sábado, não, domingo").
_TAKEN_BACK = re.compile(
    r"(?:\b(?:digo|quer\s+dizer|ou\s+melhor|ali[aá]s|corrigindo|i\s+mean|i\s+meant|or\s+rather"
    r"|make\s+(?:it|that)|no\s+wait|sorry)\b|,\s*(?:n[aã]o|no)\s*,)"
    r"[\s,.:;!…-]*(?:(?:às|as|a|o|na|no|pra|para|pro|on|at|for|the)\s+)?$",
    re.IGNORECASE,
)


def _kinds(span: TypedSpan) -> frozenset[str]:
    return frozenset({"date", "time"}) if span.type == "datetime" else frozenset({span.type})


def _taken_back(text: str, spans: list[TypedSpan]) -> list[TypedSpan]:
    """``spans`` without what a correction in the same message takes back: the nearest earlier
    value of the corrected kind ("quinta, digo, sexta" is Friday; "friday at 7pm, I mean
    saturday" keeps 7pm and moves the day)."""
    out = list(spans)
    for later in spans:
        marker = _TAKEN_BACK.search(text, 0, later.start)
        if marker is None:
            continue
        earlier = next(
            (
                s
                for s in reversed(out)
                if s.start < marker.start() and s is not later and _kinds(s) & _kinds(later)
            ),
            None,
        )
        if earlier is None:
            continue
        kept = _kinds(earlier) - _kinds(later)
        index = out.index(earlier)
        if not kept:
            del out[index]
        else:
            (part,) = kept
            value = _typed_part(earlier, part)
            assert value is not None
            out[index] = replace(earlier, type=part, value=value, earlier=None)
    return out


def _typed_spans(text: str, language: str, clock: Clock, wanted: set[str]) -> list[TypedSpan]:
    """The typed spans of ``text`` read in its language; when its words do not tell the language
    ("Tóquio 14h") and that reading gives none of the ``wanted`` types, in the others too (never
    for a message whose words are Portuguese: English Duckling reads "bom" as a day)."""
    told = vote(text) is not None
    languages = [language, *(code for code in LANGUAGES if code != language and not told)]
    for code in languages:
        spans = _read_typed(text, code, clock)
        if code != language:
            # another language's day is trusted written in digits only ("14h"): its words are
            # that language's ("inside *out*" is no October)
            spans = [
                s
                for s in spans
                if s.type not in _DAY_TYPES or any(c.isdigit() for c in text[s.start : s.end])
            ]
        if any(_typed_part(s, kind) is not None for s in spans for kind in wanted):
            return spans
    return _read_typed(text, language, clock)


#: A number of three digits or more standing alone: an apartment, a room, a code; never a day or
#: an hour ("no 1001 amanhã", "the heater in 302 on Sunday" read as a year and 03:02).
_BARE_NUMBER = re.compile(r"(?<![\d:/.,])\d{3,}(?![\d:/.,]|\s*(?:h|hs|am|pm)\b)", re.IGNORECASE)


#: A year written after a month ("March 1st 2025", "1 de março de 2025", "março, 2025"): a bare
#: number that is part of the day.
_YEAR_OF_A_MONTH = re.compile(
    r"\b(?:jan(?:eiro|uary)?|fev(?:ereiro)?|feb(?:ruary)?|mar(?:[çc]o|ch)?|abr(?:il)?|apr(?:il)?|maio|may"
    r"|jun(?:ho|e)?|jul(?:ho|y)?|ago(?:sto)?|aug(?:ust)?|set(?:embro)?|sep(?:t(?:ember)?)?"
    r"|out(?:ubro)?|oct(?:ober)?|nov(?:embro|ember)?|dez(?:embro)?|dec(?:ember)?)\.?"
    r"(?:\s+\d{1,2}(?:st|nd|rd|th)?)?,?\s+(?:(?:de|of)\s+)?((?:19|20)\d{2})\b",
    re.IGNORECASE,
)


def _read_typed(text: str, language: str, clock: Clock) -> list[TypedSpan]:
    """The recogniser's spans, with the days and times read again without the bare numbers in
    them, which name no day or hour (numbers and amounts keep them)."""
    spans = RECOGNIZER.spans(text, language, time_zone=clock.time_zone, now=clock.now)
    years = {m.start(1) for m in _YEAR_OF_A_MONTH.finditer(text)}
    bare = [m for m in _BARE_NUMBER.finditer(text) if m.start() not in years]
    if not any(
        span.type in _DAY_TYPES and m.start() < span.end and span.start < m.end()
        for span in spans
        for m in bare
    ):
        return spans
    masked = _BARE_NUMBER.sub(lambda m: m.group() if m.start() in years else " " * len(m.group()), text)
    days = [
        _without(span, bare, text)
        for span in RECOGNIZER.spans(masked, language, time_zone=clock.time_zone, now=clock.now)
        if span.type in _DAY_TYPES
    ]
    # "tradução de 2000 palavras", "about 600 words": a day or an hour that was only the number
    # (and a preposition or a hedge) leaves the number, which it hid
    numbers = [
        TypedSpan("number", int(m.group()), m.start(), m.end())
        for m in bare
        if any(
            span.type in _DAY_TYPES
            and span.start <= m.start()
            and m.end() <= span.end
            and _A_PREPOSITION_OR_A_HEDGE.fullmatch(text[span.start : m.start()] + text[m.end() : span.end])
            for span in spans
        )
    ]
    return sorted([*(s for s in spans if s.type not in _DAY_TYPES), *days, *numbers], key=lambda s: s.start)


#: What a day read around a bare number may hold beside it and still be only that number: a
#: preposition or a hedge ("de 2000", "about 600").
_A_PREPOSITION_OR_A_HEDGE = re.compile(
    r"\s*(?:de|do|da|em|no|na|in|of|on|at|" + _HEDGE + r")?\s*", re.IGNORECASE
)


def _without(span: TypedSpan, bare: list[re.Match[str]], text: str) -> TypedSpan:
    """``span`` cut short of the bare numbers it spans ("no [1001] amanhã às 8h" is "amanhã às
    8h"): what is before a number inside it is dropped, or what is after it when the number is
    nearer its end."""
    start, end = span.start, span.end
    for m in bare:
        if start <= m.start() < end:
            if m.start() - start <= end - m.end():
                start = m.end()
            else:
                end = m.start()
    while start < end and text[start].isspace():
        start += 1
    while end > start and text[end - 1].isspace():
        end -= 1
    return replace(span, start=start, end=end)


def _read_in_each_language(text: str) -> Iterator[list[TypedSpan]]:
    """The typed spans of ``text`` alone (a word, a value's words), read in each language."""
    clock = Clock(now=utcnow())
    for code in LANGUAGES:
        yield RECOGNIZER.spans(text, code, time_zone=clock.time_zone, now=clock.now)


def _written_number(text: str) -> float | None:
    """The number ``text`` is, all of it ("3", "vinte", "twenty"); ``None`` otherwise."""
    for spans in _read_in_each_language(text):
        if len(spans) == 1 and spans[0].type == "number" and (spans[0].start, spans[0].end) == (0, len(text)):
            value = spans[0].value
            return float(value) if isinstance(value, int | float) else None
    return None


def _a_value_word(word: str, kind: str) -> bool:
    """Whether ``word`` alone reads as a value of type ``kind`` ("4", "quatro", "four")."""
    readings = _read_in_each_language(word)
    return any(_typed_part(span, kind) is not None for spans in readings for span in spans)


def _number_or_text(value: object) -> object:
    """A whole float as an int ("2.0" was said "2"); any other value as it is."""
    return int(value) if isinstance(value, float) and value.is_integer() else value


def _typed_part(span: TypedSpan, kind: str) -> TypedValue | None:
    """What ``span`` gives an entity of type ``kind``: its value, a datetime's date or time, or
    nothing (a bare time gives no date, a date no time)."""
    if span.type == kind:
        return span.value
    if span.type == "datetime" and isinstance(span.value, str):
        if kind == "date":
            return span.value[:10]
        if kind == "time":
            return span.value[11:16]
    return None


def _date_and_time(
    spans: list[TypedSpan], taken: set[tuple[int, str]], clock: Clock
) -> tuple[str, set[int]] | None:
    """A datetime from a date and a time said apart ("dia 15 ... às 14h"), in the person's zone."""
    date = next((k for k, s in enumerate(spans) if s.type == "date" and (k, "date") not in taken), None)
    time = next((k for k, s in enumerate(spans) if s.type == "time" and (k, "time") not in taken), None)
    if date is None or time is None:
        return None
    moment = datetime.fromisoformat(f"{spans[date].value}T{spans[time].value}").replace(
        tzinfo=ZoneInfo(clock.time_zone)
    )
    taken.update({(date, "date"), (time, "time")})
    return moment.isoformat(timespec="seconds"), {date, time}


#: The words that say a value is not the one meant: "plumber *not* cleaner", "pintor, *não* faxina".
_NOT = frozenset({"not", "nao"})


def _negated(text: str, toks: list[Token], i: int) -> bool:
    """Whether the word at ``i`` follows a "not" inside a message (not its opening "não", which
    answers: "não, faxina" asks for cleaning), with no punctuation between them."""
    return i >= 2 and toks[i - 1].text in _NOT and not text[toks[i - 1].end : toks[i].start].strip()


#: The words before a boolean's synonym that say it is off: "*sem* café da manhã", "*not* late".
_OFF = frozenset({"sem", "without", "not", "nao"})


def _switched_off(text: str, toks: list[Token], i: int, language: str | None) -> bool:
    """Whether the boolean synonym at ``i`` is said off: right after "sem", "without", "not", or
    the English "no" ("no breakfast"; the Portuguese "no" is "in the")."""
    if i == 0 or text[toks[i - 1].end : toks[i].start].strip():
        return False
    before = toks[i - 1].text
    return before in _OFF or (before == "no" and language == "en")


def _shape(code: str) -> str:
    """A code's shape: each digit a 9, each letter an a ("2e19" is "9a99")."""
    return "".join("9" if c.isdigit() else "a" for c in code)


def value_words(value: str) -> list[str]:
    """The words of ``value``, a code's letters and digits also apart: "cn 4821" says "cn4821"."""
    out: list[str] = []
    for word in words(value):
        out.append(word)
        code = _LETTERED.fullmatch(word)
        if code is not None:
            out.extend(code.groups())
    return out


def _listed_together(toks: list[Token], a: _Span, b: _Span) -> bool:
    """Only commas or list words ("e", "and") stand between spans ``a`` and ``b``."""
    return all(t.text in LIST_SEPARATORS for t in toks[a.last + 1 : b.first])


def capitalised_inside(text: str, toks: list[Token], i: int) -> bool:
    """Token ``i`` starts with a capital that the start of a sentence does not explain."""
    if not text[toks[i].start].isupper():
        return False
    gap = text[toks[i - 1].end : toks[i].start] if i > 0 else "."
    return not _SENTENCE_END.search(gap)


def _looks_like_name(text: str, toks: list[Token], span: _Span) -> bool:
    """Written like a name: a capital not owed to the sentence's start ("Apple", "itaú
    Unibanco"), all capitals ("WEG") or letters with digits ("PETR4")."""
    for i in range(span.first, span.last + 1):
        word = text[toks[i].start : toks[i].end]
        letters = [c for c in word if c.isalpha()]
        if letters and any(c.isdigit() for c in word):
            return True
        if len(letters) >= 2 and all(c.isupper() for c in letters):
            return True
        if letters and capitalised_inside(text, toks, i):
            return True
    return False


def normalised_in(value: str, text: str) -> bool:
    """Whether ``value`` occurs in ``text`` ignoring accents/case (used to distrust LLM spans)."""
    v = " ".join(words(value))
    return bool(v) and f" {v} " in f" {' '.join(words(text))} "
