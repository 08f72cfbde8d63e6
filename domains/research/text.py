"""Small text helpers: accent folding that keeps punctuation, words, token estimate.

The language of a text is :func:`shared.i18n.detect`'s to tell; :data:`Lang` is the platform's
:data:`shared.i18n.Language`.

>>> fold("Método incremental é 30% mais rápido!")
'metodo incremental e 30% mais rapido!'
>>> words("Método incremental é 30% mais rápido!")
['metodo', 'incremental', 'e', '30', 'mais', 'rapido']
>>> estimate_tokens("uma frase curta"), estimate_tokens("")
(4, 0)
"""

from __future__ import annotations

import math
import re

from shared.i18n import Language, fold

__all__ = ["Lang", "estimate_tokens", "fold", "lower_first", "sentence", "words"]

Lang = Language

_WORD = re.compile(r"[a-z0-9]+")


def words(text: str) -> list[str]:
    """The accent-free, lower-case words of ``text`` (:func:`fold` keeps what rules need)."""
    return _WORD.findall(fold(text))


def estimate_tokens(text: str) -> int:
    """Offline token estimate: the larger of the word count and characters / 4 (no tokenizer)."""
    if not text:
        return 0
    return max(len(text.split()), math.ceil(len(text) / 4))


def sentence(text: str) -> str:
    """Trimmed, without trailing punctuation, first letter upper-cased."""
    text = " ".join(text.split()).strip(" .;,!")
    return text[:1].upper() + text[1:] if text else text


def lower_first(text: str) -> str:
    """Lower-case the first letter unless the first word is an acronym ('TDD', 'LLMs')."""
    first = text.split(" ", 1)[0]
    if sum(1 for c in first if c.isupper()) > 1:
        return text
    return text[:1].lower() + text[1:]
