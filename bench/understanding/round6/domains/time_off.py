"""Time off (round-6 bench domain): request leave, cancel a leave request, check my balance.

Fake, deterministic, in memory. Run: ``python -m bench.understanding.round6.domains.time_off --port 8161``.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from datetime import date, timedelta
from typing import Any

from bench.understanding.round6.domains._common import (
    code_of,
    ex,
    language,
    read_day,
    read_number,
    say,
    today,
)
from sdk.service import DomainService, clarify, fail, option, serve
from shared.models import DomainOutput, ExecutionIntent

LEAVE_TYPES = ["VACATION", "SICK", "PERSONAL", "PARENTAL"]
LEAVE_SYNONYMS: dict[str, list[str]] = {
    "VACATION": ["férias", "de férias", "tirar férias", "vacation", "vacation days", "holiday", "holidays"],
    "SICK": [
        "licença médica",
        "atestado",
        "atestado médico",
        "doente",
        "sick",
        "sick leave",
        "sick day",
        "sick days",
    ],
    "PERSONAL": [
        "folga",
        "folgas",
        "day off",
        "dia de folga",
        "motivo pessoal",
        "assunto pessoal",
        "personal day",
        "personal leave",
    ],
    "PARENTAL": [
        "licença maternidade",
        "licença paternidade",
        "licença parental",
        "maternity leave",
        "paternity leave",
        "parental leave",
    ],
}
LEAVE_NAMES = {
    "VACATION": ("férias", "vacation"),
    "SICK": ("licença médica", "sick leave"),
    "PERSONAL": ("folga", "personal day"),
    "PARENTAL": ("licença parental", "parental leave"),
}
#: working days left this year, per leave type (sick leave has no cap but needs a certificate)
BALANCE: dict[str, int] = {"VACATION": 18, "SICK": 0, "PERSONAL": 3, "PARENTAL": 20}
SICK_WITHOUT_CERTIFICATE = 2
HALVES = {"MORNING": ("manhã", "morning"), "AFTERNOON": ("tarde", "afternoon")}


@dataclass
class Leave:
    code: str
    leave_type: str
    start: str
    days: float
    status: str = "approved"  # approved, pending

    def end(self) -> date:
        start = read_day(self.start) or today()
        return _add_working_days(start, max(1, round(self.days + 0.49)) - 1)

    def describe(self, lang: str = "pt") -> str:
        name = LEAVE_NAMES[self.leave_type][0 if lang == "pt" else 1]
        return say(
            lang,
            f"{self.code}: {name} de {self.start} a {self.end().isoformat()}, {self.days:g} dia(s) úteis, "
            + ("aprovada" if self.status == "approved" else "pendente"),
            f"{self.code}: {name} from {self.start} to {self.end().isoformat()}, {self.days:g} workday(s), "
            + self.status,
        )


def _add_working_days(start: date, n: int) -> date:
    day = start
    while n > 0:
        day += timedelta(days=1)
        if day.weekday() < 5:
            n -= 1
    return day


def _working_days(start: date, end: date) -> int:
    return sum(1 for i in range((end - start).days + 1) if (start + timedelta(days=i)).weekday() < 5)


LEAVES: dict[str, Leave] = {
    leave.code: leave
    for leave in (
        Leave("LV4102", "VACATION", "2026-03-23", 5),
        Leave("LV4118", "PERSONAL", "2026-03-13", 1, "pending"),
        Leave("LV4075", "SICK", "2026-03-02", 2),  # over: cannot be cancelled
        Leave("LV4130", "VACATION", "2026-04-06", 10),
        Leave("LV4099", "PERSONAL", "2026-03-10", 1),  # today: too late to cancel
    )
}
_next_code = [5000]

service = DomainService(
    "time_off",
    "0.1.0",
    {
        "pt": "Férias e folgas: pedir ausência, cancelar um pedido e ver o saldo de dias",
        "en": "Time off: request leave, cancel a leave request and check your balance",
    },
)

LEAVE_TYPE_ENTITY: dict[str, Any] = {
    "type": "enum",
    "values": LEAVE_TYPES,
    "synonyms": LEAVE_SYNONYMS,
    "description": {"pt": "O tipo de ausência", "en": "The kind of leave"},
}


def _leave_type(value: object) -> str | None:
    text = str(value or "").strip().upper()
    return text if text in LEAVE_TYPES else None


@service.capability(
    "request_leave",
    {"pt": "Registra um pedido de ausência", "en": "File a leave request"},
    parameters={
        "type": "object",
        "properties": {
            "leave_type": {"type": "string", "enum": LEAVE_TYPES},
            "start": {"type": "string", "pattern": "^\\d{4}-\\d{2}-\\d{2}$"},
            "days": {"type": "number", "minimum": 0.5},
            "end_date": {"type": "string", "pattern": "^\\d{4}-\\d{2}-\\d{2}$"},
            "half_day": {"type": "boolean"},
            "half": {"type": "string", "enum": list(HALVES)},
        },
        "required": ["leave_type", "start"],
        "anyOf": [{"required": ["days"]}, {"required": ["end_date"]}],
    },
    metadata={
        "intent_hints": {
            "keywords": [
                "férias",
                "folga",
                "ausência",
                "licença",
                "time off",
                "leave request",
                "day off",
                "pto",
            ],
            "examples": ["quero pedir férias", "I'd like to request some time off"],
        },
        "policy": {"confirm": True, "idempotent": False},
    },
)
def request_leave(intent: ExecutionIntent) -> DomainOutput:
    lang = language(intent)
    p = intent.parameters
    kind = _leave_type(p.get("leave_type"))
    start = read_day(p.get("start"))
    if kind is None or start is None:
        return fail(
            say(
                lang,
                "Faltam o tipo de ausência ou o dia de início.",
                "The kind of leave or the first day is missing.",
            ),
            "missing_parameter",
        )
    if start < today():
        return fail(say(lang, "Esse dia já passou.", "That day has passed."), "past_day")
    if start.weekday() >= 5:
        monday = start + timedelta(days=7 - start.weekday())
        return fail(
            say(
                lang,
                f"{start.isoformat()} não é dia útil; pode começar na segunda, {monday.isoformat()}.",
                f"{start.isoformat()} is not a working day; it can start on Monday, {monday.isoformat()}.",
            ),
            "weekend_start",
            recoverable=True,
            suggestions=[{"start": monday.isoformat()}],
        )
    end = read_day(p.get("end_date"))
    days_said = read_number(p.get("days"))
    half_day = bool(p.get("half_day"))
    if end is not None:
        if end < start:
            return fail(
                say(lang, "O último dia vem antes do primeiro.", "The last day is before the first one."),
                "end_before_start",
            )
        days: float = _working_days(start, end)
    elif days_said is not None:
        days = float(days_said)
    elif half_day:
        days = 0.5
    else:
        return fail(say(lang, "Quantos dias?", "How many days?"), "missing_parameter")
    if half_day:
        if days > 1:
            return fail(
                say(lang, "Meio período vale para um dia só.", "A half day is for one day only."),
                "half_day_too_long",
                recoverable=True,
                suggestions=[{"half_day": False}],
            )
        half = str(p.get("half") or "").upper()
        if half not in HALVES:
            return clarify(
                say(
                    lang, "Meio período de manhã ou à tarde?", "Half day in the morning or in the afternoon?"
                ),
                [
                    option(
                        "MORNING",
                        say(lang, "manhã", "morning"),
                        aliases=["manhã", "de manhã", "morning", "am"],
                    ),
                    option(
                        "AFTERNOON",
                        say(lang, "tarde", "afternoon"),
                        aliases=["tarde", "à tarde", "afternoon", "pm"],
                    ),
                ],
                param="half",
                metadata={"resolution": "which_half"},
            )
        days = 0.5
    if kind == "SICK" and days > SICK_WITHOUT_CERTIFICATE:
        return fail(
            say(
                lang,
                f"Licença médica de mais de {SICK_WITHOUT_CERTIFICATE} dias precisa de atestado: registro "
                f"{SICK_WITHOUT_CERTIFICATE} dias agora e o resto com o atestado no RH.",
                f"Sick leave over {SICK_WITHOUT_CERTIFICATE} days needs a doctor's note: I can file "
                f"{SICK_WITHOUT_CERTIFICATE} days now and the rest with HR once you have the note.",
            ),
            "certificate_required",
            recoverable=True,
            suggestions=[{"days": SICK_WITHOUT_CERTIFICATE}],
        )
    if kind != "SICK" and days > BALANCE[kind]:
        return fail(
            say(
                lang,
                f"Seu saldo de {LEAVE_NAMES[kind][0]} é de {BALANCE[kind]} dias.",
                f"Your {LEAVE_NAMES[kind][1]} balance is {BALANCE[kind]} days.",
            ),
            "not_enough_balance",
            recoverable=True,
            suggestions=[{"days": BALANCE[kind]}],
        )
    last = _add_working_days(start, max(1, round(days + 0.49)) - 1)
    for other in LEAVES.values():
        other_start = read_day(other.start) or today()
        if other_start <= last and start <= other.end():
            return fail(
                say(
                    lang,
                    f"Você já tem ausência nesses dias — {other.describe(lang)}.",
                    f"You already have leave on those days — {other.describe(lang)}.",
                ),
                "overlapping_leave",
            )
    _next_code[0] += 1
    leave = Leave(f"LV{_next_code[0]}", kind, start.isoformat(), days, "pending")
    LEAVES[leave.code] = leave
    if kind != "SICK":
        BALANCE[kind] -= int(days + 0.5)
    return DomainOutput(
        status="success",
        result=asdict(leave) | {"end": leave.end().isoformat(), "half": p.get("half")},
        explanation=say(
            lang,
            f"Pedido enviado ao seu gestor — {leave.describe(lang)}. Código {leave.code}.",
            f"Request sent to your manager — {leave.describe(lang)}. Your code is {leave.code}.",
        ),
    )


@service.capability(
    "cancel_leave",
    {"pt": "Cancela um pedido de ausência", "en": "Cancel a leave request"},
    parameters={
        "type": "object",
        "properties": {"leave_code_text": {"type": "string", "minLength": 1}},
        "required": ["leave_code_text"],
    },
    metadata={
        "intent_hints": {
            "keywords": ["cancelar férias", "cancelar folga", "cancel leave", "cancel my time off"]
        },
        "policy": {"confirm": True, "idempotent": False},
    },
)
def cancel_leave(intent: ExecutionIntent) -> DomainOutput:
    lang = language(intent)
    code = code_of(intent.parameters.get("leave_code_text"), "LV")
    leave = LEAVES.get(code)
    if leave is None:
        return fail(say(lang, f"Não achei o pedido {code}.", f"No leave request {code}."), "leave_not_found")
    start = read_day(leave.start) or today()
    if leave.end() < today():
        return fail(say(lang, f"A ausência {code} já passou.", f"The leave {code} is over."), "leave_over")
    if start <= today():
        return fail(
            say(
                lang,
                f"A ausência {code} já começou: fale com seu gestor.",
                f"The leave {code} has already started: talk to your manager.",
            ),
            "leave_started",
        )
    LEAVES.pop(code)
    if leave.leave_type != "SICK":
        BALANCE[leave.leave_type] += int(leave.days + 0.5)
    return DomainOutput(
        status="success",
        result={"code": code, "cancelled": True},
        explanation=say(
            lang, f"Pedido cancelado — {leave.describe(lang)}.", f"Cancelled — {leave.describe(lang)}."
        ),
    )


@service.capability(
    "leave_balance",
    {"pt": "Mostra o saldo de dias de ausência", "en": "Show your leave balance"},
    parameters={"type": "object", "properties": {"leave_type": {"type": "string", "enum": LEAVE_TYPES}}},
    metadata={
        "intent_hints": {
            "keywords": ["saldo de férias", "quantos dias de férias", "leave balance", "days off left"]
        },
        "policy": {"read_only": True},
    },
)
def leave_balance(intent: ExecutionIntent) -> DomainOutput:
    lang = language(intent)
    kind = _leave_type(intent.parameters.get("leave_type"))
    kinds = [kind] if kind else ["VACATION", "PERSONAL", "PARENTAL", "SICK"]
    lines = []
    for k in kinds:
        name = LEAVE_NAMES[k][0 if lang == "pt" else 1]
        if k == "SICK":
            lines.append(
                say(
                    lang,
                    f"{name}: sem limite; até {SICK_WITHOUT_CERTIFICATE} dias sem atestado",
                    f"{name}: no cap; up to {SICK_WITHOUT_CERTIFICATE} days without a doctor's note",
                )
            )
        else:
            lines.append(say(lang, f"{name}: {BALANCE[k]} dias", f"{name}: {BALANCE[k]} days"))
    upcoming = sorted((x for x in LEAVES.values() if x.end() >= today()), key=lambda x: x.start)
    if upcoming:
        lines.append(say(lang, "Próximas ausências:", "Upcoming leave:"))
        lines.extend(x.describe(lang) for x in upcoming if kind is None or x.leave_type == kind)
    return DomainOutput(
        status="success",
        result={"balance": {k: BALANCE[k] for k in kinds}, "upcoming": [asdict(x) for x in upcoming]},
        explanation="\n".join(lines),
    )


service.add_goal(
    {
        "goal": "REQUEST_LEAVE",
        "description": {"pt": "Pedir férias, folga ou licença", "en": "Request vacation, a day off or leave"},
        "entities_schema": {
            "leave_type": LEAVE_TYPE_ENTITY | {"required": True},
            "start": {
                "type": "date",
                "required": True,
                "description": {"pt": "O primeiro dia da ausência", "en": "The first day off"},
            },
            "days": {
                "type": "number",
                "description": {"pt": "Quantos dias úteis", "en": "How many working days"},
            },
            "end_date": {
                "type": "date",
                "description": {"pt": "O último dia da ausência", "en": "The last day off"},
            },
            "half_day": {
                "type": "boolean",
                "description": {"pt": "Só meio período", "en": "Only half a day"},
                "synonyms": {"true": ["meio período", "meio expediente", "half day", "half-day"]},
            },
        },
        "required_one_of": [["days", "end_date"]],
        "capabilities": ["request_leave"],
        "examples": [
            ex(
                "quero tirar férias a partir do dia 16, 5 dias",
                leave_type="VACATION",
                start="dia 16",
                days="5 dias",
            ),
            ex(
                "pede férias de 20 de abril a 30 de abril",
                leave_type="VACATION",
                start="20 de abril",
                end_date="30 de abril",
            ),
            ex("preciso de uma folga na sexta, 1 dia", leave_type="PERSONAL", start="sexta", days="1 dia"),
            ex(
                "estou doente, lança licença médica hoje, 2 dias",
                leave_type="SICK",
                start="hoje",
                days="2 dias",
            ),
            ex(
                "registra minha licença paternidade a partir de segunda por vinte dias",
                leave_type="PARENTAL",
                start="segunda",
                days="vinte dias",
            ),
            ex(
                "folga de 1 dia na quinta, meio período",
                leave_type="PERSONAL",
                start="quinta",
                days="1 dia",
                half_day=True,
            ),
            ex(
                "I want to take vacation from April 6 to April 10",
                leave_type="VACATION",
                start="April 6",
                end_date="April 10",
            ),
            ex(
                "request a personal day on Friday, 1 day", leave_type="PERSONAL", start="Friday", days="1 day"
            ),
            ex("book sick leave starting today for 2 days", leave_type="SICK", start="today", days="2 days"),
            ex(
                "I need three days of vacation starting next Monday",
                leave_type="VACATION",
                start="next Monday",
                days="three days",
            ),
            ex(
                "1 day off on Thursday, half day",
                leave_type="PERSONAL",
                start="Thursday",
                days="1 day",
                half_day=True,
            ),
        ],
    }
)
service.add_goal(
    {
        "goal": "CANCEL_LEAVE",
        "description": {"pt": "Cancelar um pedido de férias ou folga", "en": "Cancel a leave request"},
        "entities_schema": {
            "leave_code_text": {
                "type": "string",
                "required": True,
                "description": {"pt": "O código do pedido", "en": "The request code"},
            }
        },
        "capabilities": ["cancel_leave"],
        "examples": [
            ex("cancela o pedido de férias LV4102", leave_code_text="LV4102"),
            ex("desisti da folga, cancela a LV4118", leave_code_text="LV4118"),
            ex("quero cancelar minha ausência LV4130", leave_code_text="LV4130"),
            ex("cancel leave request LV4102", leave_code_text="LV4102"),
            ex("please cancel my time off LV4130, I'm staying", leave_code_text="LV4130"),
        ],
    }
)
service.add_goal(
    {
        "goal": "LEAVE_BALANCE",
        "description": {"pt": "O saldo de dias de férias e folgas", "en": "Your balance of leave days"},
        "entities_schema": {"leave_type": LEAVE_TYPE_ENTITY},
        "capabilities": ["leave_balance"],
        "examples": [
            ex("quantos dias de férias eu ainda tenho?", leave_type="VACATION"),
            ex("qual meu saldo de folgas?", leave_type="PERSONAL"),
            ex("meu saldo de ausências"),
            ex("how many vacation days do I have left?", leave_type="VACATION"),
            ex("what's my leave balance?"),
            ex("how many personal days are left this year?", leave_type="PERSONAL"),
        ],
    }
)

if __name__ == "__main__":
    serve(service)
