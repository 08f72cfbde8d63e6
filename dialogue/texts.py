"""The dialogue's words in the person's language, all through :func:`say`, so they move as one."""

from __future__ import annotations


def say(language: str, pt: str, en: str) -> str:
    """``en`` for English, ``pt`` (the platform's default language) otherwise.

    >>> say("en", "Pronto.", "Done."), say("pt", "Pronto.", "Done."), say("es", "Pronto.", "Done.")
    ('Done.', 'Pronto.', 'Pronto.')
    """
    return en if language == "en" else pt
