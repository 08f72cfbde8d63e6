"""Coffee subscription (round-21 bench domain): subscribe to bags of specialty coffee (whole
beans or ground) at a frequency, skip or pause the next delivery, track a delivery by its order
code, and quote prices.

Fake, deterministic, in memory; one subscriber (the person talking).
Run: ``python -m bench.understanding.round21.domains.coffee_subscription --port 8942``.
"""

from __future__ import annotations

from datetime import date, timedelta

from bench.understanding.round21.domains._common import (
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

#: price of a 250 g bag (BRL): whole beans, ground
BAG_PRICE = {"BEANS": 42.0, "GROUND": 45.0}
#: discount per frequency (a weekly plan is cheaper a bag)
DISCOUNT = {"WEEKLY": 0.15, "BIWEEKLY": 0.10, "MONTHLY": 0.05}
#: at most this many bags a delivery
MAX_BAGS = 12
GRIND_PT = {"BEANS": "em grãos", "GROUND": "moído"}
GRIND_EN = {"BEANS": "whole beans", "GROUND": "ground"}
FREQ_PT = {"WEEKLY": "toda semana", "BIWEEKLY": "a cada 15 dias", "MONTHLY": "todo mês"}
FREQ_EN = {"WEEKLY": "weekly", "BIWEEKLY": "every two weeks", "MONTHLY": "monthly"}
#: deliveries (order code -> day, bags, state)
ORDERS: dict[str, tuple[date, int, str]] = {
    "CF7101": (date(2026, 3, 2), 2, "delivered"),
    "CF7105": (date(2026, 3, 10), 2, "out_for_delivery"),
    "CF7110": (date(2026, 3, 16), 2, "roasting"),
    "CF7114": (date(2026, 2, 16), 3, "skipped"),
}
STATE = {
    "delivered": ("entregue", "delivered"),
    "out_for_delivery": ("saiu para entrega", "out for delivery"),
    "roasting": ("em torra", "being roasted"),
    "skipped": ("pulada", "skipped"),
}
#: the subscription: grind, bags, frequency, next delivery, paused until
SUBSCRIPTION: dict[str, object] = {
    "grind": "BEANS",
    "bags": 2,
    "frequency": "BIWEEKLY",
    "next": date(2026, 3, 16),
    "paused_until": None,
}

service = DomainService(
    "coffee_subscription",
    "0.1.0",
    {
        "pt": "Assinatura de café: assinar, pular ou pausar entregas, rastrear entregas e preços",
        "en": "Coffee subscription: subscribe, skip or pause deliveries, track deliveries and prices",
    },
)


def _total(grind: str, bags: int, frequency: str) -> float:
    return round(BAG_PRICE[grind] * bags * (1 - DISCOUNT[frequency]), 2)


@service.capability(
    "subscribe_coffee",
    {
        "pt": "Faz uma assinatura de café: pacotes de 250 g em grãos ou moído, na frequência escolhida"
        " (todo mês quando não dita)",
        "en": "Start a coffee subscription: 250 g bags, whole beans or ground, at the chosen frequency"
        " (monthly when not said)",
    },
    parameters={
        "type": "object",
        "properties": {
            "grind": {"type": "string", "enum": ["BEANS", "GROUND"]},
            "bags": {"type": "number", "exclusiveMinimum": 0},
            "frequency": {"type": "string", "enum": ["WEEKLY", "BIWEEKLY", "MONTHLY"]},
        },
        "required": ["grind", "bags"],
    },
    metadata={
        "intent_hints": {
            "keywords": ["assinatura de café", "assinar café", "coffee subscription", "subscribe to coffee"],
            "examples": ["quero assinar o clube do café", "sign me up for the coffee subscription"],
        },
        "policy": {"confirm": True, "idempotent": False},
    },
)
def subscribe_coffee(intent: ExecutionIntent) -> DomainOutput:
    lang = language(intent)
    p = intent.parameters
    grind = str(p.get("grind") or "").upper()
    bags = read_number(p.get("bags"))
    frequency = str(p.get("frequency") or "MONTHLY").upper()
    if grind not in BAG_PRICE or bags is None or frequency not in DISCOUNT:
        return fail(
            say(lang, "Faltam dados da assinatura.", "Subscription details are missing."), "missing_parameter"
        )
    n = int(bags)
    if n > MAX_BAGS:
        return fail(
            say(lang, f"O máximo é {MAX_BAGS} pacotes por entrega.", f"At most {MAX_BAGS} bags a delivery."),
            "too_many_bags",
            recoverable=True,
            suggestions=[{"bags": MAX_BAGS}],
        )
    first = today() + timedelta(days=(7 - today().weekday()) % 7 or 7)
    SUBSCRIPTION.update(grind=grind, bags=n, frequency=frequency, next=first, paused_until=None)
    total = _total(grind, n, frequency)
    return DomainOutput(
        status="success",
        result={
            "grind": grind,
            "bags": n,
            "frequency": frequency,
            "first_delivery": first.isoformat(),
            "per_delivery": {"amount": total, "currency": "BRL"},
        },
        explanation=say(
            lang,
            f"Assinatura feita: {n} pacote(s) de café {GRIND_PT[grind]}, {FREQ_PT[frequency]}."
            f" R$ {total:.2f} por entrega; a primeira chega {first:%d/%m}.",
            f"Subscribed: {n} bag(s) of {GRIND_EN[grind]} coffee, {FREQ_EN[frequency]}."
            f" R$ {total:.2f} a delivery; the first arrives {first:%b %d}.",
        ),
    )


@service.capability(
    "skip_coffee_delivery",
    {
        "pt": "Pula a próxima entrega da assinatura de café, ou pausa a assinatura (até o dia dito,"
        " ou até ser retomada)",
        "en": "Skip the next coffee subscription delivery, or pause the subscription (until the day"
        " said, or until resumed)",
    },
    parameters={
        "type": "object",
        "properties": {
            "mode": {"type": "string", "enum": ["SKIP", "PAUSE"]},
            "resume_day": {"type": "string", "pattern": "^\\d{4}-\\d{2}-\\d{2}$"},
        },
    },
    metadata={
        "intent_hints": {
            "keywords": [
                "pular entrega do café",
                "pausar assinatura",
                "skip coffee delivery",
                "pause subscription",
            ],
            "examples": ["pula a próxima entrega de café", "skip my next coffee delivery"],
        },
        "policy": {"confirm": True, "idempotent": False},
    },
)
def skip_coffee_delivery(intent: ExecutionIntent) -> DomainOutput:
    lang = language(intent)
    p = intent.parameters
    mode = str(p.get("mode") or ("PAUSE" if p.get("resume_day") else "SKIP")).upper()
    nxt = SUBSCRIPTION["next"]
    assert isinstance(nxt, date)
    if mode == "PAUSE":
        until = read_day(p.get("resume_day")) if p.get("resume_day") else None
        if until is not None and until <= today():
            return fail(say(lang, "Esse dia já passou.", "That day is past."), "past_day")
        SUBSCRIPTION["paused_until"] = until
        return DomainOutput(
            status="success",
            result={"state": "paused", "until": until.isoformat() if until else None},
            explanation=say(
                lang,
                "Assinatura pausada" + (f" até {until:%d/%m}." if until else " até você retomar."),
                "Subscription paused" + (f" until {until:%b %d}." if until else " until you resume it."),
            ),
        )
    freq = str(SUBSCRIPTION["frequency"])
    step = {"WEEKLY": 7, "BIWEEKLY": 14, "MONTHLY": 28}[freq]
    skipped, new = nxt, nxt + timedelta(days=step)
    SUBSCRIPTION["next"] = new
    return DomainOutput(
        status="success",
        result={"skipped": skipped.isoformat(), "next_delivery": new.isoformat()},
        explanation=say(
            lang,
            f"Entrega de {skipped:%d/%m} pulada; a próxima chega {new:%d/%m}.",
            f"The {skipped:%b %d} delivery is skipped; the next arrives {new:%b %d}.",
        ),
    )


@service.capability(
    "coffee_delivery_status",
    {"pt": "Informa onde está uma entrega de café", "en": "Tell where a coffee delivery is"},
    parameters={
        "type": "object",
        "properties": {"order_text": {"type": "string", "minLength": 1}},
        "required": ["order_text"],
    },
    metadata={
        "intent_hints": {
            "keywords": ["entrega do café", "rastrear café", "coffee delivery status", "track coffee"],
            "examples": ["cadê meu café?", "where is my coffee delivery?"],
        },
        "policy": {"read_only": True},
    },
)
def coffee_delivery_status(intent: ExecutionIntent) -> DomainOutput:
    lang = language(intent)
    code = norm_code(intent.parameters.get("order_text"))
    order = ORDERS.get(code)
    if order is None:
        return fail(say(lang, f"Não achei a entrega {code}.", f"No delivery {code}."), "not_found")
    day, bags, state = order
    pt, en = STATE[state]
    return DomainOutput(
        status="success",
        result={"code": code, "day": day.isoformat(), "bags": bags, "state": state},
        explanation=say(
            lang,
            f"Entrega {code} ({bags} pacotes, {day:%d/%m}): {pt}.",
            f"Delivery {code} ({bags} bags, {day:%b %d}): {en}.",
        ),
    )


@service.capability(
    "coffee_price",
    {
        "pt": "Informa o preço do pacote de café e da assinatura por frequência",
        "en": "Quote the coffee bag price and the subscription per frequency",
    },
    parameters={
        "type": "object",
        "properties": {
            "grind": {"type": "string", "enum": ["BEANS", "GROUND"]},
            "bags": {"type": "number"},
            "frequency": {"type": "string", "enum": ["WEEKLY", "BIWEEKLY", "MONTHLY"]},
        },
    },
    metadata={
        "intent_hints": {
            "keywords": ["preço do café", "quanto custa a assinatura", "coffee subscription price"],
            "examples": ["quanto custa a assinatura de café?", "how much is the coffee subscription?"],
        },
        "policy": {"read_only": True},
    },
)
def coffee_price(intent: ExecutionIntent) -> DomainOutput:
    lang = language(intent)
    p = intent.parameters
    grind = str(p.get("grind") or "BEANS").upper()
    frequency = str(p.get("frequency") or "MONTHLY").upper()
    bags = read_number(p.get("bags"))
    if grind not in BAG_PRICE or frequency not in DISCOUNT:
        grind, frequency = "BEANS", "MONTHLY"
    if bags is None:
        return DomainOutput(
            status="success",
            result={"bag": BAG_PRICE, "discount": DISCOUNT},
            explanation=say(
                lang,
                f"Pacote de 250 g: R$ {BAG_PRICE['BEANS']:.0f} em grãos, R$ {BAG_PRICE['GROUND']:.0f} moído."
                " Desconto na assinatura: 15% semanal, 10% quinzenal, 5% mensal.",
                f"A 250 g bag: R$ {BAG_PRICE['BEANS']:.0f} whole beans, R$ {BAG_PRICE['GROUND']:.0f} ground."
                " Subscription discount: 15% weekly, 10% every two weeks, 5% monthly.",
            ),
        )
    n = int(bags)
    total = _total(grind, n, frequency)
    return DomainOutput(
        status="success",
        result={
            "grind": grind,
            "bags": n,
            "frequency": frequency,
            "per_delivery": {"amount": total, "currency": "BRL"},
        },
        explanation=say(
            lang,
            f"{n} pacote(s) {GRIND_PT[grind]}, {FREQ_PT[frequency]}: R$ {total:.2f} por entrega.",
            f"{n} bag(s), {GRIND_EN[grind]}, {FREQ_EN[frequency]}: R$ {total:.2f} a delivery.",
        ),
    )


_GRIND = {
    "type": "enum",
    "values": ["BEANS", "GROUND"],
    "description": {"pt": "Café em grãos ou moído", "en": "Whole beans or ground"},
    "synonyms": {
        "BEANS": [
            "em grãos",
            "em grão",
            "grãos",
            "grão",
            "café em grão",
            "whole bean",
            "whole beans",
            "beans",
        ],
        "GROUND": ["moído", "moida", "café moído", "pré-moído", "ground", "ground coffee", "pre-ground"],
    },
}
_BAGS = {"type": "number", "description": {"pt": "Quantos pacotes", "en": "How many bags"}}
_FREQ = {
    "type": "enum",
    "values": ["WEEKLY", "BIWEEKLY", "MONTHLY"],
    "description": {"pt": "De quanto em quanto tempo", "en": "How often"},
    "synonyms": {
        "WEEKLY": ["toda semana", "por semana", "semanal", "semanalmente", "every week", "weekly", "a week"],
        "BIWEEKLY": [
            "a cada 15 dias",
            "quinzenal",
            "de 15 em 15 dias",
            "a cada duas semanas",
            "every two weeks",
            "every other week",
            "biweekly",
            "fortnightly",
        ],
        "MONTHLY": ["todo mês", "por mês", "mensal", "mensalmente", "every month", "monthly", "a month"],
    },
}
_MODE = {
    "type": "enum",
    "values": ["SKIP", "PAUSE"],
    "description": {"pt": "Pular a próxima ou pausar", "en": "Skip the next one or pause"},
    "synonyms": {
        "SKIP": ["pular a próxima", "pula", "pular", "skip", "skip the next"],
        "PAUSE": ["pausar", "pausa", "dar uma pausa", "suspender", "pause", "put on hold", "on hold"],
    },
}
service.add_goal(
    {
        "goal": "SUBSCRIBE_COFFEE",
        "description": {"pt": "Fazer uma assinatura de café", "en": "Start a coffee subscription"},
        "entities_schema": {
            "grind": {**_GRIND, "required": True},
            "bags": {**_BAGS, "required": True},
            "frequency": _FREQ,
        },
        "capabilities": ["subscribe_coffee"],
        "examples": [
            ex(
                "quero assinar 2 pacotes de café em grãos por mês",
                bags="2 pacotes",
                grind="BEANS",
                frequency="MONTHLY",
            ),
            ex(
                "assina pra mim 3 pacotes de café moído toda semana",
                bags="3 pacotes",
                grind="GROUND",
                frequency="WEEKLY",
            ),
            ex(
                "assinatura de café moído, 1 pacote a cada 15 dias",
                grind="GROUND",
                bags="1 pacote",
                frequency="BIWEEKLY",
            ),
            ex(
                "subscribe me to 2 bags of whole bean coffee every month",
                bags="2 bags",
                grind="BEANS",
                frequency="MONTHLY",
            ),
            ex(
                "I'd like a coffee subscription, 4 bags of ground coffee weekly",
                bags="4 bags",
                grind="GROUND",
                frequency="WEEKLY",
            ),
        ],
    }
)
service.add_goal(
    {
        "goal": "SKIP_COFFEE_DELIVERY",
        "description": {
            "pt": "Pular a próxima entrega ou pausar a assinatura de café",
            "en": "Skip the next delivery or pause the coffee subscription",
        },
        "entities_schema": {
            "mode": _MODE,
            "resume_day": {
                "type": "date",
                "description": {"pt": "Até quando pausar", "en": "Pause until when"},
            },
        },
        "capabilities": ["skip_coffee_delivery"],
        "examples": [
            ex("pula a próxima entrega do café", mode="SKIP"),
            ex("pausa minha assinatura de café até dia 20", mode="PAUSE", resume_day="dia 20"),
            "não quero receber café esse mês",
            ex("skip my next coffee delivery", mode="SKIP"),
            ex("pause my coffee subscription until april 1st", mode="PAUSE", resume_day="april 1st"),
            "hold the next coffee shipment",
        ],
    }
)
service.add_goal(
    {
        "goal": "COFFEE_DELIVERY_STATUS",
        "description": {"pt": "A situação de uma entrega de café", "en": "The status of a coffee delivery"},
        "entities_schema": {
            "order_text": {
                "type": "string",
                "required": True,
                "description": {"pt": "O código do pedido", "en": "The order code"},
            }
        },
        "capabilities": ["coffee_delivery_status"],
        "examples": [
            ex("onde está a entrega de café CF7105?", order_text="CF7105"),
            ex("meu café do pedido CF7101 já chegou?", order_text="CF7101"),
            ex("track coffee delivery CF7105", order_text="CF7105"),
            ex("has my coffee order CF7110 shipped?", order_text="CF7110"),
        ],
    }
)
service.add_goal(
    {
        "goal": "COFFEE_PRICE",
        "description": {"pt": "Preço do café e da assinatura", "en": "Coffee and subscription prices"},
        "entities_schema": {"grind": _GRIND, "bags": _BAGS, "frequency": _FREQ},
        "capabilities": ["coffee_price"],
        "examples": [
            "qual o preço da assinatura de café?",
            ex(
                "quanto sai 2 pacotes de café moído por mês?",
                bags="2 pacotes",
                grind="GROUND",
                frequency="MONTHLY",
            ),
            "coffee subscription prices",
            ex(
                "how much are 3 bags of whole beans weekly?", bags="3 bags", grind="BEANS", frequency="WEEKLY"
            ),
        ],
    }
)

if __name__ == "__main__":
    serve(service)
