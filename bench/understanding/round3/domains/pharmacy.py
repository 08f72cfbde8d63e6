"""Pharmacy (round-3 bench domain): refill a prescription, check an order, a store's hours.

Fake, deterministic, in memory. Run: ``python -m bench.understanding.round3.domains.pharmacy --port 8131``.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from datetime import timedelta

from bench.understanding.round3.domains._common import (
    ex,
    language,
    lookup_spec,
    read_day,
    read_number,
    resolve,
    say,
    today,
)
from sdk.service import DomainService, clarify, fail, option, serve
from shared.models import DomainOutput, ExecutionIntent

#: medicines on file for the person's prescriptions (canonical name <- other ways to write it)
MEDICINES: dict[str, list[str]] = {
    "Losartana": ["losartana potássica", "losartan", "remédio de pressão", "blood pressure pills"],
    "Metformina": ["metformin", "glifage", "remédio da diabetes", "diabetes pills"],
    "Atorvastatina": ["atorvastatin", "lipitor", "remédio do colesterol", "cholesterol pills"],
    "Levotiroxina": ["levothyroxine", "puran", "puran t4", "synthroid", "remédio da tireoide"],
    "Omeprazol": ["omeprazole", "remédio do estômago"],
    "Sertralina": ["sertraline", "zoloft"],
    "Amoxicilina": ["amoxicillin", "amoxil", "antibiótico", "antibiotic"],
    "Insulina Glargina": ["insulina", "insulin", "lantus", "glargina", "glargine"],
}
#: refills left on each prescription (an antibiotic needs a new prescription)
REFILLS_LEFT = {name: 3 for name in MEDICINES} | {"Amoxicilina": 0, "Sertralina": 1}
MAX_BOXES = 3

STORES: dict[str, list[str]] = {
    "Centro": ["loja do centro", "centro", "downtown", "downtown store"],
    "Paulista": ["avenida paulista", "av paulista", "loja da paulista", "paulista store"],
    "Moema": ["loja de moema", "moema store"],
    "Vila Madalena": ["vila mada", "loja da vila madalena"],
    "Aeroporto": ["aeroporto", "loja do aeroporto", "airport", "airport store", "congonhas"],
}
#: weekday (0 = Monday) -> hours; missing = closed
HOURS: dict[str, dict[int, str]] = {
    "Centro": {**{d: "08:00–22:00" for d in range(5)}, 5: "09:00–18:00"},
    "Paulista": {**{d: "07:00–23:00" for d in range(6)}, 6: "09:00–21:00"},
    "Moema": {**{d: "08:00–22:00" for d in range(6)}, 6: "10:00–18:00"},
    "Vila Madalena": {**{d: "09:00–21:00" for d in range(6)}, 6: "10:00–16:00"},
    "Aeroporto": {d: "24h" for d in range(7)},
}


@dataclass
class Order:
    code: str
    medicine: str
    boxes: int
    status: str
    pickup_day: str

    def describe(self, lang: str) -> str:
        status = {
            "ready": ("pronto para retirar", "ready for pickup"),
            "preparing": ("em separação", "being prepared"),
            "picked_up": ("já retirado", "already picked up"),
            "on_hold": ("aguardando autorização do médico", "waiting for the doctor's authorisation"),
        }[self.status]
        boxes = say(lang, "caixa(s)", "box(es)")
        state = status[0 if lang == "pt" else 1]
        return f"{self.code}: {self.medicine}, {self.boxes} {boxes}, {state} ({self.pickup_day})"


ORDERS: dict[str, Order] = {
    o.code: o
    for o in (
        Order("RX1234", "Losartana", 2, "ready", "2026-03-10"),
        Order("RX2051", "Metformina", 1, "preparing", "2026-03-12"),
        Order("RX3377", "Levotiroxina", 1, "picked_up", "2026-03-05"),
        Order("RX4410", "Sertralina", 1, "on_hold", "2026-03-13"),
    )
}
_next_code = [5000]

service = DomainService(
    "pharmacy",
    "0.1.0",
    {
        "pt": "Farmácia: renovação de receitas, pedidos e horários das lojas",
        "en": "Pharmacy: prescription refills, orders and store hours",
    },
)


@service.capability(
    "refill_prescription",
    {
        "pt": "Pede a renovação de uma receita para retirar na farmácia",
        "en": "Order a prescription refill for pickup",
    },
    parameters={
        "type": "object",
        "properties": {
            "medicine_text": {"type": "string", "minLength": 1},
            "quantity": {"type": "integer", "minimum": 1},
            "pickup_day": {"type": "string", "pattern": "^\\d{4}-\\d{2}-\\d{2}$"},
        },
        "required": ["medicine_text", "pickup_day"],
    },
    metadata={
        "intent_hints": {
            "keywords": ["renovar receita", "refil", "repor remédio", "refill", "prescription", "receita"],
            "examples": ["preciso renovar minha receita", "I need a refill"],
        },
        # an order placed with the pharmacy: the person agrees first, and it is never retried blindly
        "policy": {"confirm": True, "idempotent": False},
    },
)
def refill_prescription(intent: ExecutionIntent) -> DomainOutput:
    lang = language(intent)
    p = intent.parameters
    medicine = resolve(p.get("medicine_text"), MEDICINES)
    if medicine is None:
        return clarify(
            say(
                lang,
                "Não achei esse remédio nas suas receitas. Qual destes?",
                "That medicine is not on your prescriptions. Which one?",
            ),
            [option(n, n, aliases=a) for n, a in MEDICINES.items()],
            param="medicine_text",
            metadata={"resolution": "unknown_medicine"},
        )
    boxes = read_number(p.get("quantity")) or 1
    day = read_day(p.get("pickup_day"))
    if day is None:
        return fail(say(lang, "Falta o dia da retirada.", "The pickup day is missing."), "missing_parameter")
    if day < today():
        return fail(say(lang, "Esse dia já passou.", "That day has passed."), "past_day")
    if REFILLS_LEFT[medicine] == 0:
        return fail(
            say(
                lang,
                f"A receita de {medicine} não tem mais renovações: precisa de uma receita nova.",
                f"The {medicine} prescription has no refills left: a new prescription is needed.",
            ),
            "no_refills_left",
        )
    if boxes > MAX_BOXES:
        return fail(
            say(
                lang, f"No máximo {MAX_BOXES} caixas por renovação.", f"At most {MAX_BOXES} boxes per refill."
            ),
            "too_many_boxes",
            recoverable=True,
            suggestions=[{"quantity": MAX_BOXES}],
        )
    # a same-day order is ready the next day at the earliest
    ready = max(day, today() + timedelta(days=1))
    _next_code[0] += 1
    order = Order(f"RX{_next_code[0]}", medicine, boxes, "preparing", ready.isoformat())
    ORDERS[order.code] = order
    return DomainOutput(
        status="success",
        result=asdict(order),
        explanation=say(
            lang, f"Pedido feito — {order.describe('pt')}.", f"Refill ordered — {order.describe('en')}."
        ),
    )


@service.capability(
    "order_status",
    {"pt": "Consulta a situação de um pedido da farmácia", "en": "Check a pharmacy order's status"},
    parameters={
        "type": "object",
        "properties": {"order_code_text": {"type": "string", "minLength": 1}},
        "required": ["order_code_text"],
    },
    metadata={"intent_hints": {"keywords": ["status do pedido", "meu pedido", "order status", "my order"]}},
)
def order_status(intent: ExecutionIntent) -> DomainOutput:
    lang = language(intent)
    code = "".join(ch for ch in str(intent.parameters.get("order_code_text", "")).upper() if ch.isalnum())
    if code.isdigit():
        code = f"RX{code}"
    order = ORDERS.get(code)
    if order is None:
        return fail(say(lang, f"Não achei o pedido {code}.", f"No order {code}."), "order_not_found")
    return DomainOutput(status="success", result=asdict(order), explanation=order.describe(lang))


@service.capability(
    "store_hours",
    {"pt": "Mostra o horário de funcionamento das lojas", "en": "Show the stores' opening hours"},
    parameters={
        "type": "object",
        "properties": {"store_text": {"type": "string"}, "day": {"type": "string"}},
    },
    metadata={"intent_hints": {"keywords": ["horário", "abre", "fecha", "opening hours", "open", "close"]}},
)
def store_hours(intent: ExecutionIntent) -> DomainOutput:
    lang = language(intent)
    p = intent.parameters
    day = read_day(p.get("day")) or today()
    wanted = p.get("store_text")
    store = resolve(wanted, STORES)
    if wanted and store is None:
        return clarify(
            say(lang, "Qual loja?", "Which store?"),
            [option(n, n, aliases=a) for n, a in STORES.items()],
            param="store_text",
            metadata={"resolution": "unknown_store"},
        )
    stores = [store] if store else list(STORES)
    closed = say(lang, "fechada", "closed")
    lines = [f"{s} ({day.isoformat()}): {HOURS[s].get(day.weekday(), closed)}" for s in stores]
    return DomainOutput(
        status="success",
        result={"day": day.isoformat(), "hours": {s: HOURS[s].get(day.weekday()) for s in stores}},
        explanation="\n".join(lines),
    )


service.add_goal(
    {
        "goal": "REFILL_PRESCRIPTION",
        "description": {
            "pt": "Renovar uma receita e retirar o remédio na farmácia",
            "en": "Refill a prescription and pick it up at the pharmacy",
        },
        "entities_schema": {
            "medicine_text": {
                "type": "string",
                "required": True,
                "description": {"pt": "O remédio", "en": "The medicine"},
                "lookup": lookup_spec(MEDICINES),
            },
            "quantity": {"type": "number", "description": {"pt": "Quantas caixas", "en": "How many boxes"}},
            "pickup_day": {
                "type": "date",
                "required": True,
                "description": {"pt": "O dia da retirada", "en": "The pickup day"},
            },
        },
        "capabilities": ["refill_prescription"],
        "examples": [
            ex(
                "renova minha receita de Losartana pra retirar amanhã",
                medicine_text="Losartana",
                pickup_day="amanhã",
            ),
            ex(
                "quero 2 caixas de Metformina, busco na sexta",
                quantity="2 caixas",
                medicine_text="Metformina",
                pickup_day="sexta",
            ),
            ex(
                "preciso repor a Levotiroxina, posso pegar dia 15?",
                medicine_text="Levotiroxina",
                pickup_day="dia 15",
            ),
            ex(
                "pede o refil do Omeprazol para quinta, 3 caixas",
                medicine_text="Omeprazol",
                pickup_day="quinta",
                quantity="3 caixas",
            ),
            ex(
                "refill my Atorvastatin for pickup on Thursday",
                medicine_text="Atorvastatin",
                pickup_day="Thursday",
            ),
            ex(
                "I need two boxes of Sertraline, I'll pick them up tomorrow",
                quantity="two boxes",
                medicine_text="Sertraline",
                pickup_day="tomorrow",
            ),
            ex(
                "please refill the insulin prescription, pickup Friday",
                medicine_text="insulin",
                pickup_day="Friday",
            ),
        ],
    }
)
service.add_goal(
    {
        "goal": "CHECK_ORDER_STATUS",
        "description": {"pt": "A situação de um pedido da farmácia", "en": "The status of a pharmacy order"},
        "entities_schema": {
            "order_code_text": {
                "type": "string",
                "required": True,
                "description": {"pt": "O código do pedido", "en": "The order code"},
            }
        },
        "capabilities": ["order_status"],
        "examples": [
            ex("qual o status do pedido RX1234?", order_code_text="RX1234"),
            ex("meu pedido RX2051 já está pronto?", order_code_text="RX2051"),
            ex("como está o pedido RX4410", order_code_text="RX4410"),
            ex("status of order RX1234", order_code_text="RX1234"),
            ex("is my order RX2051 ready for pickup?", order_code_text="RX2051"),
        ],
    }
)
service.add_goal(
    {
        "goal": "STORE_HOURS",
        "description": {
            "pt": "O horário de funcionamento das lojas da farmácia",
            "en": "The pharmacy stores' opening hours",
        },
        "entities_schema": {
            "store_text": {
                "type": "string",
                "description": {"pt": "A loja", "en": "The store"},
                "lookup": lookup_spec(STORES),
            },
            "day": {"type": "date", "description": {"pt": "O dia", "en": "The day"}},
        },
        "capabilities": ["store_hours"],
        "examples": [
            ex("que horas abre a farmácia da Paulista?", store_text="Paulista"),
            ex("a loja de Moema abre domingo?", store_text="Moema", day="domingo"),
            ex("horário da farmácia hoje", day="hoje"),
            ex("até que horas fica aberta a loja do Centro no sábado?", store_text="Centro", day="sábado"),
            ex("what time does the Vila Madalena store close?", store_text="Vila Madalena"),
            ex("is the airport pharmacy open on Sunday?", store_text="airport", day="Sunday"),
            ex("pharmacy opening hours"),
        ],
    }
)

if __name__ == "__main__":
    serve(service)
