"""Utilities (round-9 bench domain): report an outage, a bill's second copy, a meter reading.

A power, water and gas company. Fake, deterministic, in memory.
Run: ``python -m bench.understanding.round9.domains.utilities --port 8193``.
"""

from __future__ import annotations

from typing import Any

from bench.understanding.round9.domains._common import ex, fold, language, read_number, say
from sdk.service import DomainService, fail, serve
from shared.models import DomainOutput, ExecutionIntent

SERVICES = ["POWER", "WATER", "GAS"]
SERVICE_SYNONYMS: dict[str, list[str]] = {
    "POWER": ["luz", "energia", "eletricidade", "força", "power", "electricity", "lights"],
    "WATER": ["água", "agua", "water"],
    "GAS": ["gás", "gas encanado", "gas"],
}
SERVICE_NAMES = {"POWER": ("luz", "power"), "WATER": ("água", "water"), "GAS": ("gás", "gas")}
MONTHS = [
    "JANUARY",
    "FEBRUARY",
    "MARCH",
    "APRIL",
    "MAY",
    "JUNE",
    "JULY",
    "AUGUST",
    "SEPTEMBER",
    "OCTOBER",
    "NOVEMBER",
    "DECEMBER",
]
MONTH_SYNONYMS: dict[str, list[str]] = {
    "JANUARY": ["janeiro", "january"],
    "FEBRUARY": ["fevereiro", "february", "fev", "feb"],
    "MARCH": ["março", "marco", "march"],
    "APRIL": ["abril", "april"],
    "MAY": ["maio"],
    "JUNE": ["junho", "june"],
    "JULY": ["julho", "july"],
    "AUGUST": ["agosto", "august"],
    "SEPTEMBER": ["setembro", "september"],
    "OCTOBER": ["outubro", "october"],
    "NOVEMBER": ["novembro", "november"],
    "DECEMBER": ["dezembro", "december", "dez", "dec"],
}
#: bills issued: month -> service -> amount in BRL (MARCH is not issued yet)
BILLS: dict[str, dict[str, float]] = {
    "DECEMBER": {"POWER": 231.40, "WATER": 98.10, "GAS": 61.00},
    "JANUARY": {"POWER": 255.90, "WATER": 102.35, "GAS": 58.70},
    "FEBRUARY": {"POWER": 244.15, "WATER": 95.80, "GAS": 64.20},
}
#: last meter reading per service
LAST_READING = {"POWER": 48210, "WATER": 1532, "GAS": 877}
#: neighbourhoods with an outage already open (service -> neighbourhood)
KNOWN_OUTAGES = {("POWER", "pinheiros"), ("WATER", "mooca")}
_next = [7000]

service = DomainService(
    "utilities",
    "0.1.0",
    {
        "pt": "Luz, água e gás: avisar falta, segunda via da conta e leitura do medidor",
        "en": "Power, water and gas: report an outage, a bill copy and a meter reading",
    },
)


def _protocol() -> str:
    _next[0] += 1
    return f"UT{_next[0]}"


@service.capability(
    "report_outage",
    {"pt": "Registra uma falta de luz, água ou gás", "en": "Report a power, water or gas outage"},
    parameters={
        "type": "object",
        "properties": {
            "service": {"type": "string", "enum": SERVICES},
            "address_text": {"type": "string", "minLength": 1},
            "urgent": {"type": "boolean"},
        },
        "required": ["service", "address_text"],
    },
    metadata={
        "intent_hints": {
            "keywords": [
                "falta de luz",
                "sem luz",
                "sem água",
                "queda de energia",
                "outage",
                "power cut",
                "no water",
            ],
            "examples": ["acabou a luz aqui", "there's a power outage"],
        },
        "policy": {"confirm": True, "idempotent": False},
    },
)
def report_outage(intent: ExecutionIntent) -> DomainOutput:
    lang = language(intent)
    p = intent.parameters
    svc = str(p.get("service") or "").upper()
    where = str(p.get("address_text") or "").strip()
    if svc not in SERVICES or not where:
        return fail(
            say(lang, "Falta o serviço ou o endereço.", "The service or the address is missing."),
            "missing_parameter",
        )
    name = SERVICE_NAMES[svc][0 if lang == "pt" else 1]
    ref = _protocol()
    known = any(s == svc and n in fold(where) for s, n in KNOWN_OUTAGES)
    eta = "2h" if p.get("urgent") else "6h"
    note = (
        say(lang, " Já havia uma ocorrência na região.", " An outage was already open in the area.")
        if known
        else ""
    )
    return DomainOutput(
        status="success",
        result={
            "service": svc,
            "address": where,
            "urgent": bool(p.get("urgent")),
            "protocol": ref,
            "known": known,
        },
        explanation=say(
            lang,
            f"Falta de {name} registrada em {where}. Previsão de atendimento: {eta}. Protocolo {ref}.{note}",
            f"{name.capitalize()} outage reported at {where}. ETA {eta}. Reference {ref}.{note}",
        ),
    )


@service.capability(
    "bill_copy",
    {"pt": "Segunda via de uma conta", "en": "A copy of a bill"},
    parameters={
        "type": "object",
        "properties": {
            "month": {"type": "string", "enum": MONTHS},
            "service": {"type": "string", "enum": SERVICES},
        },
        "required": ["month"],
    },
    metadata={
        "intent_hints": {
            "keywords": ["segunda via", "2ª via", "boleto", "conta de luz", "bill copy", "copy of my bill"],
            "examples": ["preciso da segunda via da conta", "I need a copy of my bill"],
        },
        "policy": {"read_only": True},
    },
)
def bill_copy(intent: ExecutionIntent) -> DomainOutput:
    lang = language(intent)
    p = intent.parameters
    month = str(p.get("month") or "").upper()
    svc = str(p.get("service") or "").upper()
    bills = BILLS.get(month)
    if bills is None:
        return fail(
            say(
                lang,
                "Só tenho contas de dezembro a fevereiro; a de março ainda não fechou.",
                "I have bills from December to February; March's is not issued yet.",
            ),
            "no_bill",
        )
    chosen: dict[str, Any] = {s: v for s, v in bills.items() if not svc or s == svc}
    lines = [f"{SERVICE_NAMES[s][0 if lang == 'pt' else 1]}: R$ {v:.2f}" for s, v in chosen.items()]
    return DomainOutput(
        status="success",
        result={"month": month, "bills": chosen, "link": f"https://contas.example/{month.lower()}"},
        explanation=say(lang, "Segunda via — ", "Bill copy — ") + "; ".join(lines),
    )


@service.capability(
    "meter_reading",
    {"pt": "Envia a leitura do medidor", "en": "Submit a meter reading"},
    parameters={
        "type": "object",
        "properties": {
            "reading": {"type": "number", "minimum": 0},
            "service": {"type": "string", "enum": SERVICES},
        },
        "required": ["reading", "service"],
    },
    metadata={
        "intent_hints": {
            "keywords": ["leitura", "medidor", "relógio", "meter reading", "meter"],
            "examples": ["quero informar a leitura do medidor", "submit my meter reading"],
        },
        "policy": {"confirm": True, "idempotent": False},
    },
)
def meter_reading(intent: ExecutionIntent) -> DomainOutput:
    lang = language(intent)
    p = intent.parameters
    svc = str(p.get("service") or "").upper()
    value = read_number(p.get("reading"))
    if svc not in SERVICES or value is None:
        return fail(
            say(lang, "Falta a leitura ou o serviço.", "The reading or the service is missing."),
            "missing_parameter",
        )
    last = LAST_READING[svc]
    if value < last:
        return fail(
            say(
                lang,
                f"A leitura não pode ser menor que a anterior ({last}).",
                f"The reading can't be below the last one ({last}).",
            ),
            "reading_below_last",
        )
    ref = _protocol()
    return DomainOutput(
        status="success",
        result={"service": svc, "reading": value, "consumption": value - last, "protocol": ref},
        explanation=say(
            lang,
            f"Leitura {value} registrada ({value - last} desde a última). Protocolo {ref}.",
            f"Reading {value} recorded ({value - last} since the last one). Reference {ref}.",
        ),
    )


SERVICE_ENTITY: dict[str, Any] = {
    "type": "enum",
    "values": SERVICES,
    "synonyms": SERVICE_SYNONYMS,
    "description": {"pt": "Luz, água ou gás", "en": "Power, water or gas"},
}

service.add_goal(
    {
        "goal": "REPORT_OUTAGE",
        "description": {
            "pt": "Avisar falta de luz, água ou gás",
            "en": "Report a power, water or gas outage",
        },
        "entities_schema": {
            "service": SERVICE_ENTITY | {"required": True},
            "address_text": {
                "type": "string",
                "required": True,
                "description": {"pt": "O endereço ou bairro", "en": "The address or neighbourhood"},
            },
            "urgent": {
                "type": "boolean",
                "description": {"pt": "É urgente", "en": "It is urgent"},
                "synonyms": {"true": ["urgente", "urgência", "urgent", "emergency", "asap"]},
            },
        },
        "capabilities": ["report_outage"],
        "examples": [
            ex("tô sem luz na Rua Augusta 1200", service="POWER", address_text="Rua Augusta 1200"),
            ex("faltou água no bairro Mooca, é urgente", service="WATER", address_text="Mooca", urgent=True),
            ex(
                "vazamento de gás na Rua das Flores 45, urgente",
                service="GAS",
                address_text="Rua das Flores 45",
                urgent=True,
            ),
            ex("power outage at 200 Oak Street", service="POWER", address_text="200 Oak Street"),
            ex("no water in Vila Mariana since this morning", service="WATER", address_text="Vila Mariana"),
        ],
    }
)
service.add_goal(
    {
        "goal": "BILL_COPY",
        "description": {"pt": "Segunda via da conta", "en": "A copy of a bill"},
        "entities_schema": {
            "month": {
                "type": "enum",
                "required": True,
                "values": MONTHS,
                "synonyms": MONTH_SYNONYMS,
                "description": {"pt": "O mês da conta", "en": "The bill's month"},
            },
            "service": SERVICE_ENTITY,
        },
        "capabilities": ["bill_copy"],
        "examples": [
            ex("segunda via da conta de luz de fevereiro", service="POWER", month="FEBRUARY"),
            ex("me manda a 2ª via de janeiro", month="JANUARY"),
            ex("copy of my water bill for December", service="WATER", month="DECEMBER"),
            ex("I need the January bill again", month="JANUARY"),
        ],
    }
)
service.add_goal(
    {
        "goal": "METER_READING",
        "description": {"pt": "Informar a leitura do medidor", "en": "Submit a meter reading"},
        "entities_schema": {
            "reading": {
                "type": "number",
                "required": True,
                "description": {"pt": "A leitura", "en": "The reading"},
            },
            "service": SERVICE_ENTITY | {"required": True},
        },
        "capabilities": ["meter_reading"],
        "examples": [
            ex("leitura do relógio de luz: 48390", reading=48390, service="POWER"),
            ex("o medidor de água marca 1550", service="WATER", reading=1550),
            ex("my gas meter reads 902", service="GAS", reading=902),
            ex("electricity meter reading 48500", service="POWER", reading=48500),
        ],
    }
)

if __name__ == "__main__":
    serve(service)
