"""``shop_orders``: order status, placing and cancelling orders, refunds (fake, deterministic data).

Written from docs/domains.md only. Placing, cancelling and refunding change things, so their
capabilities declare ``policy.confirm: true`` (the platform asks the person's yes first).
``python -m bench.understanding.domains.shop_orders --port 8112``.
"""

from __future__ import annotations

import hashlib
import re
import threading
from dataclasses import dataclass
from typing import Any

from bench.understanding.domains.common import fold, language, parse_money, parse_number
from sdk import DomainService, fail, serve
from shared.models import DomainOutput, ExecutionIntent

PRODUCTS: dict[str, tuple[float, list[str]]] = {
    "Fone de ouvido Bluetooth": (
        199.90,
        ["fone bluetooth", "fone de ouvido", "fone", "bluetooth headphones", "headphones", "earbuds"],
    ),
    "Cafeteira elétrica": (289.00, ["cafeteira", "máquina de café", "coffee maker", "coffee machine"]),
    "Mouse sem fio": (89.90, ["mouse", "mouse wireless", "wireless mouse"]),
    "Teclado mecânico": (349.00, ["teclado", "mechanical keyboard", "keyboard"]),
    "Camiseta básica": (59.90, ["camiseta", "camisa básica", "t-shirt", "tshirt", "tee"]),
    "Tênis de corrida": (399.90, ["tênis", "tenis de corrida", "running shoes", "sneakers"]),
    "Garrafa térmica": (79.90, ["garrafa", "garrafinha térmica", "thermos", "water bottle"]),
    "Carregador USB-C": (69.90, ["carregador", "carregador usb c", "usb-c charger", "charger"]),
    "Capinha de celular": (39.90, ["capinha", "capa de celular", "phone case", "case"]),
    "Livro Dom Casmurro": (34.90, ["Dom Casmurro", "livro do Machado", "dom casmurro book"]),
    "Ração para cachorro 10kg": (159.90, ["ração", "ração de cachorro", "dog food"]),
    "Pacote de fraldas": (89.90, ["fraldas", "fralda", "diapers"]),
}

_PRODUCT_BY_NAME = {
    fold(alias): name for name, (_, aliases) in PRODUCTS.items() for alias in [name, *aliases]
}


@dataclass
class Order:
    number: str
    product: str
    quantity: int
    total: float
    status: str  # processing, shipped, delivered, cancelled
    eta: str | None = None
    refunded: float = 0.0


STATUS_TEXT = {
    "pt": {
        "processing": "em separação",
        "shipped": "enviado",
        "delivered": "entregue",
        "cancelled": "cancelado",
    },
    "en": {
        "processing": "being prepared",
        "shipped": "shipped",
        "delivered": "delivered",
        "cancelled": "cancelled",
    },
}


def initial_orders() -> dict[str, Order]:
    return {
        "48213": Order("48213", "Fone de ouvido Bluetooth", 1, 199.90, "shipped", eta="2026-03-12"),
        "50017": Order("50017", "Cafeteira elétrica", 1, 289.00, "delivered"),
        "51230": Order("51230", "Camiseta básica", 3, 179.70, "processing", eta="2026-03-16"),
        "10293": Order("10293", "Tênis de corrida", 1, 399.90, "cancelled"),
        "77801": Order("77801", "Livro Dom Casmurro", 2, 69.80, "delivered"),
        "90412": Order("90412", "Carregador USB-C", 2, 139.80, "processing", eta="2026-03-13"),
    }


ORDERS = initial_orders()
_LOCK = threading.Lock()


def _order_number(raw: Any) -> str:
    digits = re.sub(r"\D", "", str(raw or ""))
    return digits or str(raw or "").strip()


def _not_found(number: str, lang: str) -> DomainOutput:
    text = f"I could not find order {number}." if lang == "en" else f"Não encontrei o pedido {number}."
    return fail(text, "order_not_found")


def _money(value: float, lang: str = "pt") -> str:
    text = f"{value:,.2f}"
    if lang == "pt":
        text = text.replace(",", "_").replace(".", ",").replace("_", ".")
    return f"R$ {text}"


ORDER_NUMBER = {"type": "string", "minLength": 1, "description": "The order number as the person wrote it."}

service = DomainService(
    "shop_orders",
    "0.1.0",
    {
        "pt": "Pedidos da loja: situação, compra, cancelamento e reembolso",
        "en": "Shop orders: status, purchase, cancellation and refunds",
    },
)


@service.capability(
    "get_order_status",
    {"pt": "Consulta a situação de um pedido", "en": "Look up an order's status"},
    parameters={
        "type": "object",
        "properties": {"order_number_text": ORDER_NUMBER},
        "required": ["order_number_text"],
    },
    metadata={
        "intent_hints": {
            "keywords": [
                "pedido",
                "encomenda",
                "rastreio",
                "status do pedido",
                "cadê meu pedido",
                "order",
                "order status",
                "tracking",
                "where is my order",
            ],
            "examples": ["qual o status do pedido 12345?", "where is my order 12345?"],
        },
        "policy": {"idempotent": True, "attempts": 2, "timeout_s": 5.0},
        "progress": {"pt": "Consultando o pedido…", "en": "Looking up the order…"},
    },
)
def get_order_status(intent: ExecutionIntent) -> DomainOutput:
    lang = language(intent)
    number = _order_number(intent.parameters.get("order_number_text"))
    order = ORDERS.get(number)
    if order is None:
        return _not_found(number, lang)
    status = STATUS_TEXT[lang][order.status]
    if lang == "en":
        text = f"Order {number} ({order.quantity}× {order.product}): {status}"
        text += f", expected on {order.eta}." if order.eta and order.status != "cancelled" else "."
    else:
        text = f"Pedido {number} ({order.quantity}× {order.product}): {status}"
        text += f", previsão de entrega {order.eta}." if order.eta and order.status != "cancelled" else "."
    result = {
        "order_number": number,
        "status": order.status,
        "product": order.product,
        "quantity": order.quantity,
        "eta": order.eta,
    }
    return DomainOutput(status="success", result=result, explanation=text)


@service.capability(
    "place_order",
    {"pt": "Faz um pedido de compra de um produto", "en": "Place a purchase order for a product"},
    parameters={
        "type": "object",
        "properties": {
            "product_text": {
                "type": "string",
                "minLength": 1,
                "description": "The product as the person named it.",
            },
            "quantity_text": {
                "type": "string",
                "description": "How many, as said ('2', 'duas'); absent = 1.",
            },
        },
        "required": ["product_text"],
    },
    metadata={
        "intent_hints": {
            "keywords": [
                "comprar",
                "compra",
                "pedir",
                "encomendar",
                "fazer um pedido",
                "buy",
                "order",
                "purchase",
            ],
            "examples": ["quero comprar uma cafeteira", "I want to buy a keyboard"],
        },
        "policy": {"confirm": True, "idempotent": False, "attempts": 1, "timeout_s": 10.0},
        "progress": {"pt": "Registrando o pedido…", "en": "Placing the order…"},
    },
)
def place_order(intent: ExecutionIntent) -> DomainOutput:
    lang = language(intent)
    raw = str(intent.parameters.get("product_text", "")).strip()
    product = _PRODUCT_BY_NAME.get(fold(raw))
    if product is None:
        text = f"We don't sell '{raw}'." if lang == "en" else f"Não vendemos '{raw}'."
        return fail(text, "unknown_product")
    quantity = parse_number(intent.parameters.get("quantity_text")) or 1
    if quantity != int(quantity) or not 1 <= quantity <= 50:
        text = (
            "The quantity must be a whole number from 1 to 50."
            if lang == "en"
            else "A quantidade deve ser um número inteiro de 1 a 50."
        )
        return fail(text, "invalid_quantity")
    qty = int(quantity)
    total = round(PRODUCTS[product][0] * qty, 2)
    number = str(60000 + int(hashlib.sha256(f"{product}|{qty}".encode()).hexdigest(), 16) % 9999)
    with _LOCK:
        ORDERS[number] = Order(number, product, qty, total, "processing", eta="2026-03-17")
    if lang == "en":
        text = f"Order {number} placed: {qty}× {product}, total {_money(total, lang)}."
    else:
        text = f"Pedido {number} feito: {qty}× {product}, total de {_money(total, lang)}."
    result = {"order_number": number, "product": product, "quantity": qty, "total": total, "currency": "BRL"}
    return DomainOutput(status="success", result=result, explanation=text)


@service.capability(
    "cancel_order",
    {"pt": "Cancela um pedido", "en": "Cancel an order"},
    parameters={
        "type": "object",
        "properties": {"order_number_text": ORDER_NUMBER},
        "required": ["order_number_text"],
    },
    metadata={
        "intent_hints": {
            "keywords": [
                "cancelar",
                "cancela",
                "cancelamento",
                "desistir do pedido",
                "cancel",
                "cancel order",
            ],
            "examples": ["cancela o pedido 12345", "cancel order 12345"],
        },
        "policy": {"confirm": True, "idempotent": False, "attempts": 1, "timeout_s": 10.0},
        "progress": {"pt": "Cancelando o pedido…", "en": "Cancelling the order…"},
    },
)
def cancel_order(intent: ExecutionIntent) -> DomainOutput:
    lang = language(intent)
    number = _order_number(intent.parameters.get("order_number_text"))
    with _LOCK:
        order = ORDERS.get(number)
        if order is None:
            return _not_found(number, lang)
        if order.status in ("shipped", "delivered", "cancelled"):
            status = STATUS_TEXT[lang][order.status]
            text = (
                f"Order {number} is already {status} and cannot be cancelled."
                if lang == "en"
                else f"O pedido {number} já está {status} e não pode ser cancelado."
            )
            return fail(text, "not_cancellable")
        order.status = "cancelled"
    text = f"Order {number} cancelled." if lang == "en" else f"Pedido {number} cancelado."
    return DomainOutput(
        status="success", result={"order_number": number, "status": "cancelled"}, explanation=text
    )


@service.capability(
    "refund_order",
    {"pt": "Reembolsa um valor de um pedido", "en": "Refund an amount of an order"},
    parameters={
        "type": "object",
        "properties": {
            "order_number_text": ORDER_NUMBER,
            "amount_text": {
                "type": "string",
                "description": "The amount as said ('R$ 50', '20 reais'); absent = what is left to refund.",
            },
        },
        "required": ["order_number_text"],
    },
    metadata={
        "intent_hints": {
            "keywords": [
                "reembolso",
                "reembolsar",
                "estorno",
                "estornar",
                "devolver o dinheiro",
                "refund",
                "money back",
            ],
            "examples": ["quero o reembolso do pedido 12345", "refund order 12345"],
        },
        "policy": {"confirm": True, "idempotent": False, "attempts": 1, "timeout_s": 10.0},
        "progress": {"pt": "Registrando o reembolso…", "en": "Issuing the refund…"},
    },
)
def refund_order(intent: ExecutionIntent) -> DomainOutput:
    lang = language(intent)
    number = _order_number(intent.parameters.get("order_number_text"))
    with _LOCK:
        order = ORDERS.get(number)
        if order is None:
            return _not_found(number, lang)
        left = round(order.total - order.refunded, 2)
        money = parse_money(intent.parameters.get("amount_text"))
        amount, currency = money if money else (left, "BRL")
        if currency != "BRL":
            text = (
                "Refunds are made in reais (BRL)."
                if lang == "en"
                else "Os reembolsos são feitos em reais (BRL)."
            )
            return fail(text, "unsupported_currency")
        if amount <= 0 or amount > left:
            text = (
                f"I can refund at most {_money(left, lang)} of order {number}."
                if lang == "en"
                else f"Posso reembolsar no máximo {_money(left, lang)} do pedido {number}."
            )
            return fail(text, "amount_too_high")
        order.refunded = round(order.refunded + amount, 2)
    text = (
        f"Refund of {_money(amount, lang)} for order {number} issued."
        if lang == "en"
        else f"Reembolso de {_money(amount, lang)} do pedido {number} registrado."
    )
    result = {"order_number": number, "amount": amount, "currency": "BRL", "refunded_total": order.refunded}
    return DomainOutput(status="success", result=result, explanation=text)


def _ex(text: str, **entities: Any) -> dict[str, Any]:
    return {"text": text, "entities": entities}


ORDER_ENTITY = {
    "type": "string",
    "required": True,
    "description": {"pt": "O número do pedido", "en": "The order number"},
}

service.add_goal(
    {
        "goal": "ORDER_STATUS",
        "description": {
            "pt": "A situação de um pedido (onde está, quando chega)",
            "en": "An order's status (where it is, when it arrives)",
        },
        "entities_schema": {"order_number_text": ORDER_ENTITY},
        "capabilities": ["get_order_status"],
        "examples": [
            _ex("qual o status do pedido 12345?", order_number_text="12345"),
            _ex("cadê meu pedido 55501?", order_number_text="55501"),
            _ex("meu pedido #30422 já saiu pra entrega?", order_number_text="30422"),
            _ex("rastreio do pedido 88120", order_number_text="88120"),
            _ex("quando chega a encomenda 41007?", order_number_text="41007"),
            _ex("situação do pedido número 23456", order_number_text="23456"),
            _ex("where is my order 12345?", order_number_text="12345"),
            _ex("track order #67890", order_number_text="67890"),
            _ex("has order 33310 shipped yet?", order_number_text="33310"),
            _ex("status of my order number 45678", order_number_text="45678"),
            _ex("when will order 70001 arrive?", order_number_text="70001"),
        ],
    }
)

service.add_goal(
    {
        "goal": "PLACE_ORDER",
        "description": {"pt": "Comprar um produto da loja", "en": "Buy a product from the shop"},
        "entities_schema": {
            "product_text": {
                "type": "string",
                "required": True,
                "description": {"pt": "O produto", "en": "The product"},
                "lookup": [{"value": name, "aliases": aliases} for name, (_, aliases) in PRODUCTS.items()],
            },
            "quantity_text": {
                "type": "string",
                "description": {"pt": "A quantidade", "en": "The quantity"},
            },
        },
        "capabilities": ["place_order"],
        "examples": [
            _ex("quero comprar uma cafeteira", product_text="cafeteira", quantity_text="uma"),
            _ex("faz um pedido de 2 mouses sem fio", product_text="mouses sem fio", quantity_text="2"),
            _ex("compra 3 camisetas básicas pra mim", product_text="camisetas básicas", quantity_text="3"),
            _ex("pede um teclado mecânico", product_text="teclado mecânico", quantity_text="um"),
            _ex("quero encomendar 5 garrafas térmicas", product_text="garrafas térmicas", quantity_text="5"),
            _ex("me vê duas capinhas de celular", product_text="capinhas de celular", quantity_text="duas"),
            _ex("gostaria de pedir o livro Dom Casmurro", product_text="Dom Casmurro"),
            _ex("I want to buy a coffee maker", product_text="coffee maker", quantity_text="a"),
            _ex("order 2 usb-c chargers", product_text="usb-c chargers", quantity_text="2"),
            _ex("place an order for running shoes", product_text="running shoes"),
            _ex("buy me four phone cases", product_text="phone cases", quantity_text="four"),
            _ex("can you order 1 wireless mouse for me?", product_text="wireless mouse", quantity_text="1"),
        ],
    }
)

service.add_goal(
    {
        "goal": "CANCEL_ORDER",
        "description": {"pt": "Cancelar um pedido", "en": "Cancel an order"},
        "entities_schema": {"order_number_text": ORDER_ENTITY},
        "capabilities": ["cancel_order"],
        "examples": [
            _ex("cancela o pedido 12345", order_number_text="12345"),
            _ex("quero cancelar minha compra 55501", order_number_text="55501"),
            _ex("desisti do pedido #30422, pode cancelar", order_number_text="30422"),
            _ex("cancelamento do pedido número 88120", order_number_text="88120"),
            _ex("por favor cancele a encomenda 41007", order_number_text="41007"),
            _ex("cancel order 12345", order_number_text="12345"),
            _ex("please cancel my order #67890", order_number_text="67890"),
            _ex("I changed my mind, cancel order 33310", order_number_text="33310"),
            _ex("I'd like to cancel purchase 45678", order_number_text="45678"),
        ],
    }
)

service.add_goal(
    {
        "goal": "REFUND_ORDER",
        "description": {
            "pt": "Reembolso (estorno) de um valor de um pedido",
            "en": "A refund of an amount of an order",
        },
        "entities_schema": {
            "order_number_text": ORDER_ENTITY,
            "amount_text": {
                "type": "string",
                "description": {"pt": "O valor a reembolsar", "en": "The amount to refund"},
            },
        },
        "capabilities": ["refund_order"],
        "examples": [
            _ex("quero o reembolso do pedido 12345", order_number_text="12345"),
            _ex("estorna R$ 50 do pedido 55501", order_number_text="55501", amount_text="R$ 50"),
            _ex("me devolve 30 reais do pedido #30422", order_number_text="30422", amount_text="30 reais"),
            _ex("pedido 88120 veio com defeito, quero meu dinheiro de volta", order_number_text="88120"),
            _ex("reembolsar 19,90 da encomenda 41007", order_number_text="41007", amount_text="19,90"),
            _ex("refund order 12345", order_number_text="12345"),
            _ex("I want a refund of R$ 25 on order 67890", order_number_text="67890", amount_text="R$ 25"),
            _ex("give me my money back for order #33310", order_number_text="33310"),
            _ex("please refund 40 reais for order 45678", order_number_text="45678", amount_text="40 reais"),
        ],
    }
)

if __name__ == "__main__":
    serve(service)
