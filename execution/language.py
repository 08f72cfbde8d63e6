"""The engine's own words (final answers, gaps, failures) in the person's language.

``context["language"]`` decides ("pt"/"pt-BR" -> pt, "en*" -> en); when it is absent,
:func:`detect_language` guesses from the text with a small stop-word vote (enough to tell
Portuguese from English; anything else answers in Portuguese, the platform's default).

>>> detect_language("what is the price of Apple?"), detect_language("qual o preço da Vale?")
('en', 'pt')
"""

from __future__ import annotations

import re
from typing import Any

_EN = frozenset(
    [
        "the",
        "what",
        "is",
        "are",
        "of",
        "and",
        "to",
        "for",
        "me",
        "my",
        "please",
        "price",
        "how",
        "show",
        "tell",
        "send",
        "which",
        "who",
        "can",
        "you",
    ]
)
_PT = frozenset(
    [
        "o",
        "a",
        "os",
        "as",
        "de",
        "do",
        "da",
        "dos",
        "das",
        "que",
        "qual",
        "quais",
        "é",
        "e",
        "para",
        "por",
        "me",
        "meu",
        "minha",
        "preço",
        "como",
        "mostre",
        "manda",
        "envia",
        "quanto",
        "está",
        "hoje",
        "você",
    ]
)

_TEXTS: dict[str, dict[str, str]] = {
    "gaps_header": {"pt": "Não consegui responder:", "en": "Could not answer:"},
    "gap": {
        "pt": "- passo {step} ({capability}): {status} {reason}",
        "en": "- step {step} ({capability}): {status} {reason}",
    },
    "done": {"pt": "Pronto.", "en": "Done."},
    "failed": {
        "pt": "Não consegui concluir o pedido: {reason}",
        "en": "I could not complete the request: {reason}",
    },
    "max_replans_exceeded": {
        "pt": "Não consegui concluir o pedido após {replans} replanejamento(s): {reason}",
        "en": "I could not complete the request after {replans} replanning attempt(s): {reason}",
    },
    "stagnated": {
        "pt": "Parei: o novo plano falhou do mesmo jeito ({reason}).",
        "en": "I stopped: the new plan failed the same way ({reason}).",
    },
    "timeout": {
        "pt": "O pedido demorou demais e foi interrompido ({reason}).",
        "en": "The request took too long and was stopped ({reason}).",
    },
    "deadlock": {
        "pt": "O plano não pode ser executado: {reason}.",
        "en": "The plan cannot run: {reason}.",
    },
    "policy": {
        "pt": "O pedido foi interrompido por um limite de execução: {reason}.",
        "en": "The request was stopped by an execution limit: {reason}.",
    },
    "planning_error": {
        "pt": "Encontrei um erro ao planejar o pedido: {reason}",
        "en": "I encountered an error while planning the request: {reason}",
    },
    "unavailable": {
        "pt": "O domínio '{domain}' está indisponível no momento ({reason}).",
        "en": "The '{domain}' domain is unavailable right now ({reason}).",
    },
}


def normalize(language: Any) -> str:
    return "en" if str(language or "pt").lower().startswith("en") else "pt"


def detect_language(text_: str, default: str = "pt") -> str:
    words = re.findall(r"[a-zà-ÿ]+", text_.lower())
    en = sum(w in _EN for w in words)
    pt = sum(w in _PT for w in words) + 2 * any(ch in text_.lower() for ch in "ãõçéêáâíóú")
    if en == pt:
        return default
    return "en" if en > pt else "pt"


def language_of(context: dict[str, Any], query: str = "") -> str:
    if context.get("language"):
        return normalize(context["language"])
    return detect_language(query) if query else "pt"


def text(language: str, key: str, **values: Any) -> str:
    """The engine's sentence ``key`` in ``language``, filled in.

    A value that ends a sentence of its own loses its full stop where the template goes on
    after it, so a domain's "Not found." reads "(Not found)." rather than "(Not found.)."

    >>> text("en", "stagnated", reason="I could not find 'Aple'.")
    "I stopped: the new plan failed the same way (I could not find 'Aple')."
    >>> text("pt", "failed", reason="Não encontrei 'Apel'.")
    "Não consegui concluir o pedido: Não encontrei 'Apel'."
    """
    template = _TEXTS[key][normalize(language)]
    for name, value in values.items():
        if isinstance(value, str) and not template.endswith("{" + name + "}"):
            values[name] = value.rstrip().removesuffix(".")
    return template.format(**values).strip()
