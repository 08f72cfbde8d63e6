"""Texts in the person's language and the one language detector, for every component.

* :func:`detect` tells Portuguese from English; :func:`language_of` reads a request's language
  (``context["language"]`` first, then the text); :data:`Language` is ``"pt"`` or ``"en"``.
* :class:`Catalog` holds messages by id, one text per language; :func:`t` says one of the core's
  messages (:data:`CORE`), and each domain builds a ``Catalog`` of its own texts.
* :func:`fold`, :func:`normalise` and :func:`words` fold accents and case the one way every
  component compares what people type.

>>> t("run.failed", detect("what is the price of Aple?"), reason="I could not find 'Aple'.")
"I could not complete the request: I could not find 'Aple'."
"""

from shared.i18n.catalog import Catalog
from shared.i18n.detection import detect, language_of, vote
from shared.i18n.folding import fold, normalise, words
from shared.i18n.languages import DEFAULT_LANGUAGE, LANGUAGES, Language, as_language
from shared.i18n.messages import CORE, t

__all__ = [
    "CORE",
    "DEFAULT_LANGUAGE",
    "LANGUAGES",
    "Catalog",
    "Language",
    "as_language",
    "detect",
    "fold",
    "language_of",
    "normalise",
    "t",
    "vote",
    "words",
]
