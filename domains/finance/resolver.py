"""Human-friendly company names -> tickers (the ``resolve_symbol`` pre-flow, inside the domain).

The intent layer hands over ``symbol_text`` exactly as the person wrote it ("nordea", "Itau",
"Petrobrass"); only this module turns it into a ticker, so a wrong guess can never come from the
language model. Matching is tiered so that an exact alias always beats a containment match, which
always beats a typo-tolerant fuzzy match; several instruments in the best tier mean the name is
ambiguous and the person must choose.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Literal

from domains.finance.provider import Instrument, Market
from domains.finance.text import normalize, strip_fillers

#: Tier scores (0-100). Fuzzy scores are scaled below containment so a typo never beats a name.
EXACT, KEY_IN_QUERY, QUERY_IN_KEY = 100.0, 98.0, 95.0
FUZZY_SCALE = 0.94
#: rapidfuzz ``ratio`` needed before a fuzzy match counts (one or two typos in a name).
FUZZY_CUTOFF = 80.0
#: Matches this close to the best score are treated as equally good (-> ambiguity).
TIE_MARGIN = 2.0
MIN_KEY_LEN = 3


@dataclass(frozen=True)
class Match:
    instrument: Instrument
    score: float
    matched: str  # the alias/ticker (normalised) that matched
    method: Literal["exact", "contains", "prefix", "fuzzy"]


@dataclass(frozen=True)
class Resolution:
    status: Literal["resolved", "ambiguous", "not_found"]
    query: str
    candidates: tuple[Match, ...] = field(default_factory=tuple)

    @property
    def instrument(self) -> Instrument:
        """The single instrument of a ``resolved`` resolution."""
        if self.status != "resolved":
            raise ValueError(f"'{self.query}' is {self.status}, not resolved")
        return self.candidates[0].instrument


def ticker_keys(instrument: Instrument) -> list[str]:
    """The symbol and the symbol without its exchange suffix (``PETR4.SA`` -> ``petr4``)."""
    keys = [normalize(instrument.symbol)]
    base, dot, suffix = instrument.symbol.rpartition(".")
    if dot and base and suffix.isalpha():
        keys.append(normalize(base))
    return keys


class SymbolResolver:
    def __init__(self, instruments: Sequence[Instrument], markets: Mapping[str, Market] | None = None):
        self._by_symbol = {i.symbol: i for i in instruments}
        self._order = {i.symbol: n for n, i in enumerate(instruments)}  # ties keep universe order
        self._keys: dict[str, set[str]] = {}  # normalised alias -> symbols
        self._tickers: dict[str, set[str]] = {}
        for inst in instruments:
            for key in ticker_keys(inst):
                self._tickers.setdefault(key, set()).add(inst.symbol)
            for key in [*ticker_keys(inst), normalize(inst.name), *(normalize(a) for a in inst.aliases)]:
                if key:
                    self._keys.setdefault(key, set()).add(inst.symbol)
        # words that tell same-named listings apart ("Nordea Stockholm", "Nordea Finlândia")
        self._context: dict[str, frozenset[str]] = {}
        for inst in instruments:
            market = (markets or {}).get(inst.market)
            words = [inst.name, inst.exchange, inst.currency, inst.timezone.rsplit("/", 1)[-1]]
            if market is not None:
                words += [*market.names.values(), *market.aliases]
            self._context[inst.symbol] = frozenset(normalize(" ".join(words)).split())
        self._key_list = list(self._keys)
        self._key_tokens = {k: frozenset(k.split()) for k in self._key_list}

    # ------------------------------------------------------------------ lookups

    def validate_symbol(self, symbol: str) -> Instrument | None:
        """A ticker the person chose (e.g. after a clarification): exact symbol or bare ticker."""
        symbols = self._tickers.get(normalize(symbol), set())
        return self._by_symbol[next(iter(symbols))] if len(symbols) == 1 else None

    def search(self, query: str, limit: int = 5) -> list[Match]:
        """Instruments ranked by how well ``query`` names them (best per instrument)."""
        best: dict[str, Match] = {}
        for match in self._matches(query):
            current = best.get(match.instrument.symbol)
            if current is None or match.score > current.score:
                best[match.instrument.symbol] = match
        ranked = sorted(best.values(), key=lambda m: (-m.score, self._order[m.instrument.symbol]))
        return ranked[:limit]

    def resolve(self, query: str) -> Resolution:
        ranked = self.search(query, limit=len(self._by_symbol))
        if not ranked:
            return Resolution("not_found", query)
        top = tuple(m for m in ranked if m.score >= ranked[0].score - TIE_MARGIN)
        if len(top) > 1:
            top = self._break_tie(query, top)
        return Resolution("resolved" if len(top) == 1 else "ambiguous", query, top)

    def _break_tie(self, query: str, tied: tuple[Match, ...]) -> tuple[Match, ...]:
        """Keep the one listing the rest of the query points at (a city, country or exchange)."""
        query_tokens = set(strip_fillers(query).split())
        hits = {
            m.instrument.symbol: len(
                (query_tokens - set(m.matched.split())) & self._context[m.instrument.symbol]
            )
            for m in tied
        }
        best = max(hits.values())
        winners = tuple(m for m in tied if hits[m.instrument.symbol] == best)
        return winners if best > 0 and len(winners) == 1 else tied

    # ----------------------------------------------------------------- matching

    def _matches(self, query: str) -> Iterable[Match]:
        full, core = normalize(query), strip_fillers(query)
        if not core:
            return
        exact = [k for k in {full, core} if k in self._keys]
        for key in exact:
            yield from self._emit(key, EXACT, "exact")
        if exact:
            return
        query_tokens = frozenset(full.split())
        core_tokens = frozenset(core.split())
        for key, tokens in self._key_tokens.items():
            if len(key) < MIN_KEY_LEN:
                continue
            if tokens <= query_tokens:  # "Volvo cars" names Volvo
                yield from self._emit(key, KEY_IN_QUERY, "contains")
            elif len(core) >= 4 and core_tokens <= tokens:  # "Magazine" is Magazine Luiza
                yield from self._emit(key, QUERY_IN_KEY, "prefix")
        if len(core) >= MIN_KEY_LEN:
            # imported on the first fuzzy lookup, not at the domain's start
            from rapidfuzz import fuzz, process

            for key, score, _ in process.extract(
                core, self._key_list, scorer=fuzz.ratio, score_cutoff=FUZZY_CUTOFF, limit=10
            ):
                yield from self._emit(key, round(score * FUZZY_SCALE, 2), "fuzzy")

    def _emit(
        self, key: str, score: float, method: Literal["exact", "contains", "prefix", "fuzzy"]
    ) -> Iterable[Match]:
        for symbol in sorted(self._keys[key]):
            yield Match(self._by_symbol[symbol], score, key, method)
