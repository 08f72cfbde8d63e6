"""Passport and ID office (round-20 bench domain): book an appointment for a document (passport,
ID card, work card) at a unit on a day and time, check a request's status by its protocol
number, and cancel an appointment by its protocol number.

Fake, deterministic, in memory.
Run: ``python -m bench.understanding.round20.domains.passport_office --port 8932``.
"""

from __future__ import annotations

from datetime import date

from bench.understanding.round20.domains._common import (
    ex,
    hhmm,
    language,
    norm_code,
    read_day,
    resolve_name,
    say,
    table,
    today,
)
from sdk.service import DomainService, clarify, fail, option, serve
from shared.models import DomainOutput, ExecutionIntent

#: units (canonical value <- aliases)
UNITS: dict[str, list[str]] = {
    "Unidade Sé": ["unidade sé", "unidade se", "sé", "praça da sé", "centro", "downtown"],
    "Unidade Lapa": ["unidade lapa", "lapa"],
    "Unidade Santo Amaro": ["unidade santo amaro", "santo amaro"],
    "Unidade Itaquera": ["unidade itaquera", "itaquera"],
}
DOCUMENTS = {
    "PASSPORT": ("passaporte", "passport"),
    "ID_CARD": ("RG", "ID card"),
    "WORK_CARD": ("carteira de trabalho", "work card"),
}
#: fee per document (BRL)
FEES = {"PASSPORT": 257.25, "ID_CARD": 0.0, "WORK_CARD": 0.0}
#: appointments 08:00..16:30, Monday to Friday (Saturday morning at Sé only)
FIRST, LAST = 8, 16
#: protocols (number -> document, unit, day, time, state)
PROTOCOLS: dict[str, tuple[str, str, date, str, str]] = {
    "PR48120": ("PASSPORT", "Unidade Sé", date(2026, 3, 12), "09:30", "scheduled"),
    "PR48125": ("ID_CARD", "Unidade Lapa", date(2026, 3, 2), "10:00", "ready"),
    "PR48130": ("PASSPORT", "Unidade Santo Amaro", date(2026, 2, 20), "14:00", "in_production"),
    "PR48135": ("WORK_CARD", "Unidade Itaquera", date(2026, 3, 13), "11:00", "cancelled"),
    "PR48140": ("PASSPORT", "Unidade Sé", date(2026, 3, 10), "15:00", "scheduled"),
}
STATES = {
    "scheduled": ("agendado", "scheduled"),
    "ready": ("pronto para retirada", "ready for pickup"),
    "in_production": ("em produção", "in production"),
    "cancelled": ("cancelado", "cancelled"),
}
_next = [48200]

service = DomainService(
    "passport_office",
    "0.1.0",
    {
        "pt": (
            "Posto de documentos: agendar passaporte, RG ou carteira de trabalho,"
            " status e cancelamento por protocolo"
        ),
        "en": (
            "Passport and ID office: book passport, ID card or work card appointments,"
            " status and cancel by protocol"
        ),
    },
)


@service.capability(
    "book_document_appointment",
    {
        "pt": (
            "Agenda atendimento para emitir um documento num dia e horário, de segunda a sexta"
            " (na Unidade Sé quando a unidade não é dita)"
        ),
        "en": (
            "Book an appointment to issue a document on a day and time, Monday to Friday"
            " (at Unidade Sé when no unit is said)"
        ),
    },
    parameters={
        "type": "object",
        "properties": {
            "document": {"type": "string", "enum": list(DOCUMENTS)},
            "day": {"type": "string", "pattern": "^\\d{4}-\\d{2}-\\d{2}$"},
            "time": {"type": "string", "pattern": "^\\d{2}:\\d{2}$"},
            "unit_text": {"type": "string"},
        },
        "required": ["document", "day", "time"],
    },
    metadata={
        "intent_hints": {
            "keywords": ["agendar passaporte", "tirar rg", "posto de documentos", "passport appointment"],
            "examples": ["quero agendar pra tirar passaporte", "book a passport appointment"],
        },
        "policy": {"confirm": True, "idempotent": False},
    },
)
def book_document_appointment(intent: ExecutionIntent) -> DomainOutput:
    lang = language(intent)
    p = intent.parameters
    doc = str(p.get("document") or "").upper()
    day = read_day(p.get("day"))
    at = hhmm(p.get("time")) if p.get("time") else None
    if doc not in DOCUMENTS or day is None or at is None:
        return fail(
            say(lang, "Faltam dados do agendamento.", "Appointment details are missing."), "missing_parameter"
        )
    said = str(p.get("unit_text") or "").strip()
    unit = resolve_name(UNITS, said) if said else "Unidade Sé"
    if unit is None:
        return clarify(
            say(lang, f"Não temos a unidade '{said}'. Qual destas?", f"No unit '{said}'. Which of these?"),
            [option(u, u, aliases=UNITS[u][1:3]) for u in UNITS],
            param="unit_text",
        )
    if day < today():
        return fail(say(lang, "Esse dia já passou.", "That day is past."), "past_day")
    if day.weekday() >= 5:
        monday = date.fromordinal(day.toordinal() + 7 - day.weekday())
        return fail(
            say(lang, "Atendemos de segunda a sexta.", "We serve Monday to Friday."),
            "closed_day",
            recoverable=True,
            suggestions=[{"day": monday.isoformat()}],
        )
    if not (FIRST <= at[0] <= LAST):
        return fail(
            say(lang, "Atendimento das 8h às 16h30.", "Appointments from 8:00 to 16:30."),
            "outside_hours",
            recoverable=True,
            suggestions=[{"time": "08:00" if at[0] < FIRST else "16:00"}],
        )
    _next[0] += 1
    code = f"PR{_next[0]}"
    when = f"{at[0]:02d}:{at[1]:02d}"
    PROTOCOLS[code] = (doc, unit, day, when, "scheduled")
    name = say(lang, DOCUMENTS[doc][0], DOCUMENTS[doc][1])
    return DomainOutput(
        status="success",
        result={
            "protocol": code,
            "document": doc,
            "unit": unit,
            "day": day.isoformat(),
            "time": when,
            "fee": {"amount": FEES[doc], "currency": "BRL"},
        },
        explanation=say(
            lang,
            f"Agendado: {name}, {unit}, {day:%d/%m} às {when}. Protocolo {code}. Taxa R$ {FEES[doc]:.2f}.",
            f"Booked: {name}, {unit}, {day:%b %d} at {when}. Protocol {code}. Fee R$ {FEES[doc]:.2f}.",
        ),
    )


@service.capability(
    "document_request_status",
    {
        "pt": "Consulta o andamento de um pedido pelo número do protocolo",
        "en": "Check a request's status by protocol number",
    },
    parameters={
        "type": "object",
        "properties": {"protocol_text": {"type": "string", "minLength": 1}},
        "required": ["protocol_text"],
    },
    metadata={
        "intent_hints": {
            "keywords": ["status do protocolo", "andamento do passaporte", "protocol status"],
            "examples": ["meu passaporte já ficou pronto?", "is my passport ready?"],
        },
        "policy": {"read_only": True},
    },
)
def document_request_status(intent: ExecutionIntent) -> DomainOutput:
    lang = language(intent)
    code = norm_code(intent.parameters.get("protocol_text"))
    found = PROTOCOLS.get(code)
    if found is None:
        return fail(say(lang, f"Não achei o protocolo {code}.", f"No protocol {code}."), "not_found")
    doc, unit, day, when, state = found
    name = say(lang, DOCUMENTS[doc][0], DOCUMENTS[doc][1])
    text = say(lang, STATES[state][0], STATES[state][1])
    return DomainOutput(
        status="success",
        result={"protocol": code, "document": doc, "unit": unit, "day": day.isoformat(), "state": state},
        explanation=say(
            lang,
            f"Protocolo {code} ({name}, {unit}, {day:%d/%m} {when}): {text}.",
            f"Protocol {code} ({name}, {unit}, {day:%b %d} {when}): {text}.",
        ),
    )


@service.capability(
    "cancel_document_appointment",
    {
        "pt": "Cancela um agendamento pelo número do protocolo",
        "en": "Cancel an appointment by its protocol number",
    },
    parameters={
        "type": "object",
        "properties": {"protocol_text": {"type": "string", "minLength": 1}},
        "required": ["protocol_text"],
    },
    metadata={
        "intent_hints": {
            "keywords": ["cancelar agendamento do passaporte", "cancel passport appointment"],
            "examples": ["quero cancelar meu agendamento do RG", "cancel my ID card appointment"],
        },
        "policy": {"confirm": True, "idempotent": False},
    },
)
def cancel_document_appointment(intent: ExecutionIntent) -> DomainOutput:
    lang = language(intent)
    code = norm_code(intent.parameters.get("protocol_text"))
    found = PROTOCOLS.get(code)
    if found is None:
        return fail(say(lang, f"Não achei o protocolo {code}.", f"No protocol {code}."), "not_found")
    doc, unit, day, when, state = found
    if state == "cancelled":
        return fail(
            say(lang, f"O protocolo {code} já foi cancelado.", f"{code} is already cancelled."),
            "already_cancelled",
        )
    if state != "scheduled":
        return fail(
            say(lang, "Esse pedido já foi atendido.", "That request was already served."), "not_cancellable"
        )
    if day <= today():
        return fail(
            say(
                lang,
                "Agendamentos de hoje não podem ser cancelados.",
                "Same-day appointments cannot be cancelled.",
            ),
            "too_late",
        )
    PROTOCOLS[code] = (doc, unit, day, when, "cancelled")
    return DomainOutput(
        status="success",
        result={"protocol": code, "state": "cancelled"},
        explanation=say(
            lang,
            f"Agendamento {code} ({unit}, {day:%d/%m} às {when}) cancelado.",
            f"Appointment {code} ({unit}, {day:%b %d} at {when}) cancelled.",
        ),
    )


_PROTOCOL = {
    "type": "string",
    "required": True,
    "description": {"pt": "O número do protocolo", "en": "The protocol number"},
}
service.add_goal(
    {
        "goal": "BOOK_DOCUMENT_APPOINTMENT",
        "description": {
            "pt": "Agendar atendimento para tirar um documento",
            "en": "Book an appointment for a document",
        },
        "entities_schema": {
            "document": {
                "type": "enum",
                "required": True,
                "values": list(DOCUMENTS),
                "synonyms": {
                    "PASSPORT": ["passaporte", "passport"],
                    "ID_CARD": [
                        "rg",
                        "identidade",
                        "carteira de identidade",
                        "id card",
                        "identity card",
                        "national id",
                    ],
                    "WORK_CARD": ["carteira de trabalho", "ctps", "work card", "work permit card"],
                },
                "description": {"pt": "O documento", "en": "The document"},
            },
            "day": {"type": "date", "required": True, "description": {"pt": "O dia", "en": "The day"}},
            "time": {"type": "time", "required": True, "description": {"pt": "O horário", "en": "The time"}},
            "unit_text": {
                "type": "string",
                "lookup": table(UNITS),
                "description": {"pt": "A unidade de atendimento", "en": "The office unit"},
            },
        },
        "capabilities": ["book_document_appointment"],
        "examples": [
            ex(
                "agenda passaporte pra quinta às 10h na lapa",
                document="PASSPORT",
                day="quinta",
                time="às 10h",
                unit_text="lapa",
            ),
            ex("quero tirar o RG sexta 14h", document="ID_CARD", day="sexta", time="14h"),
            ex(
                "marca horário pra carteira de trabalho amanhã às 9h",
                document="WORK_CARD",
                day="amanhã",
                time="às 9h",
            ),
            ex(
                "book a passport appointment on thursday at 11am at santo amaro",
                document="PASSPORT",
                day="thursday",
                time="at 11am",
                unit_text="santo amaro",
            ),
            ex(
                "I need to get my ID card done tomorrow at 2pm",
                document="ID_CARD",
                day="tomorrow",
                time="at 2pm",
            ),
        ],
    }
)
service.add_goal(
    {
        "goal": "DOCUMENT_REQUEST_STATUS",
        "description": {"pt": "Andamento de um pedido de documento", "en": "Status of a document request"},
        "entities_schema": {"protocol_text": _PROTOCOL},
        "capabilities": ["document_request_status"],
        "examples": [
            ex("como está o protocolo PR48125?", protocol_text="PR48125"),
            ex("meu passaporte do protocolo PR48130 já ficou pronto?", protocol_text="PR48130"),
            ex("status of protocol PR48125", protocol_text="PR48125"),
            ex("is request PR48130 ready for pickup?", protocol_text="PR48130"),
        ],
    }
)
service.add_goal(
    {
        "goal": "CANCEL_DOCUMENT_APPOINTMENT",
        "description": {"pt": "Cancelar um agendamento de documento", "en": "Cancel a document appointment"},
        "entities_schema": {"protocol_text": _PROTOCOL},
        "capabilities": ["cancel_document_appointment"],
        "examples": [
            ex("cancela o agendamento PR48120", protocol_text="PR48120"),
            ex("quero desmarcar o atendimento do protocolo PR48140", protocol_text="PR48140"),
            ex("cancel appointment PR48120", protocol_text="PR48120"),
            ex("please cancel my passport appointment PR48140", protocol_text="PR48140"),
        ],
    }
)

if __name__ == "__main__":
    serve(service)
