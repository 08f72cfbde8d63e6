"""Everything the finance domain says to people, in Brazilian Portuguese (default) and English.

Numbers follow the language's convention (``112,50`` vs ``112.50``) and every answer that shows
data names where it came from and when ("dados de amostra de 2026-11-20"), so sample data can
never pass for a live price.

>>> fmt_number(1234.5, "pt"), fmt_number(1234.5, "en")
('1.234,50', '1,234.50')
>>> fmt_pct(0.8, "pt"), fmt_pct(-2.31, "en"), fmt_pct(0.0, "pt")
('+0,8%', '-2.31%', '0,0%')
>>> data_label("2026-11-20", "sample_snapshot", "pt")
'dados de amostra de 2026-11-20'
"""

from __future__ import annotations

from typing import Any

from shared.i18n import Catalog, Language, as_language, t
from shared.models import ExecutionIntent

SAMPLE_SOURCE = "sample_snapshot"

MESSAGES = Catalog.by_language(
    {
        "pt": {
            "quote": "{name} ({symbol}) está em {price} {currency} ({change} no dia) — {data}.",
            "ambiguous": "Encontrei mais de um ticker para '{query}'. Qual deles?",
            "not_found": (
                "Não encontrei nenhuma ação chamada '{query}' nos dados disponíveis. "
                "Tente o nome da empresa ou o ticker (ex.: PETR4, AAPL)."
            ),
            "bad_symbol": "O ticker '{symbol}' não existe nos dados disponíveis.",
            "missing_symbol": "De qual empresa ou ticker você quer a cotação?",
            "missing_query": "Qual nome de empresa você quer procurar?",
            "no_price": "Não há preço disponível para {name} ({symbol}) nos dados atuais.",
            "title_GAINERS": "Maiores altas",
            "title_LOSERS": "Maiores baixas",
            "movers_header": "{title} — {markets} — {data}:",
            "movers_line": "{rank}. {name} ({symbol}): {price} {currency}, {change}",
            "movers_none_GAINERS": "Nenhuma ação em alta em {markets} — {data}.",
            "movers_none_LOSERS": "Nenhuma ação em baixa em {markets} — {data}.",
            "all_markets": "todos os mercados",
            "unknown_market": "Não conheço o mercado '{text}'. Mercados disponíveis: {known}.",
            "search_header": "Tickers encontrados para '{query}':",
            "search_line": "- {symbol}: {name} ({exchange})",
            "sample": "dados de amostra de {as_of}",
            "live": "dados de {as_of}",
        },
        "en": {
            "quote": "{name} ({symbol}) is at {price} {currency} ({change} on the day) — {data}.",
            "ambiguous": "I found more than one ticker for '{query}'. Which one?",
            "not_found": (
                "I could not find any stock called '{query}' in the available data. "
                "Try the company name or the ticker (e.g. PETR4, AAPL)."
            ),
            "bad_symbol": "The ticker '{symbol}' does not exist in the available data.",
            "missing_symbol": "Which company or ticker do you want a quote for?",
            "missing_query": "Which company name should I look up?",
            "no_price": "There is no price for {name} ({symbol}) in the current data.",
            "title_GAINERS": "Top gainers",
            "title_LOSERS": "Top losers",
            "movers_header": "{title} — {markets} — {data}:",
            "movers_line": "{rank}. {name} ({symbol}): {price} {currency}, {change}",
            "movers_none_GAINERS": "No stock is up in {markets} — {data}.",
            "movers_none_LOSERS": "No stock is down in {markets} — {data}.",
            "all_markets": "all markets",
            "unknown_market": "I don't know the market '{text}'. Available markets: {known}.",
            "search_header": "Tickers found for '{query}':",
            "search_line": "- {symbol}: {name} ({exchange})",
            "sample": "sample data from {as_of}",
            "live": "data as of {as_of}",
        },
    }
)


def requested_language(intent: ExecutionIntent) -> Language:
    """The language the caller asks for ("en-US" is English); Brazilian Portuguese by default."""
    return as_language(intent.context.get("language"))


def text(lang: Language, key: str, **values: Any) -> str:
    return MESSAGES.t(key, lang, **values)


def fmt_number(value: float, lang: Language, decimals: int = 2) -> str:
    formatted = f"{value:,.{decimals}f}"
    if lang == "pt":
        formatted = formatted.replace(",", "\0").replace(".", ",").replace("\0", ".")
    return formatted


def fmt_pct(value: float, lang: Language) -> str:
    """Signed, at most two decimals, one kept (``+0,8%``, ``-2,31%``)."""
    body = fmt_number(abs(value), lang, 2)
    if body.endswith("0"):
        body = body[:-1]
    sign = "+" if value > 0 else "-" if value < 0 else ""
    return f"{sign}{body}%"


def data_label(as_of: str, source: str, lang: Language) -> str:
    return text(lang, "sample" if source == SAMPLE_SOURCE else "live", as_of=as_of)


def join_names(names: list[str], lang: Language) -> str:
    if len(names) <= 1:
        return "".join(names)
    return f"{', '.join(names[:-1])} {t('word.and', lang)} {names[-1]}"
