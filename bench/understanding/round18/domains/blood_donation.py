"""Blood donation center (round-18 bench domain): schedule a donation at a unit on a day and time,
answer eligibility questions (age, weight), cancel or reschedule an appointment by its code.

Fake, deterministic, in memory.
Run: ``python -m bench.understanding.round18.domains.blood_donation --port 8913``.
"""

from __future__ import annotations

from datetime import date, timedelta

from bench.understanding.round18.domains._common import (
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
from sdk.service import DomainService, clarify, fail, option, serve
from shared.models import DomainOutput, ExecutionIntent

#: units (canonical value <- aliases)
UNITS: dict[str, list[str]] = {
    "Hemocentro Centro": [
        "hemocentro centro",
        "centro",
        "unidade centro",
        "downtown",
        "downtown center",
        "city centre",
    ],
    "Hemocentro Paulista": [
        "hemocentro paulista",
        "paulista",
        "unidade paulista",
        "av paulista",
        "paulista avenue",
    ],
    "Hemocentro Zona Sul": [
        "hemocentro zona sul",
        "zona sul",
        "unidade sul",
        "santo amaro",
        "south unit",
        "south side",
    ],
    "Posto Shopping Norte": [
        "posto shopping norte",
        "shopping norte",
        "posto do shopping",
        "mall",
        "north mall",
        "shopping mall",
    ],
}
#: unit -> (first hour, last start hour, open weekdays 0=Mon)
UNIT_HOURS: dict[str, tuple[int, int, tuple[int, ...]]] = {
    "Hemocentro Centro": (7, 17, (0, 1, 2, 3, 4, 5)),
    "Hemocentro Paulista": (8, 17, (0, 1, 2, 3, 4)),
    "Hemocentro Zona Sul": (8, 15, (0, 1, 2, 3, 4, 5)),
    "Posto Shopping Norte": (10, 19, (5, 6)),
}
DONATION_TYPES: dict[str, list[str]] = {
    "WHOLE_BLOOD": ["sangue total", "whole blood"],
    "PLATELETS": ["plaquetas", "doação de plaquetas", "platelets", "platelet donation"],
    "PLASMA": ["plasma", "doação de plasma", "plasma donation"],
}
MIN_AGE, MAX_AGE, MIN_WEIGHT = 16, 69, 50
#: appointments (code -> unit, day, time, state)
APPOINTMENTS: dict[str, tuple[str, date, str, str]] = {
    "DS2101": ("Hemocentro Centro", date(2026, 3, 12), "09:00", "booked"),
    "DS2105": ("Hemocentro Paulista", date(2026, 3, 13), "14:30", "booked"),
    "DS2110": ("Hemocentro Zona Sul", date(2026, 3, 11), "10:00", "cancelled"),
    "DS2114": ("Posto Shopping Norte", date(2026, 3, 14), "11:00", "booked"),
}
_next = [2200]

service = DomainService(
    "blood_donation",
    "0.1.0",
    {
        "pt": "Hemocentro: agendar doação de sangue, quem pode doar, cancelar ou remarcar um agendamento",
        "en": "Blood donation center: schedule a donation, who can donate, cancel or move an appointment",
    },
)

SLOT_PARAMS = {
    "day": {"type": "string", "pattern": "^\\d{4}-\\d{2}-\\d{2}$"},
    "time": {"type": "string", "pattern": "^\\d{2}:\\d{2}$"},
}


def _check_slot(unit: str, day: date, at: tuple[int, int], lang: str) -> DomainOutput | None:
    first, last, weekdays = UNIT_HOURS[unit]
    if day < today():
        return fail(say(lang, "Esse dia já passou.", "That day is past."), "past_day")
    if day.weekday() not in weekdays:
        nxt = day + timedelta(days=1)
        while nxt.weekday() not in weekdays:
            nxt += timedelta(days=1)
        return fail(
            say(lang, f"{unit} não abre nesse dia.", f"{unit} is closed that day."),
            "closed_day",
            recoverable=True,
            suggestions=[{"day": nxt.isoformat()}],
        )
    if not (first <= at[0] <= last):
        return fail(
            say(
                lang,
                f"{unit} atende das {first}h às {last}h.",
                f"{unit} takes donors from {first}:00 to {last}:00.",
            ),
            "outside_hours",
            recoverable=True,
            suggestions=[{"time": f"{first:02d}:00" if at[0] < first else f"{last:02d}:00"}],
        )
    return None


@service.capability(
    "schedule_donation",
    {
        "pt": "Agenda uma doação de sangue numa unidade, dia e horário",
        "en": "Schedule a blood donation at a unit, day and time",
    },
    parameters={
        "type": "object",
        "properties": {
            "unit_text": {"type": "string", "minLength": 1},
            **SLOT_PARAMS,
            "donation_type": {"type": "string", "enum": list(DONATION_TYPES)},
        },
        "required": ["unit_text", "day", "time"],
    },
    metadata={
        "intent_hints": {
            "keywords": ["doar sangue", "agendar doação", "donate blood", "blood donation appointment"],
            "examples": ["quero doar sangue", "I want to donate blood"],
        },
        "policy": {"confirm": True, "idempotent": False},
    },
)
def schedule_donation(intent: ExecutionIntent) -> DomainOutput:
    lang = language(intent)
    p = intent.parameters
    said = str(p.get("unit_text") or "").strip()
    unit = resolve_name(UNITS, said) if said else None
    if unit is None:
        return clarify(
            say(lang, f"Não temos a unidade '{said}'. Qual destas?", f"No unit '{said}'. Which of these?"),
            [option(u, u) for u in UNITS],
            param="unit_text",
        )
    day = read_day(p.get("day"))
    at = hhmm(p.get("time")) if p.get("time") else None
    if day is None or at is None:
        return fail(
            say(lang, "Faltam o dia e o horário.", "The day and time are missing."), "missing_parameter"
        )
    bad = _check_slot(unit, day, at, lang)
    if bad is not None:
        return bad
    kind = str(p.get("donation_type") or "WHOLE_BLOOD").upper()
    kind = kind if kind in DONATION_TYPES else "WHOLE_BLOOD"
    _next[0] += 1
    code = f"DS{_next[0]}"
    when = f"{at[0]:02d}:{at[1]:02d}"
    APPOINTMENTS[code] = (unit, day, when, "booked")
    return DomainOutput(
        status="success",
        result={"code": code, "unit": unit, "day": day.isoformat(), "time": when, "donation_type": kind},
        explanation=say(
            lang,
            f"Doação agendada ({code}): {unit}, {day:%d/%m} às {when}. Leve um documento com foto.",
            f"Donation booked ({code}): {unit}, {day:%b %d} at {when}. Bring a photo ID.",
        ),
    )


@service.capability(
    "donation_eligibility",
    {
        "pt": "Diz se a pessoa pode doar sangue pela idade e pelo peso",
        "en": "Tell whether someone can donate blood by age and weight",
    },
    parameters={
        "type": "object",
        "properties": {"age": {"type": "number", "minimum": 0}, "weight": {"type": "number", "minimum": 0}},
    },
    metadata={
        "intent_hints": {
            "keywords": ["posso doar sangue", "quem pode doar", "can I donate blood", "who can donate"],
            "examples": [
                "quais os requisitos pra doar sangue?",
                "what are the requirements to donate blood?",
            ],
        },
        "policy": {"read_only": True},
    },
)
def donation_eligibility(intent: ExecutionIntent) -> DomainOutput:
    lang = language(intent)
    p = intent.parameters
    age = read_number(p.get("age"))
    weight = read_number(p.get("weight"))
    rules = say(
        lang,
        f"Pode doar quem tem de {MIN_AGE} a {MAX_AGE} anos (menores de 18 com autorização)"
        f" e pesa pelo menos {MIN_WEIGHT} kg.",
        f"Donors must be {MIN_AGE} to {MAX_AGE} years old (under 18 with consent)"
        f" and weigh at least {MIN_WEIGHT} kg.",
    )
    problems: list[str] = []
    if age is not None and not (MIN_AGE <= age <= MAX_AGE):
        problems.append(say(lang, f"idade {age:g} fora da faixa", f"age {age:g} is outside the range"))
    if weight is not None and weight < MIN_WEIGHT:
        problems.append(
            say(lang, f"peso {weight:g} kg abaixo do mínimo", f"weight {weight:g} kg is under the minimum")
        )
    eligible = None if age is None and weight is None else not problems
    if eligible is None:
        verdict = rules
    elif eligible:
        verdict = (
            say(lang, "Pelos dados informados, pode doar. ", "From what you said, you can donate. ") + rules
        )
    else:
        verdict = say(lang, "Não pode doar: ", "You cannot donate: ") + "; ".join(problems) + ". " + rules
    return DomainOutput(
        status="success",
        result={"eligible": eligible, "age": age, "weight": weight},
        explanation=verdict,
    )


@service.capability(
    "cancel_donation",
    {"pt": "Cancela um agendamento de doação", "en": "Cancel a donation appointment"},
    parameters={
        "type": "object",
        "properties": {"appointment_text": {"type": "string", "minLength": 1}},
        "required": ["appointment_text"],
    },
    metadata={
        "intent_hints": {
            "keywords": ["cancelar doação", "desmarcar doação", "cancel donation"],
            "examples": ["não vou poder ir doar, cancela", "cancel my donation appointment"],
        },
        "policy": {"confirm": True, "idempotent": False},
    },
)
def cancel_donation(intent: ExecutionIntent) -> DomainOutput:
    lang = language(intent)
    code = norm_code(intent.parameters.get("appointment_text"))
    appt = APPOINTMENTS.get(code)
    if appt is None:
        return fail(say(lang, f"Não achei o agendamento {code}.", f"No appointment {code}."), "not_found")
    unit, day, when, state = appt
    if state == "cancelled":
        return fail(
            say(lang, f"{code} já estava cancelado.", f"{code} was already cancelled."), "already_cancelled"
        )
    APPOINTMENTS[code] = (unit, day, when, "cancelled")
    return DomainOutput(
        status="success",
        result={"code": code, "unit": unit, "day": day.isoformat(), "state": "cancelled"},
        explanation=say(lang, f"Agendamento {code} cancelado.", f"Appointment {code} cancelled."),
    )


@service.capability(
    "reschedule_donation",
    {
        "pt": "Remarca um agendamento de doação para outro dia",
        "en": "Move a donation appointment to another day",
    },
    parameters={
        "type": "object",
        "properties": {"appointment_text": {"type": "string", "minLength": 1}, **SLOT_PARAMS},
        "required": ["appointment_text", "day"],
    },
    metadata={
        "intent_hints": {
            "keywords": ["remarcar doação", "mudar o dia da doação", "reschedule donation"],
            "examples": ["preciso remarcar minha doação", "I need to reschedule my donation"],
        },
        "policy": {"confirm": True, "idempotent": False},
    },
)
def reschedule_donation(intent: ExecutionIntent) -> DomainOutput:
    lang = language(intent)
    p = intent.parameters
    code = norm_code(p.get("appointment_text"))
    appt = APPOINTMENTS.get(code)
    if appt is None:
        return fail(say(lang, f"Não achei o agendamento {code}.", f"No appointment {code}."), "not_found")
    unit, _, old_time, state = appt
    if state == "cancelled":
        return fail(say(lang, f"{code} foi cancelado.", f"{code} was cancelled."), "already_cancelled")
    day = read_day(p.get("day"))
    if day is None:
        return fail(say(lang, "Para qual dia?", "To which day?"), "missing_parameter")
    at = hhmm(p.get("time")) if p.get("time") else hhmm(old_time)
    if at is None:
        at = (9, 0)
    bad = _check_slot(unit, day, at, lang)
    if bad is not None:
        return bad
    when = f"{at[0]:02d}:{at[1]:02d}"
    APPOINTMENTS[code] = (unit, day, when, "booked")
    return DomainOutput(
        status="success",
        result={"code": code, "unit": unit, "day": day.isoformat(), "time": when},
        explanation=say(
            lang,
            f"{code} remarcado: {unit}, {day:%d/%m} às {when}.",
            f"{code} moved: {unit}, {day:%b %d} at {when}.",
        ),
    )


CODE_ENTITY = {
    "type": "string",
    "required": True,
    "description": {"pt": "O código do agendamento", "en": "The appointment code"},
}

service.add_goal(
    {
        "goal": "SCHEDULE_DONATION",
        "description": {"pt": "Agendar uma doação de sangue", "en": "Schedule a blood donation"},
        "entities_schema": {
            "unit_text": {
                "type": "string",
                "required": True,
                "lookup": table(UNITS),
                "description": {"pt": "A unidade", "en": "The donation unit"},
            },
            "day": {"type": "date", "required": True, "description": {"pt": "O dia", "en": "The day"}},
            "time": {"type": "time", "required": True, "description": {"pt": "O horário", "en": "The time"}},
            "donation_type": {
                "type": "enum",
                "values": list(DONATION_TYPES),
                "synonyms": DONATION_TYPES,
                "description": {"pt": "O tipo de doação", "en": "The kind of donation"},
            },
        },
        "capabilities": ["schedule_donation"],
        "examples": [
            ex(
                "quero agendar uma doação de sangue no hemocentro centro quinta às 9h",
                donation_type="WHOLE_BLOOD",
                unit_text="hemocentro centro",
                day="quinta",
                time="às 9h",
            ),
            ex(
                "marca doação de plaquetas na paulista sexta 14h",
                donation_type="PLATELETS",
                unit_text="paulista",
                day="sexta",
                time="14h",
            ),
            ex(
                "agendar pra doar sangue no shopping norte sábado às 11h",
                unit_text="shopping norte",
                day="sábado",
                time="às 11h",
            ),
            ex(
                "book a blood donation at the downtown center tomorrow at 8am",
                unit_text="downtown center",
                day="tomorrow",
                time="at 8am",
            ),
            ex(
                "schedule me to give plasma at the south unit on Monday at 10am",
                donation_type="PLASMA",
                unit_text="south unit",
                day="Monday",
                time="at 10am",
            ),
        ],
    }
)
service.add_goal(
    {
        "goal": "DONATION_ELIGIBILITY",
        "description": {
            "pt": "Quem pode doar sangue (idade e peso)",
            "en": "Who can donate blood (age and weight)",
        },
        "entities_schema": {
            "age": {"type": "number", "description": {"pt": "A idade", "en": "The age"}},
            "weight": {"type": "number", "description": {"pt": "O peso em kg", "en": "The weight in kg"}},
        },
        "capabilities": ["donation_eligibility"],
        "examples": [
            ex("tenho 17 anos, posso doar sangue?", age="17 anos"),
            ex("peso 48 kg, dá pra doar?", weight="48 kg"),
            ex("com 65 anos e 70 kg ainda posso ser doador?", age="65 anos", weight="70 kg"),
            "quem pode doar sangue?",
            ex("I'm 19 and weigh 55 kg, can I give blood?", age="19", weight="55 kg"),
            ex("is there an age limit to donate blood? I'm 70", age="70"),
            "who is allowed to donate blood?",
        ],
    }
)
service.add_goal(
    {
        "goal": "CANCEL_DONATION",
        "description": {"pt": "Cancelar um agendamento de doação", "en": "Cancel a donation appointment"},
        "entities_schema": {"appointment_text": CODE_ENTITY},
        "capabilities": ["cancel_donation"],
        "examples": [
            ex("cancela meu agendamento de doação DS2101", appointment_text="DS2101"),
            ex("desmarca a doação DS2105 por favor", appointment_text="DS2105"),
            ex("cancel donation appointment DS2101", appointment_text="DS2101"),
            ex("I can't make it, cancel DS2114", appointment_text="DS2114"),
        ],
    }
)
service.add_goal(
    {
        "goal": "RESCHEDULE_DONATION",
        "description": {"pt": "Remarcar um agendamento de doação", "en": "Reschedule a donation appointment"},
        "entities_schema": {
            "appointment_text": CODE_ENTITY,
            "day": {
                "type": "date",
                "required": True,
                "description": {"pt": "O novo dia", "en": "The new day"},
            },
            "time": {"type": "time", "description": {"pt": "O novo horário", "en": "The new time"}},
        },
        "capabilities": ["reschedule_donation"],
        "examples": [
            ex(
                "remarca a doação DS2101 pra segunda às 10h",
                appointment_text="DS2101",
                day="segunda",
                time="às 10h",
            ),
            ex("muda meu agendamento DS2105 para sexta", appointment_text="DS2105", day="sexta"),
            ex(
                "reschedule donation DS2101 to Friday at 9am",
                appointment_text="DS2101",
                day="Friday",
                time="at 9am",
            ),
            ex("can I move DS2114 to Sunday?", appointment_text="DS2114", day="Sunday"),
        ],
    }
)

if __name__ == "__main__":
    serve(service)
