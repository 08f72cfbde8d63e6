"""Gas and water delivery (round-12 bench domain): order a gas cylinder or a water jug, track a
delivery.

Fake, deterministic, in memory.
Run: ``python -m bench.understanding.round12.domains.gas_delivery --port 8402``.
"""

from __future__ import annotations

from bench.understanding.round12.domains._common import (
    code_of,
    ex,
    language,
    lookup_spec,
    read_number,
    resolve_loose,
    say,
)
from sdk.service import DomainService, clarify, fail, option, serve
from shared.models import DomainOutput, ExecutionIntent

#: products (canonical name <- other ways people write it)
PRODUCTS: dict[str, list[str]] = {
    "Botijão P13": [
        "p13",
        "botijão",
        "bujão",
        "botijão de gás",
        "gás de cozinha",
        "gas cylinder",
        "gas tank",
        "propane tank",
        "botijões",
        "bujões",
        "p13s",
        "gas cylinders",
    ],
    "Botijão P45": ["p45", "botijão grande", "bujão grande", "botijão de 45", "big gas cylinder"],
    "Galão de Água 20L": [
        "galão",
        "galão de água",
        "galões",
        "galões de água",
        "água mineral",
        "galão de 20 litros",
        "water jug",
        "water jugs",
        "water gallon",
        "water gallons",
    ],
}
#: price of each product in BRL
PRICES: dict[str, float] = {"Botijão P13": 115.0, "Botijão P45": 420.0, "Galão de Água 20L": 18.0}
#: how to pay (enum value <- synonyms)
PAYMENTS: dict[str, list[str]] = {
    "PIX": ["pix", "no pix", "via pix"],
    "CASH": ["dinheiro", "em dinheiro", "em espécie", "cash", "in cash"],
    "CARD": ["cartão", "maquininha", "no cartão", "card", "by card", "credit card", "debit card"],
}
MAX_UNITS = 5
#: deliveries (code -> product, units, status)
ORDERS: dict[str, tuple[str, int, str]] = {
    "GS3301": ("Botijão P13", 1, "on_the_way"),
    "GS3307": ("Galão de Água 20L", 2, "delivered"),
    "GS3310": ("Botijão P45", 1, "preparing"),
}
STATUS = {
    "on_the_way": ("a caminho, chega em uns 20 minutos", "on the way, about 20 minutes"),
    "delivered": ("entregue", "delivered"),
    "preparing": ("em separação", "being prepared"),
}
_next = [3400]

service = DomainService(
    "gas_delivery",
    "0.1.0",
    {
        "pt": "Disk gás e água: pedir botijão ou galão de água, acompanhar a entrega",
        "en": "Gas and water delivery: order a gas cylinder or a water jug, track the delivery",
    },
)


def _amount(value: object) -> tuple[float | None, str | None]:
    if isinstance(value, dict):
        amount, currency = value.get("amount"), value.get("currency")
        return (float(amount) if isinstance(amount, int | float) else None), (currency or None)
    number = read_number(value)
    return (float(number) if number is not None else None), None


@service.capability(
    "order_gas",
    {"pt": "Pede botijão de gás ou galão de água para entrega", "en": "Order a gas cylinder or a water jug"},
    parameters={
        "type": "object",
        "properties": {
            "product_text": {"type": "string", "minLength": 1},
            "quantity": {"type": "number"},
            "payment": {"type": "string", "enum": list(PAYMENTS)},
            "change_for": {"type": "object"},
        },
        "required": ["product_text"],
    },
    metadata={
        "intent_hints": {
            "keywords": ["pedir gás", "pedir botijão", "pedir água", "order gas", "gas delivery"],
            "examples": ["quero pedir um botijão de gás", "order a gas cylinder for delivery"],
        },
        "policy": {"confirm": True, "idempotent": False},
    },
)
def order_gas(intent: ExecutionIntent) -> DomainOutput:
    lang = language(intent)
    p = intent.parameters
    product = resolve_loose(p.get("product_text"), PRODUCTS)
    if product is None:
        return clarify(
            say(lang, f"Não vendemos “{p.get('product_text')}”. Qual destes?", "Which of these?"),
            [option(x, x, aliases=PRODUCTS[x]) for x in PRODUCTS],
            param="product_text",
        )
    units = int(read_number(p.get("quantity")) or 1)
    if units > MAX_UNITS:
        return fail(
            say(lang, "Entregamos até 5 por pedido.", "We deliver up to 5 per order."),
            "too_many",
            recoverable=True,
            suggestions=[{"quantity": MAX_UNITS}],
        )
    total = PRICES[product] * units
    payment = str(p.get("payment") or "PIX").upper()
    change, currency = _amount(p.get("change_for"))
    if change is not None:
        if currency not in (None, "BRL"):
            return fail(say(lang, "Só aceitamos reais.", "We only take reais."), "unsupported_currency")
        if change < total:
            return fail(
                say(lang, f"O total é R$ {total:.2f}; o troco não fecha.", f"The total is R$ {total:.2f}."),
                "change_too_small",
            )
        payment = "CASH"
    _next[0] += 1
    code = f"GS{_next[0]}"
    ORDERS[code] = (product, units, "preparing")
    return DomainOutput(
        status="success",
        result={"code": code, "product": product, "quantity": units, "total": total, "payment": payment},
        explanation=say(
            lang,
            f"Pedido {code}: {units} × {product}, R$ {total:.2f} ({payment}). Chega em até 40 minutos.",
            f"Order {code}: {units} × {product}, R$ {total:.2f} ({payment}). Arrives within 40 minutes.",
        ),
    )


@service.capability(
    "track_delivery",
    {"pt": "Diz onde está a entrega", "en": "Tell where the delivery is"},
    parameters={
        "type": "object",
        "properties": {"order_text": {"type": "string", "minLength": 1}},
        "required": ["order_text"],
    },
    metadata={
        "intent_hints": {
            "keywords": ["cadê meu gás", "status da entrega", "track delivery"],
            "examples": ["meu gás já saiu?", "where is my gas delivery?"],
        },
        "policy": {"read_only": True},
    },
)
def track_delivery(intent: ExecutionIntent) -> DomainOutput:
    lang = language(intent)
    code = code_of(intent.parameters.get("order_text"), "GS")
    if code not in ORDERS:
        return fail(say(lang, f"Não achei o pedido {code}.", f"Order {code} not found."), "not_found")
    product, units, status = ORDERS[code]
    pt, en = STATUS[status]
    return DomainOutput(
        status="success",
        result={"code": code, "product": product, "quantity": units, "status": status},
        explanation=say(lang, f"Pedido {code} ({units} × {product}): {pt}.", f"Order {code}: {en}."),
    )


service.add_goal(
    {
        "goal": "ORDER_GAS",
        "description": {"pt": "Pedir gás ou água", "en": "Order gas or water"},
        "entities_schema": {
            "product_text": {
                "type": "string",
                "required": True,
                "description": {"pt": "O botijão ou o galão", "en": "The cylinder or the jug"},
                "lookup": lookup_spec(PRODUCTS),
            },
            "quantity": {"type": "number", "description": {"pt": "Quantas unidades", "en": "How many"}},
            "payment": {
                "type": "enum",
                "values": list(PAYMENTS),
                "synonyms": PAYMENTS,
                "description": {"pt": "Como vai pagar", "en": "How you will pay"},
            },
            "change_for": {
                "type": "money",
                "description": {"pt": "Troco para quanto", "en": "Change for how much"},
            },
        },
        "capabilities": ["order_gas"],
        "examples": [
            ex("manda um botijão de gás, pago no pix", product_text="botijão de gás", payment="PIX"),
            ex(
                "quero 2 galões de água, pago em dinheiro, troco pra 50",
                product_text="galões de água",
                quantity="2",
                payment="CASH",
                change_for="50",
            ),
            ex("pede um p45 no cartão", product_text="p45", payment="CARD"),
            ex(
                "send 3 water jugs, I'll pay by card", product_text="water jugs", quantity="3", payment="CARD"
            ),
            ex(
                "order a gas cylinder, cash, change for R$ 200",
                product_text="gas cylinder",
                payment="CASH",
                change_for="R$ 200",
            ),
        ],
    }
)
service.add_goal(
    {
        "goal": "TRACK_DELIVERY",
        "description": {"pt": "Acompanhar a entrega", "en": "Track the delivery"},
        "entities_schema": {
            "order_text": {
                "type": "string",
                "required": True,
                "description": {"pt": "O código do pedido", "en": "The order code"},
            },
        },
        "capabilities": ["track_delivery"],
        "examples": [
            ex("cadê o pedido GS3301?", order_text="GS3301"),
            ex("status da entrega gs3307", order_text="gs3307"),
            ex("where is order GS3310?", order_text="GS3310"),
            ex("track my delivery GS3301", order_text="GS3301"),
        ],
    }
)

if __name__ == "__main__":
    serve(service)
