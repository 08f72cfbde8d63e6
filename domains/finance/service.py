"""The finance domain service: quotes, top movers and symbol search over a market-data provider.

``build_service()`` wires the declarations (manifest) to the handlers; ``service`` is the default
instance over the bundled SAMPLE snapshot that ``python -m domains.finance`` serves.
"""

from __future__ import annotations

from domains.finance import declarations as d
from domains.finance.handlers import FinanceHandlers
from domains.finance.provider import MarketDataProvider, SnapshotProvider
from sdk.service import DomainService

VERSION = "1.0.0"


def build_service(provider: MarketDataProvider | None = None) -> DomainService:
    handlers = FinanceHandlers(provider or SnapshotProvider())
    svc = DomainService(
        "finance",
        VERSION,
        {
            "pt": "Mercado financeiro: cotações de ações, maiores altas e baixas e busca de tickers "
            "(B3, EUA, Suécia, Finlândia; dados de exemplo)",
            "en": "Financial markets: stock quotes, top movers and ticker search "
            "(B3, US, Sweden, Finland; sample data)",
        },
    )
    svc.capability(
        "get_stock_price",
        {
            "pt": "Cotação atual de uma ação, pelo nome ou ticker",
            "en": "Current price of a stock, by name or ticker",
        },
        parameters=d.STOCK_PRICE_PARAMETERS,
        output_schema=d.STOCK_PRICE_OUTPUT,
        metadata=d.STOCK_PRICE_METADATA,
    )(handlers.get_stock_price)
    svc.capability(
        "get_top_gainers",
        {"pt": "Ações que mais subiram no dia, por mercado", "en": "Top gainers of the day, by market"},
        parameters=d.MOVERS_PARAMETERS,
        output_schema=d.MOVERS_OUTPUT,
        metadata=d.movers_metadata("GAINERS"),
    )(handlers.top_gainers)
    svc.capability(
        "get_top_losers",
        {"pt": "Ações que mais caíram no dia, por mercado", "en": "Top losers of the day, by market"},
        parameters=d.MOVERS_PARAMETERS,
        output_schema=d.MOVERS_OUTPUT,
        metadata=d.movers_metadata("LOSERS"),
    )(handlers.top_losers)
    svc.capability(
        "search_symbol",
        {
            "pt": "Busca tickers pelo nome da empresa, sem acento e tolerante a erros de digitação",
            "en": "Ticker search by company name, accent-insensitive and typo-tolerant",
        },
        parameters=d.SEARCH_PARAMETERS,
        output_schema=d.SEARCH_OUTPUT,
        metadata=d.SEARCH_METADATA,
    )(handlers.search_symbol)
    for goal in d.GOALS:
        svc.add_goal(goal)
    svc.lookup(d.COMPANIES_LOOKUP_PATH, handlers.company_lookup)
    svc.lookup(d.MARKETS_LOOKUP_PATH, handlers.market_lookup)
    svc.manifest()  # fail at import, not at first request, if the declarations are invalid
    return svc


service = build_service()
