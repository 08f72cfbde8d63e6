"""Laundry (round-8 bench domain): schedule a pickup, an order's status, prices per piece.

A neighbourhood laundry with pickup and delivery. Fake, deterministic, in memory.
Run: ``python -m bench.understanding.round8.domains.laundry --port 8183``.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from datetime import date, timedelta
from typing import Any

from bench.understanding.round8.domains._common import (
    code_of,
    ex,
    language,
    lookup_spec,
    read_day,
    read_number,
    read_time,
    resolve_loose,
    say,
    today,
)
from sdk.service import DomainService, clarify, fail, option, serve
from shared.models import DomainOutput, ExecutionIntent

#: the pieces priced (canonical name <- other ways people write it)
ITEMS: dict[str, list[str]] = {
    "Camisa": ["camisa", "camisas", "camiseta", "camisetas", "shirt", "shirts", "t-shirt"],
    "Calça": ["calça", "calças", "calca", "jeans", "pants", "trousers"],
    "Terno": ["terno", "ternos", "blazer", "suit", "suits"],
    "Vestido": ["vestido", "vestidos", "vestido de festa", "dress", "dresses"],
    "Edredom": ["edredom", "edredon", "edredons", "duvet", "comforter"],
    "Cobertor": ["cobertor", "cobertores", "manta", "blanket", "blankets"],
    "Tênis": ["tênis", "tenis", "sneakers", "trainers"],
    "Cortina": ["cortina", "cortinas", "curtain", "curtains"],
    "Jaqueta": ["jaqueta", "casaco", "jaqueta de couro", "jacket", "coat"],
    "Lençol": ["lençol", "lençóis", "lencol", "roupa de cama", "sheets", "bed sheets"],
    "Tapete": ["tapete", "tapetes", "rug", "carpet"],
}
SERVICES = ["WASH", "DRY_CLEAN", "IRON"]
SERVICE_SYNONYMS: dict[str, list[str]] = {
    "WASH": ["lavar", "lavagem", "lavagem comum", "lava e seca", "wash", "washing", "wash and fold"],
    "DRY_CLEAN": [
        "lavagem a seco",
        "lavar a seco",
        "a seco",
        "dry clean",
        "dry cleaning",
        "dry-clean",
        "dry-cleaned",
    ],
    "IRON": [
        "passar",
        "passar roupa",
        "passadoria",
        "só passar",
        "iron",
        "ironing",
        "ironed",
        "pressing",
        "pressed",
    ],
}
SERVICE_NAMES = {
    "WASH": ("lavagem", "wash"),
    "DRY_CLEAN": ("lavagem a seco", "dry cleaning"),
    "IRON": ("passadoria", "ironing"),
}
WINDOWS = ["MORNING", "AFTERNOON", "EVENING"]
WINDOW_SYNONYMS: dict[str, list[str]] = {
    "MORNING": ["de manhã", "manhã", "pela manhã", "in the morning", "morning"],
    "AFTERNOON": ["à tarde", "de tarde", "tarde", "in the afternoon", "afternoon"],
    "EVENING": ["à noite", "de noite", "noite", "in the evening", "evening"],
}
WINDOW_HOURS = {"MORNING": "08:00–12:00", "AFTERNOON": "13:00–18:00", "EVENING": "18:00–20:00"}
WINDOW_NAMES = {
    "MORNING": ("manhã", "morning"),
    "AFTERNOON": ("tarde", "afternoon"),
    "EVENING": ("noite", "evening"),
}
#: price in BRL per piece and service (a service missing for a piece is not done)
PRICES: dict[str, dict[str, int]] = {
    "Camisa": {"WASH": 12, "DRY_CLEAN": 25, "IRON": 8},
    "Calça": {"WASH": 14, "DRY_CLEAN": 28, "IRON": 9},
    "Terno": {"DRY_CLEAN": 65, "IRON": 30},
    "Vestido": {"WASH": 18, "DRY_CLEAN": 45, "IRON": 14},
    "Edredom": {"WASH": 55, "DRY_CLEAN": 80},
    "Cobertor": {"WASH": 45, "DRY_CLEAN": 70},
    "Tênis": {"WASH": 40},
    "Cortina": {"WASH": 35, "DRY_CLEAN": 60, "IRON": 20},
    "Jaqueta": {"WASH": 30, "DRY_CLEAN": 60},
    "Lençol": {"WASH": 15, "IRON": 10},
    "Tapete": {"WASH": 70},
}
HOURS = ("08:00", "20:00")
MAX_PIECES = 40
ORDER_STATUS_NAMES = {
    "pickup_scheduled": ("coleta agendada", "pickup scheduled"),
    "washing": ("em lavagem", "being washed"),
    "out_for_delivery": ("saiu para entrega", "out for delivery"),
    "delivered": ("entregue", "delivered"),
    "waiting_payment": ("pronto, aguardando pagamento", "ready, waiting for payment"),
}


@dataclass
class Order:
    code: str
    service: str
    pieces: int
    pickup_day: str
    window: str
    ready_day: str
    status: str
    express: bool = False

    def describe(self, lang: str = "pt") -> str:
        service_name = SERVICE_NAMES[self.service][0 if lang == "pt" else 1]
        status = ORDER_STATUS_NAMES[self.status][0 if lang == "pt" else 1]
        return say(
            lang,
            f"{self.code}: {self.pieces} peça(s), {service_name}, coleta {self.pickup_day} ({self.window}), "
            f"pronto {self.ready_day}, {status}",
            f"{self.code}: {self.pieces} piece(s), {service_name}, pickup {self.pickup_day} ({self.window}), "
            f"ready {self.ready_day}, {status}",
        )


ORDERS: dict[str, Order] = {
    o.code: o
    for o in (
        Order("LD4410", "WASH", 12, "2026-03-08", "08:00–12:00", "2026-03-10", "out_for_delivery"),
        Order("LD4425", "DRY_CLEAN", 3, "2026-03-09", "13:00–18:00", "2026-03-12", "washing"),
        Order("LD4398", "IRON", 20, "2026-03-05", "18:00–20:00", "2026-03-07", "delivered"),
        Order("LD4433", "WASH", 8, "2026-03-11", "08:00–12:00", "2026-03-13", "pickup_scheduled"),
        Order("LD4401", "DRY_CLEAN", 2, "2026-03-06", "13:00–18:00", "2026-03-09", "waiting_payment"),
    )
}
_next_code = [5000]

service = DomainService(
    "laundry",
    "0.1.0",
    {
        "pt": "Lavanderia com coleta e entrega: agendar coleta, acompanhar pedido e consultar preços",
        "en": "Laundry with pickup and delivery: schedule a pickup, track an order and check prices",
    },
)


def _item(lang: str, value: object) -> str | DomainOutput:
    item = resolve_loose(value, ITEMS)
    if item is not None:
        return item
    return clarify(
        say(
            lang,
            f"Não tenho preço para “{value}”. Qual destes?",
            f"I have no price for “{value}”. Which of these?",
        ),
        [option(name, name, aliases=aliases) for name, aliases in ITEMS.items()],
        param="item_text",
        metadata={"resolution": "unknown_item"},
    )


def _working_days(start: date, n: int) -> date:
    day = start
    while n > 0:
        day += timedelta(days=1)
        if day.weekday() != 6:
            n -= 1
    return day


@service.capability(
    "schedule_pickup",
    {"pt": "Agenda uma coleta de roupas na sua casa", "en": "Schedule a laundry pickup at your home"},
    parameters={
        "type": "object",
        "properties": {
            "service": {"type": "string", "enum": SERVICES},
            "pieces": {"type": "number", "exclusiveMinimum": 0},
            "day": {"type": "string", "pattern": "^\\d{4}-\\d{2}-\\d{2}$"},
            "window": {"type": "string", "enum": WINDOWS},
            "time": {"type": "string", "pattern": "^\\d{2}:\\d{2}$"},
            "express": {"type": "boolean"},
            "item_text": {"type": "string"},
        },
        "required": ["service", "pieces", "day"],
        "anyOf": [{"required": ["window"]}, {"required": ["time"]}],
    },
    metadata={
        "intent_hints": {
            "keywords": ["coleta", "buscar roupa", "lavanderia", "pickup", "laundry", "pick up"],
            "examples": ["vem buscar minhas roupas", "can you pick up my laundry"],
        },
        "policy": {"confirm": True, "idempotent": False},
    },
)
def schedule_pickup(intent: ExecutionIntent) -> DomainOutput:
    lang = language(intent)
    p = intent.parameters
    kind = str(p.get("service") or "").upper()
    raw = p.get("pieces")
    pieces = int(raw) if isinstance(raw, int | float) and not isinstance(raw, bool) else read_number(raw)
    day = read_day(p.get("day"))
    if kind not in SERVICES or not pieces or day is None:
        return fail(
            say(lang, "Qual serviço, quantas peças e que dia?", "Which service, how many pieces, which day?"),
            "missing_parameter",
        )
    if day < today():
        return fail(say(lang, "Esse dia já passou.", "That day has passed."), "past_day")
    if day.weekday() == 6:
        monday = day + timedelta(days=1)
        return fail(
            say(
                lang,
                f"Não fazemos coleta aos domingos; pode ser segunda, {monday.isoformat()}.",
                f"No pickups on Sundays; it can be Monday, {monday.isoformat()}.",
            ),
            "sunday",
            recoverable=True,
            suggestions=[{"day": monday.isoformat()}],
        )
    if pieces > MAX_PIECES:
        return fail(
            say(
                lang, f"No máximo {MAX_PIECES} peças por coleta.", f"At most {MAX_PIECES} pieces per pickup."
            ),
            "too_many",
            recoverable=True,
            suggestions=[{"pieces": MAX_PIECES}],
        )
    if p.get("express") and kind == "DRY_CLEAN":
        return fail(
            say(lang, "Lavagem a seco não tem opção expressa.", "Dry cleaning has no express option."),
            "no_express",
            recoverable=True,
            suggestions=[{"express": False}],
        )
    item = None
    if p.get("item_text"):
        item = resolve_loose(p.get("item_text"), ITEMS)
        if item is not None and kind not in PRICES[item]:
            other = next(iter(PRICES[item]))
            return fail(
                say(
                    lang,
                    f"{item}: não fazemos {SERVICE_NAMES[kind][0]}; fazemos "
                    + ", ".join(SERVICE_NAMES[s][0] for s in PRICES[item])
                    + ".",
                    f"{item}: we don't do {SERVICE_NAMES[kind][1]}; we do "
                    + ", ".join(SERVICE_NAMES[s][1] for s in PRICES[item])
                    + ".",
                ),
                "service_not_offered",
                recoverable=True,
                suggestions=[{"service": other}],
            )
    window = str(p.get("window") or "").upper()
    time = read_time(p.get("time"))
    if window in WINDOWS:
        if window == "EVENING" and day.weekday() == 5:
            return fail(
                say(lang, "Aos sábados coletamos até as 18h.", "On Saturdays pickups end at 6pm."),
                "no_evening_saturday",
                recoverable=True,
                suggestions=[{"window": "AFTERNOON"}],
            )
        slot = WINDOW_HOURS[window]
    elif time is not None:
        if not HOURS[0] <= time <= HOURS[1]:
            nearest = HOURS[0] if time < HOURS[0] else HOURS[1]
            return fail(
                say(
                    lang,
                    f"As coletas são das {HOURS[0]} às {HOURS[1]}.",
                    f"Pickups are from {HOURS[0]} to {HOURS[1]}.",
                ),
                "outside_hours",
                recoverable=True,
                suggestions=[{"time": nearest}],
            )
        slot = time
    else:
        return fail(
            say(lang, "Qual período ou horário?", "Which part of the day or time?"), "missing_parameter"
        )
    express = bool(p.get("express"))
    ready = _working_days(day, 1 if express else 2)
    _next_code[0] += 1
    order = Order(
        f"LD{_next_code[0]}",
        kind,
        pieces,
        day.isoformat(),
        slot,
        ready.isoformat(),
        "pickup_scheduled",
        express,
    )
    ORDERS[order.code] = order
    return DomainOutput(
        status="success",
        result=asdict(order) | {"item": item},
        explanation=say(
            lang,
            f"Coleta agendada — {order.describe(lang)}. Código {order.code}.",
            f"Pickup booked — {order.describe(lang)}. Your code is {order.code}.",
        ),
    )


@service.capability(
    "laundry_status",
    {"pt": "Consulta a situação de um pedido da lavanderia", "en": "Check a laundry order's status"},
    parameters={
        "type": "object",
        "properties": {"order_code_text": {"type": "string", "minLength": 1}},
        "required": ["order_code_text"],
    },
    metadata={
        "intent_hints": {
            "keywords": ["pedido da lavanderia", "minhas roupas", "laundry order", "my laundry"]
        },
        "policy": {"read_only": True},
    },
)
def laundry_status(intent: ExecutionIntent) -> DomainOutput:
    lang = language(intent)
    code = code_of(intent.parameters.get("order_code_text"), "LD")
    order = ORDERS.get(code)
    if order is None:
        return fail(say(lang, f"Não achei o pedido {code}.", f"No order {code}."), "order_not_found")
    return DomainOutput(status="success", result=asdict(order), explanation=order.describe(lang))


@service.capability(
    "laundry_price",
    {"pt": "Informa o preço por peça", "en": "Tell the price per piece"},
    parameters={
        "type": "object",
        "properties": {
            "item_text": {"type": "string", "minLength": 1},
            "service": {"type": "string", "enum": SERVICES},
            "pieces": {"type": "number", "exclusiveMinimum": 0},
        },
        "required": ["item_text"],
    },
    metadata={
        "intent_hints": {
            "keywords": ["quanto custa lavar", "preço da lavagem", "tabela de preços", "price per piece"]
        },
        "policy": {"read_only": True},
    },
)
def laundry_price(intent: ExecutionIntent) -> DomainOutput:
    lang = language(intent)
    p = intent.parameters
    item = _item(lang, p.get("item_text"))
    if isinstance(item, DomainOutput):
        return item
    prices = PRICES[item]
    kind = str(p.get("service") or "").upper()
    raw = p.get("pieces")
    pieces = (
        int(raw) if isinstance(raw, int | float) and not isinstance(raw, bool) else (read_number(raw) or 1)
    )
    if kind in SERVICES and kind not in prices:
        other = next(iter(prices))
        return fail(
            say(
                lang,
                f"{item}: não fazemos {SERVICE_NAMES[kind][0]}.",
                f"{item}: we don't do {SERVICE_NAMES[kind][1]}.",
            ),
            "service_not_offered",
            recoverable=True,
            suggestions=[{"service": other}],
        )
    shown = {kind: prices[kind]} if kind in SERVICES else prices
    parts = []
    for s, price in shown.items():
        name = SERVICE_NAMES[s][0 if lang == "pt" else 1]
        total = f" (x{pieces} = R$ {price * pieces:.2f})" if pieces > 1 else ""
        parts.append(f"{name} R$ {price:.2f}{total}")
    return DomainOutput(
        status="success",
        result={"item": item, "prices_brl": shown, "pieces": pieces},
        explanation=say(lang, f"{item}, por peça: ", f"{item}, per piece: ") + "; ".join(parts) + ".",
    )


ITEM_ENTITY: dict[str, Any] = {
    "type": "string",
    "description": {"pt": "A peça de roupa", "en": "The item"},
    "lookup": lookup_spec(ITEMS),
}
SERVICE_ENTITY: dict[str, Any] = {
    "type": "enum",
    "values": SERVICES,
    "synonyms": SERVICE_SYNONYMS,
    "description": {
        "pt": "O serviço (lavagem, lavagem a seco ou passadoria)",
        "en": "The service (wash, dry cleaning or ironing)",
    },
}
PIECES_ENTITY: dict[str, Any] = {
    "type": "number",
    "description": {"pt": "Quantas peças", "en": "How many pieces"},
}

service.add_goal(
    {
        "goal": "SCHEDULE_PICKUP",
        "description": {"pt": "Agendar uma coleta de roupas", "en": "Schedule a laundry pickup"},
        "entities_schema": {
            "service": SERVICE_ENTITY | {"required": True},
            "pieces": PIECES_ENTITY | {"required": True},
            "day": {
                "type": "date",
                "required": True,
                "description": {"pt": "O dia da coleta", "en": "The pickup day"},
            },
            "window": {
                "type": "enum",
                "values": WINDOWS,
                "synonyms": WINDOW_SYNONYMS,
                "description": {"pt": "O período da coleta", "en": "The pickup part of the day"},
            },
            "time": {"type": "time", "description": {"pt": "O horário da coleta", "en": "The pickup time"}},
            "express": {
                "type": "boolean",
                "description": {"pt": "Entrega expressa", "en": "Express service"},
                "synonyms": {
                    "true": ["expresso", "expressa", "entrega expressa", "express", "rush", "same-day"]
                },
            },
            "item_text": ITEM_ENTITY,
        },
        "required_one_of": [["window", "time"]],
        "capabilities": ["schedule_pickup"],
        "examples": [
            ex(
                "agenda coleta de 10 peças pra lavar amanhã de manhã",
                pieces="10 peças",
                service="WASH",
                day="amanhã",
                window="MORNING",
            ),
            ex(
                "busca 3 ternos pra lavagem a seco na sexta às 14h",
                pieces="3",
                item_text="ternos",
                service="DRY_CLEAN",
                day="sexta",
                time="às 14h",
            ),
            ex(
                "quero mandar 15 peças pra passar, coleta quinta à tarde",
                pieces="15 peças",
                service="IRON",
                day="quinta",
                window="AFTERNOON",
            ),
            ex(
                "coleta expressa de 6 camisas pra lavar hoje à noite",
                express=True,
                pieces="6",
                item_text="camisas",
                service="WASH",
                day="hoje",
                window="EVENING",
            ),
            ex(
                "schedule a pickup of 8 pieces for washing tomorrow morning",
                pieces="8 pieces",
                service="WASH",
                day="tomorrow",
                window="MORNING",
            ),
            ex(
                "pick up 2 suits for dry cleaning on Friday at 10am",
                pieces="2",
                item_text="suits",
                service="DRY_CLEAN",
                day="Friday",
                time="at 10am",
            ),
            ex(
                "I need 12 shirts ironed, pickup Thursday afternoon",
                pieces="12",
                item_text="shirts",
                service="IRON",
                day="Thursday",
                window="AFTERNOON",
            ),
        ],
    }
)
service.add_goal(
    {
        "goal": "LAUNDRY_STATUS",
        "description": {"pt": "A situação de um pedido da lavanderia", "en": "The status of a laundry order"},
        "entities_schema": {
            "order_code_text": {
                "type": "string",
                "required": True,
                "description": {"pt": "O código do pedido", "en": "The order code"},
            }
        },
        "capabilities": ["laundry_status"],
        "examples": [
            ex("como está o pedido LD4425?", order_code_text="LD4425"),
            ex("minhas roupas do pedido LD4410 já saíram?", order_code_text="LD4410"),
            ex("status of laundry order LD4433", order_code_text="LD4433"),
            ex("is my laundry LD4425 ready?", order_code_text="LD4425"),
        ],
    }
)
service.add_goal(
    {
        "goal": "LAUNDRY_PRICE",
        "description": {"pt": "O preço da lavanderia por peça", "en": "The laundry's price per piece"},
        "entities_schema": {
            "item_text": ITEM_ENTITY | {"required": True},
            "service": SERVICE_ENTITY,
            "pieces": PIECES_ENTITY,
        },
        "capabilities": ["laundry_price"],
        "examples": [
            ex("quanto custa lavar um edredom?", service="WASH", item_text="edredom"),
            ex("preço da lavagem a seco de vestido", service="DRY_CLEAN", item_text="vestido"),
            ex("quanto fica passar 10 camisas?", service="IRON", pieces="10", item_text="camisas"),
            ex("qual o valor pra lavar tênis?", service="WASH", item_text="tênis"),
            ex("how much to dry clean a suit?", service="DRY_CLEAN", item_text="suit"),
            ex("price for washing a duvet", service="WASH", item_text="duvet"),
            ex("how much is ironing 5 shirts?", service="IRON", pieces="5", item_text="shirts"),
        ],
    }
)

if __name__ == "__main__":
    serve(service)
