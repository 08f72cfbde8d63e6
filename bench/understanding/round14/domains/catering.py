"""Catering (round-14 bench domain): order party food for a number of guests on a day, quote a
menu, follow an order.

Fake, deterministic, in memory.
Run: ``python -m bench.understanding.round14.domains.catering --port 8601``.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from bench.understanding.round14.domains._common import (
    ex,
    hhmm,
    language,
    lookup_spec,
    money_of,
    norm_code,
    read_day,
    read_number,
    resolve_loose,
    say,
    today,
)
from sdk.service import DomainService, clarify, fail, option, serve
from shared.models import DomainOutput, ExecutionIntent

#: menus (canonical name <- other ways people write it)
MENUS: dict[str, list[str]] = {
    "Churrasco Completo": ["churrasco", "churras", "churrasco completo", "barbecue", "bbq", "barbeque"],
    "Coquetel de Salgados": [
        "salgados",
        "salgadinhos",
        "coquetel",
        "coquetel de salgados",
        "finger food",
        "party snacks",
        "savory snacks",
    ],
    "Festa de Massas": ["massas", "massa", "festa de massas", "pasta", "pasta bar", "pasta party"],
    "Mesa de Doces": [
        "doces",
        "docinhos",
        "mesa de doces",
        "brigadeiros",
        "sweets",
        "dessert table",
        "desserts",
    ],
    "Feijoada": ["feijoada", "feijoada completa", "feijuca"],
}
#: price per guest, BRL
PRICES: dict[str, int] = {
    "Churrasco Completo": 85,
    "Coquetel de Salgados": 45,
    "Festa de Massas": 60,
    "Mesa de Doces": 30,
    "Feijoada": 55,
}
MIN_GUESTS, MAX_GUESTS = 10, 300
NOTICE_DAYS = 2
#: orders (code -> menu, guests, state)
ORDERS: dict[str, tuple[str, int, str]] = {
    "CT5101": ("Churrasco Completo", 40, "confirmed"),
    "CT5108": ("Mesa de Doces", 25, "delivered"),
    "CT5115": ("Coquetel de Salgados", 60, "preparing"),
}
STATE = {
    "confirmed": ("confirmado, aguardando o dia", "confirmed, waiting for the day"),
    "delivered": ("entregue", "delivered"),
    "preparing": ("em preparo", "being prepared"),
}
_next = [5200]

service = DomainService(
    "catering",
    "0.1.0",
    {
        "pt": "Buffet e comida para festas: encomendar um cardápio, orçamento, status do pedido",
        "en": "Catering and party food: order a menu for guests, price quotes, order status",
    },
)


def _menu(lang: str, words: object) -> tuple[str | None, DomainOutput | None]:
    name = resolve_loose(words, MENUS)
    if name is None:
        return None, clarify(
            say(lang, f"Não temos “{words}”. Qual cardápio?", "Which menu?"),
            [option(m, m, aliases=MENUS[m]) for m in MENUS],
            param="menu_text",
        )
    return name, None


@service.capability(
    "order_catering",
    {
        "pt": "Encomenda um cardápio para um número de convidados num dia (entrega às 12h, sem hora dita)",
        "en": "Order a party menu for a number of guests on a day (delivered at noon unless a time is said)",
    },
    parameters={
        "type": "object",
        "properties": {
            "menu_text": {"type": "string", "minLength": 1},
            "guests": {"type": "number"},
            "day": {"type": "string", "pattern": "^\\d{4}-\\d{2}-\\d{2}$"},
            "time": {"type": "string", "pattern": "^\\d{2}:\\d{2}$"},
            "budget": {
                "type": "object",
                "properties": {"amount": {"type": "number"}, "currency": {"type": ["string", "null"]}},
                "required": ["amount"],
            },
        },
        "required": ["menu_text", "guests", "day"],
    },
    metadata={
        "intent_hints": {
            "keywords": ["buffet", "encomendar comida para festa", "catering", "party food"],
            "examples": ["quero contratar um buffet", "I need catering for a party"],
        },
        "policy": {"confirm": True, "idempotent": False},
    },
)
def order_catering(intent: ExecutionIntent) -> DomainOutput:
    lang = language(intent)
    p = intent.parameters
    name, question = _menu(lang, p.get("menu_text"))
    if question is not None:
        return question
    assert name is not None
    day = read_day(p.get("day"))
    guests = read_number(p.get("guests"))
    if day is None or guests is None:
        return fail(
            say(lang, "Falta o dia ou o número de convidados.", "The day or guests are missing."),
            "missing_parameter",
        )
    guests = int(guests)
    if day < today():
        return fail(say(lang, "Esse dia já passou.", "That day is past."), "past_day")
    earliest = today() + timedelta(days=NOTICE_DAYS)
    if day < earliest:
        return fail(
            say(lang, "Precisamos de 2 dias de antecedência.", "We need 2 days' notice."),
            "too_soon",
            recoverable=True,
            suggestions=[{"day": earliest.isoformat()}],
        )
    if guests < MIN_GUESTS or guests > MAX_GUESTS:
        bound = MIN_GUESTS if guests < MIN_GUESTS else MAX_GUESTS
        return fail(
            say(
                lang,
                f"Atendemos de {MIN_GUESTS} a {MAX_GUESTS} convidados.",
                f"We serve {MIN_GUESTS} to {MAX_GUESTS} guests.",
            ),
            "guests_out_of_range",
            recoverable=True,
            suggestions=[{"guests": bound}],
        )
    at = hhmm(p.get("time")) or (12, 0)
    total = PRICES[name] * guests
    money = money_of(p.get("budget"))
    if money is not None:
        amount, currency = money
        if (currency or "BRL") != "BRL":
            return fail(
                say(lang, "Só trabalhamos em reais.", "We only work in reais."), "unsupported_currency"
            )
        if total > amount:
            return fail(
                say(
                    lang,
                    f"Fica R$ {total:.2f}, acima do seu limite.",
                    f"It comes to R$ {total:.2f}, over your budget.",
                ),
                "over_budget",
            )
    _next[0] += 1
    code = f"CT{_next[0]}"
    when = f"{at[0]:02d}:{at[1]:02d}"
    ORDERS[code] = (name, guests, "confirmed")
    return DomainOutput(
        status="success",
        result={
            "code": code,
            "menu": name,
            "guests": guests,
            "day": day.isoformat(),
            "time": when,
            "total": {"amount": total, "currency": "BRL"},
        },
        explanation=say(
            lang,
            f"Pedido {code}: {name} para {guests} pessoas, {day:%d/%m} às {when}, R$ {total:.2f}.",
            f"Order {code}: {name} for {guests} guests, {day:%b %d} at {when}, R$ {total:.2f}.",
        ),
    )


@service.capability(
    "catering_quote",
    {
        "pt": "Orçamento de um cardápio (por pessoa, ou para um número de convidados)",
        "en": "Quote a menu (per guest, or for a number of guests)",
    },
    parameters={
        "type": "object",
        "properties": {"menu_text": {"type": "string", "minLength": 1}, "guests": {"type": "number"}},
        "required": ["menu_text"],
    },
    metadata={
        "intent_hints": {
            "keywords": ["orçamento de buffet", "quanto custa o buffet", "catering quote"],
            "examples": ["quanto fica um buffet?", "how much is catering per person?"],
        },
        "policy": {"read_only": True},
    },
)
def catering_quote(intent: ExecutionIntent) -> DomainOutput:
    lang = language(intent)
    name, question = _menu(lang, intent.parameters.get("menu_text"))
    if question is not None:
        return question
    assert name is not None
    guests = read_number(intent.parameters.get("guests"))
    each = PRICES[name]
    if guests is None:
        return DomainOutput(
            status="success",
            result={"menu": name, "per_guest": {"amount": each, "currency": "BRL"}},
            explanation=say(
                lang,
                f"{name}: R$ {each:.2f} por pessoa (mínimo 10).",
                f"{name}: R$ {each:.2f} per guest (10 minimum).",
            ),
        )
    total = each * int(guests)
    return DomainOutput(
        status="success",
        result={"menu": name, "guests": int(guests), "total": {"amount": total, "currency": "BRL"}},
        explanation=say(
            lang,
            f"{name} para {int(guests)} pessoas: R$ {total:.2f}.",
            f"{name} for {int(guests)} guests: R$ {total:.2f}.",
        ),
    )


@service.capability(
    "catering_status",
    {"pt": "Diz como está um pedido de buffet", "en": "Tell how a catering order is doing"},
    parameters={
        "type": "object",
        "properties": {"order_text": {"type": "string", "minLength": 1}},
        "required": ["order_text"],
    },
    metadata={
        "intent_hints": {
            "keywords": ["status do buffet", "pedido do buffet", "catering order status"],
            "examples": ["como está meu pedido do buffet?", "where is my catering order?"],
        },
        "policy": {"read_only": True},
    },
)
def catering_status(intent: ExecutionIntent) -> DomainOutput:
    lang = language(intent)
    code = norm_code(intent.parameters.get("order_text"))
    order = ORDERS.get(code)
    if order is None:
        return fail(say(lang, f"Não achei o pedido {code}.", f"No order {code}."), "not_found")
    name, guests, state = order
    pt, en = STATE[state]
    return DomainOutput(
        status="success",
        result={"code": code, "menu": name, "guests": guests, "state": state},
        explanation=say(
            lang, f"{code} ({name}, {guests} pessoas): {pt}.", f"{code} ({name}, {guests} guests): {en}."
        ),
    )


MENU_ENTITY: dict[str, Any] = {
    "type": "string",
    "required": True,
    "description": {"pt": "O cardápio", "en": "The menu"},
    "lookup": lookup_spec(MENUS),
}

service.add_goal(
    {
        "goal": "ORDER_CATERING",
        "description": {
            "pt": "Encomendar buffet ou comida para uma festa",
            "en": "Order catering or party food",
        },
        "entities_schema": {
            "menu_text": MENU_ENTITY,
            "guests": {
                "type": "number",
                "required": True,
                "description": {"pt": "Quantos convidados", "en": "How many guests"},
            },
            "day": {
                "type": "date",
                "required": True,
                "description": {"pt": "O dia da festa", "en": "The day of the party"},
            },
            "time": {"type": "time", "description": {"pt": "A hora da entrega", "en": "The delivery time"}},
            "budget": {
                "type": "money",
                "description": {"pt": "Quanto quer gastar, no máximo", "en": "The most you want to spend"},
            },
        },
        "capabilities": ["order_catering"],
        "examples": [
            ex(
                "quero um churrasco para 30 pessoas no sábado",
                menu_text="churrasco",
                guests="30 pessoas",
                day="sábado",
            ),
            ex(
                "encomenda salgados pra 50 convidados dia 20 às 19h",
                menu_text="salgados",
                guests="50 convidados",
                day="dia 20",
                time="às 19h",
            ),
            ex(
                "buffet de massas pra 25 pessoas sexta, até R$ 2.000",
                menu_text="massas",
                guests="25 pessoas",
                day="sexta",
                budget="até R$ 2.000",
            ),
            ex(
                "order a barbecue for 40 guests on Saturday",
                menu_text="barbecue",
                guests="40 guests",
                day="Saturday",
            ),
            ex(
                "I need finger food for 20 people on the 25th at 6pm",
                menu_text="finger food",
                guests="20 people",
                day="the 25th",
                time="at 6pm",
            ),
            ex(
                "cater a dessert table for 35 people next friday",
                menu_text="dessert table",
                guests="35 people",
                day="next friday",
            ),
        ],
    }
)
service.add_goal(
    {
        "goal": "CATERING_QUOTE",
        "description": {"pt": "Orçamento de buffet", "en": "Catering price quote"},
        "entities_schema": {
            "menu_text": MENU_ENTITY,
            "guests": {
                "type": "number",
                "description": {"pt": "Quantos convidados", "en": "How many guests"},
            },
        },
        "capabilities": ["catering_quote"],
        "examples": [
            ex("quanto custa a feijoada por pessoa?", menu_text="feijoada"),
            ex("orçamento de churrasco pra 60 pessoas", menu_text="churrasco", guests="60 pessoas"),
            ex("how much is the pasta bar for 30 guests?", menu_text="pasta bar", guests="30 guests"),
            ex("price per person for the sweets table", menu_text="sweets"),
        ],
    }
)
service.add_goal(
    {
        "goal": "CATERING_STATUS",
        "description": {"pt": "Status de um pedido de buffet", "en": "Status of a catering order"},
        "entities_schema": {
            "order_text": {
                "type": "string",
                "required": True,
                "description": {"pt": "O código do pedido", "en": "The order code"},
            }
        },
        "capabilities": ["catering_status"],
        "examples": [
            ex("como está o pedido CT5101?", order_text="CT5101"),
            ex("status do buffet CT5115", order_text="CT5115"),
            ex("catering order CT5108 status", order_text="CT5108"),
            ex("is CT5101 confirmed?", order_text="CT5101"),
        ],
    }
)

if __name__ == "__main__":
    serve(service)
