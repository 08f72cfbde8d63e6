"""Accent and case folding, the one way every component compares what people type.

>>> fold("Cotação da Itaú, 30% mais!")
'cotacao da itau, 30% mais!'
>>> normalise("Cotação da Itaú!")
'cotacao da itau '
>>> words("Preço da Apple, Microsoft e Nvidia")
['preco', 'da', 'apple', 'microsoft', 'e', 'nvidia']
"""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache

_WORD = re.compile(r"[a-z0-9]+")


def fold(text: str) -> str:
    """Lower case without accents; punctuation, digits and symbols are kept."""
    decomposed = unicodedata.normalize("NFKD", text)
    return "".join(c for c in decomposed if not unicodedata.combining(c)).lower()


@lru_cache(maxsize=4096)
def _fold_char(ch: str) -> str:
    """One character -> one character: accent-free, lower case, anything else a space."""
    decomposed = unicodedata.normalize("NFKD", ch)
    base = next((c for c in decomposed if not unicodedata.combining(c)), " ").lower()
    return base if len(base) == 1 and base.isascii() and base.isalnum() else " "


def normalise(text: str) -> str:
    """Accent-free, lower-case, punctuation-free copy of ``text`` with the same length, so a
    word found in it maps straight back to the span the person wrote."""
    return "".join(_fold_char(ch) for ch in text)


def words(text: str) -> list[str]:
    """The accent-free, lower-case words (letters and digits) of ``text``."""
    return _WORD.findall(normalise(text))
