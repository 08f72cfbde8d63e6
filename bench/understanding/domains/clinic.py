"""``clinic``: book, list and cancel a patient's doctor's appointments (fake, deterministic data).

Written from docs/domains.md only. Booking and cancelling change the agenda, so their
capabilities declare ``policy.confirm: true``.
``python -m bench.understanding.domains.clinic --port 8113``.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass
from datetime import date
from typing import Any

from bench.understanding.domains.common import fold, language, parse_day, parse_time, today
from sdk import DomainService, clarify, fail, option, serve
from shared.models import DomainOutput, ExecutionIntent

SPECIALTIES: dict[str, dict[str, Any]] = {
    "GENERAL_PRACTICE": {
        "pt": "clínico geral",
        "en": "general practice",
        "synonyms": [
            "clínico geral",
            "clinico",
            "clínica geral",
            "médico de família",
            "general practitioner",
            "GP",
            "family doctor",
        ],
    },
    "CARDIOLOGY": {
        "pt": "cardiologia",
        "en": "cardiology",
        "synonyms": ["cardiologista", "cardio", "coração", "cardiologist", "heart doctor"],
    },
    "DERMATOLOGY": {
        "pt": "dermatologia",
        "en": "dermatology",
        "synonyms": ["dermatologista", "dermato", "derma", "pele", "dermatologist", "skin doctor"],
    },
    "PEDIATRICS": {
        "pt": "pediatria",
        "en": "pediatrics",
        "synonyms": ["pediatra", "médico do bebê", "pediatrician", "kids doctor"],
    },
    "ORTHOPEDICS": {
        "pt": "ortopedia",
        "en": "orthopedics",
        "synonyms": ["ortopedista", "orto", "ortopedia", "orthopedist", "bone doctor"],
    },
    "GYNECOLOGY": {
        "pt": "ginecologia",
        "en": "gynecology",
        "synonyms": ["ginecologista", "gineco", "gynecologist", "obgyn", "ob-gyn"],
    },
    "OPHTHALMOLOGY": {
        "pt": "oftalmologia",
        "en": "ophthalmology",
        "synonyms": ["oftalmologista", "oftalmo", "oculista", "eye doctor", "ophthalmologist"],
    },
    "PSYCHIATRY": {
        "pt": "psiquiatria",
        "en": "psychiatry",
        "synonyms": ["psiquiatra", "psychiatrist"],
    },
}

DOCTORS: dict[str, tuple[str, list[str]]] = {
    "Dra. Ana Lima": ("DERMATOLOGY", ["Ana Lima", "Dra Ana", "doutora Ana", "Dr. Ana Lima"]),
    "Dr. Paulo Mendes": ("CARDIOLOGY", ["Paulo Mendes", "Dr Paulo", "doutor Paulo", "Dr. Mendes"]),
    "Dra. Beatriz Rocha": ("PEDIATRICS", ["Beatriz Rocha", "Dra Beatriz", "doutora Beatriz", "Dr. Rocha"]),
    "Dr. Carlos Nunes": ("ORTHOPEDICS", ["Carlos Nunes", "Dr Carlos", "doutor Carlos", "Dr. Nunes"]),
    "Dra. Juliana Costa": ("GYNECOLOGY", ["Juliana Costa", "Dra Juliana", "doutora Juliana", "Dr. Costa"]),
    "Dr. Ricardo Alves": ("GENERAL_PRACTICE", ["Ricardo Alves", "Dr Ricardo", "doutor Ricardo", "Dr. Alves"]),
    "Dra. Fernanda Dias": (
        "OPHTHALMOLOGY",
        ["Fernanda Dias", "Dra Fernanda", "doutora Fernanda", "Dr. Dias"],
    ),
    "Dr. Marcos Teixeira": ("PSYCHIATRY", ["Marcos Teixeira", "Dr Marcos", "doutor Marcos", "Dr. Teixeira"]),
}

_DOCTOR_BY_NAME = {fold(alias): name for name, (_, aliases) in DOCTORS.items() for alias in [name, *aliases]}
_FIRST_DOCTOR = {spec: name for name, (spec, _) in reversed(list(DOCTORS.items()))}


@dataclass
class Appointment:
    id: str
    day: date
    time: str
    doctor: str
    specialty: str


def initial_agenda() -> dict[str, Appointment]:
    return {
        "A-101": Appointment("A-101", date(2026, 3, 11), "09:30", "Dra. Ana Lima", "DERMATOLOGY"),
        "A-102": Appointment("A-102", date(2026, 3, 13), "14:00", "Dr. Paulo Mendes", "CARDIOLOGY"),
        "A-103": Appointment("A-103", date(2026, 3, 20), "10:00", "Dra. Fernanda Dias", "OPHTHALMOLOGY"),
    }


AGENDA = initial_agenda()
_LOCK = threading.Lock()
OPEN_HOURS = ("07:00", "19:00")


def _describe(appt: Appointment, lang: str) -> str:
    when = appt.day.strftime("%d/%m") if lang == "pt" else appt.day.isoformat()
    spec = SPECIALTIES[appt.specialty][lang]
    return f"{when} {appt.time} — {appt.doctor} ({spec})"


def _doctor(raw: Any) -> str | None:
    return _DOCTOR_BY_NAME.get(fold(str(raw))) if raw else None


def _matching(params: dict[str, Any]) -> list[Appointment]:
    day = parse_day(params.get("day_text"))
    at = parse_time(params.get("time_text"))
    doctor = _doctor(params.get("doctor_text"))
    specialty = params.get("specialty")
    found = []
    for appt in sorted(AGENDA.values(), key=lambda a: (a.day, a.time)):
        if day and appt.day != day:
            continue
        if at and appt.time != at:
            continue
        if doctor and appt.doctor != doctor:
            continue
        if specialty and appt.specialty != specialty:
            continue
        found.append(appt)
    return found


DAY = {"type": "string", "description": "The day as the person wrote it ('amanhã', 'sexta', '20/03')."}
TIME = {"type": "string", "description": "The time as the person wrote it ('14h', '9:30', '2pm')."}
DOCTOR = {"type": "string", "description": "The doctor's name as the person wrote it."}
SPECIALTY = {"type": "string", "enum": list(SPECIALTIES)}

service = DomainService(
    "clinic",
    "0.1.0",
    {
        "pt": "Consultas médicas da clínica: marcar, ver e cancelar",
        "en": "Clinic appointments: book, list and cancel",
    },
)


@service.capability(
    "book_appointment",
    {"pt": "Marca uma consulta médica", "en": "Book a doctor's appointment"},
    parameters={
        "type": "object",
        "properties": {
            "doctor_text": DOCTOR,
            "specialty": SPECIALTY,
            "day_text": DAY,
            "time_text": TIME,
        },
        "required": ["day_text", "time_text"],
    },
    metadata={
        "intent_hints": {
            "keywords": [
                "marcar consulta",
                "agendar consulta",
                "consulta",
                "médico",
                "doutor",
                "book an appointment",
                "appointment",
                "doctor",
                "schedule",
            ],
            "examples": ["quero marcar uma consulta", "book me a doctor's appointment"],
        },
        "policy": {"confirm": True, "idempotent": False, "attempts": 1, "timeout_s": 10.0},
        "progress": {"pt": "Marcando a consulta…", "en": "Booking the appointment…"},
    },
)
def book_appointment(intent: ExecutionIntent) -> DomainOutput:
    lang = language(intent)
    params = intent.parameters
    doctor = _doctor(params.get("doctor_text"))
    specialty = params.get("specialty") or (DOCTORS[doctor][0] if doctor else None)
    if params.get("doctor_text") and doctor is None:
        text = (
            f"No doctor called '{params['doctor_text']}' works here."
            if lang == "en"
            else f"Não há nenhum médico chamado '{params['doctor_text']}' aqui."
        )
        return fail(text, "unknown_doctor")
    if specialty is None:
        question = "With which specialty?" if lang == "en" else "Com qual especialidade?"
        options = [
            option(key, spec[lang], aliases=[spec["pt"], spec["en"], *spec["synonyms"]])
            for key, spec in SPECIALTIES.items()
        ]
        return clarify(question, options, param="specialty")
    day = parse_day(params.get("day_text"))
    at = parse_time(params.get("time_text"))
    if day is None or at is None:
        text = (
            "I did not understand the day or the time." if lang == "en" else "Não entendi o dia ou o horário."
        )
        return fail(text, "invalid_datetime")
    if day < today() or day.weekday() == 6 or not OPEN_HOURS[0] <= at < OPEN_HOURS[1]:
        text = (
            "The clinic books from today on, Monday to Saturday, 07:00–19:00."
            if lang == "en"
            else "A clínica marca de hoje em diante, de segunda a sábado, das 07:00 às 19:00."
        )
        return fail(text, "outside_opening_hours")
    doctor = doctor or _FIRST_DOCTOR[specialty]
    with _LOCK:
        if any(a.doctor == doctor and a.day == day and a.time == at for a in AGENDA.values()):
            return fail(
                "That slot is taken." if lang == "en" else "Esse horário está ocupado.",
                "slot_taken",
                recoverable=True,
            )
        new_id = f"A-{101 + len(AGENDA)}"
        appt = AGENDA[new_id] = Appointment(new_id, day, at, doctor, specialty)
    text = ("Booked: " if lang == "en" else "Consulta marcada: ") + _describe(appt, lang) + "."
    result = {
        "appointment_id": new_id,
        "date": day.isoformat(),
        "time": at,
        "doctor": doctor,
        "specialty": specialty,
    }
    return DomainOutput(status="success", result=result, explanation=text)


@service.capability(
    "list_appointments",
    {"pt": "Lista as consultas marcadas", "en": "List the booked appointments"},
    parameters={
        "type": "object",
        "properties": {"day_text": DAY, "doctor_text": DOCTOR, "specialty": SPECIALTY},
    },
    metadata={
        "intent_hints": {
            "keywords": [
                "minhas consultas",
                "consultas marcadas",
                "agenda",
                "my appointments",
                "upcoming appointments",
            ],
            "examples": ["quais consultas eu tenho?", "what appointments do I have?"],
        },
        "policy": {"idempotent": True, "attempts": 2, "timeout_s": 5.0},
        "progress": {"pt": "Consultando a sua agenda…", "en": "Checking your appointments…"},
    },
)
def list_appointments(intent: ExecutionIntent) -> DomainOutput:
    lang = language(intent)
    with _LOCK:
        found = [a for a in _matching(intent.parameters) if a.day >= today()]
    if not found:
        text = "You have no appointments booked." if lang == "en" else "Você não tem consultas marcadas."
    else:
        head = "Your appointments:" if lang == "en" else "Suas consultas:"
        text = "\n".join([head, *(f"- {_describe(a, lang)}" for a in found)])
    items = [
        {
            "appointment_id": a.id,
            "date": a.day.isoformat(),
            "time": a.time,
            "doctor": a.doctor,
            "specialty": a.specialty,
        }
        for a in found
    ]
    return DomainOutput(status="success", result={"appointments": items}, explanation=text)


@service.capability(
    "cancel_appointment",
    {"pt": "Cancela uma consulta marcada", "en": "Cancel a booked appointment"},
    parameters={
        "type": "object",
        "properties": {
            "day_text": DAY,
            "time_text": TIME,
            "doctor_text": DOCTOR,
            "specialty": SPECIALTY,
            "appointment_id": {
                "type": "string",
                "description": "The appointment picked after a clarification.",
            },
        },
    },
    metadata={
        "intent_hints": {
            "keywords": [
                "desmarcar",
                "cancelar consulta",
                "cancela a consulta",
                "cancel appointment",
                "cancel my appointment",
            ],
            "examples": ["desmarca minha consulta", "cancel my appointment"],
        },
        "policy": {"confirm": True, "idempotent": False, "attempts": 1, "timeout_s": 10.0},
        "progress": {"pt": "Cancelando a consulta…", "en": "Cancelling the appointment…"},
    },
)
def cancel_appointment(intent: ExecutionIntent) -> DomainOutput:
    lang = language(intent)
    chosen = intent.parameters.get("appointment_id")
    with _LOCK:
        if chosen:
            found = [AGENDA[chosen]] if chosen in AGENDA else []
        else:
            found = [a for a in _matching(intent.parameters) if a.day >= today()]
        if not found:
            text = "I found no such appointment." if lang == "en" else "Não encontrei essa consulta."
            return fail(text, "appointment_not_found")
        if len(found) > 1:
            question = "Which appointment?" if lang == "en" else "Qual consulta?"
            options = [
                option(a.id, _describe(a, lang), aliases=[a.doctor, SPECIALTIES[a.specialty][lang]])
                for a in found
            ]
            return clarify(question, options, param="appointment_id")
        appt = AGENDA.pop(found[0].id)
    text = ("Cancelled: " if lang == "en" else "Consulta cancelada: ") + _describe(appt, lang) + "."
    return DomainOutput(
        status="success", result={"appointment_id": appt.id, "cancelled": True}, explanation=text
    )


def _ex(text: str, **entities: Any) -> dict[str, Any]:
    return {"text": text, "entities": entities}


def _entities(required_day: bool = False, required_time: bool = False) -> dict[str, Any]:
    return {
        "doctor_text": {
            "type": "string",
            "description": {"pt": "O médico ou a médica", "en": "The doctor"},
            "lookup": [{"value": name, "aliases": aliases} for name, (_, aliases) in DOCTORS.items()],
        },
        "specialty": {
            "type": "enum",
            "values": list(SPECIALTIES),
            "description": {"pt": "A especialidade", "en": "The specialty"},
            "synonyms": {
                key: [spec["pt"], spec["en"], *spec["synonyms"]] for key, spec in SPECIALTIES.items()
            },
        },
        "day_text": {
            "type": "string",
            "required": required_day,
            "description": {"pt": "O dia da consulta", "en": "The day of the appointment"},
        },
        "time_text": {
            "type": "string",
            "required": required_time,
            "description": {"pt": "O horário", "en": "The time"},
        },
    }


service.add_goal(
    {
        "goal": "BOOK_APPOINTMENT",
        "description": {"pt": "Marcar uma consulta médica", "en": "Book a doctor's appointment"},
        "entities_schema": _entities(required_day=True, required_time=True),
        "capabilities": ["book_appointment"],
        "examples": [
            _ex(
                "quero marcar uma consulta com dermatologista amanhã às 10h",
                specialty="DERMATOLOGY",
                day_text="amanhã",
                time_text="10h",
            ),
            _ex(
                "agenda um cardiologista na sexta às 15:00",
                specialty="CARDIOLOGY",
                day_text="sexta",
                time_text="15:00",
            ),
            _ex(
                "marcar consulta com a Dra. Beatriz Rocha dia 18/03 às 9h",
                doctor_text="Dra. Beatriz Rocha",
                day_text="18/03",
                time_text="9h",
            ),
            _ex(
                "preciso de um ortopedista quinta de manhã, 8h30",
                specialty="ORTHOPEDICS",
                day_text="quinta",
                time_text="8h30",
            ),
            _ex(
                "consulta com o doutor Ricardo segunda às 14h",
                doctor_text="doutor Ricardo",
                day_text="segunda",
                time_text="14h",
            ),
            _ex(
                "marca pra mim ginecologista dia 24 às 16h",
                specialty="GYNECOLOGY",
                day_text="dia 24",
                time_text="16h",
            ),
            _ex("quero agendar oftalmologista", specialty="OPHTHALMOLOGY"),
            _ex(
                "book a dermatologist for tomorrow at 11am",
                specialty="DERMATOLOGY",
                day_text="tomorrow",
                time_text="11am",
            ),
            _ex(
                "schedule an appointment with Dr. Paulo Mendes on Friday at 3pm",
                doctor_text="Dr. Paulo Mendes",
                day_text="Friday",
                time_text="3pm",
            ),
            _ex(
                "I need to see a pediatrician on March 19 at 10:30",
                specialty="PEDIATRICS",
                day_text="March 19",
                time_text="10:30",
            ),
            _ex(
                "can I get an appointment with a psychiatrist Monday 5pm?",
                specialty="PSYCHIATRY",
                day_text="Monday",
                time_text="5pm",
            ),
            _ex("book me in with a GP", specialty="GENERAL_PRACTICE"),
        ],
    }
)

service.add_goal(
    {
        "goal": "LIST_APPOINTMENTS",
        "description": {"pt": "As suas consultas marcadas", "en": "Your booked appointments"},
        "entities_schema": _entities(),
        "capabilities": ["list_appointments"],
        "examples": [
            _ex("quais consultas eu tenho marcadas?"),
            _ex("minhas consultas da semana"),
            _ex("tenho consulta amanhã?", day_text="amanhã"),
            _ex("que horas é minha consulta com a dermatologista?", specialty="DERMATOLOGY"),
            _ex("mostra minha agenda médica do dia 20", day_text="dia 20"),
            _ex("quando é meu próximo médico?"),
            _ex("list my appointments"),
            _ex("do I have any doctor's appointments on Friday?", day_text="Friday"),
            _ex("when is my cardiology appointment?", specialty="CARDIOLOGY"),
            _ex("show my upcoming appointments"),
        ],
    }
)

service.add_goal(
    {
        "goal": "CANCEL_APPOINTMENT",
        "description": {"pt": "Cancelar (desmarcar) uma consulta", "en": "Cancel an appointment"},
        "entities_schema": _entities(),
        "capabilities": ["cancel_appointment"],
        "examples": [
            _ex("desmarca minha consulta de amanhã", day_text="amanhã"),
            _ex("cancela a consulta com o cardiologista", specialty="CARDIOLOGY"),
            _ex("quero cancelar a consulta do dia 20", day_text="dia 20"),
            _ex("não vou poder ir na dermato quarta, cancela", specialty="DERMATOLOGY", day_text="quarta"),
            _ex("cancelar consulta com a Dra. Fernanda Dias", doctor_text="Dra. Fernanda Dias"),
            _ex("cancel my appointment tomorrow", day_text="tomorrow"),
            _ex("please cancel the eye doctor appointment", specialty="OPHTHALMOLOGY"),
            _ex(
                "I can't make it to my 2pm appointment on Friday, cancel it",
                day_text="Friday",
                time_text="2pm",
            ),
            _ex("call off my appointment with Dr. Paulo Mendes", doctor_text="Dr. Paulo Mendes"),
        ],
    }
)

if __name__ == "__main__":
    serve(service)
