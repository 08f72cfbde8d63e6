"""Locksmith (round-17 bench domain): a call-out to an address, urgent or on a day, the price of
copying keys, the status of a job by its code.

Fake, deterministic, in memory.
Run: ``python -m bench.understanding.round17.domains.locksmith --port 8902``.
"""

from __future__ import annotations

from datetime import date, timedelta
from typing import Any

from bench.understanding.round17.domains._common import (
    ex,
    hhmm,
    language,
    norm_code,
    read_day,
    read_number,
    resolve_name,
    say,
    table,
    today,
)
from sdk.service import DomainService, fail, serve
from shared.models import DomainOutput, ExecutionIntent

#: keys (canonical value <- aliases)
KEYS: dict[str, list[str]] = {
    "Chave comum": [
        "chave comum",
        "chave simples",
        "chave normal",
        "chave de casa",
        "regular key",
        "house key",
        "house keys",
    ],
    "Chave tetra": ["chave tetra", "tetra", "chaves tetra", "security key", "tetra key"],
    "Chave de carro": [
        "chave de carro",
        "chave do carro",
        "chave codificada",
        "car key",
        "car keys",
        "transponder key",
    ],
    "Chave de cadeado": ["chave de cadeado", "cadeado", "padlock key", "padlock"],
    "Controle de portão": ["controle de portão", "controle do portão", "gate remote", "gate opener"],
}
KEY_PRICES: dict[str, float] = {
    "Chave comum": 15,
    "Chave tetra": 45,
    "Chave de carro": 180,
    "Chave de cadeado": 12,
    "Controle de portão": 90,
}
#: service (enum value <- synonyms; the first of each language is the label)
SERVICES: dict[str, list[str]] = {
    "LOCKOUT": [
        "abrir a porta",
        "abertura de porta",
        "porta trancada",
        "trancado pra fora",
        "trancada pra fora",
        "open the door",
        "locked out",
        "lockout",
    ],
    "LOCK_CHANGE": [
        "trocar a fechadura",
        "troca de fechadura",
        "fechadura nova",
        "trocar fechadura",
        "change the lock",
        "lock change",
        "new lock",
        "replace the lock",
    ],
    "CAR_OPENING": ["abrir o carro", "carro trancado", "abertura de carro", "open my car", "car lockout"],
    "SAFE": ["abrir cofre", "cofre", "open a safe", "safe"],
}
LABEL = {
    "LOCKOUT": ("abertura de porta", "door opening"),
    "LOCK_CHANGE": ("troca de fechadura", "lock change"),
    "CAR_OPENING": ("abertura de carro", "car opening"),
    "SAFE": ("abertura de cofre", "safe opening"),
}
SERVICE_PRICES = {"LOCKOUT": 150.0, "LOCK_CHANGE": 220.0, "CAR_OPENING": 200.0, "SAFE": 350.0}
URGENCY: dict[str, list[str]] = {
    "URGENT": [
        "urgente",
        "urgência",
        "emergência",
        "o quanto antes",
        "asap",
        "urgent",
        "emergency",
        "right away",
    ],
    "SCHEDULED": ["agendado", "com hora marcada", "scheduled", "by appointment"],
}
URGENT_FEE = 80.0
#: jobs (code -> service, address, day, state)
JOBS: dict[str, tuple[str, str, date, str]] = {
    "LK5101": ("LOCKOUT", "Rua Augusta 1200", date(2026, 3, 10), "on_the_way"),
    "LK5105": ("LOCK_CHANGE", "Av. Paulista 900", date(2026, 3, 12), "scheduled"),
    "LK5110": ("CAR_OPENING", "Rua Harmonia 300", date(2026, 3, 9), "done"),
    "LK5114": ("SAFE", "Rua Oscar Freire 45", date(2026, 3, 11), "cancelled"),
}
STATES = {
    "on_the_way": ("chaveiro a caminho", "locksmith on the way"),
    "scheduled": ("agendado", "scheduled"),
    "done": ("concluído", "done"),
    "cancelled": ("cancelado", "cancelled"),
}
_next = [5200]

service = DomainService(
    "locksmith",
    "0.1.0",
    {
        "pt": "Chaveiro: chamar um chaveiro num endereço, preço de cópia de chaves, status de um atendimento",
        "en": "Locksmith: call a locksmith to an address, price of key copies, status of a job",
    },
)


@service.capability(
    "request_locksmith",
    {
        "pt": (
            "Chama um chaveiro a um endereço, com urgência (hoje, em até 1 hora) ou no dia marcado "
            "(sem dia e sem urgência: no próximo dia útil; abertura de porta se não disser o serviço)"
        ),
        "en": (
            "Call a locksmith to an address, urgently (today, within an hour) or on a set day "
            "(with neither: the next working day; a door opening unless the service is said)"
        ),
    },
    parameters={
        "type": "object",
        "properties": {
            "address_text": {"type": "string", "minLength": 1},
            "urgency": {"type": "string", "enum": list(URGENCY)},
            "day": {"type": "string", "pattern": "^\\d{4}-\\d{2}-\\d{2}$"},
            "time": {"type": "string", "pattern": "^\\d{2}:\\d{2}$"},
            "service": {"type": "string", "enum": list(SERVICES)},
        },
        "required": ["address_text"],
    },
    metadata={
        "intent_hints": {
            "keywords": ["chaveiro", "locksmith", "chamar chaveiro", "call a locksmith"],
            "examples": ["preciso de um chaveiro", "I need a locksmith"],
        },
        "policy": {"confirm": True, "idempotent": False},
    },
)
def request_locksmith(intent: ExecutionIntent) -> DomainOutput:
    lang = language(intent)
    p = intent.parameters
    address = str(p.get("address_text") or "").strip()
    if not address:
        return fail(say(lang, "Falta o endereço.", "The address is missing."), "missing_parameter")
    urgent = str(p.get("urgency") or "").upper() == "URGENT"
    day = read_day(p.get("day"))
    if urgent and day is None:
        day = today()
    if day is None:
        day = today() + timedelta(days=1)
        while day.weekday() == 6:
            day += timedelta(days=1)
    if day < today():
        return fail(say(lang, "Esse dia já passou.", "That day is past."), "past_day")
    at = hhmm(p.get("time")) if p.get("time") else None
    if at is not None and not urgent and not (8 <= at[0] < 20):
        return fail(
            say(
                lang,
                "Visitas agendadas das 8h às 20h; fora disso, só com urgência.",
                "Scheduled visits run 8am to 8pm; otherwise it's an urgent call-out.",
            ),
            "outside_hours",
            recoverable=True,
            suggestions=[{"time": "08:00" if at[0] < 8 else "19:00"}],
        )
    kind = str(p.get("service") or "").upper()
    kind = kind if kind in SERVICES else "LOCKOUT"
    price = SERVICE_PRICES[kind] + (URGENT_FEE if urgent else 0)
    _next[0] += 1
    code = f"LK{_next[0]}"
    JOBS[code] = (kind, address, day, "on_the_way" if urgent else "scheduled")
    when_pt = (
        "em até 1 hora" if urgent else f"em {day:%d/%m}" + (f" às {at[0]:02d}:{at[1]:02d}" if at else "")
    )
    when_en = (
        "within an hour" if urgent else f"on {day:%b %d}" + (f" at {at[0]:02d}:{at[1]:02d}" if at else "")
    )
    return DomainOutput(
        status="success",
        result={
            "code": code,
            "service": kind,
            "address": address,
            "day": day.isoformat(),
            "urgent": urgent,
            "price": {"amount": price, "currency": "BRL"},
        },
        explanation=say(
            lang,
            f"Chamado {code}: {LABEL[kind][0]} na {address}, {when_pt}. Valor R$ {price:.2f}.",
            f"Job {code}: {LABEL[kind][1]} at {address}, {when_en}. Price R$ {price:.2f}.",
        ),
    )


@service.capability(
    "key_copy_price",
    {
        "pt": "Diz o preço de fazer cópias de chave (chave comum se não disser o tipo)",
        "en": "Tell the price of copying keys (a regular key unless the kind is said)",
    },
    parameters={
        "type": "object",
        "properties": {"copies": {"type": "number", "exclusiveMinimum": 0}, "key_text": {"type": "string"}},
        "required": ["copies"],
    },
    metadata={
        "intent_hints": {
            "keywords": ["cópia de chave", "copiar chave", "key copy", "copy a key"],
            "examples": ["quanto custa tirar cópia de chave?", "how much to copy keys?"],
        },
        "policy": {"read_only": True},
    },
)
def key_copy_price(intent: ExecutionIntent) -> DomainOutput:
    lang = language(intent)
    p = intent.parameters
    copies = read_number(p.get("copies"))
    if copies is None or copies <= 0:
        return fail(say(lang, "Quantas cópias?", "How many copies?"), "missing_parameter")
    said = p.get("key_text")
    key = resolve_name(KEYS, said) if said else "Chave comum"
    if key is None:
        return fail(
            say(
                lang,
                f"Não copiamos '{said}'. Copiamos: {', '.join(KEYS)}.",
                f"We don't copy '{said}'. We copy: {', '.join(KEYS)}.",
            ),
            "unknown_key",
        )
    n = int(copies)
    total = round(KEY_PRICES[key] * n, 2)
    return DomainOutput(
        status="success",
        result={"key": key, "copies": n, "total": {"amount": total, "currency": "BRL"}},
        explanation=say(
            lang,
            f"{n} cópia(s) de {key}: R$ {total:.2f} (R$ {KEY_PRICES[key]:.2f} cada).",
            f"{n} copy/copies of {key}: R$ {total:.2f} (R$ {KEY_PRICES[key]:.2f} each).",
        ),
    )


@service.capability(
    "locksmith_job_status",
    {
        "pt": "Diz o status de um chamado de chaveiro pelo código",
        "en": "Tell the status of a locksmith job by its code",
    },
    parameters={
        "type": "object",
        "properties": {"job_text": {"type": "string", "minLength": 1}},
        "required": ["job_text"],
    },
    metadata={
        "intent_hints": {
            "keywords": [
                "status do chaveiro",
                "cadê o chaveiro",
                "locksmith status",
                "where is the locksmith",
            ],
            "examples": ["o chaveiro já está vindo?", "is the locksmith on his way?"],
        },
        "policy": {"read_only": True},
    },
)
def locksmith_job_status(intent: ExecutionIntent) -> DomainOutput:
    lang = language(intent)
    code = norm_code(intent.parameters.get("job_text"))
    job = JOBS.get(code)
    if job is None:
        return fail(say(lang, f"Não achei o chamado {code}.", f"No job {code}."), "not_found")
    kind, address, day, state = job
    pt, en = STATES[state]
    return DomainOutput(
        status="success",
        result={"code": code, "service": kind, "address": address, "day": day.isoformat(), "state": state},
        explanation=say(
            lang,
            f"{code}: {LABEL[kind][0]} na {address}, {day:%d/%m}: {pt}.",
            f"{code}: {LABEL[kind][1]} at {address}, {day:%b %d}: {en}.",
        ),
    )


DAY_ENTITY: dict[str, Any] = {"type": "date", "description": {"pt": "O dia da visita", "en": "The visit day"}}

service.add_goal(
    {
        "goal": "REQUEST_LOCKSMITH",
        "description": {"pt": "Chamar um chaveiro a um endereço", "en": "Call a locksmith to an address"},
        "entities_schema": {
            "address_text": {
                "type": "string",
                "required": True,
                "description": {"pt": "O endereço", "en": "The address"},
            },
            "urgency": {
                "type": "enum",
                "values": list(URGENCY),
                "synonyms": URGENCY,
                "description": {"pt": "A urgência", "en": "How urgent"},
            },
            "day": DAY_ENTITY,
            "time": {"type": "time", "description": {"pt": "O horário da visita", "en": "The visit time"}},
            "service": {
                "type": "enum",
                "values": list(SERVICES),
                "synonyms": SERVICES,
                "description": {"pt": "O serviço", "en": "The service"},
            },
        },
        "required_one_of": [["urgency", "day"]],
        "capabilities": ["request_locksmith"],
        "examples": [
            ex(
                "preciso de um chaveiro urgente na Rua Augusta 1200, fiquei trancado pra fora",
                urgency="URGENT",
                address_text="Rua Augusta 1200",
                service="LOCKOUT",
            ),
            ex(
                "chama um chaveiro pra trocar a fechadura na rua harmonia 300 quinta às 10h",
                service="LOCK_CHANGE",
                address_text="rua harmonia 300",
                day="quinta",
                time="às 10h",
            ),
            ex(
                "agenda chaveiro na Av. Paulista 900 sexta de manhã",
                address_text="Av. Paulista 900",
                day="sexta",
            ),
            ex(
                "I need an emergency locksmith at 200 Oak Street, locked out",
                urgency="URGENT",
                address_text="200 Oak Street",
                service="LOCKOUT",
            ),
            ex(
                "schedule a locksmith to change the lock at 45 Elm Road on Saturday at 9am",
                address_text="45 Elm Road",
                service="LOCK_CHANGE",
                day="Saturday",
                time="at 9am",
            ),
        ],
    }
)
service.add_goal(
    {
        "goal": "KEY_COPY_PRICE",
        "description": {"pt": "Preço de cópias de chave", "en": "Price of key copies"},
        "entities_schema": {
            "copies": {
                "type": "number",
                "required": True,
                "description": {"pt": "Quantas cópias", "en": "How many copies"},
            },
            "key_text": {
                "type": "string",
                "lookup": table(KEYS),
                "description": {"pt": "O tipo de chave", "en": "The kind of key"},
            },
        },
        "capabilities": ["key_copy_price"],
        "examples": [
            ex("quanto custa fazer 3 cópias da chave tetra?", copies="3 cópias", key_text="chave tetra"),
            ex("preço de 2 cópias de chave comum", copies="2 cópias", key_text="chave comum"),
            ex("quanto sai copiar 4 chaves?", copies="4 chaves"),
            ex("how much for 2 copies of a car key?", copies="2 copies", key_text="car key"),
            ex("price to copy 5 house keys", copies="5", key_text="house keys"),
        ],
    }
)
service.add_goal(
    {
        "goal": "LOCKSMITH_JOB_STATUS",
        "description": {"pt": "Status de um chamado de chaveiro", "en": "Status of a locksmith job"},
        "entities_schema": {
            "job_text": {
                "type": "string",
                "required": True,
                "description": {"pt": "O código do chamado", "en": "The job code"},
            }
        },
        "capabilities": ["locksmith_job_status"],
        "examples": [
            ex("status do chamado LK5101", job_text="LK5101"),
            ex("o chaveiro do chamado LK5105 já saiu?", job_text="LK5105"),
            ex("what's the status of locksmith job LK5101?", job_text="LK5101"),
            ex("is job LK5105 done?", job_text="LK5105"),
        ],
    }
)

if __name__ == "__main__":
    serve(service)
