"""Bakery orders (round-16 bench domain): order a cake or baked goods for a pickup day, the
price of an item, the status of an order by its code.

Fake, deterministic, in memory.
Run: ``python -m bench.understanding.round16.domains.bakery --port 8802``.
"""

from __future__ import annotations

from datetime import date, timedelta
from typing import Any

from bench.understanding.round16.domains._common import (
    ex,
    hhmm,
    language,
    norm_code,
    read_day,
    read_number,
    resolve_name,
    say,
    table,
    today,
)
from sdk.service import DomainService, clarify, fail, option, serve
from shared.models import DomainOutput, ExecutionIntent

#: items (canonical value <- aliases)
ITEMS: dict[str, list[str]] = {
    "Bolo de chocolate": ["bolo de chocolate", "bolo de choco", "chocolate cake"],
    "Bolo de cenoura": ["bolo de cenoura", "bolo de cenoura com chocolate", "carrot cake"],
    "Bolo red velvet": ["red velvet", "bolo red velvet", "red velvet cake"],
    "Torta de limão": ["torta de limão", "torta de limao", "lemon pie", "lemon tart"],
    "Pão de queijo": ["pão de queijo", "pao de queijo", "pães de queijo", "cheese bread", "cheese buns"],
    "Croissant": ["croissant", "croissants", "croassant"],
    "Brigadeiro": ["brigadeiro", "brigadeiros", "brigadeiro gourmet"],
    "Pão de fermentação natural": [
        "pão de fermentação natural",
        "pão italiano",
        "pães italianos",
        "levain",
        "sourdough",
        "sourdough bread",
        "sourdough loaf",
    ],
}
#: cakes and pies come in sizes and need two days' notice
CAKES = {"Bolo de chocolate", "Bolo de cenoura", "Bolo red velvet", "Torta de limão"}
#: size (enum value <- synonyms; the first of each language is the label)
SIZES: dict[str, list[str]] = {
    "SMALL": ["pequeno", "pequena", "tamanho p", "small", "size s"],
    "MEDIUM": ["médio", "média", "medio", "tamanho m", "medium", "size m", "mid-size"],
    "LARGE": ["grande", "tamanho g", "large", "big", "size l"],
}
LABEL = {"SMALL": ("pequeno", "small"), "MEDIUM": ("médio", "medium"), "LARGE": ("grande", "large")}
#: price: cakes by size, the rest by unit (BRL)
CAKE_PRICES: dict[str, dict[str, float]] = {
    "Bolo de chocolate": {"SMALL": 60, "MEDIUM": 90, "LARGE": 130},
    "Bolo de cenoura": {"SMALL": 50, "MEDIUM": 75, "LARGE": 110},
    "Bolo red velvet": {"SMALL": 80, "MEDIUM": 120, "LARGE": 170},
    "Torta de limão": {"SMALL": 55, "MEDIUM": 85, "LARGE": 120},
}
UNIT_PRICES: dict[str, float] = {
    "Pão de queijo": 2.5,
    "Croissant": 8,
    "Brigadeiro": 3,
    "Pão de fermentação natural": 28,
}
OPEN_FROM, OPEN_TO = 7, 19
#: orders (code -> item, size, quantity, pickup day, state)
ORDERS: dict[str, tuple[str, str | None, int, date, str]] = {
    "PD6101": ("Bolo de chocolate", "LARGE", 1, date(2026, 3, 13), "in_preparation"),
    "PD6105": ("Brigadeiro", None, 30, date(2026, 3, 10), "ready"),
    "PD6110": ("Torta de limão", "MEDIUM", 1, date(2026, 3, 12), "cancelled"),
    "PD6112": ("Croissant", None, 12, date(2026, 3, 7), "picked_up"),
}
STATES = {
    "in_preparation": ("em preparo", "being prepared"),
    "ready": ("pronto para retirar", "ready for pickup"),
    "cancelled": ("cancelado", "cancelled"),
    "picked_up": ("já retirado", "already picked up"),
    "received": ("recebido", "received"),
}
_next = [6200]

service = DomainService(
    "bakery",
    "0.1.0",
    {
        "pt": (
            "Padaria e confeitaria: encomendar bolos e pães para retirar, "
            "preço de um item, status de uma encomenda"
        ),
        "en": "Bakery: order cakes and baked goods for pickup, price of an item, status of an order",
    },
)


def _size(p: dict[str, Any]) -> str | None:
    size = str(p.get("size") or "").upper()
    return size if size in SIZES else None


def _unit_price(item: str, size: str | None) -> float:
    if item in CAKES:
        return CAKE_PRICES[item][size or "MEDIUM"]
    return UNIT_PRICES[item]


def _item_options(lang: str) -> DomainOutput:
    return clarify(
        say(lang, "Não tenho esse item. Qual destes?", "We don't make that. Which of these?"),
        [option(name, name) for name in ITEMS],
        param="item_text",
    )


@service.capability(
    "order_baked_goods",
    {
        "pt": (
            "Encomenda um bolo, torta ou pães para retirar num dia (1 unidade e tamanho médio, se "
            "não disser; bolos com 2 dias de antecedência; fechado às segundas)"
        ),
        "en": (
            "Order a cake, pie or baked goods for pickup on a day (1 and medium size "
            "unless said; cakes need 2 days' notice; closed on Mondays)"
        ),
    },
    parameters={
        "type": "object",
        "properties": {
            "item_text": {"type": "string", "minLength": 1},
            "quantity": {"type": "number"},
            "size": {"type": "string", "enum": list(SIZES)},
            "pickup_day": {"type": "string", "pattern": "^\\d{4}-\\d{2}-\\d{2}$"},
            "pickup_time": {"type": "string", "pattern": "^\\d{2}:\\d{2}$"},
        },
        "required": ["item_text", "pickup_day"],
    },
    metadata={
        "intent_hints": {
            "keywords": ["encomenda", "encomendar bolo", "padaria", "confeitaria", "bakery order"],
            "examples": ["quero encomendar um bolo", "order a cake from the bakery"],
        },
        "policy": {"confirm": True, "idempotent": False},
    },
)
def order_baked_goods(intent: ExecutionIntent) -> DomainOutput:
    lang = language(intent)
    p = intent.parameters
    item = resolve_name(ITEMS, p.get("item_text"))
    if item is None:
        return _item_options(lang)
    day = read_day(p.get("pickup_day"))
    if day is None:
        return fail(say(lang, "Falta o dia da retirada.", "The pickup day is missing."), "missing_parameter")
    quantity = int(read_number(p.get("quantity")) or 1)
    size = _size(p) if item in CAKES else None
    if item in CAKES and size is None:
        size = "MEDIUM"
    at = hhmm(p.get("pickup_time")) if p.get("pickup_time") else None
    if day < today():
        return fail(say(lang, "Esse dia já passou.", "That day is past."), "past_day")
    notice = 2 if item in CAKES else 1
    first = today() + timedelta(days=notice)
    if day < first:
        return fail(
            say(
                lang,
                f"Precisamos de {notice} dia(s) de antecedência para {item}.",
                f"We need {notice} day(s) of notice for {item}.",
            ),
            "short_notice",
            recoverable=True,
            suggestions=[{"pickup_day": first.isoformat()}],
        )
    if day.weekday() == 0:
        return fail(
            say(lang, "Fechamos às segundas.", "We're closed on Mondays."),
            "closed",
            recoverable=True,
            suggestions=[{"pickup_day": (day + timedelta(days=1)).isoformat()}],
        )
    if at is not None and not (OPEN_FROM <= at[0] < OPEN_TO):
        return fail(
            say(lang, "Retiradas das 7h às 19h.", "Pickups from 7am to 7pm."),
            "outside_hours",
            recoverable=True,
            suggestions=[{"pickup_time": f"{OPEN_FROM if at[0] < OPEN_FROM else OPEN_TO - 1:02d}:00"}],
        )
    total = round(_unit_price(item, size) * quantity, 2)
    _next[0] += 1
    code = f"PD{_next[0]}"
    ORDERS[code] = (item, size, quantity, day, "received")
    size_pt = f" {LABEL[size][0]}" if size else ""
    size_en = f" {LABEL[size][1]}" if size else ""
    when = f" às {at[0]:02d}:{at[1]:02d}" if at else ""
    when_en = f" at {at[0]:02d}:{at[1]:02d}" if at else ""
    return DomainOutput(
        status="success",
        result={
            "code": code,
            "item": item,
            "size": size,
            "quantity": quantity,
            "pickup_day": day.isoformat(),
            "total": {"amount": total, "currency": "BRL"},
        },
        explanation=say(
            lang,
            f"Encomenda {code}: {quantity} × {item}{size_pt}, retirada {day:%d/%m}{when}, R$ {total:.2f}.",
            f"Order {code}: {quantity} × {item}{size_en}, pickup {day:%b %d}{when_en}, R$ {total:.2f}.",
        ),
    )


@service.capability(
    "bakery_price",
    {
        "pt": "Diz o preço de um item da padaria (bolos por tamanho; o resto por unidade)",
        "en": "Tell the price of a bakery item (cakes by size; the rest by unit)",
    },
    parameters={
        "type": "object",
        "properties": {
            "item_text": {"type": "string", "minLength": 1},
            "size": {"type": "string", "enum": list(SIZES)},
            "quantity": {"type": "number"},
        },
        "required": ["item_text"],
    },
    metadata={
        "intent_hints": {
            "keywords": ["preço do bolo", "quanto custa o bolo", "cake price", "bakery price"],
            "examples": ["quanto custa o bolo de cenoura?", "how much is the carrot cake?"],
        },
        "policy": {"read_only": True},
    },
)
def bakery_price(intent: ExecutionIntent) -> DomainOutput:
    lang = language(intent)
    p = intent.parameters
    item = resolve_name(ITEMS, p.get("item_text"))
    if item is None:
        return _item_options(lang)
    quantity = int(read_number(p.get("quantity")) or 1)
    if item in CAKES:
        size = _size(p)
        sizes = [size] if size else list(SIZES)
        prices = {s: CAKE_PRICES[item][s] * quantity for s in sizes}
        pt = "; ".join(f"{LABEL[s][0]} R$ {v:.2f}" for s, v in prices.items())
        en = "; ".join(f"{LABEL[s][1]} R$ {v:.2f}" for s, v in prices.items())
        return DomainOutput(
            status="success",
            result={
                "item": item,
                "quantity": quantity,
                "prices": {s: {"amount": v, "currency": "BRL"} for s, v in prices.items()},
            },
            explanation=say(lang, f"{quantity} × {item}: {pt}.", f"{quantity} × {item}: {en}."),
        )
    total = round(UNIT_PRICES[item] * quantity, 2)
    return DomainOutput(
        status="success",
        result={"item": item, "quantity": quantity, "total": {"amount": total, "currency": "BRL"}},
        explanation=say(
            lang,
            f"{quantity} × {item}: R$ {total:.2f} (R$ {UNIT_PRICES[item]:.2f} a unidade).",
            f"{quantity} × {item}: R$ {total:.2f} (R$ {UNIT_PRICES[item]:.2f} each).",
        ),
    )


@service.capability(
    "bakery_order_status",
    {
        "pt": "Diz o status de uma encomenda da padaria pelo código",
        "en": "Tell the status of a bakery order by its code",
    },
    parameters={
        "type": "object",
        "properties": {"order_text": {"type": "string", "minLength": 1}},
        "required": ["order_text"],
    },
    metadata={
        "intent_hints": {
            "keywords": ["status da encomenda", "meu bolo está pronto", "order status", "is my cake ready"],
            "examples": ["minha encomenda já está pronta?", "is my bakery order ready?"],
        },
        "policy": {"read_only": True},
    },
)
def bakery_order_status(intent: ExecutionIntent) -> DomainOutput:
    lang = language(intent)
    code = norm_code(intent.parameters.get("order_text"))
    order = ORDERS.get(code)
    if order is None:
        return fail(say(lang, f"Não achei a encomenda {code}.", f"No order {code}."), "not_found")
    item, size, quantity, day, state = order
    pt, en = STATES[state]
    return DomainOutput(
        status="success",
        result={
            "code": code,
            "item": item,
            "size": size,
            "quantity": quantity,
            "pickup_day": day.isoformat(),
            "state": state,
        },
        explanation=say(
            lang,
            f"{code}: {quantity} × {item}, retirada {day:%d/%m}: {pt}.",
            f"{code}: {quantity} × {item}, pickup {day:%b %d}: {en}.",
        ),
    )


SIZE_ENTITY: dict[str, Any] = {
    "type": "enum",
    "values": list(SIZES),
    "synonyms": SIZES,
    "description": {"pt": "O tamanho", "en": "The size"},
}
ITEM_ENTITY: dict[str, Any] = {
    "type": "string",
    "required": True,
    "lookup": table(ITEMS),
    "description": {"pt": "O bolo ou item", "en": "The cake or item"},
}

service.add_goal(
    {
        "goal": "ORDER_BAKED_GOODS",
        "description": {
            "pt": "Encomendar bolo ou pães para retirar",
            "en": "Order a cake or baked goods for pickup",
        },
        "entities_schema": {
            "item_text": ITEM_ENTITY,
            "quantity": {"type": "number", "description": {"pt": "Quantas unidades", "en": "How many"}},
            "size": SIZE_ENTITY,
            "pickup_day": {
                "type": "date",
                "required": True,
                "description": {"pt": "O dia da retirada", "en": "The pickup day"},
            },
            "pickup_time": {
                "type": "time",
                "description": {"pt": "O horário da retirada", "en": "The pickup time"},
            },
        },
        "capabilities": ["order_baked_goods"],
        "examples": [
            ex(
                "quero encomendar um bolo de chocolate grande pra sábado",
                item_text="bolo de chocolate",
                size="LARGE",
                pickup_day="sábado",
            ),
            ex(
                "encomenda 50 unidades de pão de queijo pra sexta às 9h",
                quantity="50 unidades",
                item_text="pão de queijo",
                pickup_day="sexta",
                pickup_time="às 9h",
            ),
            ex(
                "pede uma torta de limão média pra quinta",
                item_text="torta de limão",
                size="MEDIUM",
                pickup_day="quinta",
            ),
            ex(
                "order a large red velvet cake for Saturday",
                size="LARGE",
                item_text="red velvet cake",
                pickup_day="Saturday",
            ),
            ex(
                "I'd like to order 12 croissants for pickup on Friday at 8am",
                quantity="12",
                item_text="croissants",
                pickup_day="Friday",
                pickup_time="at 8am",
            ),
        ],
    }
)
service.add_goal(
    {
        "goal": "BAKERY_PRICE",
        "description": {"pt": "Preço de um item da padaria", "en": "Price of a bakery item"},
        "entities_schema": {
            "item_text": ITEM_ENTITY,
            "size": SIZE_ENTITY,
            "quantity": {"type": "number", "description": {"pt": "Quantas unidades", "en": "How many"}},
        },
        "capabilities": ["bakery_price"],
        "examples": [
            ex("quanto custa o bolo de cenoura grande?", item_text="bolo de cenoura", size="LARGE"),
            ex("qual o preço do pão de fermentação natural?", item_text="pão de fermentação natural"),
            ex("how much is a small chocolate cake?", size="SMALL", item_text="chocolate cake"),
            ex("price of 20 cheese buns", quantity="20", item_text="cheese buns"),
        ],
    }
)
service.add_goal(
    {
        "goal": "BAKERY_ORDER_STATUS",
        "description": {"pt": "Status de uma encomenda da padaria", "en": "Status of a bakery order"},
        "entities_schema": {
            "order_text": {
                "type": "string",
                "required": True,
                "description": {"pt": "O código da encomenda", "en": "The order code"},
            }
        },
        "capabilities": ["bakery_order_status"],
        "examples": [
            ex("status da encomenda PD6101", order_text="PD6101"),
            ex("a encomenda PD6105 já está pronta?", order_text="PD6105"),
            ex("what's the status of order PD6101?", order_text="PD6101"),
            ex("is bakery order PD6105 ready?", order_text="PD6105"),
        ],
    }
)

if __name__ == "__main__":
    serve(service)
