"""More ways to say each goal, made from its own manifest: the examples with other values of
their lookup tables swapped in ("clima em salvador" -> "clima em floripa"), written the way
people type in chat (lower case, no accents, shorthands such as "vc", "qto", "hj", "pls").

Measured on ``bench/understanding_eval.py`` (dev) and CLINC150 (``bench/intent_eval.py``);
results in ``bench/results/understanding.md``. The texts are always-train documents: they never
sit in the held-out part a calibration is fitted on.
"""

from __future__ import annotations

import re

from shared.i18n.folding import fold
from shared.manifest import Goal, GoalExample

#: Chat shorthands, by the word they stand for (Portuguese and English).
SHORTHANDS: dict[str, str] = {
    "você": "vc",
    "voce": "vc",
    "quanto": "qto",
    "quando": "qnd",
    "hoje": "hj",
    "está": "ta",
    "tá": "ta",
    "não": "nao",
    "também": "tb",
    "porque": "pq",
    "por favor": "pfv",
    "próxima": "prox",
    "próximo": "prox",
    "amanhã": "amanha",
    "please": "pls",
    "tomorrow": "tmrw",
    "appointment": "appt",
    "right now": "rn",
    "thanks": "thx",
    "you": "u",
    "what's": "whats",
}
_SHORTHAND = re.compile(
    r"\b(" + "|".join(map(re.escape, sorted(SHORTHANDS, key=len, reverse=True))) + r")\b", re.I
)
#: Lookup values swapped into one annotated example, at most.
SWAPS_PER_EXAMPLE = 2
#: Texts made for one goal, at most (a goal with a large table stays a goal among others).
MAX_PER_GOAL = 60


def chat_style(text: str) -> str:
    """``text`` as typed in a hurry: shorthands, lower case, no accents, no final punctuation.

    >>> chat_style("Você sabe quanto está o dólar hoje?")
    'vc sabe qto ta o dolar hj'
    """
    short = _SHORTHAND.sub(lambda m: SHORTHANDS[m.group(0).lower()], text)
    return fold(short).lower().rstrip(" ?!.")


def swapped(example: GoalExample, goal: Goal, offset: int) -> list[str]:
    """``example`` with other values of its entities' lookup tables in place of the annotated
    ones (the ``offset``-th values onwards, so examples spread over the table)."""
    out: list[str] = []
    for name, value in example.entities.items():
        spec = goal.entities_schema.get(name)
        if spec is None or not spec.lookup or not isinstance(value, str) or value not in example.text:
            continue
        names = [n for entry in spec.lookup for n in (entry.value, *entry.aliases)]
        for k in range(SWAPS_PER_EXAMPLE):
            other = names[(offset * SWAPS_PER_EXAMPLE + k) % len(names)]
            if fold(other).lower() != fold(value).lower():
                out.append(example.text.replace(value, other, 1))
    return out


def augmented(goal: Goal) -> list[str]:
    """The extra training texts of ``goal`` (none equal to an example)."""
    seen = {fold(t).lower() for t in goal.example_texts()}
    out: list[str] = []
    for index, example in enumerate(goal.examples):
        text = example if isinstance(example, str) else example.text
        variants = [chat_style(text)]
        if isinstance(example, GoalExample):
            variants += swapped(example, goal, index)
        for variant in variants:
            key = fold(variant).lower()
            if variant.strip() and key not in seen:
                seen.add(key)
                out.append(variant)
    return out[:MAX_PER_GOAL]
