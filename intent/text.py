"""Text normalisation shared by every intent component.

People type without accents, in lower case and with small typos, so everything the classifier
and the entity extractor compare is *normalised*: accents stripped, lower-cased, punctuation
turned into spaces. Normalisation is character-for-character (same length as the input), so a
token found in the normalised text maps straight back to the exact span the person wrote.

>>> normalise("Cotação da Itaú!")
'cotacao da itau '
>>> [t.text for t in tokens("Preço da Apple, Microsoft e Nvidia")]
['preco', 'da', 'apple', 'microsoft', 'e', 'nvidia']
>>> detect_language("what is the price of apple"), detect_language("qual o preço da vale")
('en', 'pt')
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from functools import lru_cache

_TOKEN = re.compile(r"[a-z0-9]+")


@lru_cache(maxsize=4096)
def _fold_char(ch: str) -> str:
    """One character -> one character: accent-free, lower case, punctuation as a space."""
    decomposed = unicodedata.normalize("NFKD", ch)
    base = next((c for c in decomposed if not unicodedata.combining(c)), " ")
    base = base.lower()
    if len(base) != 1 or not (base.isascii() and base.isalnum()):
        return " "
    return base


def normalise(text: str) -> str:
    """Accent-free, lower-case, punctuation-free copy of ``text`` with the same length."""
    return "".join(_fold_char(ch) for ch in text)


@dataclass(frozen=True)
class Token:
    """A normalised word and where it sits in the original text."""

    text: str
    start: int
    end: int


def tokens(text: str) -> list[Token]:
    norm = normalise(text)
    return [Token(m.group(), m.start(), m.end()) for m in _TOKEN.finditer(norm)]


def words(text: str) -> list[str]:
    return _TOKEN.findall(normalise(text))


# Function words of each language (accent-free). Used to detect the language and to keep
# grammar words out of entity spans; they say nothing about any domain.
STOP_PT = frozenset(
    [
        "a",
        "o",
        "as",
        "os",
        "um",
        "uma",
        "uns",
        "umas",
        "de",
        "do",
        "da",
        "dos",
        "das",
        "no",
        "na",
        "nos",
        "nas",
        "em",
        "e",
        "ou",
        "que",
        "qual",
        "quais",
        "quanto",
        "quanta",
        "quantos",
        "quantas",
        "como",
        "pra",
        "pro",
        "pros",
        "pras",
        "num",
        "numa",
        "para",
        "por",
        "pelo",
        "pela",
        "pelos",
        "pelas",
        "com",
        "sem",
        "se",
        "me",
        "mim",
        "meu",
        "minha",
        "meus",
        "minhas",
        "seu",
        "sua",
        "seus",
        "suas",
        "te",
        "ti",
        "voce",
        "voces",
        "eu",
        "ele",
        "ela",
        "eles",
        "elas",
        "nos",
        "ao",
        "aos",
        "isso",
        "isto",
        "esse",
        "essa",
        "este",
        "esta",
        "aquele",
        "aquela",
        "ai",
        "ali",
        "aqui",
        "la",
        "ja",
        "nao",
        "sim",
        "mais",
        "muito",
        "muita",
        "hoje",
        "agora",
        "ontem",
        "amanha",
        "favor",
        "porfavor",
        "por_favor",
        "tambem",
        "so",
        "quero",
        "queria",
        "gostaria",
        "pode",
        "poderia",
        "poderiam",
        "me_diga",
        "diga",
        "mostra",
        "mostre",
        "mostrar",
        "ver",
        "veja",
        "sobre",
        "ate",
        "entre",
        "qualquer",
        "algum",
        "alguma",
        "e_ai",
        "oi",
        "ola",
        "tudo",
        "bem",
        "esta",
        "estao",
        "sao",
        "ser",
        "foi",
        "vai",
        "vao",
        "tem",
        "ter",
        "estou",
    ]
)
STOP_EN = frozenset(
    [
        "a",
        "an",
        "the",
        "of",
        "to",
        "in",
        "on",
        "at",
        "for",
        "from",
        "by",
        "with",
        "about",
        "as",
        "is",
        "are",
        "was",
        "were",
        "be",
        "been",
        "am",
        "do",
        "does",
        "did",
        "what",
        "which",
        "who",
        "whom",
        "how",
        "much",
        "many",
        "i",
        "me",
        "my",
        "mine",
        "you",
        "your",
        "yours",
        "he",
        "she",
        "it",
        "its",
        "we",
        "our",
        "they",
        "their",
        "them",
        "this",
        "that",
        "these",
        "those",
        "and",
        "or",
        "not",
        "no",
        "yes",
        "please",
        "can",
        "could",
        "would",
        "will",
        "should",
        "shall",
        "may",
        "might",
        "tell",
        "show",
        "give",
        "get",
        "let",
        "lets",
        "s",
        "t",
        "today",
        "now",
        "yesterday",
        "tomorrow",
        "some",
        "any",
        "there",
        "here",
        "just",
        "also",
        "want",
        "wanna",
        "like",
        "need",
        "know",
    ]
)
_ACCENTED = re.compile(r"[ãõçáéíóúâêôà]", re.IGNORECASE)


def detect_language(text: str) -> str:
    """'pt' or 'en' by function-word counts; accents break ties towards Portuguese."""
    ws = words(text)
    pt = sum(w in STOP_PT for w in ws)
    en = sum(w in STOP_EN for w in ws)
    if _ACCENTED.search(text):
        pt += 1
    return "en" if en > pt else "pt"
