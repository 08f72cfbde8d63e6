"""Swimming-pool maintenance (round-21 bench domain): book a cleaning visit on a day and time for
a pool size (chemical treatment optional), check a visit's status and cancel it by its code, and
quote prices.

Fake, deterministic, in memory; the company serves one household (no address is asked).
Run: ``python -m bench.understanding.round21.domains.pool_service --port 8941``.
"""

from __future__ import annotations

from datetime import date, timedelta

from bench.understanding.round21.domains._common import (
    ex,
    hhmm,
    language,
    norm_code,
    read_day,
    say,
    today,
)
from sdk.service import DomainService, fail, serve
from shared.models import DomainOutput, ExecutionIntent

#: price of a cleaning visit per pool size (BRL)
PRICES = {"SMALL": 150.0, "MEDIUM": 220.0, "LARGE": 320.0}
#: chemical treatment (shock, pH and algaecide) added to a visit (BRL)
CHEMICALS = 80.0
#: visits Monday to Saturday, first start 08:00, last start 16:00
OPEN, LAST = 8, 16
SIZE_PT = {"SMALL": "pequena", "MEDIUM": "média", "LARGE": "grande"}
SIZE_EN = {"SMALL": "small", "MEDIUM": "medium", "LARGE": "large"}
#: visits (code -> day, time, size, chemicals, state)
VISITS: dict[str, tuple[date, str, str, bool, str]] = {
    "PS4101": (date(2026, 3, 12), "09:00", "MEDIUM", True, "scheduled"),
    "PS4105": (date(2026, 3, 6), "14:00", "LARGE", False, "done"),
    "PS4110": (date(2026, 3, 13), "10:00", "SMALL", False, "cancelled"),
    "PS4114": (date(2026, 3, 10), "15:00", "MEDIUM", True, "scheduled"),
}
_next = [4200]
STATE = {
    "scheduled": ("agendada", "scheduled"),
    "done": ("concluída", "done"),
    "cancelled": ("cancelada", "cancelled"),
}

service = DomainService(
    "pool_service",
    "0.1.0",
    {
        "pt": "Manutenção de piscinas: agendar limpeza, status e cancelamento de visitas, preços",
        "en": "Pool maintenance: book a cleaning visit, visit status and cancellation, prices",
    },
)


def _price(size: str, chemicals: bool) -> float:
    return PRICES[size] + (CHEMICALS if chemicals else 0.0)


@service.capability(
    "book_pool_cleaning",
    {
        "pt": "Agenda uma visita de limpeza da piscina num dia e horário, pelo tamanho da piscina;"
        " tratamento químico só quando pedido",
        "en": "Book a pool cleaning visit on a day and time, priced by pool size;"
        " chemical treatment only when asked for",
    },
    parameters={
        "type": "object",
        "properties": {
            "day": {"type": "string", "pattern": "^\\d{4}-\\d{2}-\\d{2}$"},
            "time": {"type": "string", "pattern": "^\\d{2}:\\d{2}$"},
            "pool_size": {"type": "string", "enum": ["SMALL", "MEDIUM", "LARGE"]},
            "chemical_treatment": {"type": "boolean"},
        },
        "required": ["day", "time", "pool_size"],
    },
    metadata={
        "intent_hints": {
            "keywords": ["limpeza de piscina", "limpar a piscina", "pool cleaning", "clean the pool"],
            "examples": ["quero agendar uma limpeza de piscina", "book a pool cleaning"],
        },
        "policy": {"confirm": True, "idempotent": False},
    },
)
def book_pool_cleaning(intent: ExecutionIntent) -> DomainOutput:
    lang = language(intent)
    p = intent.parameters
    day = read_day(p.get("day"))
    at = hhmm(p.get("time")) if p.get("time") else None
    size = str(p.get("pool_size") or "").upper()
    if day is None or at is None or size not in PRICES:
        return fail(say(lang, "Faltam dados da visita.", "Visit details are missing."), "missing_parameter")
    if day < today():
        return fail(say(lang, "Esse dia já passou.", "That day is past."), "past_day")
    if day.weekday() == 6:
        return fail(
            say(lang, "Não fazemos visitas aos domingos.", "We do not visit on Sundays."),
            "closed_day",
            recoverable=True,
            suggestions=[{"day": (day + timedelta(days=1)).isoformat()}],
        )
    if not OPEN <= at[0] <= LAST:
        return fail(
            say(
                lang,
                f"As visitas começam entre {OPEN}h e {LAST}h.",
                f"Visits start between {OPEN}:00 and {LAST}:00.",
            ),
            "outside_hours",
            recoverable=True,
            suggestions=[{"time": f"{OPEN:02d}:00" if at[0] < OPEN else f"{LAST:02d}:00"}],
        )
    chemicals = bool(p.get("chemical_treatment"))
    price = _price(size, chemicals)
    _next[0] += 1
    code = f"PS{_next[0]}"
    when = f"{at[0]:02d}:{at[1]:02d}"
    VISITS[code] = (day, when, size, chemicals, "scheduled")
    return DomainOutput(
        status="success",
        result={
            "code": code,
            "day": day.isoformat(),
            "time": when,
            "pool_size": size,
            "chemical_treatment": chemicals,
            "total": {"amount": price, "currency": "BRL"},
        },
        explanation=say(
            lang,
            f"Visita {code}: limpeza de piscina {SIZE_PT[size]}, {day:%d/%m} às {when}"
            f"{', com tratamento químico' if chemicals else ''}. Total R$ {price:.2f}.",
            f"Visit {code}: {SIZE_EN[size]} pool cleaning, {day:%b %d} at {when}"
            f"{', chemical treatment included' if chemicals else ''}. Total R$ {price:.2f}.",
        ),
    )


@service.capability(
    "pool_visit_status",
    {"pt": "Informa a situação de uma visita à piscina", "en": "Tell the status of a pool visit"},
    parameters={
        "type": "object",
        "properties": {"visit_text": {"type": "string", "minLength": 1}},
        "required": ["visit_text"],
    },
    metadata={
        "intent_hints": {
            "keywords": ["status da visita", "visita da piscina", "pool visit status"],
            "examples": ["como está a visita da piscina?", "what's the status of my pool visit?"],
        },
        "policy": {"read_only": True},
    },
)
def pool_visit_status(intent: ExecutionIntent) -> DomainOutput:
    lang = language(intent)
    code = norm_code(intent.parameters.get("visit_text"))
    visit = VISITS.get(code)
    if visit is None:
        return fail(say(lang, f"Não achei a visita {code}.", f"No visit {code}."), "not_found")
    day, when, size, _chemicals, state = visit
    pt, en = STATE[state]
    return DomainOutput(
        status="success",
        result={"code": code, "day": day.isoformat(), "time": when, "pool_size": size, "state": state},
        explanation=say(
            lang,
            f"Visita {code} ({day:%d/%m} às {when}): {pt}.",
            f"Visit {code} ({day:%b %d} at {when}): {en}.",
        ),
    )


@service.capability(
    "cancel_pool_visit",
    {"pt": "Cancela uma visita de limpeza da piscina", "en": "Cancel a pool cleaning visit"},
    parameters={
        "type": "object",
        "properties": {"visit_text": {"type": "string", "minLength": 1}},
        "required": ["visit_text"],
    },
    metadata={
        "intent_hints": {
            "keywords": ["cancelar limpeza da piscina", "cancel pool cleaning"],
            "examples": ["quero cancelar a limpeza da piscina", "cancel my pool cleaning visit"],
        },
        "policy": {"confirm": True, "idempotent": False},
    },
)
def cancel_pool_visit(intent: ExecutionIntent) -> DomainOutput:
    lang = language(intent)
    code = norm_code(intent.parameters.get("visit_text"))
    visit = VISITS.get(code)
    if visit is None:
        return fail(say(lang, f"Não achei a visita {code}.", f"No visit {code}."), "not_found")
    day, when, size, chemicals, state = visit
    if state != "scheduled":
        pt, en = STATE[state]
        return fail(
            say(lang, f"A visita {code} já está {pt}.", f"Visit {code} is already {en}."), "not_cancellable"
        )
    if day <= today():
        return fail(
            say(lang, "Visitas de hoje não podem ser canceladas.", "Same-day visits cannot be cancelled."),
            "too_late",
        )
    VISITS[code] = (day, when, size, chemicals, "cancelled")
    return DomainOutput(
        status="success",
        result={"code": code, "day": day.isoformat(), "state": "cancelled"},
        explanation=say(
            lang,
            f"Visita {code} ({day:%d/%m} às {when}) cancelada.",
            f"Visit {code} ({day:%b %d} at {when}) cancelled.",
        ),
    )


@service.capability(
    "pool_service_price",
    {
        "pt": "Informa o preço da limpeza de piscina por tamanho e do tratamento químico",
        "en": "Quote the pool cleaning price per pool size and the chemical treatment",
    },
    parameters={
        "type": "object",
        "properties": {
            "pool_size": {"type": "string", "enum": ["SMALL", "MEDIUM", "LARGE"]},
            "chemical_treatment": {"type": "boolean"},
        },
    },
    metadata={
        "intent_hints": {
            "keywords": ["preço da limpeza de piscina", "quanto custa limpar piscina", "pool cleaning price"],
            "examples": ["quanto custa a limpeza da piscina?", "how much is a pool cleaning?"],
        },
        "policy": {"read_only": True},
    },
)
def pool_service_price(intent: ExecutionIntent) -> DomainOutput:
    lang = language(intent)
    p = intent.parameters
    size = str(p.get("pool_size") or "").upper()
    chemicals = bool(p.get("chemical_treatment"))
    if size not in PRICES:
        listing_pt = ", ".join(f"{SIZE_PT[k]} R$ {v:.0f}" for k, v in PRICES.items())
        listing_en = ", ".join(f"{SIZE_EN[k]} R$ {v:.0f}" for k, v in PRICES.items())
        return DomainOutput(
            status="success",
            result={"prices": PRICES, "chemical_treatment": CHEMICALS},
            explanation=say(
                lang,
                f"Limpeza por tamanho: {listing_pt}. Tratamento químico + R$ {CHEMICALS:.0f}.",
                f"Cleaning by size: {listing_en}. Chemical treatment + R$ {CHEMICALS:.0f}.",
            ),
        )
    total = _price(size, chemicals)
    return DomainOutput(
        status="success",
        result={
            "pool_size": size,
            "chemical_treatment": chemicals,
            "total": {"amount": total, "currency": "BRL"},
        },
        explanation=say(
            lang,
            f"Limpeza de piscina {SIZE_PT[size]}{' com tratamento químico' if chemicals else ''}:"
            f" R$ {total:.0f}.",
            f"{SIZE_EN[size].capitalize()} pool cleaning{' with chemical treatment' if chemicals else ''}:"
            f" R$ {total:.0f}.",
        ),
    )


_SIZE = {
    "type": "enum",
    "values": ["SMALL", "MEDIUM", "LARGE"],
    "description": {"pt": "O tamanho da piscina", "en": "The pool size"},
    "synonyms": {
        "SMALL": ["piscina pequena", "pequena", "small", "small pool", "piscininha", "tiny pool"],
        "MEDIUM": ["piscina média", "média", "media", "medium", "medium pool", "mid-size", "medium-sized"],
        "LARGE": ["piscina grande", "grande", "large", "large pool", "big pool", "olímpica"],
    },
}
_CHEM = {
    "type": "boolean",
    "description": {"pt": "Com tratamento químico", "en": "With chemical treatment"},
    "synonyms": {
        "true": [
            "tratamento químico",
            "com tratamento",
            "com produto químico",
            "com cloro",
            "tratamento da água",
            "chemical treatment",
            "chemicals",
            "shock treatment",
            "with chlorine",
            "water treatment",
        ]
    },
}
_VISIT = {
    "type": "string",
    "required": True,
    "description": {"pt": "O código da visita", "en": "The visit code"},
}
service.add_goal(
    {
        "goal": "BOOK_POOL_CLEANING",
        "description": {"pt": "Agendar uma limpeza de piscina", "en": "Book a pool cleaning visit"},
        "entities_schema": {
            "day": {
                "type": "date",
                "required": True,
                "description": {"pt": "O dia da visita", "en": "The visit day"},
            },
            "time": {"type": "time", "required": True, "description": {"pt": "O horário", "en": "The time"}},
            "pool_size": {**_SIZE, "required": True},
            "chemical_treatment": _CHEM,
        },
        "capabilities": ["book_pool_cleaning"],
        "examples": [
            ex(
                "agenda limpeza da piscina grande sexta às 9h",
                pool_size="LARGE",
                day="sexta",
                time="às 9h",
            ),
            ex(
                "quero uma limpeza de piscina pequena amanhã 14h com tratamento químico",
                pool_size="SMALL",
                day="amanhã",
                time="14h",
                chemical_treatment=True,
            ),
            ex("limpeza de piscina média sábado às 10h", pool_size="MEDIUM", day="sábado", time="às 10h"),
            ex(
                "book a pool cleaning for my medium pool on thursday at 11am",
                pool_size="MEDIUM",
                day="thursday",
                time="at 11am",
            ),
            ex(
                "can someone clean my large pool tomorrow at 3pm with chemical treatment",
                pool_size="LARGE",
                day="tomorrow",
                time="at 3pm",
                chemical_treatment=True,
            ),
        ],
    }
)
service.add_goal(
    {
        "goal": "POOL_VISIT_STATUS",
        "description": {"pt": "A situação de uma visita à piscina", "en": "The status of a pool visit"},
        "entities_schema": {"visit_text": _VISIT},
        "capabilities": ["pool_visit_status"],
        "examples": [
            ex("status da visita PS4101", visit_text="PS4101"),
            ex("a limpeza da piscina PS4105 já foi feita?", visit_text="PS4105"),
            ex("status of pool visit PS4101", visit_text="PS4101"),
            ex("has pool visit PS4105 been done yet?", visit_text="PS4105"),
        ],
    }
)
service.add_goal(
    {
        "goal": "CANCEL_POOL_VISIT",
        "description": {
            "pt": "Cancelar uma visita de limpeza da piscina",
            "en": "Cancel a pool cleaning visit",
        },
        "entities_schema": {"visit_text": _VISIT},
        "capabilities": ["cancel_pool_visit"],
        "examples": [
            ex("cancela a visita da piscina PS4101", visit_text="PS4101"),
            ex("quero cancelar a limpeza PS4114", visit_text="PS4114"),
            ex("cancel pool visit PS4101", visit_text="PS4101"),
            ex("please cancel the pool cleaning PS4114", visit_text="PS4114"),
        ],
    }
)
service.add_goal(
    {
        "goal": "POOL_SERVICE_PRICE",
        "description": {"pt": "Preço da limpeza de piscina", "en": "Pool cleaning prices"},
        "entities_schema": {"pool_size": _SIZE, "chemical_treatment": _CHEM},
        "capabilities": ["pool_service_price"],
        "examples": [
            "quanto custa a limpeza de piscina?",
            ex(
                "qual o preço pra limpar uma piscina grande com tratamento químico?",
                pool_size="LARGE",
                chemical_treatment=True,
            ),
            "pool cleaning prices",
            ex("how much to clean a small pool?", pool_size="SMALL"),
        ],
    }
)

if __name__ == "__main__":
    serve(service)
