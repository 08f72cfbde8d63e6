"""Groceries (round-6 bench domain): add to the cart, place the order, track an order.

Fake, deterministic, in memory. Run: ``python -m bench.understanding.round6.domains.groceries --port 8163``.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from datetime import timedelta
from typing import Any

from bench.understanding.round6.domains._common import (
    code_of,
    ex,
    language,
    lookup_spec,
    read_day,
    read_money,
    read_number,
    resolve_loose,
    say,
    today,
)
from sdk.service import DomainService, clarify, fail, option, serve
from shared.models import DomainOutput, ExecutionIntent

#: the products (canonical name <- other ways people write it)
PRODUCTS: dict[str, list[str]] = {
    "Banana prata": ["banana", "bananas"],
    "Maçã gala": ["maçã", "maçãs", "maca", "apple", "apples"],
    "Tomate": ["tomate", "tomates", "tomato", "tomatoes"],
    "Batata": ["batata", "batatas", "potato", "potatoes"],
    "Leite integral 1L": ["leite", "leite integral", "milk", "whole milk"],
    "Ovos (dúzia)": ["ovos", "ovo", "dúzia de ovos", "eggs", "dozen eggs"],
    "Pão de forma": ["pão", "pao de forma", "bread", "sliced bread"],
    "Arroz 5kg": ["arroz", "rice"],
    "Feijão carioca 1kg": ["feijão", "feijao", "beans"],
    "Café 500g": ["café", "cafe", "pó de café", "coffee", "ground coffee"],
    "Peito de frango": ["frango", "peito de frango", "chicken", "chicken breast"],
    "Carne moída": ["carne moída", "carne moida", "ground beef", "mince"],
    "Queijo muçarela": ["queijo", "muçarela", "mussarela", "cheese", "mozzarella"],
    "Iogurte natural": ["iogurte", "yogurt", "plain yogurt"],
    "Iogurte grego": ["iogurte grego", "greek yogurt"],
    "Cerveja lata 350ml": ["cerveja", "cervejas", "breja", "latinha", "beer", "beers"],
    "Coca-Cola 2L": ["coca", "coca cola", "refri", "coke"],
    "Papel higiênico": ["papel higiênico", "papel higienico", "toilet paper"],
    "Detergente": ["detergente", "dish soap"],
}
UNITS = ["KG", "UNIT", "PACK"]
UNIT_SYNONYMS: dict[str, list[str]] = {
    "KG": ["kg", "quilo", "quilos", "kilo", "kilos", "kilogram", "kilograms"],
    "UNIT": ["unidade", "unidades", "un", "unit", "units", "each"],
    "PACK": ["pacote", "pacotes", "fardo", "fardos", "pack", "packs", "packet"],
}
#: price in BRL per sale unit, the unit it is sold by, in stock
CATALOG: dict[str, tuple[float, str, bool]] = {
    "Banana prata": (6.9, "KG", True),
    "Maçã gala": (9.9, "KG", True),
    "Tomate": (8.5, "KG", True),
    "Batata": (5.9, "KG", True),
    "Leite integral 1L": (5.2, "UNIT", True),
    "Ovos (dúzia)": (13.9, "UNIT", True),
    "Pão de forma": (8.9, "UNIT", True),
    "Arroz 5kg": (27.9, "UNIT", True),
    "Feijão carioca 1kg": (8.4, "UNIT", True),
    "Café 500g": (19.9, "UNIT", True),
    "Peito de frango": (21.9, "KG", True),
    "Carne moída": (36.9, "KG", True),
    "Queijo muçarela": (49.9, "KG", True),
    "Iogurte natural": (3.5, "UNIT", False),
    "Iogurte grego": (4.9, "UNIT", True),
    "Cerveja lata 350ml": (29.9, "PACK", True),  # a pack of 12
    "Coca-Cola 2L": (10.9, "UNIT", True),
    "Papel higiênico": (19.9, "PACK", True),  # a pack of 12 rolls
    "Detergente": (2.9, "UNIT", True),
}
MAX_QUANTITY = 20
DELIVERY_FEE = 9.9


@dataclass
class Line:
    item: str
    quantity: float
    unit: str

    def total(self) -> float:
        return round(CATALOG[self.item][0] * self.quantity, 2)

    def describe(self) -> str:
        return f"{self.quantity:g} {self.unit.lower()} {self.item} (R$ {self.total():.2f})"


@dataclass
class Order:
    code: str
    status: str  # preparing, out_for_delivery, delivered, cancelled
    day: str
    lines: list[Line]

    def total(self) -> float:
        return round(sum(line.total() for line in self.lines) + DELIVERY_FEE, 2)


STATUS_NAMES = {
    "preparing": ("em separação", "being picked"),
    "out_for_delivery": ("saiu para entrega", "out for delivery"),
    "delivered": ("entregue", "delivered"),
    "cancelled": ("cancelado", "cancelled"),
}
CART: list[Line] = [Line("Arroz 5kg", 1, "UNIT"), Line("Leite integral 1L", 6, "UNIT")]
ORDERS: dict[str, Order] = {
    o.code: o
    for o in (
        Order("GR3301", "out_for_delivery", "2026-03-10", [Line("Café 500g", 2, "UNIT")]),
        Order("GR3288", "delivered", "2026-03-07", [Line("Banana prata", 1.5, "KG")]),
        Order("GR3315", "preparing", "2026-03-12", [Line("Cerveja lata 350ml", 2, "PACK")]),
        Order("GR3240", "cancelled", "2026-03-04", [Line("Detergente", 3, "UNIT")]),
    )
}
_next_code = [4000]

service = DomainService(
    "groceries",
    "0.1.0",
    {
        "pt": "Supermercado: carrinho de compras, pedido com entrega e acompanhamento",
        "en": "Supermarket: shopping cart, delivery orders and order status",
    },
)


def _cart_text(lang: str) -> str:
    lines = "; ".join(line.describe() for line in CART) or say(lang, "vazio", "empty")
    return say(lang, f"Carrinho: {lines}.", f"Cart: {lines}.")


@service.capability(
    "add_to_cart",
    {"pt": "Põe um produto no carrinho", "en": "Add a product to the cart"},
    parameters={
        "type": "object",
        "properties": {
            "item_text": {"type": "string", "minLength": 1},
            "quantity": {"type": "number", "exclusiveMinimum": 0},
            "unit": {"type": "string", "enum": UNITS},
        },
        "required": ["item_text", "quantity"],
    },
    metadata={
        "intent_hints": {
            "keywords": [
                "carrinho",
                "adiciona",
                "coloca no carrinho",
                "cart",
                "add to cart",
                "shopping list",
            ],
            "examples": ["coloca no carrinho", "add it to my cart"],
        },
        # changes the cart, so not read_only (docs: "leave it out for anything that changes state")
        "policy": {"idempotent": True},
    },
)
def add_to_cart(intent: ExecutionIntent) -> DomainOutput:
    lang = language(intent)
    p = intent.parameters
    item = resolve_loose(p.get("item_text"), PRODUCTS)
    if item is None:
        return clarify(
            say(
                lang, "Não achei esse produto. Qual destes?", "I couldn't find that product. Which of these?"
            ),
            [option(name, name, aliases=aliases) for name, aliases in PRODUCTS.items()],
            param="item_text",
            metadata={"resolution": "unknown_product"},
        )
    raw = p.get("quantity")
    quantity = float(raw) if isinstance(raw, int | float) and not isinstance(raw, bool) else read_number(raw)
    if quantity is None or quantity <= 0:
        return fail(say(lang, "Quantos?", "How many?"), "missing_parameter")
    _price, sold_by, in_stock = CATALOG[item]
    if not in_stock:
        alternative = "Iogurte grego" if item == "Iogurte natural" else None
        return fail(
            say(lang, f"{item} está em falta hoje.", f"{item} is out of stock today."),
            "out_of_stock",
            recoverable=alternative is not None,
            suggestions=[{"item_text": alternative}] if alternative else None,
        )
    unit = str(p.get("unit") or sold_by).upper()
    if unit not in UNITS:
        unit = sold_by
    if unit != sold_by:
        return fail(
            say(
                lang,
                f"{item} é vendido por {sold_by.lower()}, não por {unit.lower()}.",
                f"{item} is sold by the {sold_by.lower()}, not by the {unit.lower()}.",
            ),
            "wrong_unit",
            recoverable=True,
            suggestions=[{"unit": sold_by}],
        )
    if quantity > MAX_QUANTITY:
        return fail(
            say(lang, f"No máximo {MAX_QUANTITY} por produto.", f"At most {MAX_QUANTITY} of a product."),
            "too_many",
            recoverable=True,
            suggestions=[{"quantity": MAX_QUANTITY}],
        )
    line = Line(item, quantity, unit)
    CART.append(line)
    return DomainOutput(
        status="success",
        result={"added": asdict(line), "cart": [asdict(x) for x in CART]},
        explanation=say(lang, f"Adicionado: {line.describe()}. ", f"Added: {line.describe()}. ")
        + _cart_text(lang),
    )


@service.capability(
    "place_order",
    {"pt": "Fecha o pedido do carrinho com entrega", "en": "Place the cart's order for delivery"},
    parameters={
        "type": "object",
        "properties": {
            "delivery_day": {"type": "string", "pattern": "^\\d{4}-\\d{2}-\\d{2}$"},
            "budget": {"type": "object"},
        },
    },
    metadata={
        "intent_hints": {
            "keywords": [
                "fechar pedido",
                "finalizar compra",
                "fazer o pedido",
                "checkout",
                "place the order",
            ],
            "examples": ["fecha a compra do mercado", "check out my grocery cart"],
        },
        "policy": {"confirm": True, "idempotent": False},
    },
)
def place_order(intent: ExecutionIntent) -> DomainOutput:
    lang = language(intent)
    p = intent.parameters
    if not CART:
        return fail(say(lang, "Seu carrinho está vazio.", "Your cart is empty."), "empty_cart")
    day = read_day(p.get("delivery_day")) or today()
    if day < today():
        return fail(say(lang, "Esse dia já passou.", "That day has passed."), "past_day")
    if day.weekday() == 6:
        monday = day + timedelta(days=1)
        return fail(
            say(
                lang,
                f"Não entregamos no domingo; a próxima entrega é segunda, {monday.isoformat()}.",
                f"We don't deliver on Sundays; the next delivery is Monday, {monday.isoformat()}.",
            ),
            "no_sunday_delivery",
            recoverable=True,
            suggestions=[{"delivery_day": monday.isoformat()}],
        )
    order = Order("", "preparing", day.isoformat(), list(CART))
    total = order.total()
    budget = read_money(p.get("budget"))
    if budget is not None and budget[1] != "BRL":
        return fail(
            say(lang, "Só cobramos em reais.", "We only charge in Brazilian reais."),
            "unsupported_currency",
            recoverable=True,
        )
    if budget is not None and total > budget[0]:
        return fail(
            say(
                lang,
                f"O pedido dá R$ {total:.2f} com a entrega, acima de R$ {budget[0]:.2f}. " + _cart_text(lang),
                f"The order comes to R$ {total:.2f} with delivery, over R$ {budget[0]:.2f}. "
                + _cart_text(lang),
            ),
            "over_budget",
            recoverable=True,
            suggestions=[{"budget": {"amount": total, "currency": "BRL"}}],
        )
    _next_code[0] += 1
    order.code = f"GR{_next_code[0]}"
    ORDERS[order.code] = order
    CART.clear()
    return DomainOutput(
        status="success",
        result={
            "code": order.code,
            "day": order.day,
            "total_brl": total,
            "lines": [asdict(x) for x in order.lines],
        },
        explanation=say(
            lang,
            f"Pedido {order.code} feito: entrega em {order.day}, R$ {total:.2f} com a entrega.",
            f"Order {order.code} placed: delivery on {order.day}, R$ {total:.2f} with delivery.",
        ),
    )


@service.capability(
    "order_status",
    {"pt": "Consulta a situação de um pedido do mercado", "en": "Check a grocery order's status"},
    parameters={
        "type": "object",
        "properties": {"order_code_text": {"type": "string", "minLength": 1}},
        "required": ["order_code_text"],
    },
    metadata={
        "intent_hints": {
            "keywords": ["status do pedido", "meu pedido do mercado", "order status", "my groceries"]
        },
        "policy": {"read_only": True},
    },
)
def order_status(intent: ExecutionIntent) -> DomainOutput:
    lang = language(intent)
    code = code_of(intent.parameters.get("order_code_text"), "GR")
    order = ORDERS.get(code)
    if order is None:
        return fail(say(lang, f"Não achei o pedido {code}.", f"No order {code}."), "order_not_found")
    status = STATUS_NAMES[order.status][0 if lang == "pt" else 1]
    return DomainOutput(
        status="success",
        result={"code": code, "status": order.status, "day": order.day, "total_brl": order.total()},
        explanation=say(
            lang,
            f"Pedido {code}: {status}, entrega {order.day}, R$ {order.total():.2f}.",
            f"Order {code}: {status}, delivery {order.day}, R$ {order.total():.2f}.",
        ),
    )


ITEM_ENTITY: dict[str, Any] = {
    "type": "string",
    "required": True,
    "description": {"pt": "O produto", "en": "The product"},
    "lookup": lookup_spec(PRODUCTS),
}

service.add_goal(
    {
        "goal": "ADD_TO_CART",
        "description": {
            "pt": "Pôr um produto no carrinho do mercado",
            "en": "Add a product to the grocery cart",
        },
        "entities_schema": {
            "item_text": ITEM_ENTITY,
            "quantity": {
                "type": "number",
                "required": True,
                "description": {"pt": "Quantos", "en": "How many"},
            },
            "unit": {
                "type": "enum",
                "values": UNITS,
                "synonyms": UNIT_SYNONYMS,
                "description": {"pt": "A unidade", "en": "The unit"},
            },
        },
        "capabilities": ["add_to_cart"],
        "examples": [
            ex("coloca 2 kg de tomate no carrinho", quantity="2", unit="KG", item_text="tomate"),
            ex("adiciona 6 ovos no carrinho", quantity="6", item_text="ovos"),
            ex("põe 3 pacotes de papel higiênico", quantity="3", unit="PACK", item_text="papel higiênico"),
            ex("bota duas coca no carrinho", quantity="duas", item_text="coca"),
            ex("quero 1 quilo de carne moída no carrinho", quantity="1", unit="KG", item_text="carne moída"),
            ex("add 2 kilos of bananas to my cart", quantity="2", unit="KG", item_text="bananas"),
            ex("put 1 pack of beer in the cart", quantity="1", unit="PACK", item_text="beer"),
            ex("add three units of whole milk", quantity="three", unit="UNIT", item_text="whole milk"),
            ex("add 4 greek yogurt to the cart", quantity="4", item_text="greek yogurt"),
        ],
    }
)
service.add_goal(
    {
        "goal": "PLACE_ORDER",
        "description": {"pt": "Fechar o pedido do mercado", "en": "Place the grocery order"},
        "entities_schema": {
            "delivery_day": {
                "type": "date",
                "description": {"pt": "O dia da entrega", "en": "The delivery day"},
            },
            "budget": {
                "type": "money",
                "description": {"pt": "Quanto quer gastar no máximo", "en": "Your budget"},
            },
        },
        "capabilities": ["place_order"],
        "examples": [
            ex("fecha o pedido do mercado"),
            ex("finaliza a compra pra entregar amanhã", delivery_day="amanhã"),
            ex("faz o pedido do carrinho pra sexta, até 200 reais", delivery_day="sexta", budget="200 reais"),
            ex("pode fechar as compras, entrega no sábado", delivery_day="sábado"),
            ex("place my grocery order"),
            ex("checkout the cart for delivery tomorrow", delivery_day="tomorrow"),
            ex("place the order for Friday, keep it under R$ 150", delivery_day="Friday", budget="R$ 150"),
        ],
    }
)
service.add_goal(
    {
        "goal": "ORDER_STATUS",
        "description": {"pt": "A situação de um pedido do mercado", "en": "The status of a grocery order"},
        "entities_schema": {
            "order_code_text": {
                "type": "string",
                "required": True,
                "description": {"pt": "O código do pedido", "en": "The order code"},
            }
        },
        "capabilities": ["order_status"],
        "examples": [
            ex("cadê meu pedido GR3301?", order_code_text="GR3301"),
            ex("status do pedido do mercado GR3315", order_code_text="GR3315"),
            ex("quando chega a compra GR3288?", order_code_text="GR3288"),
            ex("where is my grocery order GR3301?", order_code_text="GR3301"),
            ex("status of order GR3315", order_code_text="GR3315"),
        ],
    }
)

if __name__ == "__main__":
    serve(service)
