"""Reading a person's answer to a pending question: which option did they pick?

Generic over any domain: an option is a :class:`~shared.models.ClarificationOption`; what
identifies one is its ``value``, its ``label``, its ``aliases`` and its position ("a primeira",
"second").

>>> options = [ClarificationOption(value="NDA-SE.ST", aliases=["sueca", "Stockholm"]),
...            ClarificationOption(value="NDA-FI.HE", aliases=["finlandesa", "Helsinki"])]
>>> [choose(t, options) for t in ("a sueca", "A primeira", "nda-fi.he", "a de Helsinki", "tanto faz")]
[0, 0, 1, 1, None]
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence
from functools import lru_cache

from shared import i18n
from shared.models import ClarificationOption

_ORDINALS: dict[str, int] = {
    **dict.fromkeys(["primeira", "primeiro", "first", "1", "1a", "1o", "1st", "um", "uma", "one"], 0),
    **dict.fromkeys(["segunda", "segundo", "second", "2", "2a", "2o", "2nd", "dois", "duas", "two"], 1),
    **dict.fromkeys(["terceira", "terceiro", "third", "3", "3a", "3o", "3rd", "tres", "three"], 2),
    **dict.fromkeys(["quarta", "quarto", "fourth", "4", "4a", "4o", "4th", "quatro", "four"], 3),
    **dict.fromkeys(["ultima", "ultimo", "last"], -1),
}
#: The first word of a yes, in either language; a short reply only (``is_yes``), so "sure" is a
#: yes and "sure, but make it 9am" is not.
YES_WORDS = frozenset(
    [
        "sim",
        "s",
        "isso",
        "exato",
        "correto",
        "ok",
        "okay",
        "pode",
        "claro",
        "confirmo",
        "confirma",
        "confirmado",
        "certo",
        "perfeito",
        "beleza",
        "blz",
        "fechado",
        "bora",
        "yes",
        "y",
        "yep",
        "yeah",
        "yup",
        "sure",
        "absolutely",
        "definitely",
        "aham",
        "uhum",
        "fechou",
        "positivo",
        "correct",
        "exactly",
        "confirm",
        "confirmed",
        "fine",
        "perfect",
        "great",
        "alright",
        "agreed",
        "affirmative",
        "certainly",
        "otimo",
        "combinado",
        "confirmar",
    ]
)
#: Yeses of several words ("go for it", "pode ser"), read like the words above: at the start of
#: a short reply.
_YES_PHRASES = (
    ("go", "ahead"),
    ("go", "for", "it"),
    ("sounds", "good"),
    ("of", "course"),
    ("lets", "do", "it"),
    ("let", "s", "do", "it"),
    ("pode", "ser"),
    ("manda", "ver"),
    ("ta", "bom"),
    ("ta", "certo"),
    ("com", "certeza"),
    ("vai", "la"),
    ("that", "s", "right"),
    ("thats", "right"),
    ("that", "is", "right"),
    ("please", "do"),
    ("all", "right"),
    # a no that says there is nothing against it: a yes
    ("no", "problem"),
    ("no", "worries"),
    ("sem", "problema"),
    ("sem", "problemas"),
    ("nao", "tem", "problema"),
)
_NO = {"nao", "no", "n", "nope", "nah", "errado", "negativo"}
#: Whole replies that drop what was asked, with or without a no before them ("não, deixa pra
#: lá", "no, never mind"): a no, never a value ("deixa" is no medicine's name).
_DISMISSALS = {
    "deixa",
    "deixa pra la",
    "deixa para la",
    "deixa quieto",
    "esquece",
    "esquece isso",
    "esqueca",
    "pode esquecer",
    "nao precisa",
    "nao quero mais",
    "desisto",
    "deixa como esta",
    "deixa como ta",
    "deixa assim",
    "deixa pra proxima",
    "fica pra proxima",
    "deixa pra depois",
    "fica pra depois",
    "nem pensar",
    "melhor nao",
    "acho melhor nao",
    "prefiro nao",
    "better not",
    "rather not",
    "forget it",
    "forget that",
    "forget about it",
    "never mind",
    "nevermind",
    "no need",
    "skip it",
    "leave it",
    "leave it as is",
    "keep it as is",
    "not now",
    "maybe later",
}
#: Words that close a dismissal without changing it ("never mind *then*", "esquece, *valeu*").
_DISMISSAL_ENDINGS = frozenset(
    {"then", "thanks", "thank", "you", "please", "pls"}
    | {"entao", "mesmo", "obrigado", "obrigada", "valeu", "pfv"}
)
#: Where a reply's first clause ends: "deixa pra lá, devolvo amanhã" drops what was asked.
_CLAUSE_END = re.compile(r"[,.;!?]")
#: Words people put before their yes or no when they change their mind or hesitate ("actually
#: no, keep it", "hmm, sim", "pensando bem, não"): not part of the answer.
_HESITATIONS = (
    ("actually",),
    ("wait",),
    ("well",),
    ("hmm",),
    ("hm",),
    ("ah",),
    ("oh",),
    ("uh",),
    ("entao",),
    ("na", "verdade"),
    ("pensando", "bem"),
    ("on", "second", "thought"),
    ("on", "second", "thoughts"),
)


@lru_cache(maxsize=4096)  # called on the same catalog words (synonyms, aliases) every turn
def normalise(text: str) -> str:
    """Lower case, no accents, punctuation to spaces (dots and dashes inside words kept).

    >>> normalise("Ação, PETR4.SA!")
    'acao petr4.sa'
    """
    text = unicodedata.normalize("NFKD", text.lower())
    text = "".join(c for c in text if not unicodedata.combining(c))
    return " ".join(re.sub(r"[^\w.\-]+|(?<!\w)[.\-]|[.\-](?!\w)", " ", text).split())


def _contains(haystack: str, needle: str) -> bool:
    needle = normalise(needle)
    return bool(needle) and re.search(rf"(?<![\w.\-]){re.escape(needle)}(?![\w.\-])", haystack) is not None


def _value_text(option: ClarificationOption) -> str:
    value = option.value
    return str(value) if isinstance(value, str | int | float) and not isinstance(value, bool) else ""


def _label(option: ClarificationOption) -> str:
    name = option.data.get("name")
    return option.label or (name if isinstance(name, str) else "")


def choose(reply: str, options: Sequence[ClarificationOption]) -> int | None:
    """Index of the option the reply picks, or ``None`` when it picks none (or is ambiguous).

    >>> listings = [ClarificationOption(value="NDA-SE.ST", aliases=["swedish", "stockholm"]),
    ...             ClarificationOption(value="NDA-FI.HE", aliases=["finnish", "helsinki"])]
    >>> choose("the Finnish one", listings), choose("a segunda", listings), choose("3", listings)
    (1, 1, None)
    """
    text = normalise(reply)
    if not text or not options:
        return None
    # 1. the technical value itself ("NDA-SE.ST")
    exact = [i for i, o in enumerate(options) if _value_text(o) and _contains(text, _value_text(o))]
    if len(exact) == 1:
        return exact[0]
    # 2. a label or alias ("a sueca", "the Finnish one", "Helsinki"): before positions, since
    #    "one", "um", "uma" are also how a description ends ("the Finnish one", "a de Helsinki")
    scores = [sum(1 for n in (_label(o), *o.aliases) if _contains(text, n)) for o in options]
    best = max(scores)
    if best > 0 and scores.count(best) == 1:
        return scores.index(best)
    # 3. a position ("a primeira", "2")
    positions = {_ORDINALS[w] for w in text.split() if w in _ORDINALS}
    if len(positions) == 1:
        index = positions.pop()
        if -len(options) <= index < len(options):
            return index % len(options)
    return None


#: More options than this are cut short in the text (all stay in ``question.options``).
MAX_LISTED = 9


def option_label(option: ClarificationOption, *, with_value: bool = True) -> str:
    """How an option reads: its label, with the value that would be chosen.

    >>> option_label(ClarificationOption(value="NDA-FI.HE", label="Nordea (Helsinki)"))
    'Nordea (Helsinki) — NDA-FI.HE'
    >>> option_label(ClarificationOption(value="NDA-FI.HE"))
    'NDA-FI.HE'
    """
    value = _value_text(option) if with_value else ""
    label = _label(option)
    if not label:
        scalars = (f"{k}: {v}" for k, v in option.data.items() if isinstance(v, str | int | float))
        return value or ", ".join(scalars)
    return f"{label} — {value}" if value and normalise(value) not in normalise(label) else label


def listed(
    question: str, options: Sequence[ClarificationOption], language: str, *, with_value: bool = True
) -> str:
    """``question`` followed by its options, numbered, unless it already names every one of them.

    A domain asks "Which one?" and sends the options as data; a chat client shows only text,
    so the person must see them to answer "the second" or "Helsinki".

    >>> print(listed("Which one?", [ClarificationOption(value="A.ST", label="A (Stockholm)"),
    ...                             ClarificationOption(value="A.HE", label="A (Helsinki)")], "en"))
    Which one?
    1. A (Stockholm) — A.ST
    2. A (Helsinki) — A.HE
    Reply with the number or the name.
    """
    if not options:
        return question
    said = normalise(question)
    names = [(_value_text(o) if with_value else "") or _label(o) for o in options]
    if all(name and normalise(name) in said for name in names):
        return question
    lines = [
        question,
        *(f"{i}. {option_label(o, with_value=with_value)}" for i, o in enumerate(options[:MAX_LISTED], 1)),
    ]
    if len(options) > MAX_LISTED:
        more = len(options) - MAX_LISTED
        lines.append(i18n.t("dialogue.more_options", language, more=more))
    lines.append(i18n.t("dialogue.reply_with_option", language))
    return "\n".join(lines)


def _answer_words(reply: str) -> list[str]:
    """The reply's words after any hesitation it opens with ("actually no, keep it" -> "no keep it")."""
    words = normalise(reply).split()
    while True:
        lead = next((h for h in _HESITATIONS if tuple(words[: len(h)]) == h and len(words) > len(h)), None)
        if lead is None:
            return words
        words = words[len(lead) :]


def is_yes(reply: str) -> bool:
    """A short reply that starts with a yes ("sim", "ok, pode"), perhaps after a hesitation.

    >>> is_yes("Sim, pode ser"), is_yes("sim mas na verdade eu queria outra coisa"), is_yes("hmm, ok")
    (True, False, True)
    """
    words = _answer_words(reply)
    if not words or len(words) > 4:
        return False
    return words[0] in YES_WORDS or _opens_with_yes_phrase(words)


def after_yes(reply: str) -> str | None:
    """The words, as written, after the yes a short reply opens with ("pode ser girassóis" ->
    "girassóis"); ``None`` when the reply is no yes or nothing but one.

    >>> after_yes("pode ser girassóis"), after_yes("sure, make it 4"), after_yes("sim, pode ser")
    ('girassóis', 'make it 4', 'pode ser')
    >>> after_yes("ok") is None, after_yes("Sim.") is None, after_yes("não, pra sexta") is None
    (True, True, True)
    """
    if not is_yes(reply):
        return None
    said = _answer_words(reply)
    yes = max((len(p) for p in _YES_PHRASES if tuple(said[: len(p)]) == p), default=1)
    opening = len(normalise(reply).split()) - len(said) + yes
    written = reply.split()
    for k in range(1, len(written) + 1):
        if len(normalise(" ".join(written[:k])).split()) >= opening:
            return " ".join(written[k:]).strip(" ,;:-!.") or None
    return None


def _opens_with_yes_phrase(words: list[str]) -> bool:
    return any(tuple(words[: len(p)]) == p for p in _YES_PHRASES)


def is_no(reply: str) -> bool:
    """A short reply that starts with a no ("não", "nope"), perhaps after a hesitation.

    >>> is_no("Não"), is_no("nordea"), is_no("actually no, keep it"), is_no("na verdade não")
    (True, False, True, True)
    >>> is_no("actually"), is_no("actually I want the other one"), is_no("no problem")
    (False, False, False)
    """
    words = _answer_words(reply)
    if _opens_with_yes_phrase(words):
        return False  # "no problem", "não tem problema"
    return bool(words) and ((len(words) <= 4 and words[0] in _NO) or is_dismissal(reply))


def opens_with_no(reply: str) -> bool:
    """A reply whose first clause is a no, whatever reasons follow it: for a question whose
    corrections were read first (an approval's "não, pra segunda" changes the day before this
    is asked).

    >>> opens_with_no("no wait, I'll stay"), opens_with_no("não. mudei de ideia, fico no curso")
    (True, True)
    >>> opens_with_no("no problem, go ahead"), opens_with_no("nordea, a sueca")
    (False, False)
    """
    first = _CLAUSE_END.split(reply, maxsplit=1)[0]
    return is_no(first)


def is_dismissal(reply: str) -> bool:
    """A reply that drops what was asked ("deixa pra lá", "esquece", "never mind"), perhaps
    after a no or a hesitation.

    >>> is_dismissal("não, deixa pra lá"), is_dismissal("no, never mind"), is_dismissal("não, pra amanhã")
    (True, True, False)
    """
    if _dismisses(_answer_words(reply)):
        return True
    # only its first clause, with a reason after it ("deixa pra lá, devolvo amanhã mesmo"): a
    # dismissal of more than one word, and nothing after it that could be a new value
    first, *rest = _CLAUSE_END.split(reply, maxsplit=1)
    words = _answer_words(first)
    return bool(rest) and len(words) > 1 and not any(c.isdigit() for c in rest[0]) and _dismisses(words)


def _dismisses(words: list[str]) -> bool:
    if words and words[0] in _NO:
        words = words[1:]
    while words and words[-1] in _DISMISSAL_ENDINGS:
        words = words[:-1]
    return " ".join(words) in _DISMISSALS
