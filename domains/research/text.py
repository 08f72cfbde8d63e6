"""Small text helpers: accent folding that keeps punctuation, language guess, token estimate.

>>> fold("Método incremental é 30% mais rápido!")
'metodo incremental e 30% mais rapido!'
>>> detect_language("Método incremental é mais rápido"), detect_language("pair programming is faster")
('pt', 'en')
>>> estimate_tokens("uma frase curta"), estimate_tokens("")
(4, 0)
"""

from __future__ import annotations

import math
import re
import unicodedata
from typing import Literal

Lang = Literal["pt", "en"]

_WORD = re.compile(r"[a-z0-9]+")
_PT_WORDS = (
    "o a os as um uma de do da dos das em no na nos nas que e é para por com como mais menos "
    "não eu quero meu minha ser são reduz aumenta melhora equipes método hipótese pesquisa "
    "ideia "
)
_PT = frozenset(_PT_WORDS.split())
_EN_WORDS = (
    "the a an of in on for to with is are be than more less how does do i my want me into "
    "research question hypothesis idea reduces increases improves teams method help turn "
)
_EN = frozenset(_EN_WORDS.split())


def fold(text: str) -> str:
    """Lower case without accents; punctuation, digits and '%' are kept (rules need them)."""
    decomposed = unicodedata.normalize("NFKD", text)
    return "".join(c for c in decomposed if not unicodedata.combining(c)).lower()


def words(text: str) -> list[str]:
    return _WORD.findall(fold(text))


def detect_language(text: str, default: Lang = "pt") -> Lang:
    """'en' when English function words clearly outnumber Portuguese ones (and no pt accents)."""
    raw = text.lower().split()
    pt = sum(1 for w in raw if w.strip(".,;:!?") in _PT)
    en = sum(1 for w in raw if w.strip(".,;:!?") in _EN)
    if re.search(r"[ãõçáéíóúâêô]", text.lower()):
        pt += 2
    if en > pt:
        return "en"
    if pt > en:
        return "pt"
    return default


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
