"""Which kind of small talk a message is, when the intent layer did not say.

The same word lists feed the manifest (enum synonyms the intent adapter learns from) and this
fallback detector, so the two cannot drift apart.

>>> detect_kind("Muito obrigada!"), detect_kind("tchau"), detect_kind("good morning")
('THANKS', 'GOODBYE', 'GREETING')
>>> detect_kind("olá, tudo bem?")
'WELLBEING'
"""

from __future__ import annotations

import re
import unicodedata
from typing import Literal

Kind = Literal["GREETING", "THANKS", "GOODBYE", "WELLBEING"]
KINDS: tuple[Kind, ...] = ("GREETING", "THANKS", "GOODBYE", "WELLBEING")

KIND_SYNONYMS: dict[str, list[str]] = {
    "GREETING": [
        "oi", "olá", "ola", "bom dia", "boa tarde", "boa noite", "e aí", "hello", "hi", "hey",
        "good morning", "good afternoon", "good evening",
    ],
    "THANKS": ["obrigado", "obrigada", "valeu", "agradeço", "thanks", "thank you", "thx", "cheers"],
    "GOODBYE": ["tchau", "até mais", "até logo", "falou", "bye", "goodbye", "see you", "see ya"],
    "WELLBEING": ["tudo bem", "tudo bom", "como vai", "como você está", "how are you", "how's it going"],
}  # fmt: skip

#: Checked in this order: "oi, obrigado" is thanks, "olá, tudo bem?" asks how we are.
_PRIORITY: tuple[Kind, ...] = ("THANKS", "GOODBYE", "WELLBEING", "GREETING")


def _plain(text: str) -> str:
    decomposed = unicodedata.normalize("NFKD", text)
    no_accents = "".join(c for c in decomposed if not unicodedata.combining(c)).casefold()
    return " ".join(re.sub(r"[^a-z0-9 ]+", " ", no_accents).split())


_PATTERNS = [
    (kind, re.compile(r"\b(" + "|".join(re.escape(_plain(w)) for w in KIND_SYNONYMS[kind]) + r")\b"))
    for kind in _PRIORITY
]


def detect_kind(text: str) -> Kind:
    """The kind of small talk; a greeting when nothing more specific is said."""
    plain = _plain(text)
    for kind, pattern in _PATTERNS:
        if pattern.search(plain):
            return kind
    return "GREETING"
