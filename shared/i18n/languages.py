"""The platform's languages and how a language tag is read.

>>> as_language("pt-BR"), as_language("en_US"), as_language(None), as_language("fr")
('pt', 'en', 'pt', 'pt')
"""

from __future__ import annotations

from typing import Literal

Language = Literal["pt", "en"]

#: Every language the platform speaks; each message has one text per language.
LANGUAGES: tuple[Language, ...] = ("pt", "en")
#: Brazilian Portuguese: the answer when nothing says otherwise.
DEFAULT_LANGUAGE: Language = "pt"


def as_language(value: object, default: Language = DEFAULT_LANGUAGE) -> Language:
    """A language tag ("en", "en-US", "pt-BR", …) as one of :data:`LANGUAGES`; anything else
    is ``default``."""
    tag = str(value or "").strip().lower()
    if tag.startswith("en"):
        return "en"
    if tag.startswith("pt"):
        return "pt"
    return default
