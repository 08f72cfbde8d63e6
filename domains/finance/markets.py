"""``market_text`` as people say it ("Brasil", "na B3", "EUA", "Suécia") -> market codes.

The words come from the provider's market aliases, so adding a market to the data adds its names.
A phrase is scanned word by word (up to three-word phrases) because the intent layer passes the
person's own words, which may carry extra ones ("bolsa americana hoje").
"""

from __future__ import annotations

from collections.abc import Mapping

from domains.finance.provider import Market
from domains.finance.text import normalize

MAX_PHRASE_WORDS = 3
SHORT_ALIAS = 2


class UnknownMarket(ValueError):
    def __init__(self, text: str, known: list[str]):
        self.text = text
        self.known = known
        super().__init__(f"unknown market '{text}'")


def market_index(markets: Mapping[str, Market]) -> dict[str, str]:
    """normalised alias -> market code (the code and display names included)."""
    index: dict[str, str] = {}
    for code, market in markets.items():
        for word in (code, *market.names.values(), *market.aliases):
            index[normalize(word)] = code
    return index


def resolve_markets(text: str | None, markets: Mapping[str, Market]) -> list[str]:
    """Market codes named by ``text``, in the data's order; every market when ``text`` is empty.

    Raises :class:`UnknownMarket` when text is given but names no market we have.
    """
    if text is None or not normalize(text):
        return list(markets)
    index = market_index(markets)
    whole = normalize(text)
    words = whole.split()
    found: set[str] = set()
    for size in range(MAX_PHRASE_WORDS, 0, -1):
        for start in range(len(words) - size + 1):
            phrase = " ".join(words[start : start + size])
            # two-letter codes ("se", "us") are ordinary words inside a sentence: whole text only
            if phrase in index and (len(phrase) > SHORT_ALIAS or phrase == whole):
                found.add(index[phrase])
    if not found:
        raise UnknownMarket(text, [m.display("pt") for m in markets.values()])
    return [code for code in markets if code in found]
