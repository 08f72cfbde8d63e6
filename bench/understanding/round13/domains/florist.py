"""Florist (round-13 bench domain): order flowers for delivery, price an arrangement, track an
order.

Fake, deterministic, in memory.
Run: ``python -m bench.understanding.round13.domains.florist --port 8502``.
"""

from __future__ import annotations

import re
from datetime import timedelta
from typing import Any

from bench.understanding.round13.domains._common import (
    ex,
    language,
    lookup_spec,
    read_day,
    read_number,
    resolve_loose,
    say,
    today,
)
from sdk.service import DomainService, clarify, fail, option, serve
from shared.models import DomainOutput, ExecutionIntent

#: arrangements (canonical name <- other ways people write it)
ARRANGEMENTS: dict[str, list[str]] = {
    "Buquê de Rosas Vermelhas": [
        "buquê de rosas",
        "buque de rosas",
        "rosas vermelhas",
        "rosas",
        "red roses",
        "roses",
        "bouquet of roses",
    ],
    "Arranjo de Girassóis": ["girassóis", "girassol", "arranjo de girassol", "sunflowers", "sunflower"],
    "Orquídea em Vaso": ["orquídea", "orquídeas", "orquidea", "orchid", "orchids", "potted orchid"],
    "Buquê de Tulipas": ["tulipas", "tulipa", "buquê de tulipas", "tulips", "tulip bouquet"],
}
#: parts of the day (enum value <- synonyms)
PERIODS: dict[str, list[str]] = {
    "MORNING": ["de manhã", "pela manhã", "in the morning", "morning"],
    "AFTERNOON": ["à tarde", "de tarde", "a tarde", "tarde", "in the afternoon", "afternoon"],
    "EVENING": ["à noite", "de noite", "in the evening", "evening"],
}
PRICES: dict[str, int] = {
    "Buquê de Rosas Vermelhas": 180,
    "Arranjo de Girassóis": 150,
    "Orquídea em Vaso": 120,
    "Buquê de Tulipas": 210,
}
MAX_UNITS = 10
#: orders (code -> arrangement, state)
ORDERS: dict[str, tuple[str, str]] = {
    "FL7201": ("Buquê de Rosas Vermelhas", "out_for_delivery"),
    "FL7208": ("Orquídea em Vaso", "delivered"),
    "FL7215": ("Buquê de Tulipas", "preparing"),
}
STATE = {
    "out_for_delivery": ("saiu para entrega", "out for delivery"),
    "delivered": ("entregue", "delivered"),
    "preparing": ("em preparo", "being prepared"),
}
_next = [7300]

service = DomainService(
    "florist",
    "0.1.0",
    {
        "pt": "Floricultura: encomendar flores com entrega, preço, acompanhar o pedido",
        "en": "Florist: order flowers for delivery, prices, track an order",
    },
)


def _arrangement(lang: str, words: object) -> tuple[str | None, DomainOutput | None]:
    name = resolve_loose(words, ARRANGEMENTS)
    if name is None:
        return None, clarify(
            say(lang, f"Não temos “{words}”. Qual arranjo?", "Which arrangement?"),
            [option(a, a, aliases=ARRANGEMENTS[a]) for a in ARRANGEMENTS],
            param="arrangement_text",
        )
    return name, None


@service.capability(
    "order_flowers",
    {
        "pt": "Encomenda flores para entregar num dia (a qualquer hora, se não disser o período)",
        "en": "Order flowers delivered on a day (any time, unless a part of the day is said)",
    },
    parameters={
        "type": "object",
        "properties": {
            "arrangement_text": {"type": "string", "minLength": 1},
            "day": {"type": "string", "pattern": "^\\d{4}-\\d{2}-\\d{2}$"},
            "period": {"type": "string", "enum": list(PERIODS)},
            "quantity": {"type": "number"},
            "budget": {
                "type": "object",
                "properties": {"amount": {"type": "number"}, "currency": {"type": ["string", "null"]}},
                "required": ["amount"],
            },
        },
        "required": ["arrangement_text", "day"],
    },
    metadata={
        "intent_hints": {
            "keywords": ["encomendar flores", "mandar flores", "send flowers", "order flowers"],
            "examples": ["quero mandar flores", "send flowers to my mom"],
        },
        "policy": {"confirm": True, "idempotent": False},
    },
)
def order_flowers(intent: ExecutionIntent) -> DomainOutput:
    lang = language(intent)
    p = intent.parameters
    name, question = _arrangement(lang, p.get("arrangement_text"))
    if question is not None:
        return question
    assert name is not None
    day = read_day(p.get("day"))
    units = int(read_number(p.get("quantity")) or 1)
    period = str(p.get("period") or "").upper() or None
    if day is None:
        return fail(say(lang, "Falta o dia da entrega.", "The delivery day is missing."), "missing_parameter")
    if day < today():
        return fail(say(lang, "Esse dia já passou.", "That day is past."), "past_day")
    if day.weekday() == 6:
        return fail(
            say(lang, "Não entregamos no domingo.", "We do not deliver on Sundays."),
            "closed",
            recoverable=True,
            suggestions=[{"day": (day + timedelta(days=1)).isoformat()}],
        )
    if units > MAX_UNITS:
        return fail(
            say(lang, "Até 10 unidades por pedido.", "Up to 10 per order."),
            "too_many",
            recoverable=True,
            suggestions=[{"quantity": MAX_UNITS}],
        )
    price = PRICES[name] * units
    budget = p.get("budget")
    if isinstance(budget, dict):
        if (budget.get("currency") or "BRL") != "BRL":
            return fail(
                say(lang, "Só trabalhamos em reais.", "We only work in reais."), "unsupported_currency"
            )
        if price > float(budget.get("amount") or 0):
            return fail(
                say(
                    lang,
                    f"Fica R$ {price:.2f}, acima do seu limite.",
                    f"It costs R$ {price:.2f}, over your budget.",
                ),
                "over_budget",
            )
    _next[0] += 1
    code = f"FL{_next[0]}"
    ORDERS[code] = (name, "preparing")
    return DomainOutput(
        status="success",
        result={
            "code": code,
            "arrangement": name,
            "day": day.isoformat(),
            "period": period,
            "quantity": units,
            "price": {"amount": price, "currency": "BRL"},
        },
        explanation=say(
            lang,
            f"Pedido {code}: {units} × {name}, entrega {day:%d/%m}, R$ {price:.2f}.",
            f"Order {code}: {units} × {name}, delivery {day:%b %d}, R$ {price:.2f}.",
        ),
    )


@service.capability(
    "flower_price",
    {"pt": "Diz o preço de um arranjo", "en": "Tell an arrangement's price"},
    parameters={
        "type": "object",
        "properties": {"arrangement_text": {"type": "string", "minLength": 1}},
        "required": ["arrangement_text"],
    },
    metadata={
        "intent_hints": {
            "keywords": ["preço das flores", "quanto custa o buquê", "flower prices"],
            "examples": ["quanto custa um arranjo?", "how much is a bouquet?"],
        },
        "policy": {"read_only": True},
    },
)
def flower_price(intent: ExecutionIntent) -> DomainOutput:
    lang = language(intent)
    name, question = _arrangement(lang, intent.parameters.get("arrangement_text"))
    if question is not None:
        return question
    assert name is not None
    return DomainOutput(
        status="success",
        result={"arrangement": name, "price": {"amount": PRICES[name], "currency": "BRL"}},
        explanation=say(lang, f"{name}: R$ {PRICES[name]:.2f}.", f"{name}: R$ {PRICES[name]:.2f}."),
    )


@service.capability(
    "track_flowers",
    {"pt": "Diz onde está um pedido de flores", "en": "Track a flower order"},
    parameters={
        "type": "object",
        "properties": {"order_text": {"type": "string", "minLength": 1}},
        "required": ["order_text"],
    },
    metadata={
        "intent_hints": {
            "keywords": ["rastrear flores", "status do pedido de flores", "track my flowers"],
            "examples": ["cadê minhas flores?", "where are my flowers?"],
        },
        "policy": {"read_only": True},
    },
)
def track_flowers(intent: ExecutionIntent) -> DomainOutput:
    lang = language(intent)
    code = re.sub(r"[\s#-]", "", str(intent.parameters.get("order_text") or "")).upper()
    order = ORDERS.get(code)
    if order is None:
        return fail(say(lang, f"Não achei o pedido {code}.", f"No order {code}."), "not_found")
    name, state = order
    pt, en = STATE[state]
    return DomainOutput(
        status="success",
        result={"code": code, "arrangement": name, "state": state},
        explanation=say(lang, f"{code} ({name}): {pt}.", f"{code} ({name}): {en}."),
    )


ARRANGEMENT_ENTITY: dict[str, Any] = {
    "type": "string",
    "required": True,
    "description": {"pt": "O arranjo", "en": "The arrangement"},
    "lookup": lookup_spec(ARRANGEMENTS),
}

service.add_goal(
    {
        "goal": "ORDER_FLOWERS",
        "description": {"pt": "Encomendar flores com entrega", "en": "Order flowers for delivery"},
        "entities_schema": {
            "arrangement_text": ARRANGEMENT_ENTITY,
            "day": {
                "type": "date",
                "required": True,
                "description": {"pt": "O dia da entrega", "en": "The delivery day"},
            },
            "period": {
                "type": "enum",
                "values": list(PERIODS),
                "synonyms": PERIODS,
                "description": {"pt": "O período da entrega", "en": "The delivery window"},
            },
            "quantity": {"type": "number", "description": {"pt": "Quantos", "en": "How many"}},
            "budget": {
                "type": "money",
                "description": {"pt": "Quanto quer gastar, no máximo", "en": "The most you want to spend"},
            },
        },
        "capabilities": ["order_flowers"],
        "examples": [
            ex(
                "manda um buquê de rosas amanhã de manhã",
                arrangement_text="buquê de rosas",
                day="amanhã",
                period="MORNING",
            ),
            ex("quero 2 orquídeas para sexta", arrangement_text="orquídeas", day="sexta", quantity="2"),
            ex(
                "girassóis pra quinta, até R$ 200",
                arrangement_text="girassóis",
                day="quinta",
                budget="até R$ 200",
            ),
            ex(
                "encomenda girassóis pro dia 20 à tarde",
                arrangement_text="girassóis",
                day="dia 20",
                period="AFTERNOON",
            ),
            ex(
                "send red roses on Friday afternoon",
                arrangement_text="red roses",
                day="Friday",
                period="AFTERNOON",
            ),
            ex(
                "order 3 tulip bouquets for tomorrow",
                arrangement_text="tulip bouquets",
                day="tomorrow",
                quantity="3",
            ),
        ],
    }
)
service.add_goal(
    {
        "goal": "FLOWER_PRICE",
        "description": {"pt": "Preço de um arranjo de flores", "en": "Price of a flower arrangement"},
        "entities_schema": {"arrangement_text": ARRANGEMENT_ENTITY},
        "capabilities": ["flower_price"],
        "examples": [
            ex("quanto custa o buquê de tulipas?", arrangement_text="buquê de tulipas"),
            ex("preço da orquídea", arrangement_text="orquídea"),
            ex("how much are the sunflowers?", arrangement_text="sunflowers"),
            ex("price of the rose bouquet", arrangement_text="rose bouquet"),
        ],
    }
)
service.add_goal(
    {
        "goal": "TRACK_FLOWERS",
        "description": {"pt": "Acompanhar um pedido de flores", "en": "Track a flower order"},
        "entities_schema": {
            "order_text": {
                "type": "string",
                "required": True,
                "description": {"pt": "O código do pedido", "en": "The order code"},
            }
        },
        "capabilities": ["track_flowers"],
        "examples": [
            ex("onde está o pedido FL7201?", order_text="FL7201"),
            ex("status das flores FL7215", order_text="FL7215"),
            ex("track flower order FL7208", order_text="FL7208"),
            ex("has FL7201 been delivered?", order_text="FL7201"),
        ],
    }
)

if __name__ == "__main__":
    serve(service)
