"""The finance capabilities: quote, top movers, symbol search.

Each handler takes the ``ExecutionIntent`` the engine sends and returns a ``DomainOutput``; the
symbol pre-flow (``symbol_text`` -> ticker) runs here, inside the domain, never in the core. A
price is only ever reported for an instrument the provider knows: an unknown name is a failure,
an ambiguous one a clarification with the candidates.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Literal

from domains.finance.markets import SHORT_ALIAS, UnknownMarket, resolve_markets
from domains.finance.messages import (
    Language,
    data_label,
    fmt_number,
    fmt_pct,
    join_names,
    requested_language,
    text,
)
from domains.finance.provider import Instrument, Market, MarketDataProvider, Quote
from domains.finance.resolver import Resolution, SymbolResolver
from sdk.service import clarify, fail, option
from shared.manifest import LookupEntry
from shared.models import ClarificationOption, DomainOutput, ExecutionIntent

Direction = Literal["GAINERS", "LOSERS"]
DEFAULT_MOVERS = 5
MAX_MOVERS = 20
DEFAULT_SEARCH = 5


def display_name(instrument: Instrument) -> str:
    """The everyday name ("Nordea", "Petrobras") rather than the listing's full name."""
    return instrument.aliases[0] if instrument.aliases else instrument.name


def candidate(instrument: Instrument) -> dict[str, Any]:
    return {
        "symbol": instrument.symbol,
        "name": instrument.name,
        "exchange": instrument.exchange,
        "market": instrument.market,
        "currency": instrument.currency,
    }


def failure(explanation: str, reason: str, **details: Any) -> DomainOutput:
    """Finance failures are recoverable: another name or market may well succeed."""
    return fail(explanation, reason, recoverable=True, metadata=details)


def _issue_details(output: DomainOutput) -> dict[str, Any]:
    """What a name that got no quote needs next: the tickers to pick from, or why it failed."""
    if output.clarification is not None:
        return {"candidates": [o.value for o in output.clarification.options]}
    if output.failure is not None:
        return {"reason": output.failure.reason}
    return {}


class FinanceHandlers:
    def __init__(self, provider: MarketDataProvider):
        self.provider = provider
        self.resolver = SymbolResolver(provider.instruments(), provider.markets())

    # ------------------------------------------------------------------ lookup table

    def company_lookup(self) -> list[LookupEntry]:
        """The companies this domain knows, for the gateway's entity extractor: each name with its
        aliases and tickers ("Petrobras PN": "Petrobras", "PETR4", ...)."""
        entries = []
        for instrument in self.provider.instruments():
            base, dot, _ = instrument.symbol.rpartition(".")
            names = [*instrument.aliases, instrument.symbol, *([base] if dot and base else [])]
            aliases = list(dict.fromkeys(n for n in names if n != instrument.name))
            entries.append(LookupEntry(value=instrument.name, aliases=aliases))
        return entries

    def market_lookup(self) -> list[LookupEntry]:
        """The markets this domain knows with the names people give them ("bolsa brasileira",
        "mercado americano", "Nasdaq"), for the gateway's entity extractor. Two-letter codes are
        left out: inside a sentence they are ordinary words ("se", "us"); a market said by its code
        alone is still read from the goal's examples ("EUA", "US")."""
        entries = []
        for code, market in self.provider.markets().items():
            names = [*market.names.values(), market.exchange, *market.aliases]
            aliases = [n for n in dict.fromkeys(names) if len(n) > SHORT_ALIAS or any(c.isdigit() for c in n)]
            value = market.display("pt")
            entries.append(LookupEntry(value=value, aliases=[a for a in aliases if a != value] or [code]))
        return entries

    # ------------------------------------------------------------------ context

    def market_context(self, instrument: Instrument, quote: Quote) -> dict[str, Any]:
        return {
            "market": instrument.market,
            "exchange": instrument.exchange,
            "currency": instrument.currency,
            "timezone": instrument.timezone,
            "as_of": quote.as_of,
            "source": quote.source,
        }

    # ------------------------------------------------------------ get_stock_price

    async def get_stock_price(self, intent: ExecutionIntent) -> DomainOutput:
        lang = requested_language(intent)
        params = intent.parameters
        chosen = params.get("symbol")
        if isinstance(chosen, str) and chosen.strip():
            # a ticker the person picked (e.g. answering our clarification): validate, don't search
            instrument = self.resolver.validate_symbol(chosen)
            if instrument is None:
                return failure(text(lang, "bad_symbol", symbol=chosen), "symbol_not_found", symbol=chosen)
            return await self._quote(instrument, lang, resolved_from=chosen, resolution="symbol")

        raw = params.get("symbol_text")
        names = [str(n).strip() for n in (raw if isinstance(raw, list) else [raw]) if n and str(n).strip()]
        if not names:
            return failure(text(lang, "missing_symbol"), "missing_parameter", param="symbol_text")
        if len(names) == 1:
            return await self._quote_name(names[0], lang)
        return await self._quote_many(names, lang)

    async def _quote_name(self, name: str, lang: Language) -> DomainOutput:
        resolution = self.resolver.resolve(name)
        if resolution.status == "ambiguous":
            return self._clarify(resolution, lang)
        if resolution.status == "not_found":
            return failure(text(lang, "not_found", query=name), "symbol_not_found", query=name)
        match = resolution.candidates[0]
        how = "alias" if match.method == "exact" else "search_symbol"
        return await self._quote(resolution.instrument, lang, resolved_from=name, resolution=how)

    def _choice(self, instrument: Instrument) -> ClarificationOption:
        """A candidate listing plus the words a person may answer with ("a sueca", "Helsinki")."""
        market = self.provider.markets().get(instrument.market)
        market_words = [*market.aliases, *market.names.values()] if market else []
        return option(
            instrument.symbol,
            f"{instrument.name} — {instrument.exchange} ({instrument.currency})",
            aliases=[instrument.symbol.split(".")[0], instrument.exchange, *market_words],
            **candidate(instrument),
        )

    def _clarify(self, resolution: Resolution, lang: Language) -> DomainOutput:
        # the step runs again with parameters["symbol"] = the picked option's value
        return clarify(
            text(lang, "ambiguous", query=resolution.query),
            [self._choice(m.instrument) for m in resolution.candidates],
            param="symbol",
            metadata={"resolution": "ambiguous_symbol", "query": resolution.query},
        )

    async def _quote(
        self, instrument: Instrument, lang: Language, *, resolved_from: str, resolution: str
    ) -> DomainOutput:
        quote = (await self.provider.quotes([instrument.symbol])).get(instrument.symbol)
        name = display_name(instrument)
        if quote is None:
            return failure(text(lang, "no_price", name=name, symbol=instrument.symbol), "price_unavailable")
        explanation = text(
            lang,
            "quote",
            name=name,
            symbol=instrument.symbol,
            price=fmt_number(quote.price, lang),
            currency=quote.currency,
            change=fmt_pct(quote.change_pct, lang),
            data=data_label(quote.as_of, quote.source, lang),
        )
        return DomainOutput(
            status="success",
            result={
                "symbol": instrument.symbol,
                "name": instrument.name,
                "price": quote.price,
                "change_pct": quote.change_pct,
                "currency": quote.currency,
                "as_of": quote.as_of,
                "_market_context": self.market_context(instrument, quote),
            },
            explanation=explanation,
            metadata={"resolution": resolution, "resolved_from": resolved_from, "data_source": quote.source},
        )

    async def _quote_many(self, names: list[str], lang: Language) -> DomainOutput:
        """Several names in one call (normally the planner splits them; this keeps a direct call
        honest): every quote found, plus what could not be answered and why."""
        outputs = [await self._quote_name(n, lang) for n in names]
        quotes = [o.result for o in outputs if o.status == "success"]
        issues = [
            {"symbol_text": n, "status": o.status, "explanation": o.explanation, **_issue_details(o)}
            for n, o in zip(names, outputs, strict=True)
            if o.status != "success"
        ]
        explanation = "\n".join(o.explanation for o in outputs)
        if quotes:
            return DomainOutput(
                status="success",
                result={"quotes": quotes, "issues": issues},
                explanation=explanation,
                metadata={"resolution": "multiple"},
            )
        clarification = next((o for o in outputs if o.status == "clarification"), None)
        if clarification is not None:
            return clarification
        return failure(explanation, "symbol_not_found", issues=issues)

    # ----------------------------------------------------------------- top movers

    async def top_movers(self, intent: ExecutionIntent, direction: Direction) -> DomainOutput:
        lang = requested_language(intent)
        params = intent.parameters
        markets = self.provider.markets()
        market_text = params.get("market_text")
        try:
            codes = resolve_markets(market_text if isinstance(market_text, str) else None, markets)
        except UnknownMarket as exc:
            known = ", ".join(m.display(lang) for m in markets.values())
            return failure(text(lang, "unknown_market", text=exc.text, known=known), "unknown_market")
        limit = params.get("limit", DEFAULT_MOVERS)
        limit = max(1, min(MAX_MOVERS, limit if isinstance(limit, int) else DEFAULT_MOVERS))

        universe = [i for i in self.provider.instruments() if i.market in codes]
        quotes = await self.provider.quotes(i.symbol for i in universe)
        rows = _ranked(universe, quotes, direction)[:limit]

        as_of = max((q.as_of for q in quotes.values()), default="?")
        source = next((q.source for q in quotes.values()), "unknown")
        where = (
            text(lang, "all_markets")
            if len(codes) == len(markets)
            else join_names([f"{markets[c].display(lang)} ({markets[c].exchange})" for c in codes], lang)
        )
        explanation = _movers_text(lang, direction, rows, where, data_label(as_of, source, lang))
        context = _market_context(codes, markets) | {"as_of": as_of, "source": source}
        return DomainOutput(
            status="success",
            result={
                "direction": direction,
                "markets": codes,
                "movers": [
                    {
                        **candidate(i),
                        "price": q.price,
                        "change_pct": q.change_pct,
                        "timezone": i.timezone,
                    }
                    for i, q in rows
                ],
                "_market_context": context,
            },
            explanation=explanation,
            metadata={"data_source": source},
        )

    async def top_gainers(self, intent: ExecutionIntent) -> DomainOutput:
        return await self.top_movers(intent, "GAINERS")

    async def top_losers(self, intent: ExecutionIntent) -> DomainOutput:
        return await self.top_movers(intent, "LOSERS")

    # -------------------------------------------------------------- search_symbol

    async def search_symbol(self, intent: ExecutionIntent) -> DomainOutput:
        lang = requested_language(intent)
        params = intent.parameters
        query = params.get("query") or params.get("symbol_text")
        if isinstance(query, list):
            query = query[0] if query else None
        if not isinstance(query, str) or not query.strip():
            return failure(text(lang, "missing_query"), "missing_parameter", param="query")
        limit = params.get("limit", DEFAULT_SEARCH)
        matches = self.resolver.search(query, limit=limit if isinstance(limit, int) and limit > 0 else 5)
        if not matches:
            return failure(text(lang, "not_found", query=query), "symbol_not_found", query=query)
        lines = [text(lang, "search_header", query=query)] + [
            text(
                lang,
                "search_line",
                symbol=m.instrument.symbol,
                name=m.instrument.name,
                exchange=m.instrument.exchange,
            )
            for m in matches
        ]
        return DomainOutput(
            status="success",
            result={
                "query": query,
                "matches": [
                    {**candidate(m.instrument), "score": m.score, "match": m.method} for m in matches
                ],
            },
            explanation="\n".join(lines),
        )


def _ranked(
    universe: Sequence[Instrument], quotes: Mapping[str, Quote], direction: Direction
) -> list[tuple[Instrument, Quote]]:
    """The quoted instruments that moved in ``direction``, the biggest move first."""
    sign = 1 if direction == "GAINERS" else -1
    rows = [(i, quotes[i.symbol]) for i in universe if i.symbol in quotes]
    rows = [r for r in rows if sign * r[1].change_pct > 0]
    rows.sort(key=lambda r: -sign * r[1].change_pct)
    return rows


def _movers_text(
    lang: Language, direction: Direction, rows: Sequence[tuple[Instrument, Quote]], where: str, data: str
) -> str:
    """The movers as the person reads them: a header and one ranked line each, or "none"."""
    if not rows:
        return text(lang, f"movers_none_{direction}", markets=where, data=data)
    lines = [text(lang, "movers_header", title=text(lang, f"title_{direction}"), markets=where, data=data)]
    lines += [
        text(
            lang,
            "movers_line",
            rank=n,
            name=display_name(i),
            symbol=i.symbol,
            price=fmt_number(q.price, lang),
            currency=q.currency,
            change=fmt_pct(q.change_pct, lang),
        )
        for n, (i, q) in enumerate(rows, start=1)
    ]
    return "\n".join(lines)


def _market_context(codes: Sequence[str], markets: Mapping[str, Market]) -> dict[str, Any]:
    """What a later step needs of the markets looked at: the one market's details, or their codes."""
    if len(codes) != 1:
        return {"market": "multiple", "markets": list(codes)}
    m = markets[codes[0]]
    return {"market": m.code, "exchange": m.exchange, "currency": m.currency, "timezone": m.timezone}
