"""Manifest texts written in both languages: "texto em português (English text)", the convention
of every shipped manifest's descriptions, read as the half in the person's language.

>>> in_language("Preço atual de uma ação (current price of a stock)", "en")
'current price of a stock'
>>> in_language("Preço atual de uma ação (current price of a stock)", "pt")
'Preço atual de uma ação'
>>> in_language("CNPJ da empresa", "en")
'CNPJ da empresa'
"""

from __future__ import annotations

import re

_BILINGUAL = re.compile(r"\s*(?P<pt>.+?)\s*\((?P<en>[^()]+)\)\s*")


def in_language(text: str, language: str) -> str:
    """The half of ``text`` in ``language`` ('pt' or 'en'), or ``text`` when it has one only."""
    match = _BILINGUAL.fullmatch(text)
    chosen = (match.group("en") if language == "en" else match.group("pt")) if match else text
    return chosen.strip().rstrip(".")
