"""What the finance manifest declares: capability schemas and metadata, and the goals people use.

The core learns everything it knows about finance from this data (intent examples, enum
synonyms, decomposition, composition), so changing how people are understood means editing
this file, not the core.
"""

from __future__ import annotations

from typing import Any

#: Where the service publishes the companies it knows (names, aliases, tickers): the gateway's
#: entity extractor reads it as ``symbol_text``'s lookup table.
COMPANIES_LOOKUP_PATH = "/lookup/companies"
MARKETS_LOOKUP_PATH = "/lookup/markets"

MARKET_CONTEXT_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "market": {"type": "string"},
        "markets": {"type": "array", "items": {"type": "string"}},
        "exchange": {"type": "string"},
        "currency": {"type": "string"},
        "timezone": {"type": "string"},
        "as_of": {"type": "string"},
        "source": {"type": "string"},
    },
    "required": ["market", "as_of", "source"],
}

QUOTE_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "symbol": {"type": "string"},
        "name": {"type": "string"},
        "price": {"type": "number"},
        "change_pct": {"type": "number"},
        "currency": {"type": "string"},
        "as_of": {"type": "string"},
        "_market_context": MARKET_CONTEXT_SCHEMA,
    },
    "required": ["symbol", "price", "currency", "_market_context"],
}

CANDIDATE_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "symbol": {"type": "string"},
        "name": {"type": "string"},
        "exchange": {"type": "string"},
        "market": {"type": "string"},
        "currency": {"type": "string"},
    },
    "required": ["symbol", "name", "exchange"],
}

# ------------------------------------------------------------------ get_stock_price

STOCK_PRICE_PARAMETERS: dict[str, Any] = {
    "type": "object",
    "properties": {
        "symbol_text": {
            "description": "Company name or ticker as the person wrote it ('Nordea', 'Itaú', 'PETR4'); "
            "several names are split into one step each by the planner.",
            "oneOf": [
                {"type": "string", "minLength": 1},
                {"type": "array", "items": {"type": "string", "minLength": 1}, "minItems": 1},
            ],
        },
        "symbol": {
            "type": "string",
            "description": "Exact ticker the person chose (after a clarification); validated, not searched.",
        },
        "notify": {"type": "boolean", "description": "Also send the answer to the notifier (Telegram)."},
    },
    "anyOf": [{"required": ["symbol_text"]}, {"required": ["symbol"]}],
}

STOCK_PRICE_OUTPUT: dict[str, Any] = {
    "type": "object",
    "properties": {
        **QUOTE_SCHEMA["properties"],
        "quotes": {"type": "array", "items": QUOTE_SCHEMA},
        "issues": {"type": "array", "items": {"type": "object"}},
    },
    "anyOf": [{"required": QUOTE_SCHEMA["required"]}, {"required": ["quotes"]}],
}

STOCK_PRICE_METADATA: dict[str, Any] = {
    "intent_hints": {
        "keywords": [
            "preço",
            "cotação",
            "valor",
            "quanto está",
            "quanto custa",
            "ação",
            "ações",
            "price",
            "quote",
            "stock",
            "share price",
            "trading at",
        ],
        "examples": [
            "qual o preço da PETR4?",
            "cotação da Nordea",
            "quanto está a Vale hoje?",
            "what is the price of Apple?",
            "quote for Microsoft",
        ],
    },
    "decomposition": {
        "array_params": [
            {"param_name": "symbol_text", "single_param_name": "symbol_text", "max_concurrency": 4}
        ]
    },
    "composition": {
        "followup_roles": ["notifier"],
        "enabled_if": {"path": "parameters.notify", "equals": True},
        "param_map": {"message": {"from_parameters": ["_step_explanation"]}},
    },
    "flow": {"pre": [{"type": "resolve_symbol", "param": "symbol", "search_capability": "search_symbol"}]},
    # reading a snapshot changes nothing: safe to repeat, no idempotency record to keep
    "policy": {"idempotent": True, "read_only": True, "attempts": 2, "timeout_s": 5.0},
    # a watch ("me avisa quando a Petrobras passar de 40") polls this; a market quote moves little
    # within a minute, and a live provider is billed per call
    "watch": {"watchable": True, "min_interval_s": 60},
    "progress": {"pt": "Consultando a cotação…", "en": "Getting the quote…"},
}

# ----------------------------------------------------------------------- top movers

MOVERS_PARAMETERS: dict[str, Any] = {
    "type": "object",
    "properties": {
        "market_text": {
            "type": "string",
            "description": "Market as said ('Brasil', 'B3', 'EUA', 'Suécia'); absent = all markets.",
        },
        "limit": {"type": "integer", "minimum": 1, "maximum": 20, "default": 5},
        "direction": {"type": "string", "enum": ["GAINERS", "LOSERS", "BOTH"]},
        "notify": {"type": "boolean", "description": "Also send the answer to the notifier (Telegram)."},
    },
}

MOVERS_OUTPUT: dict[str, Any] = {
    "type": "object",
    "properties": {
        "direction": {"type": "string", "enum": ["GAINERS", "LOSERS"]},
        "markets": {"type": "array", "items": {"type": "string"}},
        "movers": {
            "type": "array",
            "items": {
                "type": "object",
                "properties": {
                    **CANDIDATE_SCHEMA["properties"],
                    "price": {"type": "number"},
                    "change_pct": {"type": "number"},
                    "timezone": {"type": "string"},
                },
                "required": ["symbol", "price", "change_pct", "currency"],
            },
        },
        "_market_context": MARKET_CONTEXT_SCHEMA,
    },
    "required": ["direction", "markets", "movers", "_market_context"],
}


def movers_metadata(direction: str) -> dict[str, Any]:
    pt, en = ("maiores altas", "top gainers") if direction == "GAINERS" else ("maiores baixas", "top losers")
    words = (
        ["altas", "subiram", "ganhadoras", "valorizaram", "gainers", "up"]
        if direction == "GAINERS"
        else ["baixas", "caíram", "perdedoras", "desvalorizaram", "losers", "down"]
    )
    return {
        "intent_hints": {
            "keywords": [pt, en, *words],
            "examples": [f"{pt} do Brasil hoje", f"{en} in the US"],
        },
        # "... e manda no telegram": the list goes to the notifier too, as a quote's does
        "composition": {
            "followup_roles": ["notifier"],
            "enabled_if": {"path": "parameters.notify", "equals": True},
            "param_map": {"message": {"from_parameters": ["_step_explanation"]}},
        },
        "policy": {"idempotent": True, "read_only": True, "attempts": 2, "timeout_s": 5.0},
        "progress": {"pt": f"Buscando as {pt} do dia…", "en": f"Looking up today's {en}…"},
    }


# --------------------------------------------------------------------- search_symbol

SEARCH_PARAMETERS: dict[str, Any] = {
    "type": "object",
    "properties": {
        "query": {"type": "string", "minLength": 1, "description": "Name or ticker to look up."},
        "symbol_text": {"type": "string", "minLength": 1, "description": "Same as query (goal entity)."},
        "limit": {"type": "integer", "minimum": 1, "maximum": 20, "default": 5},
    },
    "anyOf": [{"required": ["query"]}, {"required": ["symbol_text"]}],
}

SEARCH_OUTPUT: dict[str, Any] = {
    "type": "object",
    "properties": {
        "query": {"type": "string"},
        "matches": {
            "type": "array",
            "items": {
                "type": "object",
                "properties": {**CANDIDATE_SCHEMA["properties"], "score": {"type": "number"}},
                "required": ["symbol", "name", "exchange", "score"],
            },
        },
    },
    "required": ["query", "matches"],
}

SEARCH_METADATA: dict[str, Any] = {
    "intent_hints": {
        "keywords": ["ticker", "código", "símbolo", "symbol", "código de negociação"],
        "examples": ["qual o ticker da Nordea?", "what is the ticker symbol for Nokia?"],
    },
    "policy": {"idempotent": True, "read_only": True, "attempts": 2, "timeout_s": 5.0},
    "progress": {"pt": "Procurando o ticker…", "en": "Looking up the ticker…"},
}

# ------------------------------------------------------------------------------ goals

NOTIFY_WORDS = [
    "telegram",
    "manda",
    "mande",
    "mandar",
    "envia",
    "envie",
    "enviar",
    "notifica",
    "notifique",
    "me avisa",
    "me avise",
    "send",
    "notify",
    "message me",
    "text me",
]


def _ex(text: str, **entities: Any) -> dict[str, Any]:
    return {"text": text, "entities": entities}


GET_QUOTE: dict[str, Any] = {
    "goal": "GET_QUOTE",
    "description": {
        "pt": "O preço atual (cotação) de uma ou mais ações",
        "en": "The current price of one or more stocks",
    },
    "entities_schema": {
        "symbol_text": {
            "type": "string",
            "required": True,
            "multiple": True,
            "description": {"pt": "O nome da empresa ou o ticker", "en": "The company name or ticker"},
            "lookup_path": COMPANIES_LOOKUP_PATH,
        },
        "notify": {
            "type": "boolean",
            "description": {
                "pt": "Enviar a resposta também pelo Telegram",
                "en": "Also send the answer by Telegram",
            },
            "synonyms": {"true": NOTIFY_WORDS},
        },
    },
    "capabilities": ["get_stock_price"],
    "examples": [
        _ex("qual o preço da Nordea?", symbol_text="Nordea"),
        _ex("cotação da PETR4", symbol_text="PETR4"),
        _ex("quanto está a Vale hoje?", symbol_text="Vale"),
        _ex("me diz o valor da ação do Itaú", symbol_text="Itaú"),
        _ex("preço da Apple, Microsoft e Nvidia", symbol_text=["Apple", "Microsoft", "Nvidia"]),
        _ex("quanto custa uma ação da Petrobras?", symbol_text="Petrobras"),
        _ex("cotação do Bradesco e do Banco do Brasil", symbol_text=["Bradesco", "Banco do Brasil"]),
        _ex("manda a cotação da Vale no meu telegram", symbol_text="Vale", notify=True),
        _ex("envie o preço da WEG pelo telegram", symbol_text="WEG", notify=True),
        _ex("what is the price of Apple?", symbol_text="Apple"),
        _ex("how much is Tesla trading at?", symbol_text="Tesla"),
        _ex("how is Nvidia doing today?", symbol_text="Nvidia"),
        _ex("stock quote for Ericsson", symbol_text="Ericsson"),
        _ex("get me the share price of Nokia and Volvo", symbol_text=["Nokia", "Volvo"]),
        # English puts the company before the noun: "Spotify stock price"
        _ex("Spotify stock price", symbol_text="Spotify"),
        _ex("send the Amazon quote to my telegram", symbol_text="Amazon", notify=True),
        _ex("price of MSFT", symbol_text="MSFT"),
    ],
}

_DIRECTION_SYNONYMS = {
    "GAINERS": [
        "altas",
        "maiores altas",
        "alta",
        "subiram",
        "subiu",
        "subindo",
        "ganhos",
        "maiores ganhos",
        "ganhadoras",
        "valorizaram",
        "valorizou",
        "mais valorizadas",
        "gainers",
        "top gainers",
        "up",
        "rising",
        "winners",
        "rose",
        "risers",
    ],
    "LOSERS": [
        "baixas",
        "maiores baixas",
        "baixa",
        "caíram",
        "caiu",
        "caindo",
        "quedas",
        "queda",
        "maiores quedas",
        "perdas",
        "maiores perdas",
        "perdedoras",
        "desvalorizaram",
        "desvalorizou",
        "mais desvalorizadas",
        "losers",
        "top losers",
        "down",
        "falling",
        "decliners",
        "fell",
        "dropped",
    ],
    "BOTH": [
        "altas e baixas",
        "ambos",
        "ambas",
        "os dois",
        "subiram e caíram",
        "altas e quedas",
        "both",
        "gainers and losers",
        "winners and losers",
        "movers",
        "maiores variações",
    ],
}

TOP_MOVERS: dict[str, Any] = {
    "goal": "TOP_MOVERS",
    "description": {
        "pt": "As ações que mais subiram ou caíram no dia, por mercado",
        "en": "The stocks that rose or fell the most today, by market",
    },
    "entities_schema": {
        "direction": {
            "type": "enum",
            "values": ["GAINERS", "LOSERS", "BOTH"],
            "description": {"pt": "Maiores altas, maiores baixas ou ambas", "en": "Gainers, losers or both"},
            "synonyms": _DIRECTION_SYNONYMS,
            "capability_map": {
                "GAINERS": "get_top_gainers",
                "LOSERS": "get_top_losers",
                "BOTH": ["get_top_gainers", "get_top_losers"],
            },
        },
        "market_text": {
            "type": "string",
            "description": {
                "pt": "O mercado (Brasil, B3, EUA, Suécia, Finlândia)",
                "en": "The market (Brazil, B3, US, Sweden, Finland)",
            },
            "lookup_path": MARKETS_LOOKUP_PATH,
        },
        "notify": {
            "type": "boolean",
            "description": {
                "pt": "Enviar a resposta também pelo Telegram",
                "en": "Also send the answer by Telegram",
            },
            "synonyms": {"true": NOTIFY_WORDS},
        },
    },
    "capabilities": ["get_top_gainers", "get_top_losers"],
    "examples": [
        _ex("quais as maiores altas do Brasil hoje?", direction="GAINERS", market_text="Brasil"),
        _ex("ações que mais subiram na B3", direction="GAINERS", market_text="B3"),
        _ex("maiores baixas dos EUA", direction="LOSERS", market_text="EUA"),
        _ex("quais ações caíram mais na Suécia?", direction="LOSERS", market_text="Suécia"),
        _ex("altas e baixas da bolsa hoje", direction="BOTH"),
        _ex("mostre as ganhadoras e perdedoras da Finlândia", direction="BOTH", market_text="Finlândia"),
        _ex("quem mais subiu hoje?", direction="GAINERS"),
        _ex("maiores quedas do mercado americano", direction="LOSERS", market_text="mercado americano"),
        _ex("top gainers in the US", direction="GAINERS", market_text="US"),
        _ex("which stocks fell the most in Brazil?", direction="LOSERS", market_text="Brazil"),
        _ex("show me the top losers today", direction="LOSERS"),
        _ex("gainers and losers in Sweden", direction="BOTH", market_text="Sweden"),
        _ex("biggest movers on the market today", direction="BOTH"),
        _ex(
            "maiores altas do Brasil e manda no telegram",
            direction="GAINERS",
            market_text="Brasil",
            notify=True,
        ),
        _ex(
            "send the top losers in the US to my telegram", direction="LOSERS", market_text="US", notify=True
        ),
    ],
}

SEARCH_SYMBOL: dict[str, Any] = {
    "goal": "SEARCH_SYMBOL",
    "description": {
        "pt": "O ticker (código de negociação) de uma empresa",
        "en": "A company's ticker (trading symbol)",
    },
    "entities_schema": {
        "symbol_text": {
            "type": "string",
            "required": True,
            "description": {"pt": "O nome da empresa", "en": "The company name"},
            "lookup_path": COMPANIES_LOOKUP_PATH,
        }
    },
    "capabilities": ["search_symbol"],
    "examples": [
        _ex("qual o ticker da Nordea?", symbol_text="Nordea"),
        _ex("qual é o código da Petrobras na bolsa?", symbol_text="Petrobras"),
        _ex("como a Ambev é negociada na B3? qual o código?", symbol_text="Ambev"),
        _ex("procura o símbolo da Ericsson", symbol_text="Ericsson"),
        _ex("qual o código de negociação do Magazine Luiza?", symbol_text="Magazine Luiza"),
        _ex("busca o ticker do Itaú", symbol_text="Itaú"),
        _ex("what is the ticker symbol for Nokia?", symbol_text="Nokia"),
        _ex("look up the ticker of Alphabet", symbol_text="Alphabet"),
        _ex("which symbol does Volvo trade under?", symbol_text="Volvo"),
        _ex("find the stock symbol for Tesla", symbol_text="Tesla"),
    ],
}

GOALS: list[dict[str, Any]] = [GET_QUOTE, TOP_MOVERS, SEARCH_SYMBOL]
