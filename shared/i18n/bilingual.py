"""Manifest texts in more than one language, read in the person's language.

A manifest description is either an object by language code (``{"pt": "Cotação atual", "en":
"Current price"}``) or, as older manifests write it, one string "texto em português (English
text)" whose half in the person's language is used. :func:`text_in` is the one reader of both
forms; its fallback, when the language asked for is missing: English, then Portuguese, then
whichever language the text has.

>>> text_in({"pt": "Cotação atual", "en": "Current price"}, "en")
'Current price'
>>> text_in({"pt": "Cotação atual"}, "en")
'Cotação atual'
>>> text_in("Preço atual de uma ação (current price of a stock)", "en")
'current price of a stock'
>>> in_language("Preço atual de uma ação (current price of a stock)", "pt")
'Preço atual de uma ação'
>>> in_language("CNPJ da empresa", "en")
'CNPJ da empresa'
"""

from __future__ import annotations

import re
from collections.abc import Mapping

from shared.i18n.languages import LANGUAGES, Language

#: A text in one string (the bilingual convention) or by language code.
Localized = str | Mapping[Language, str] | Mapping[str, str]

#: Where :func:`text_in` looks when the language asked for is missing, after it.
FALLBACK_ORDER: tuple[Language, ...] = ("en", "pt")

_BILINGUAL = re.compile(r"\s*(?P<pt>.+?)\s*\((?P<en>[^()]+)\)\s*")


def in_language(text: str, language: str) -> str:
    """The half of ``text`` in ``language`` ('pt' or 'en'), or ``text`` when it has one only."""
    match = _BILINGUAL.fullmatch(text)
    chosen = (match.group("en") if language == "en" else match.group("pt")) if match else text
    return chosen.strip().rstrip(".")


def _tidy(text: str) -> str:
    return text.strip().rstrip(".")


def text_in(text: Localized, language: str) -> str:
    """``text`` in ``language`` ("pt", "en", "pt-BR"…), ready to show: the language asked for,
    else English, else Portuguese, else any language the text has ("" for an empty text).

    >>> text_in({"pt": "Maiores altas"}, "pt-BR"), text_in({"en": "Top gainers"}, "pt")
    ('Maiores altas', 'Top gainers')
    """
    if isinstance(text, str):
        return in_language(text, language)
    by_code: dict[str, str] = {str(code): value for code, value in text.items()}
    tag = language.strip().lower()
    asked = [
        code for code in LANGUAGES if tag == code or tag.startswith(code + "-") or tag.startswith(code + "_")
    ]
    for code in (*asked, *FALLBACK_ORDER):
        found = _tidy(by_code.get(code, ""))
        if found:
            return found
    return next((_tidy(value) for value in by_code.values() if _tidy(value)), "")


def all_texts(text: Localized) -> list[str]:
    """Every language's text (for whatever learns from descriptions: all phrasings count).

    >>> all_texts({"pt": "Cotação", "en": "Stock price"}), all_texts("Cotação (stock price)")
    (['Cotação', 'Stock price'], ['Cotação (stock price)'])
    """
    if isinstance(text, str):
        return [text] if text.strip() else []
    return [value.strip() for value in text.values() if value.strip()]
