"""Water delivery (round-20 bench domain): order 20-litre jugs of mineral water to an address,
once or on a recurring schedule, check an order's status by its number, and quote prices.

Fake, deterministic, in memory.
Run: ``python -m bench.understanding.round20.domains.water_delivery --port 8933``.
"""

from __future__ import annotations

from datetime import date

from bench.understanding.round20.domains._common import (
    ex,
    language,
    norm_code,
    read_day,
    read_number,
    say,
    today,
)
from sdk.service import DomainService, fail, serve
from shared.models import DomainOutput, ExecutionIntent

#: price of one 20-litre jug (BRL); 10% off on a recurring plan; delivery fee under 3 jugs
JUG = 18.0
DELIVERY_FEE = 7.0
PLAN_DISCOUNT = 0.10
MAX_JUGS = 20
FREQUENCIES = {
    "ONE_OFF": ("uma vez", "one-off"),
    "WEEKLY": ("toda semana", "every week"),
    "BIWEEKLY": ("a cada 15 dias", "every two weeks"),
    "MONTHLY": ("todo mês", "every month"),
}
#: orders (number -> jugs, address, day, frequency, state)
ORDERS: dict[str, tuple[int, str, date, str, str]] = {
    "AG6101": (2, "Rua Augusta 1200", date(2026, 3, 11), "ONE_OFF", "scheduled"),
    "AG6105": (4, "Avenida Paulista 900", date(2026, 3, 10), "WEEKLY", "out_for_delivery"),
    "AG6110": (1, "Rua Harmonia 300", date(2026, 3, 6), "ONE_OFF", "delivered"),
    "AG6114": (3, "Rua Oscar Freire 55", date(2026, 3, 9), "ONE_OFF", "cancelled"),
}
STATES = {
    "scheduled": ("agendado", "scheduled"),
    "out_for_delivery": ("saiu para entrega", "out for delivery"),
    "delivered": ("entregue", "delivered"),
    "cancelled": ("cancelado", "cancelled"),
}
_next = [6200]

service = DomainService(
    "water_delivery",
    "0.1.0",
    {
        "pt": "Entrega de água: galões de 20 litros, avulso ou recorrente, status do pedido e preços",
        "en": "Water delivery: 20-litre jugs, one-off or recurring, order status and prices",
    },
)


def _total(jugs: int, recurring: bool) -> float:
    price = JUG * jugs * (1 - PLAN_DISCOUNT if recurring else 1)
    return round(price + (DELIVERY_FEE if jugs < 3 else 0), 2)


@service.capability(
    "order_water",
    {
        "pt": (
            "Pede galões de água de 20 litros para um endereço, uma vez ou recorrente"
            " (entrega amanhã e uma vez só quando não é dito)"
        ),
        "en": (
            "Order 20-litre water jugs to an address, one-off or recurring"
            " (delivered tomorrow and once when not said)"
        ),
    },
    parameters={
        "type": "object",
        "properties": {
            "jugs": {"type": "number", "exclusiveMinimum": 0},
            "address_text": {"type": "string", "minLength": 1},
            "day": {"type": "string", "pattern": "^\\d{4}-\\d{2}-\\d{2}$"},
            "frequency": {"type": "string", "enum": list(FREQUENCIES)},
        },
        "required": ["jugs", "address_text"],
    },
    metadata={
        "intent_hints": {
            "keywords": ["galão de água", "galões", "água mineral", "water jug", "water delivery"],
            "examples": ["quero pedir galão de água", "order water jugs"],
        },
        "policy": {"confirm": True, "idempotent": False},
    },
)
def order_water(intent: ExecutionIntent) -> DomainOutput:
    lang = language(intent)
    p = intent.parameters
    jugs = read_number(p.get("jugs"))
    address = str(p.get("address_text") or "").strip()
    if jugs is None or not address:
        return fail(say(lang, "Faltam dados do pedido.", "Order details are missing."), "missing_parameter")
    n = int(jugs)
    if n > MAX_JUGS:
        return fail(
            say(lang, f"No máximo {MAX_JUGS} galões por pedido.", f"At most {MAX_JUGS} jugs an order."),
            "too_many_jugs",
            recoverable=True,
            suggestions=[{"jugs": MAX_JUGS}],
        )
    day = read_day(p.get("day")) if p.get("day") else date.fromordinal(today().toordinal() + 1)
    if day is None or day < today():
        return fail(say(lang, "Esse dia já passou.", "That day is past."), "past_day")
    if day.weekday() == 6:
        return fail(
            say(lang, "Não entregamos aos domingos.", "We do not deliver on Sundays."),
            "closed_day",
            recoverable=True,
            suggestions=[{"day": date.fromordinal(day.toordinal() + 1).isoformat()}],
        )
    freq = str(p.get("frequency") or "ONE_OFF").upper()
    if freq not in FREQUENCIES:
        freq = "ONE_OFF"
    total = _total(n, freq != "ONE_OFF")
    _next[0] += 1
    code = f"AG{_next[0]}"
    ORDERS[code] = (n, address, day, freq, "scheduled")
    how = say(lang, FREQUENCIES[freq][0], FREQUENCIES[freq][1])
    return DomainOutput(
        status="success",
        result={
            "order": code,
            "jugs": n,
            "address": address,
            "day": day.isoformat(),
            "frequency": freq,
            "total": {"amount": total, "currency": "BRL"},
        },
        explanation=say(
            lang,
            f"Pedido {code}: {n} galão(ões) de 20 L para {address}, {day:%d/%m}, {how}."
            f" Total R$ {total:.2f}.",
            f"Order {code}: {n} 20 L jug(s) to {address}, {day:%b %d}, {how}. Total R$ {total:.2f}.",
        ),
    )


@service.capability(
    "water_order_status",
    {
        "pt": "Consulta o status de um pedido de água pelo número",
        "en": "Check a water order's status by its number",
    },
    parameters={
        "type": "object",
        "properties": {"order_text": {"type": "string", "minLength": 1}},
        "required": ["order_text"],
    },
    metadata={
        "intent_hints": {
            "keywords": ["cadê minha água", "status do galão", "water order status"],
            "examples": ["meu galão de água já saiu?", "where is my water delivery?"],
        },
        "policy": {"read_only": True},
    },
)
def water_order_status(intent: ExecutionIntent) -> DomainOutput:
    lang = language(intent)
    code = norm_code(intent.parameters.get("order_text"))
    found = ORDERS.get(code)
    if found is None:
        return fail(say(lang, f"Não achei o pedido {code}.", f"No order {code}."), "not_found")
    n, address, day, _freq, state = found
    text = say(lang, STATES[state][0], STATES[state][1])
    return DomainOutput(
        status="success",
        result={"order": code, "jugs": n, "address": address, "day": day.isoformat(), "state": state},
        explanation=say(
            lang,
            f"Pedido {code} ({n} galão(ões), {address}, {day:%d/%m}): {text}.",
            f"Order {code} ({n} jug(s), {address}, {day:%b %d}): {text}.",
        ),
    )


@service.capability(
    "water_price",
    {
        "pt": "Informa o preço do galão de 20 litros, a taxa de entrega e o desconto do plano recorrente",
        "en": "Quote the 20-litre jug price, the delivery fee and the recurring plan discount",
    },
    parameters={
        "type": "object",
        "properties": {"jugs": {"type": "number"}, "frequency": {"type": "string"}},
    },
    metadata={
        "intent_hints": {
            "keywords": ["preço do galão", "quanto custa o galão", "water jug price"],
            "examples": ["quanto tá o galão de água?", "how much is a water jug?"],
        },
        "policy": {"read_only": True},
    },
)
def water_price(intent: ExecutionIntent) -> DomainOutput:
    lang = language(intent)
    p = intent.parameters
    jugs = read_number(p.get("jugs"))
    recurring = str(p.get("frequency") or "ONE_OFF").upper() not in ("", "ONE_OFF")
    if jugs is None:
        return DomainOutput(
            status="success",
            result={"jug": JUG, "delivery_fee": DELIVERY_FEE, "plan_discount": PLAN_DISCOUNT},
            explanation=say(
                lang,
                f"Galão de 20 L: R$ {JUG:.2f}. Entrega R$ {DELIVERY_FEE:.2f} abaixo de 3 galões."
                " Plano recorrente: 10% de desconto.",
                f"20 L jug: R$ {JUG:.2f}. Delivery R$ {DELIVERY_FEE:.2f} under 3 jugs."
                " Recurring plan: 10% off.",
            ),
        )
    n = int(jugs)
    total = _total(n, recurring)
    return DomainOutput(
        status="success",
        result={"jugs": n, "total": {"amount": total, "currency": "BRL"}},
        explanation=say(lang, f"{n} galão(ões): R$ {total:.2f}.", f"{n} jug(s): R$ {total:.2f}."),
    )


_JUGS = {"type": "number", "description": {"pt": "Quantos galões", "en": "How many jugs"}}
_FREQUENCY = {
    "type": "enum",
    "values": list(FREQUENCIES),
    "synonyms": {
        "ONE_OFF": ["avulso", "só uma vez", "uma vez só", "one-off", "one off", "just once", "single order"],
        "WEEKLY": ["toda semana", "semanal", "semanalmente", "every week", "weekly"],
        "BIWEEKLY": [
            "a cada 15 dias",
            "quinzenal",
            "de 15 em 15 dias",
            "every two weeks",
            "biweekly",
            "fortnightly",
        ],
        "MONTHLY": ["todo mês", "mensal", "mensalmente", "every month", "monthly"],
    },
    "description": {"pt": "Com que frequência", "en": "How often"},
}
service.add_goal(
    {
        "goal": "ORDER_WATER",
        "description": {"pt": "Pedir galões de água de 20 litros", "en": "Order 20-litre water jugs"},
        "entities_schema": {
            "jugs": {**_JUGS, "required": True},
            "address_text": {
                "type": "string",
                "required": True,
                "description": {"pt": "O endereço de entrega", "en": "The delivery address"},
            },
            "day": {"type": "date", "description": {"pt": "O dia da entrega", "en": "The delivery day"}},
            "frequency": _FREQUENCY,
        },
        "capabilities": ["order_water"],
        "examples": [
            ex(
                "manda 2 galões de água na Rua Augusta 1200 amanhã",
                jugs="2 galões",
                address_text="Rua Augusta 1200",
                day="amanhã",
            ),
            ex(
                "quero 3 galões toda semana na Avenida Paulista 900",
                jugs="3 galões",
                frequency="WEEKLY",
                address_text="Avenida Paulista 900",
            ),
            ex(
                "pede 1 galão de 20 litros pra Rua Harmonia 300",
                jugs="1 galão",
                address_text="Rua Harmonia 300",
            ),
            ex(
                "deliver 4 water jugs to 200 Oak Street on friday",
                jugs="4 water jugs",
                address_text="200 Oak Street",
                day="friday",
            ),
            ex(
                "I'd like 2 jugs every month at 15 Pine Avenue",
                jugs="2 jugs",
                frequency="MONTHLY",
                address_text="15 Pine Avenue",
            ),
        ],
    }
)
service.add_goal(
    {
        "goal": "WATER_ORDER_STATUS",
        "description": {"pt": "Status de um pedido de água", "en": "Status of a water order"},
        "entities_schema": {
            "order_text": {
                "type": "string",
                "required": True,
                "description": {"pt": "O número do pedido", "en": "The order number"},
            }
        },
        "capabilities": ["water_order_status"],
        "examples": [
            ex("cadê o pedido de água AG6101?", order_text="AG6101"),
            ex("o galão do pedido AG6105 já saiu?", order_text="AG6105"),
            ex("status of water order AG6101", order_text="AG6101"),
            ex("has my water order AG6105 shipped?", order_text="AG6105"),
        ],
    }
)
service.add_goal(
    {
        "goal": "WATER_PRICE",
        "description": {"pt": "Preço do galão de água", "en": "Water jug prices"},
        "entities_schema": {"jugs": _JUGS, "frequency": _FREQUENCY},
        "capabilities": ["water_price"],
        "examples": [
            "quanto custa o galão de 20 litros?",
            ex("qual o preço de 5 galões?", jugs="5 galões"),
            "water jug prices",
            ex("how much for 3 jugs every week?", jugs="3 jugs", frequency="WEEKLY"),
        ],
    }
)

if __name__ == "__main__":
    serve(service)
