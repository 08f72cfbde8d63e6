"""Text normalisation for matching what people type against names and tickers.

>>> normalize("  Itaú   Unibanco! ")
'itau unibanco'
>>> normalize("PETR4.SA")
'petr4.sa'
>>> strip_fillers("ações da Petrobras")
'petrobras'
"""

from __future__ import annotations

import re
import unicodedata

_KEEP = re.compile(r"[^a-z0-9.\- ]+")
_SPACES = re.compile(r"\s+")

#: Words around a company name that carry no identity ("a ação da Vale", "the Apple stock").
_FILLER_WORDS = """
    a o as os da do das dos de e em na no the of stock stocks share shares acao acoes papel papeis
    empresa company cotacao preco price ticker
"""
FILLERS = frozenset(_FILLER_WORDS.split())


def normalize(text: str) -> str:
    """Accent-free, case-folded, punctuation-free (dots and dashes kept: tickers use them)."""
    decomposed = unicodedata.normalize("NFKD", text)
    ascii_only = "".join(ch for ch in decomposed if not unicodedata.combining(ch)).casefold()
    return _SPACES.sub(" ", _KEEP.sub(" ", ascii_only)).strip(" .-")


def strip_fillers(text: str) -> str:
    """Normalised text without filler words; the original if nothing else would remain."""
    words = [w for w in normalize(text).split() if w not in FILLERS]
    return " ".join(words) if words else normalize(text)
