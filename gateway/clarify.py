"""Reading a person's answer to a pending question: which candidate or option did they pick?

Generic over any domain: candidates are dicts; what identifies one is the value of the
``choice_param`` key, its ``label``, its ``aliases`` and its position ("a primeira", "second").

>>> cands = [{"symbol": "NDA-SE.ST", "aliases": ["sueca", "Stockholm"]},
...          {"symbol": "NDA-FI.HE", "aliases": ["finlandesa", "Helsinki"]}]
>>> [choose(t, cands, "symbol") for t in ("a sueca", "A primeira", "nda-fi.he", "a de Helsinki", "tanto faz")]
[0, 0, 1, 1, None]
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Mapping, Sequence
from functools import lru_cache
from typing import Any

_ORDINALS: dict[str, int] = {
    **dict.fromkeys(["primeira", "primeiro", "first", "1", "1a", "1o", "1st", "um", "uma", "one"], 0),
    **dict.fromkeys(["segunda", "segundo", "second", "2", "2a", "2o", "2nd", "dois", "duas", "two"], 1),
    **dict.fromkeys(["terceira", "terceiro", "third", "3", "3a", "3o", "3rd", "tres", "three"], 2),
    **dict.fromkeys(["quarta", "quarto", "fourth", "4", "4a", "4o", "4th", "quatro", "four"], 3),
    **dict.fromkeys(["ultima", "ultimo", "last"], -1),
}
_YES = {
    "sim",
    "s",
    "yes",
    "y",
    "isso",
    "exato",
    "correto",
    "ok",
    "pode",
    "claro",
    "confirmo",
    "confirma",
    "certo",
}
_NO = {"nao", "no", "n", "nope", "errado", "negativo"}


@lru_cache(maxsize=4096)  # called on the same catalog words (synonyms, aliases) every turn
def normalise(text: str) -> str:
    """Lower case, no accents, punctuation to spaces (dots and dashes inside words kept)."""
    text = unicodedata.normalize("NFKD", text.lower())
    text = "".join(c for c in text if not unicodedata.combining(c))
    return " ".join(re.sub(r"[^\w.\-]+|(?<!\w)[.\-]|[.\-](?!\w)", " ", text).split())


def _contains(haystack: str, needle: str) -> bool:
    needle = normalise(needle)
    return bool(needle) and re.search(rf"(?<![\w.\-]){re.escape(needle)}(?![\w.\-])", haystack) is not None


def choose(reply: str, candidates: Sequence[dict[str, Any]], choice_param: str | None = None) -> int | None:
    """Index of the candidate the reply picks, or ``None`` when it picks none (or is ambiguous)."""
    text = normalise(reply)
    if not text or not candidates:
        return None
    # 1. the technical value itself ("NDA-SE.ST")
    if choice_param:
        exact = [
            i
            for i, c in enumerate(candidates)
            if c.get(choice_param) and _contains(text, str(c[choice_param]))
        ]
        if len(exact) == 1:
            return exact[0]
    # 2. a position ("a primeira", "2")
    words = text.split()
    positions = {_ORDINALS[w] for w in words if w in _ORDINALS}
    if len(positions) == 1:
        index = positions.pop()
        if -len(candidates) <= index < len(candidates):
            return index % len(candidates)
    # 3. a label or alias ("a sueca", "Helsinki"); the candidate with the most hits wins outright
    scores = []
    for cand in candidates:
        names = [str(cand.get("label", "")), str(cand.get("name", "")), *map(str, cand.get("aliases", []))]
        scores.append(sum(1 for n in names if _contains(text, n)))
    best = max(scores)
    if best > 0 and scores.count(best) == 1:
        return scores.index(best)
    return None


#: More options than this are cut short in the text (all stay in ``question.options``).
MAX_LISTED = 9


def option_label(option: Mapping[str, Any], choice_param: str | None = None) -> str:
    """How an option reads: its ``label`` (else ``name``), with the value that would be chosen.

    >>> option_label({"symbol": "NDA-FI.HE", "label": "Nordea (Helsinki)"}, "symbol")
    'Nordea (Helsinki) — NDA-FI.HE'
    >>> option_label({"symbol": "NDA-FI.HE"}, "symbol")
    'NDA-FI.HE'
    """
    value = str(option.get(choice_param, "")) if choice_param else ""
    label = str(option.get("label") or option.get("name") or "")
    if not label:
        return value or ", ".join(f"{k}: {v}" for k, v in option.items() if isinstance(v, str | int | float))
    return f"{label} — {value}" if value and normalise(value) not in normalise(label) else label


def listed(
    question: str, options: Sequence[Mapping[str, Any]], choice_param: str | None, language: str
) -> str:
    """``question`` followed by its options, numbered, unless it already names every one of them.

    A domain asks "Which one?" and sends the candidates as data; a chat client shows only text,
    so the person must see them to answer "the second" or "Helsinki".

    >>> print(listed("Which one?", [{"symbol": "A.ST", "label": "A (Stockholm)"},
    ...                             {"symbol": "A.HE", "label": "A (Helsinki)"}], "symbol", "en"))
    Which one?
    1. A (Stockholm) — A.ST
    2. A (Helsinki) — A.HE
    Reply with the number or the name.
    """
    if not options:
        return question
    said = normalise(question)
    names = [
        str((choice_param and o.get(choice_param)) or o.get("label") or o.get("name") or "") for o in options
    ]
    if all(name and normalise(name) in said for name in names):
        return question
    lines = [
        question,
        *(f"{i}. {option_label(o, choice_param)}" for i, o in enumerate(options[:MAX_LISTED], 1)),
    ]
    if len(options) > MAX_LISTED:
        more = len(options) - MAX_LISTED
        lines.append(f"… (+{more} mais)" if language != "en" else f"… (+{more} more)")
    lines.append(
        "Reply with the number or the name." if language == "en" else "Responda com o número ou o nome."
    )
    return "\n".join(lines)


def is_yes(reply: str) -> bool:
    words = normalise(reply).split()
    return bool(words) and len(words) <= 4 and words[0] in _YES


def is_no(reply: str) -> bool:
    words = normalise(reply).split()
    return bool(words) and len(words) <= 4 and words[0] in _NO
