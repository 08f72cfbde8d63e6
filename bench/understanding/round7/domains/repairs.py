"""Repairs (round-7 bench domain): open a maintenance request, a request's status, my open requests.

A residential building's maintenance desk. Fake, deterministic, in memory.
Run: ``python -m bench.understanding.round7.domains.repairs --port 8172``.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from datetime import timedelta
from typing import Any

from bench.understanding.round7.domains._common import (
    code_of,
    ex,
    language,
    read_day,
    read_time,
    say,
    today,
)
from sdk.service import DomainService, fail, serve
from shared.models import DomainOutput, ExecutionIntent

PROBLEMS = ["PLUMBING", "ELECTRICAL", "LOCKS", "HVAC", "PEST"]
PROBLEM_SYNONYMS: dict[str, list[str]] = {
    "PLUMBING": [
        "hidráulica",
        "encanamento",
        "encanador",
        "vazamento",
        "vazando",
        "entupido",
        "entupida",
        "infiltração",
        "plumbing",
        "plumber",
        "leak",
        "leaking",
        "clogged",
    ],
    "ELECTRICAL": [
        "elétrica",
        "eletricista",
        "tomada",
        "disjuntor",
        "curto-circuito",
        "sem luz",
        "electrical",
        "electrician",
        "outlet",
        "breaker",
        "no power",
    ],
    "LOCKS": [
        "fechadura",
        "chaveiro",
        "porta emperrada",
        "tranca",
        "lock",
        "locksmith",
        "door lock",
        "locked out",
    ],
    "HVAC": [
        "ar-condicionado",
        "ar condicionado",
        "aquecedor",
        "ventilação",
        "air conditioning",
        "air conditioner",
        "AC",
        "heater",
        "heating",
    ],
    "PEST": [
        "dedetização",
        "barata",
        "baratas",
        "cupim",
        "rato",
        "pest",
        "pest control",
        "cockroaches",
        "termites",
        "mice",
    ],
}
PROBLEM_NAMES = {
    "PLUMBING": ("hidráulica", "plumbing"),
    "ELECTRICAL": ("elétrica", "electrical"),
    "LOCKS": ("fechadura", "locks"),
    "HVAC": ("ar-condicionado", "air conditioning"),
    "PEST": ("dedetização", "pest control"),
}
STATUS_NAMES = {
    "scheduled": ("agendado", "scheduled"),
    "waiting_part": ("aguardando peça", "waiting for a part"),
    "in_progress": ("técnico a caminho", "technician on the way"),
    "done": ("concluído", "done"),
    "cancelled": ("cancelado", "cancelled"),
}
OPEN = {"scheduled", "waiting_part", "in_progress"}
HOURS = ("08:00", "18:00")


@dataclass
class Request:
    code: str
    unit: str
    problem: str
    day: str
    time: str
    status: str
    urgent: bool = False

    def describe(self, lang: str = "pt") -> str:
        problem = PROBLEM_NAMES[self.problem][0 if lang == "pt" else 1]
        status = STATUS_NAMES[self.status][0 if lang == "pt" else 1]
        urgent = say(lang, ", urgente", ", urgent") if self.urgent else ""
        return say(
            lang,
            f"{self.code}: apto {self.unit}, {problem}{urgent}, {self.day} {self.time}, {status}",
            f"{self.code}: unit {self.unit}, {problem}{urgent}, {self.day} {self.time}, {status}",
        )


REQUESTS: dict[str, Request] = {
    r.code: r
    for r in (
        Request("MR2207", "302", "PLUMBING", "2026-03-11", "09:00", "scheduled"),
        Request("MR2215", "302", "ELECTRICAL", "2026-03-12", "14:00", "waiting_part"),
        Request("MR2188", "302", "LOCKS", "2026-03-06", "10:00", "done"),
        Request("MR2230", "1104", "HVAC", "2026-03-10", "15:00", "in_progress", urgent=True),
        Request("MR2199", "302", "PEST", "2026-03-04", "08:00", "cancelled"),
    )
}
_next_code = [3000]

service = DomainService(
    "repairs",
    "0.1.0",
    {
        "pt": "Manutenção do prédio: abrir um chamado de conserto e acompanhar os chamados",
        "en": "Building maintenance: open a repair request and follow your requests",
    },
)


def _unit(value: object) -> str | None:
    """An apartment number of the building: floors 1-15, units 01-04 ("302", "apto 1104")."""
    digits = "".join(ch for ch in str(value or "") if ch.isdigit())
    if len(digits) not in (3, 4):
        return None
    floor, number = int(digits[:-2]), int(digits[-2:])
    return digits if 1 <= floor <= 15 and 1 <= number <= 4 else None


@service.capability(
    "open_repair",
    {"pt": "Abre um chamado de manutenção", "en": "Open a maintenance request"},
    parameters={
        "type": "object",
        "properties": {
            "unit_text": {"type": "string", "minLength": 1},
            "problem_type": {"type": "string", "enum": PROBLEMS},
            "urgent": {"type": "boolean"},
            "day": {"type": "string", "pattern": "^\\d{4}-\\d{2}-\\d{2}$"},
            "time": {"type": "string", "pattern": "^\\d{2}:\\d{2}$"},
        },
        "required": ["unit_text", "problem_type"],
    },
    metadata={
        "intent_hints": {
            "keywords": [
                "manutenção",
                "conserto",
                "chamado",
                "síndico",
                "zelador",
                "maintenance",
                "repair",
                "fix",
            ],
            "examples": ["preciso de um conserto no apartamento", "I need maintenance in my unit"],
        },
        "policy": {"confirm": True, "idempotent": False},
    },
)
def open_repair(intent: ExecutionIntent) -> DomainOutput:
    lang = language(intent)
    p = intent.parameters
    unit = _unit(p.get("unit_text"))
    problem = str(p.get("problem_type") or "").upper()
    if unit is None:
        return fail(
            say(
                lang,
                f"Não existe o apartamento “{p.get('unit_text')}” no prédio "
                "(andares 1 a 15, finais 01 a 04).",
                f"There is no unit “{p.get('unit_text')}” in the building (floors 1-15, units 01-04).",
            ),
            "unknown_unit",
        )
    if problem not in PROBLEMS:
        return fail(say(lang, "Qual o tipo de problema?", "What kind of problem?"), "missing_parameter")
    urgent = bool(p.get("urgent"))
    day = read_day(p.get("day"))
    time = read_time(p.get("time"))
    if day is None:
        day = today() if urgent else today() + timedelta(days=1)
        if not urgent and day.weekday() == 6:
            day += timedelta(days=1)
    if day < today():
        return fail(say(lang, "Esse dia já passou.", "That day has passed."), "past_day")
    if not urgent and day.weekday() == 6:
        monday = day + timedelta(days=1)
        return fail(
            say(
                lang,
                f"Aos domingos só atendemos urgências; pode ser segunda, {monday.isoformat()}.",
                f"On Sundays we only take emergencies; it can be Monday, {monday.isoformat()}.",
            ),
            "sunday",
            recoverable=True,
            suggestions=[{"day": monday.isoformat()}],
        )
    if time is None:
        time = "08:00" if not urgent else "now"
    elif not urgent and not HOURS[0] <= time <= HOURS[1]:
        nearest = HOURS[0] if time < HOURS[0] else HOURS[1]
        return fail(
            say(
                lang,
                f"Fora de urgência atendemos das {HOURS[0]} às {HOURS[1]}.",
                f"Non-urgent visits are from {HOURS[0]} to {HOURS[1]}.",
            ),
            "outside_hours",
            recoverable=True,
            suggestions=[{"time": nearest}],
        )
    _next_code[0] += 1
    request = Request(f"MR{_next_code[0]}", unit, problem, day.isoformat(), time, "scheduled", urgent)
    REQUESTS[request.code] = request
    return DomainOutput(
        status="success",
        result=asdict(request),
        explanation=say(
            lang,
            f"Chamado aberto — {request.describe(lang)}. Código {request.code}.",
            f"Request opened — {request.describe(lang)}. Your code is {request.code}.",
        ),
    )


@service.capability(
    "repair_status",
    {"pt": "Consulta a situação de um chamado", "en": "Check a maintenance request's status"},
    parameters={
        "type": "object",
        "properties": {"request_code_text": {"type": "string", "minLength": 1}},
        "required": ["request_code_text"],
    },
    metadata={
        "intent_hints": {"keywords": ["status do chamado", "andamento do conserto", "request status"]},
        "policy": {"read_only": True},
    },
)
def repair_status(intent: ExecutionIntent) -> DomainOutput:
    lang = language(intent)
    code = code_of(intent.parameters.get("request_code_text"), "MR")
    request = REQUESTS.get(code)
    if request is None:
        return fail(say(lang, f"Não achei o chamado {code}.", f"No request {code}."), "request_not_found")
    return DomainOutput(status="success", result=asdict(request), explanation=request.describe(lang))


@service.capability(
    "list_repairs",
    {"pt": "Lista os chamados em aberto", "en": "List the open maintenance requests"},
    parameters={"type": "object", "properties": {"unit_text": {"type": "string"}}},
    metadata={
        "intent_hints": {"keywords": ["meus chamados", "chamados abertos", "my requests", "open requests"]},
        "policy": {"read_only": True},
    },
)
def list_repairs(intent: ExecutionIntent) -> DomainOutput:
    lang = language(intent)
    unit = _unit(intent.parameters.get("unit_text")) or "302"
    mine = [r for r in REQUESTS.values() if r.unit == unit and r.status in OPEN]
    if not mine:
        text = say(lang, f"Nenhum chamado aberto no apto {unit}.", f"No open requests for unit {unit}.")
    else:
        text = "\n".join(r.describe(lang) for r in sorted(mine, key=lambda r: r.day))
    return DomainOutput(
        status="success", result={"unit": unit, "requests": [asdict(r) for r in mine]}, explanation=text
    )


UNIT_ENTITY: dict[str, Any] = {
    "type": "string",
    "description": {"pt": "O número do apartamento", "en": "The apartment number"},
}

service.add_goal(
    {
        "goal": "OPEN_REPAIR",
        "description": {
            "pt": "Abrir um chamado de manutenção no apartamento",
            "en": "Open a repair request for a unit",
        },
        "entities_schema": {
            "unit_text": UNIT_ENTITY | {"required": True},
            "problem_type": {
                "type": "enum",
                "required": True,
                "values": PROBLEMS,
                "synonyms": PROBLEM_SYNONYMS,
                "description": {"pt": "O tipo de problema", "en": "The kind of problem"},
            },
            "urgent": {
                "type": "boolean",
                "description": {"pt": "É urgente", "en": "It is urgent"},
                "synonyms": {
                    "true": ["urgente", "urgência", "emergência", "emergencia", "urgent", "asap", "emergency"]
                },
            },
            "day": {"type": "date", "description": {"pt": "O dia preferido", "en": "The preferred day"}},
            "time": {
                "type": "time",
                "description": {"pt": "O horário preferido", "en": "The preferred time"},
            },
        },
        "capabilities": ["open_repair"],
        "examples": [
            ex(
                "abre um chamado de vazamento no apto 302 amanhã às 9h",
                problem_type="PLUMBING",
                unit_text="302",
                day="amanhã",
                time="às 9h",
            ),
            ex(
                "preciso de eletricista no 1104, a tomada da cozinha queimou",
                problem_type="ELECTRICAL",
                unit_text="1104",
            ),
            ex("chama o chaveiro pro 502 urgente", problem_type="LOCKS", unit_text="502", urgent=True),
            ex(
                "manutenção do ar-condicionado no apartamento 803 sexta às 14h",
                problem_type="HVAC",
                unit_text="803",
                day="sexta",
                time="às 14h",
            ),
            ex("quero dedetização no 201 na segunda", problem_type="PEST", unit_text="201", day="segunda"),
            ex(
                "open a plumbing request for unit 302 tomorrow at 10am",
                problem_type="PLUMBING",
                unit_text="302",
                day="tomorrow",
                time="at 10am",
            ),
            ex(
                "I need an electrician in apartment 1203 on Friday",
                problem_type="ELECTRICAL",
                unit_text="1203",
                day="Friday",
            ),
            ex(
                "urgent, the door lock of unit 402 is broken",
                urgent=True,
                problem_type="LOCKS",
                unit_text="402",
            ),
        ],
    }
)
service.add_goal(
    {
        "goal": "REPAIR_STATUS",
        "description": {
            "pt": "A situação de um chamado de manutenção",
            "en": "The status of a repair request",
        },
        "entities_schema": {
            "request_code_text": {
                "type": "string",
                "required": True,
                "description": {"pt": "O código do chamado", "en": "The request code"},
            }
        },
        "capabilities": ["repair_status"],
        "examples": [
            ex("como está o chamado MR2207?", request_code_text="MR2207"),
            ex("status do conserto MR2215", request_code_text="MR2215"),
            ex("what's the status of request MR2230?", request_code_text="MR2230"),
            ex("any news on maintenance request MR2207?", request_code_text="MR2207"),
        ],
    }
)
service.add_goal(
    {
        "goal": "LIST_REPAIRS",
        "description": {"pt": "Os meus chamados de manutenção em aberto", "en": "My open repair requests"},
        "entities_schema": {"unit_text": UNIT_ENTITY},
        "capabilities": ["list_repairs"],
        "examples": [
            ex("meus chamados abertos"),
            ex("quais chamados de manutenção tenho em aberto?"),
            ex("lista os chamados do apto 302", unit_text="302"),
            ex("my open maintenance requests"),
            ex("list the repair requests for unit 1104", unit_text="1104"),
        ],
    }
)

if __name__ == "__main__":
    serve(service)
