"""Tickets (round-7 bench domain): buy tickets for a show or a game, cancel a purchase, check prices.

Fake, deterministic, in memory. Run: ``python -m bench.understanding.round7.domains.tickets --port 8171``.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from datetime import timedelta
from typing import Any

from bench.understanding.round7.domains._common import (
    code_of,
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

#: the events on sale (canonical name <- other ways people write it)
EVENTS: dict[str, list[str]] = {
    "Coldplay – Music of the Spheres": ["Coldplay", "show do coldplay", "coldplay concert"],
    "Lollapalooza Brasil": ["Lollapalooza", "lolla", "lolla brasil"],
    "Palmeiras x Corinthians": [
        "Palmeiras x Corinthians",
        "Palmeiras e Corinthians",
        "Palmeiras vs Corinthians",
        "dérbi",
        "derby",
        "clássico",
    ],
    "O Fantasma da Ópera": ["Fantasma da Ópera", "fantasma da opera", "Phantom of the Opera", "Phantom"],
    "Fábio Porchat – stand-up": ["Porchat", "Fábio Porchat", "fabio porchat", "stand-up do Porchat"],
    "Ivete Sangalo": ["Ivete", "show da Ivete", "Ivete Sangalo"],
    "Cirque du Soleil – Ovo": ["Cirque du Soleil", "Cirque", "circo", "Ovo"],
    "Brasil x Argentina": [
        "Brasil x Argentina",
        "Brasil e Argentina",
        "jogo da seleção",
        "Brazil vs Argentina",
        "Brazil Argentina game",
    ],
    "Metallica": ["Metallica", "show do Metallica"],
}
SECTIONS = ["FLOOR", "VIP", "SEATED"]
SECTION_SYNONYMS: dict[str, list[str]] = {
    "FLOOR": ["pista", "pista comum", "floor", "general admission", "GA", "standing"],
    "VIP": ["vip", "pista premium", "camarote", "premium", "front stage", "box"],
    "SEATED": [
        "cadeira",
        "cadeiras",
        "arquibancada",
        "assento",
        "lugar marcado",
        "numerada",
        "seated",
        "seats",
        "stands",
        "bleachers",
    ],
}
SECTION_NAMES = {
    "FLOOR": ("pista", "floor"),
    "VIP": ("VIP/camarote", "VIP"),
    "SEATED": ("cadeira", "seated"),
}
#: dates, and price in BRL per section (an absent section is not sold for the event)
SHOWS: dict[str, tuple[list[str], dict[str, int]]] = {
    "Coldplay – Music of the Spheres": (
        ["2026-03-14", "2026-03-15"],
        {"FLOOR": 450, "VIP": 980, "SEATED": 320},
    ),
    "Lollapalooza Brasil": (["2026-03-20", "2026-03-21", "2026-03-22"], {"FLOOR": 890, "VIP": 1900}),
    "Palmeiras x Corinthians": (["2026-03-15"], {"SEATED": 120, "VIP": 400}),
    "O Fantasma da Ópera": (
        [f"2026-03-{d:02d}" for d in (11, 12, 13, 14, 15, 18, 19, 20, 21, 22)],
        {"SEATED": 180, "VIP": 350},
    ),
    "Fábio Porchat – stand-up": (["2026-03-13"], {"SEATED": 90}),
    "Ivete Sangalo": (["2026-03-21"], {"FLOOR": 220, "VIP": 480}),
    "Cirque du Soleil – Ovo": (
        [f"2026-03-{d:02d}" for d in range(12, 30) if d not in (16, 23)],
        {"SEATED": 260, "VIP": 590},
    ),
    "Brasil x Argentina": (["2026-03-26"], {"SEATED": 250, "VIP": 900}),
    "Metallica": (["2026-04-02"], {"FLOOR": 520, "VIP": 1200}),
}
SOLD_OUT = {"Metallica"}
MAX_TICKETS = 6
CANCEL_HOURS = 48


@dataclass
class Purchase:
    code: str
    event: str
    day: str
    quantity: int
    section: str
    total_brl: float
    refundable: bool = True

    def describe(self, lang: str = "pt") -> str:
        name = SECTION_NAMES[self.section][0 if lang == "pt" else 1]
        return f"{self.code}: {self.quantity} × {self.event}, {self.day}, {name}, R$ {self.total_brl:.2f}"


PURCHASES: dict[str, Purchase] = {
    p.code: p
    for p in (
        Purchase("TK4821", "Coldplay – Music of the Spheres", "2026-03-14", 2, "FLOOR", 900),
        Purchase("TK4830", "Fábio Porchat – stand-up", "2026-03-13", 1, "SEATED", 90),
        Purchase("TK4855", "Palmeiras x Corinthians", "2026-03-15", 4, "SEATED", 480),
        Purchase("TK4842", "O Fantasma da Ópera", "2026-03-11", 2, "SEATED", 360),  # tomorrow: too late
        Purchase("TK4790", "Anitta", "2026-03-07", 2, "FLOOR", 300),  # over
        Purchase("TK4866", "Lollapalooza Brasil", "2026-03-20", 2, "FLOOR", 1780, refundable=False),
    )
}
_next_code = [5000]

service = DomainService(
    "tickets",
    "0.1.0",
    {
        "pt": "Ingressos de shows, peças e jogos: comprar, cancelar uma compra e ver preços",
        "en": "Tickets for concerts, shows and games: buy, cancel a purchase and check prices",
    },
)


def _section(value: object) -> str | None:
    text = str(value or "").strip().upper()
    return text if text in SECTIONS else None


def _event(lang: str, value: object) -> str | DomainOutput:
    event = resolve_loose(value, EVENTS)
    if event is not None:
        return event
    return clarify(
        say(
            lang,
            f"Não achei o evento “{value}”. Qual destes?",
            f"I couldn't find the event “{value}”. Which of these?",
        ),
        [option(name, name, aliases=aliases) for name, aliases in EVENTS.items()],
        param="event_text",
        metadata={"resolution": "unknown_event"},
    )


WEEKDAYS = (
    ("segunda", "monday"),
    ("terça", "tuesday"),
    ("quarta", "wednesday"),
    ("quinta", "thursday"),
    ("sexta", "friday"),
    ("sábado", "saturday"),
    ("domingo", "sunday"),
)


def _day_label(lang: str, iso: str) -> str:
    day = read_day(iso) or today()
    name = WEEKDAYS[day.weekday()][0 if lang == "pt" else 1]
    return f"{name} {day.day:02d}/{day.month:02d}"


def _day_aliases(iso: str) -> list[str]:
    day = read_day(iso) or today()
    pt, en = WEEKDAYS[day.weekday()]
    return [pt, en, f"dia {day.day}", f"the {day.day}th", f"{day.day:02d}/{day.month:02d}"]


def _prices(lang: str, event: str) -> str:
    _days, prices = SHOWS[event]
    return ", ".join(
        f"{SECTION_NAMES[s][0 if lang == 'pt' else 1]} R$ {price:.2f}" for s, price in prices.items()
    )


@service.capability(
    "buy_tickets",
    {"pt": "Compra ingressos para um evento", "en": "Buy tickets for an event"},
    parameters={
        "type": "object",
        "properties": {
            "event_text": {"type": "string", "minLength": 1},
            "quantity": {"type": "number", "exclusiveMinimum": 0},
            "section": {"type": "string", "enum": SECTIONS},
            "day": {"type": "string", "pattern": "^\\d{4}-\\d{2}-\\d{2}$"},
            "half_price": {"type": "boolean"},
        },
        "required": ["event_text", "quantity", "section"],
    },
    metadata={
        "intent_hints": {
            "keywords": ["ingresso", "ingressos", "comprar ingresso", "tickets", "buy tickets"],
            "examples": ["quero ingresso pro show", "get me tickets for the game"],
        },
        "policy": {"confirm": True, "idempotent": False},
    },
)
def buy_tickets(intent: ExecutionIntent) -> DomainOutput:
    lang = language(intent)
    p = intent.parameters
    event = _event(lang, p.get("event_text"))
    if isinstance(event, DomainOutput):
        return event
    raw = p.get("quantity")
    quantity = int(raw) if isinstance(raw, int | float) and not isinstance(raw, bool) else read_number(raw)
    section = _section(p.get("section"))
    if not quantity or quantity <= 0 or section is None:
        return fail(
            say(lang, "Quantos e em qual setor?", "How many, and which section?"), "missing_parameter"
        )
    days, prices = SHOWS[event]
    if event in SOLD_OUT:
        return fail(say(lang, f"{event}: esgotado.", f"{event}: sold out."), "sold_out")
    if section not in prices:
        first = next(iter(prices))
        return fail(
            say(
                lang,
                f"{event} não tem esse setor; setores: {_prices(lang, event)}.",
                f"{event} has no such section; sections: {_prices(lang, event)}.",
            ),
            "no_such_section",
            recoverable=True,
            suggestions=[{"section": first}],
        )
    if quantity > MAX_TICKETS:
        return fail(
            say(
                lang,
                f"No máximo {MAX_TICKETS} ingressos por compra.",
                f"At most {MAX_TICKETS} tickets per purchase.",
            ),
            "too_many",
            recoverable=True,
            suggestions=[{"quantity": MAX_TICKETS}],
        )
    day = read_day(p.get("day"))
    if day is None:
        coming = [d for d in days if (read_day(d) or today()) >= today()]
        if len(coming) == 1:
            day = read_day(coming[0])
        else:
            return clarify(
                say(
                    lang,
                    f"{event} tem mais de uma data. Qual?",
                    f"{event} has more than one date. Which one?",
                ),
                [option(d, _day_label(lang, d), aliases=_day_aliases(d)) for d in coming[:8]],
                param="day",
                metadata={"resolution": "which_date"},
            )
    assert day is not None
    if day < today():
        return fail(say(lang, "Essa data já passou.", "That date has passed."), "past_day")
    if day.isoformat() not in days:
        later = [d for d in days if d >= day.isoformat()]
        return fail(
            say(
                lang,
                f"{event} não tem sessão em {day.isoformat()}; datas: {', '.join(days)}.",
                f"{event} is not on {day.isoformat()}; dates: {', '.join(days)}.",
            ),
            "no_show_that_day",
            recoverable=bool(later),
            suggestions=[{"day": later[0]}] if later else None,
        )
    half = bool(p.get("half_price"))
    if half and section == "VIP":
        return fail(
            say(lang, "Meia-entrada não vale para VIP/camarote.", "Half price is not sold for VIP."),
            "no_half_price",
            recoverable=True,
            suggestions=[{"half_price": False}],
        )
    total = prices[section] * quantity * (0.5 if half else 1)
    _next_code[0] += 1
    purchase = Purchase(f"TK{_next_code[0]}", event, day.isoformat(), quantity, section, total)
    PURCHASES[purchase.code] = purchase
    return DomainOutput(
        status="success",
        result=asdict(purchase) | {"half_price": half},
        explanation=say(
            lang,
            f"Compra feita — {purchase.describe(lang)}. Código {purchase.code}.",
            f"Purchased — {purchase.describe(lang)}. Your code is {purchase.code}.",
        ),
    )


@service.capability(
    "cancel_tickets",
    {"pt": "Cancela uma compra de ingressos", "en": "Cancel a ticket purchase"},
    parameters={
        "type": "object",
        "properties": {"purchase_code_text": {"type": "string", "minLength": 1}},
        "required": ["purchase_code_text"],
    },
    metadata={
        "intent_hints": {
            "keywords": ["cancelar ingresso", "cancelar compra", "cancel tickets", "refund tickets"]
        },
        "policy": {"confirm": True, "idempotent": False},
    },
)
def cancel_tickets(intent: ExecutionIntent) -> DomainOutput:
    lang = language(intent)
    code = code_of(intent.parameters.get("purchase_code_text"), "TK")
    purchase = PURCHASES.get(code)
    if purchase is None:
        return fail(say(lang, f"Não achei a compra {code}.", f"No purchase {code}."), "purchase_not_found")
    day = read_day(purchase.day) or today()
    if day < today():
        return fail(
            say(lang, f"O evento da compra {code} já passou.", f"The event of {code} is over."), "over"
        )
    if day - today() < timedelta(hours=CANCEL_HOURS):
        return fail(
            say(
                lang,
                f"Só cancelamos até {CANCEL_HOURS} horas antes do evento; {code} é em {purchase.day}.",
                f"Purchases can be cancelled up to {CANCEL_HOURS} hours before the event; "
                f"{code} is on {purchase.day}.",
            ),
            "too_late",
        )
    if not purchase.refundable:
        return fail(
            say(
                lang,
                f"A compra {code} é promocional e não tem cancelamento.",
                f"{code} was a non-refundable deal.",
            ),
            "non_refundable",
        )
    PURCHASES.pop(code)
    return DomainOutput(
        status="success",
        result={"code": code, "cancelled": True, "refund_brl": purchase.total_brl},
        explanation=say(
            lang,
            f"Compra cancelada — {purchase.describe(lang)}; o reembolso sai em até 7 dias.",
            f"Cancelled — {purchase.describe(lang)}; the refund takes up to 7 days.",
        ),
    )


@service.capability(
    "ticket_availability",
    {"pt": "Mostra datas, setores e preços de um evento", "en": "Show an event's dates, sections and prices"},
    parameters={
        "type": "object",
        "properties": {
            "event_text": {"type": "string", "minLength": 1},
            "day": {"type": "string", "pattern": "^\\d{4}-\\d{2}-\\d{2}$"},
            "section": {"type": "string", "enum": SECTIONS},
        },
        "required": ["event_text"],
    },
    metadata={
        "intent_hints": {
            "keywords": [
                "quanto custa o ingresso",
                "tem ingresso",
                "preço do ingresso",
                "ticket price",
                "tickets left",
            ]
        },
        "policy": {"read_only": True},
    },
)
def ticket_availability(intent: ExecutionIntent) -> DomainOutput:
    lang = language(intent)
    p = intent.parameters
    event = _event(lang, p.get("event_text"))
    if isinstance(event, DomainOutput):
        return event
    days, prices = SHOWS[event]
    day = read_day(p.get("day"))
    if event in SOLD_OUT:
        text = say(lang, f"{event} ({', '.join(days)}): esgotado.", f"{event} ({', '.join(days)}): sold out.")
    elif day is not None and day.isoformat() not in days:
        text = say(
            lang,
            f"{event} não tem sessão em {day.isoformat()}; datas: {', '.join(days)}.",
            f"{event} is not on {day.isoformat()}; dates: {', '.join(days)}.",
        )
    else:
        when = day.isoformat() if day else ", ".join(days)
        text = say(
            lang,
            f"{event} ({when}): {_prices(lang, event)}. Meia-entrada em pista e cadeira.",
            f"{event} ({when}): {_prices(lang, event)}. Half price on floor and seated.",
        )
    return DomainOutput(
        status="success",
        result={"event": event, "dates": days, "prices_brl": prices, "sold_out": event in SOLD_OUT},
        explanation=text,
    )


EVENT_ENTITY: dict[str, Any] = {
    "type": "string",
    "required": True,
    "description": {"pt": "O evento", "en": "The event"},
    "lookup": lookup_spec(EVENTS),
}
SECTION_ENTITY: dict[str, Any] = {
    "type": "enum",
    "values": SECTIONS,
    "synonyms": SECTION_SYNONYMS,
    "description": {"pt": "O setor (pista, VIP ou cadeira)", "en": "The section (floor, VIP or seated)"},
}
DAY_ENTITY: dict[str, Any] = {"type": "date", "description": {"pt": "A data do evento", "en": "The date"}}

service.add_goal(
    {
        "goal": "BUY_TICKETS",
        "description": {"pt": "Comprar ingressos para um evento", "en": "Buy tickets for an event"},
        "entities_schema": {
            "event_text": EVENT_ENTITY,
            "quantity": {
                "type": "number",
                "required": True,
                "description": {"pt": "Quantos ingressos", "en": "How many tickets"},
            },
            "section": SECTION_ENTITY | {"required": True},
            "day": DAY_ENTITY,
            "half_price": {
                "type": "boolean",
                "description": {"pt": "Meia-entrada", "en": "Half price (student)"},
                "synonyms": {
                    "true": ["meia", "meia-entrada", "meia entrada", "half price", "half-price", "student"]
                },
            },
        },
        "capabilities": ["buy_tickets"],
        "examples": [
            ex(
                "compra 2 ingressos de pista pro Coldplay no sábado",
                quantity="2 ingressos",
                section="FLOOR",
                event_text="Coldplay",
                day="sábado",
            ),
            ex("quero 4 cadeiras pro dérbi", quantity="4", section="SEATED", event_text="dérbi"),
            ex(
                "garante 1 ingresso meia pro Porchat sexta",
                quantity="1 ingresso",
                half_price=True,
                event_text="Porchat",
                day="sexta",
            ),
            ex(
                "compra três ingressos camarote pra Ivete",
                quantity="três ingressos",
                section="VIP",
                event_text="Ivete",
            ),
            ex(
                "buy 2 floor tickets for Coldplay on Sunday",
                quantity="2",
                section="FLOOR",
                event_text="Coldplay",
                day="Sunday",
            ),
            ex(
                "get me 3 seats for the Cirque du Soleil on Thursday",
                quantity="3",
                section="SEATED",
                event_text="Cirque du Soleil",
                day="Thursday",
            ),
            ex(
                "I want four VIP tickets for Brazil vs Argentina",
                quantity="four",
                section="VIP",
                event_text="Brazil vs Argentina",
            ),
        ],
    }
)
service.add_goal(
    {
        "goal": "CANCEL_TICKETS",
        "description": {"pt": "Cancelar uma compra de ingressos", "en": "Cancel a ticket purchase"},
        "entities_schema": {
            "purchase_code_text": {
                "type": "string",
                "required": True,
                "description": {"pt": "O código da compra", "en": "The purchase code"},
            }
        },
        "capabilities": ["cancel_tickets"],
        "examples": [
            ex("cancela a compra TK4821", purchase_code_text="TK4821"),
            ex("não vou mais, cancela os ingressos TK4855", purchase_code_text="TK4855"),
            ex("cancel my tickets TK4830", purchase_code_text="TK4830"),
            ex("please cancel purchase TK4821, I can't go", purchase_code_text="TK4821"),
        ],
    }
)
service.add_goal(
    {
        "goal": "TICKET_AVAILABILITY",
        "description": {
            "pt": "Datas, setores e preços de ingressos de um evento",
            "en": "An event's dates, sections and ticket prices",
        },
        "entities_schema": {"event_text": EVENT_ENTITY, "day": DAY_ENTITY, "section": SECTION_ENTITY},
        "capabilities": ["ticket_availability"],
        "examples": [
            ex("quanto tá o ingresso do Coldplay?", event_text="Coldplay"),
            ex("ainda tem ingresso pro Lolla no sábado?", event_text="Lolla", day="sábado"),
            ex("qual o preço da pista premium da Ivete?", section="VIP", event_text="Ivete"),
            ex("how much are tickets for the Phantom of the Opera?", event_text="Phantom of the Opera"),
            ex("are there seats left for the derby?", section="SEATED", event_text="derby"),
        ],
    }
)

if __name__ == "__main__":
    serve(service)
