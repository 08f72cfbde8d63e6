"""Ski resort (round-19 bench domain): buy lift passes for a day, book a ski or snowboard lesson,
cancel a lesson by its code, and quote lift pass prices.

Fake, deterministic, in memory.
Run: ``python -m bench.understanding.round19.domains.ski_resort --port 8921``.
"""

from __future__ import annotations

from datetime import date, timedelta
from typing import Any

from bench.understanding.round19.domains._common import (
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

#: pass types (enum value -> synonyms, pt phrase first)
PASS_TYPES: dict[str, list[str]] = {
    "FULL_DAY": [
        "dia inteiro",
        "diária",
        "diaria",
        "diário",
        "passe diário",
        "full day",
        "full-day",
        "all day",
        "day pass",
        "day passes",
    ],
    "HALF_DAY": [
        "meio dia",
        "meio período",
        "meio periodo",
        "meia diária",
        "half day",
        "half-day",
        "afternoon pass",
    ],
    "NIGHT": ["noturno", "esqui noturno", "passe noturno", "night", "night pass", "night skiing"],
}
#: age groups (enum value -> synonyms)
AGE_GROUPS: dict[str, list[str]] = {
    "ADULT": ["adulto", "adultos", "adult", "adults"],
    "CHILD": ["criança", "crianças", "crianca", "criancas", "infantil", "kid", "kids", "child", "children"],
    "SENIOR": ["idoso", "idosos", "sênior", "senior", "seniors", "terceira idade"],
}
SPORTS: dict[str, list[str]] = {
    "SKI": ["esqui", "ski", "skiing", "esquiar"],
    "SNOWBOARD": ["snowboard", "snowboarding", "snow", "prancha"],
}
LEVELS: dict[str, list[str]] = {
    "BEGINNER": ["iniciante", "iniciantes", "primeira vez", "beginner", "beginners", "first time"],
    "INTERMEDIATE": ["intermediário", "intermediario", "intermediate"],
    "ADVANCED": ["avançado", "avancado", "advanced", "expert"],
}
#: instructors (canonical value <- aliases)
INSTRUCTORS: dict[str, list[str]] = {
    "Marco Rossi": ["marco rossi", "marco", "rossi"],
    "Ana Lima": ["ana lima", "ana", "professora ana"],
    "Lukas Weber": ["lukas weber", "lukas", "weber"],
    "Sofia Mendes": ["sofia mendes", "sofia"],
}
#: instructor -> sports taught
TEACHES: dict[str, tuple[str, ...]] = {
    "Marco Rossi": ("SKI",),
    "Ana Lima": ("SNOWBOARD",),
    "Lukas Weber": ("SKI",),
    "Sofia Mendes": ("SKI", "SNOWBOARD"),
}
#: adult price per pass type (BRL); children pay half, seniors 70%
PRICES: dict[str, float] = {"FULL_DAY": 250.0, "HALF_DAY": 160.0, "NIGHT": 120.0}
DISCOUNT: dict[str, float] = {"ADULT": 1.0, "CHILD": 0.5, "SENIOR": 0.7}
LESSON_PRICE = 300.0  # per student
FIRST_LESSON, LAST_LESSON = 9, 15  # start hours
MAX_PASSES, MAX_STUDENTS = 10, 4
#: night skiing only on Friday and Saturday
NIGHT_DAYS = (4, 5)
#: lessons (code -> sport, instructor, day, time, students, state)
LESSONS: dict[str, tuple[str, str, date, str, int, str]] = {
    "SL4101": ("SKI", "Marco Rossi", date(2026, 3, 12), "10:00", 1, "booked"),
    "SL4105": ("SNOWBOARD", "Ana Lima", date(2026, 3, 14), "09:00", 2, "booked"),
    "SL4110": ("SKI", "Lukas Weber", date(2026, 3, 13), "11:00", 1, "cancelled"),
    "SL4114": ("SNOWBOARD", "Sofia Mendes", date(2026, 3, 10), "14:00", 1, "booked"),
}
_next_pass = [8200]
_next_lesson = [4200]

PASS_LABEL = {
    "FULL_DAY": ("dia inteiro", "full day"),
    "HALF_DAY": ("meio dia", "half day"),
    "NIGHT": ("noturno", "night"),
}
AGE_LABEL = {"ADULT": ("adulto", "adult"), "CHILD": ("criança", "child"), "SENIOR": ("sênior", "senior")}
SPORT_LABEL = {"SKI": ("esqui", "ski"), "SNOWBOARD": ("snowboard", "snowboard")}

service = DomainService(
    "ski_resort",
    "0.1.0",
    {
        "pt": "Estação de esqui: passes de teleférico, aulas de esqui e snowboard, preços dos passes",
        "en": "Ski resort: lift passes, ski and snowboard lessons, lift pass prices",
    },
)


def _enum(values: dict[str, list[str]], pt: str, en: str, **extra: Any) -> dict[str, Any]:
    return {
        "type": "enum",
        "values": list(values),
        "synonyms": values,
        "description": {"pt": pt, "en": en},
        **extra,
    }


def _next_weekday(start: date, weekdays: tuple[int, ...]) -> date:
    d = start
    while d.weekday() not in weekdays:
        d += timedelta(days=1)
    return d


def _fmt_day(lang: str, d: date) -> str:
    return say(lang, f"{d:%d/%m}", f"{d:%b %d}")


@service.capability(
    "buy_lift_pass",
    {
        "pt": "Compra passes de teleférico para um dia (adulto quando a idade não é dita)",
        "en": "Buy lift passes for a day (adult when no age group is said)",
    },
    parameters={
        "type": "object",
        "properties": {
            "pass_type": {"type": "string", "enum": list(PASS_TYPES)},
            "day": {"type": "string", "pattern": "^\\d{4}-\\d{2}-\\d{2}$"},
            "passes": {"type": "number", "exclusiveMinimum": 0},
            "age_group": {"type": "string", "enum": list(AGE_GROUPS)},
        },
        "required": ["pass_type", "day", "passes"],
    },
    metadata={
        "intent_hints": {
            "keywords": ["passe de teleférico", "lift pass", "ski pass", "forfait"],
            "examples": ["quero comprar passe de teleférico", "I want to buy lift passes"],
        },
        "policy": {"confirm": True, "idempotent": False},
    },
)
def buy_lift_pass(intent: ExecutionIntent) -> DomainOutput:
    lang = language(intent)
    p = intent.parameters
    kind = str(p.get("pass_type") or "")
    day = read_day(p.get("day"))
    count = read_number(p.get("passes"))
    age = str(p.get("age_group") or "ADULT")
    if kind not in PRICES or day is None or count is None or age not in DISCOUNT:
        return fail(
            say(lang, "Faltam dados da compra.", "Purchase details are missing."), "missing_parameter"
        )
    n = int(count)
    if day < today():
        return fail(say(lang, "Esse dia já passou.", "That day is past."), "past_day")
    if n > MAX_PASSES:
        return fail(
            say(
                lang,
                f"Vendemos no máximo {MAX_PASSES} passes por compra; grupos maiores na bilheteria.",
                f"At most {MAX_PASSES} passes per purchase; larger groups at the ticket office.",
            ),
            "too_many_passes",
        )
    if kind == "NIGHT" and day.weekday() not in NIGHT_DAYS:
        friday = _next_weekday(day, NIGHT_DAYS)
        return fail(
            say(
                lang,
                "O esqui noturno só abre às sextas e sábados.",
                "Night skiing is open on Fridays and Saturdays only.",
            ),
            "no_night_skiing",
            recoverable=True,
            suggestions=[{"day": friday.isoformat()}],
        )
    unit = PRICES[kind] * DISCOUNT[age]
    total = unit * n
    _next_pass[0] += 1
    code = f"LP{_next_pass[0]}"
    k_pt, k_en = PASS_LABEL[kind]
    a_pt, a_en = AGE_LABEL[age]
    return DomainOutput(
        status="success",
        result={
            "code": code,
            "pass_type": kind,
            "day": day.isoformat(),
            "passes": n,
            "age_group": age,
            "total": {"amount": total, "currency": "BRL"},
        },
        explanation=say(
            lang,
            f"Compra {code}: {n} passe(s) {k_pt} ({a_pt}) para {_fmt_day(lang, day)}. Total R$ {total:.2f}.",
            f"Purchase {code}: {n} {k_en} pass(es) ({a_en}) for {_fmt_day(lang, day)}. Total R$ {total:.2f}.",
        ),
    )


@service.capability(
    "book_ski_lesson",
    {
        "pt": (
            "Agenda uma aula de esqui ou snowboard num dia e horário"
            " (com qualquer instrutor livre quando nenhum é dito)"
        ),
        "en": (
            "Book a ski or snowboard lesson on a day and time (with any free instructor when none is named)"
        ),
    },
    parameters={
        "type": "object",
        "properties": {
            "sport": {"type": "string", "enum": list(SPORTS)},
            "day": {"type": "string", "pattern": "^\\d{4}-\\d{2}-\\d{2}$"},
            "time": {"type": "string", "pattern": "^\\d{2}:\\d{2}$"},
            "students": {"type": "number", "exclusiveMinimum": 0},
            "level": {"type": "string", "enum": list(LEVELS)},
            "instructor_text": {"type": "string"},
        },
        "required": ["sport", "day", "time"],
    },
    metadata={
        "intent_hints": {
            "keywords": ["aula de esqui", "aula de snowboard", "ski lesson", "snowboard lesson", "instrutor"],
            "examples": ["quero marcar uma aula de esqui", "book a ski lesson"],
        },
        "policy": {"confirm": True, "idempotent": False},
    },
)
def book_ski_lesson(intent: ExecutionIntent) -> DomainOutput:
    lang = language(intent)
    p = intent.parameters
    sport = str(p.get("sport") or "")
    day = read_day(p.get("day"))
    at = hhmm(p.get("time")) if p.get("time") else None
    if sport not in SPORTS or day is None or at is None:
        return fail(say(lang, "Faltam dados da aula.", "Lesson details are missing."), "missing_parameter")
    students = int(read_number(p.get("students")) or 1)
    said = str(p.get("instructor_text") or "").strip()
    teachers = [name for name, sports in TEACHES.items() if sport in sports]
    if said:
        who = resolve_name(INSTRUCTORS, said)
        if who is None or sport not in TEACHES[who]:
            s_pt, s_en = SPORT_LABEL[sport]
            return clarify(
                say(
                    lang,
                    f"Não temos instrutor '{said}' de {s_pt}. Com quem?",
                    f"No {s_en} instructor '{said}'. Which one?",
                ),
                [option(t, t, aliases=INSTRUCTORS[t][1:]) for t in teachers],
                param="instructor_text",
            )
    else:
        who = teachers[0]
    if day < today():
        return fail(say(lang, "Esse dia já passou.", "That day is past."), "past_day")
    if students > MAX_STUDENTS:
        return fail(
            say(
                lang,
                f"Uma aula tem no máximo {MAX_STUDENTS} alunos.",
                f"A lesson takes at most {MAX_STUDENTS} students.",
            ),
            "too_many_students",
            recoverable=True,
            suggestions=[{"students": MAX_STUDENTS}],
        )
    if not (FIRST_LESSON <= at[0] <= LAST_LESSON):
        return fail(
            say(lang, "As aulas começam entre 9h e 15h.", "Lessons start between 9am and 3pm."),
            "outside_hours",
            recoverable=True,
            suggestions=[{"time": "09:00" if at[0] < FIRST_LESSON else "15:00"}],
        )
    _next_lesson[0] += 1
    code = f"SL{_next_lesson[0]}"
    when = f"{at[0]:02d}:{at[1]:02d}"
    LESSONS[code] = (sport, who, day, when, students, "booked")
    total = LESSON_PRICE * students
    s_pt, s_en = SPORT_LABEL[sport]
    return DomainOutput(
        status="success",
        result={
            "code": code,
            "sport": sport,
            "instructor": who,
            "day": day.isoformat(),
            "time": when,
            "students": students,
            "total": {"amount": total, "currency": "BRL"},
        },
        explanation=say(
            lang,
            f"Aula {code}: {s_pt} com {who}, {_fmt_day(lang, day)} às {when}, "
            f"{students} aluno(s). Total R$ {total:.2f}.",
            f"Lesson {code}: {s_en} with {who}, {_fmt_day(lang, day)} at {when}, "
            f"{students} student(s). Total R$ {total:.2f}.",
        ),
    )


@service.capability(
    "cancel_ski_lesson",
    {"pt": "Cancela uma aula de esqui ou snowboard", "en": "Cancel a ski or snowboard lesson"},
    parameters={
        "type": "object",
        "properties": {"lesson_text": {"type": "string", "minLength": 1}},
        "required": ["lesson_text"],
    },
    metadata={
        "intent_hints": {
            "keywords": ["cancelar aula de esqui", "cancel ski lesson"],
            "examples": ["quero cancelar minha aula de esqui", "cancel my snowboard lesson"],
        },
        "policy": {"confirm": True, "idempotent": False},
    },
)
def cancel_ski_lesson(intent: ExecutionIntent) -> DomainOutput:
    lang = language(intent)
    code = norm_code(intent.parameters.get("lesson_text"))
    lesson = LESSONS.get(code)
    if lesson is None:
        return fail(say(lang, f"Não achei a aula {code}.", f"No lesson {code}."), "not_found")
    sport, who, day, when, n, state = lesson
    if state == "cancelled":
        return fail(
            say(lang, f"A aula {code} já foi cancelada.", f"Lesson {code} is already cancelled."),
            "already_cancelled",
        )
    if day <= today():
        return fail(
            say(
                lang,
                "Aulas de hoje não podem ser canceladas.",
                "Lessons on the same day cannot be cancelled.",
            ),
            "too_late",
        )
    LESSONS[code] = (sport, who, day, when, n, "cancelled")
    s_pt, s_en = SPORT_LABEL[sport]
    return DomainOutput(
        status="success",
        result={"code": code, "state": "cancelled", "day": day.isoformat()},
        explanation=say(
            lang,
            f"Aula {code} ({s_pt} com {who}, {_fmt_day(lang, day)} às {when}) cancelada.",
            f"Lesson {code} ({s_en} with {who}, {_fmt_day(lang, day)} at {when}) cancelled.",
        ),
    )


@service.capability(
    "lift_pass_price",
    {"pt": "Informa os preços dos passes de teleférico", "en": "Quote the lift pass prices"},
    parameters={
        "type": "object",
        "properties": {
            "pass_type": {"type": "string", "enum": list(PASS_TYPES)},
            "age_group": {"type": "string", "enum": list(AGE_GROUPS)},
            "passes": {"type": "number", "exclusiveMinimum": 0},
        },
    },
    metadata={
        "intent_hints": {
            "keywords": ["preço do passe", "quanto custa o passe", "lift pass price", "ski pass cost"],
            "examples": ["quanto custa o passe de teleférico?", "how much is a lift pass?"],
        },
        "policy": {"read_only": True},
    },
)
def lift_pass_price(intent: ExecutionIntent) -> DomainOutput:
    lang = language(intent)
    p = intent.parameters
    kinds = [str(p["pass_type"])] if p.get("pass_type") in PRICES else list(PRICES)
    ages = [str(p["age_group"])] if p.get("age_group") in DISCOUNT else list(DISCOUNT)
    n = int(read_number(p.get("passes")) or 1)
    rows = []
    parts = []
    for k in kinds:
        for a in ages:
            total = PRICES[k] * DISCOUNT[a] * n
            rows.append({"pass_type": k, "age_group": a, "total": {"amount": total, "currency": "BRL"}})
            k_pt, k_en = PASS_LABEL[k]
            a_pt, a_en = AGE_LABEL[a]
            parts.append(say(lang, f"{k_pt}, {a_pt}: R$ {total:.2f}", f"{k_en}, {a_en}: R$ {total:.2f}"))
    head = say(lang, f"Preço para {n} passe(s)", f"Price for {n} pass(es)")
    tail = say(lang, "Esqui noturno só sextas e sábados.", "Night skiing Fridays and Saturdays only.")
    return DomainOutput(
        status="success",
        result={"passes": n, "prices": rows},
        explanation=f"{head}: " + "; ".join(parts) + f". {tail}",
    )


service.add_goal(
    {
        "goal": "BUY_LIFT_PASS",
        "description": {"pt": "Comprar passes de teleférico", "en": "Buy lift passes"},
        "entities_schema": {
            "pass_type": _enum(PASS_TYPES, "O tipo de passe", "The kind of pass", required=True),
            "day": {
                "type": "date",
                "required": True,
                "description": {"pt": "O dia de esqui", "en": "The ski day"},
            },
            "passes": {
                "type": "number",
                "required": True,
                "description": {"pt": "Quantos passes", "en": "How many passes"},
            },
            "age_group": _enum(AGE_GROUPS, "A faixa de idade", "The age group"),
        },
        "capabilities": ["buy_lift_pass"],
        "examples": [
            ex(
                "compra 2 passes de dia inteiro pra sexta",
                passes="2 passes",
                pass_type="FULL_DAY",
                day="sexta",
            ),
            ex(
                "quero 3 passes de teleférico meio dia amanhã, 3 crianças",
                passes="3 passes",
                pass_type="HALF_DAY",
                day="amanhã",
                age_group="CHILD",
            ),
            ex("passe noturno pra sábado, 4 pessoas", pass_type="NIGHT", day="sábado", passes="4 pessoas"),
            ex(
                "buy 2 full day lift passes for Saturday",
                passes="2",
                pass_type="FULL_DAY",
                day="Saturday",
            ),
            ex(
                "get us 4 half-day passes tomorrow, two adults and two kids",
                passes="4",
                pass_type="HALF_DAY",
                day="tomorrow",
            ),
            ex("I need 1 night pass for friday", passes="1", pass_type="NIGHT", day="friday"),
        ],
    }
)
service.add_goal(
    {
        "goal": "BOOK_SKI_LESSON",
        "description": {
            "pt": "Marcar uma aula de esqui ou snowboard",
            "en": "Book a ski or snowboard lesson",
        },
        "entities_schema": {
            "sport": _enum(SPORTS, "Esqui ou snowboard", "Ski or snowboard", required=True),
            "day": {
                "type": "date",
                "required": True,
                "description": {"pt": "O dia da aula", "en": "The lesson day"},
            },
            "time": {
                "type": "time",
                "required": True,
                "description": {"pt": "O horário da aula", "en": "The lesson time"},
            },
            "students": {
                "type": "number",
                "description": {"pt": "Quantos alunos", "en": "How many students"},
            },
            "level": _enum(LEVELS, "O nível", "The level"),
            "instructor_text": {
                "type": "string",
                "lookup": table(INSTRUCTORS),
                "description": {"pt": "O instrutor", "en": "The instructor"},
            },
        },
        "capabilities": ["book_ski_lesson"],
        "examples": [
            ex("marca uma aula de esqui quinta às 10h", sport="SKI", day="quinta", time="às 10h"),
            ex(
                "aula de snowboard com a Ana sábado 9h pra 2 alunos, iniciante",
                sport="SNOWBOARD",
                instructor_text="Ana",
                day="sábado",
                time="9h",
                students="2 alunos",
                level="BEGINNER",
            ),
            ex(
                "quero aula de esqui com o marco rossi amanhã às 11h",
                sport="SKI",
                instructor_text="marco rossi",
                day="amanhã",
                time="às 11h",
            ),
            ex("book a ski lesson on friday at 10am", sport="SKI", day="friday", time="at 10am"),
            ex(
                "snowboard lesson with Sofia tomorrow at 2pm for 3 students, intermediate",
                sport="SNOWBOARD",
                instructor_text="Sofia",
                day="tomorrow",
                time="at 2pm",
                students="3 students",
                level="INTERMEDIATE",
            ),
        ],
    }
)
service.add_goal(
    {
        "goal": "CANCEL_SKI_LESSON",
        "description": {
            "pt": "Cancelar uma aula de esqui ou snowboard",
            "en": "Cancel a ski or snowboard lesson",
        },
        "entities_schema": {
            "lesson_text": {
                "type": "string",
                "required": True,
                "description": {"pt": "O código da aula", "en": "The lesson code"},
            }
        },
        "capabilities": ["cancel_ski_lesson"],
        "examples": [
            ex("cancela a aula SL4101", lesson_text="SL4101"),
            ex("quero cancelar minha aula de esqui SL4105", lesson_text="SL4105"),
            ex("cancel ski lesson SL4101", lesson_text="SL4101"),
            ex("please cancel my snowboard lesson SL4105", lesson_text="SL4105"),
        ],
    }
)
service.add_goal(
    {
        "goal": "LIFT_PASS_PRICE",
        "description": {"pt": "O preço dos passes de teleférico", "en": "The price of lift passes"},
        "entities_schema": {
            "pass_type": _enum(PASS_TYPES, "O tipo de passe", "The kind of pass"),
            "age_group": _enum(AGE_GROUPS, "A faixa de idade", "The age group"),
            "passes": {"type": "number", "description": {"pt": "Quantos passes", "en": "How many passes"}},
        },
        "capabilities": ["lift_pass_price"],
        "examples": [
            "quanto custa o passe de teleférico?",
            ex("qual o preço do passe noturno?", pass_type="NIGHT"),
            ex(
                "quanto sai 3 passes de meio dia pra criança?",
                passes="3 passes",
                pass_type="HALF_DAY",
                age_group="CHILD",
            ),
            "how much is a lift pass?",
            ex("price of a full day pass for a senior", pass_type="FULL_DAY", age_group="SENIOR"),
            "lift ticket prices",
        ],
    }
)

if __name__ == "__main__":
    serve(service)
