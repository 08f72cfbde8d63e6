"""Courses (round-7 bench domain): enrol in a course, drop a course, a course's price and schedule.

A language, tech and arts school. Fake, deterministic, in memory.
Run: ``python -m bench.understanding.round7.domains.courses --port 8173``.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any

from bench.understanding.round7.domains._common import (
    code_of,
    ex,
    language,
    lookup_spec,
    read_day,
    resolve_loose,
    say,
    today,
)
from sdk.service import DomainService, clarify, fail, option, serve
from shared.models import DomainOutput, ExecutionIntent

#: the courses (canonical name <- other ways people write it)
COURSES: dict[str, list[str]] = {
    "Python para Iniciantes": ["Python", "curso de python", "python for beginners", "python course"],
    "Inglês Intermediário": ["inglês", "ingles", "inglês intermediário", "English", "intermediate English"],
    "Espanhol Básico": ["espanhol", "espanhol básico", "Spanish", "beginner Spanish"],
    "Excel Avançado": ["Excel", "excel avançado", "planilhas", "advanced Excel"],
    "Fotografia Digital": ["fotografia", "foto", "photography", "digital photography"],
    "Violão Popular": ["violão", "violao", "guitar", "acoustic guitar"],
    "Marketing Digital": ["marketing", "marketing digital", "digital marketing"],
    "Culinária Italiana": ["culinária italiana", "cozinha italiana", "italian cooking", "cooking class"],
    "Libras": ["libras", "língua de sinais", "sign language"],
}
PERIODS = ["MORNING", "AFTERNOON", "EVENING"]
PERIOD_SYNONYMS: dict[str, list[str]] = {
    "MORNING": ["manhã", "de manhã", "pela manhã", "matutino", "morning", "in the morning", "mornings"],
    "AFTERNOON": [
        "tarde",
        "à tarde",
        "de tarde",
        "vespertino",
        "afternoon",
        "in the afternoon",
        "afternoons",
    ],
    "EVENING": [
        "noite",
        "à noite",
        "de noite",
        "noturno",
        "evening",
        "in the evening",
        "evenings",
        "at night",
    ],
}
PERIOD_NAMES = {
    "MORNING": ("manhã", "morning"),
    "AFTERNOON": ("tarde", "afternoon"),
    "EVENING": ("noite", "evening"),
}
TOPICS = ["PRICE", "SCHEDULE"]
TOPIC_SYNONYMS: dict[str, list[str]] = {
    "PRICE": ["preço", "mensalidade", "valor", "quanto custa", "price", "cost", "fee", "tuition", "how much"],
    "SCHEDULE": [
        "horário",
        "horários",
        "que dias",
        "quando começa",
        "schedule",
        "timetable",
        "when does it start",
    ],
}
#: monthly price in BRL, periods offered (a full one marked), weekdays, next start dates
CATALOG: dict[str, tuple[int, list[str], str, list[str]]] = {
    "Python para Iniciantes": (390, ["MORNING", "EVENING"], "seg e qua", ["2026-03-16", "2026-04-06"]),
    "Inglês Intermediário": (320, PERIODS, "ter e qui", ["2026-03-17", "2026-03-31"]),
    "Espanhol Básico": (290, ["AFTERNOON", "EVENING"], "seg e qua", ["2026-03-23"]),
    "Excel Avançado": (250, ["EVENING"], "ter", ["2026-03-17"]),
    "Fotografia Digital": (340, ["MORNING"], "sáb", ["2026-03-14", "2026-04-11"]),
    "Violão Popular": (210, ["AFTERNOON", "EVENING"], "sex", ["2026-03-13", "2026-03-20", "2026-03-27"]),
    "Marketing Digital": (360, ["EVENING"], "qua", ["2026-04-08"]),
    "Culinária Italiana": (420, ["AFTERNOON", "EVENING"], "qui", ["2026-03-19"]),
    "Libras": (180, ["MORNING", "EVENING"], "sáb", ["2026-03-14", "2026-03-28"]),
}
FULL = {("Culinária Italiana", "EVENING")}


@dataclass
class Enrollment:
    code: str
    course: str
    period: str
    start: str
    status: str = "active"  # active, finished

    def describe(self, lang: str = "pt") -> str:
        period = PERIOD_NAMES[self.period][0 if lang == "pt" else 1]
        return say(
            lang,
            f"{self.code}: {self.course}, {period}, início {self.start}",
            f"{self.code}: {self.course}, {period}, starts {self.start}",
        )


ENROLLMENTS: dict[str, Enrollment] = {
    e.code: e
    for e in (
        Enrollment("EN3104", "Inglês Intermediário", "EVENING", "2026-03-03"),
        Enrollment("EN3120", "Python para Iniciantes", "MORNING", "2026-03-16"),
        Enrollment("EN3077", "Fotografia Digital", "MORNING", "2026-01-10", "finished"),
        Enrollment("EN3131", "Violão Popular", "AFTERNOON", "2026-03-06"),
    )
}
_next_code = [4000]

service = DomainService(
    "courses",
    "0.1.0",
    {
        "pt": "Escola de cursos livres: matrícula, trancamento e informações de preço e horário",
        "en": "A course school: enrolment, dropping a course, prices and schedules",
    },
)


def _course(lang: str, value: object, param: str = "course_text") -> str | DomainOutput:
    course = resolve_loose(value, COURSES)
    if course is not None:
        return course
    return clarify(
        say(
            lang,
            f"Não temos o curso “{value}”. Qual destes?",
            f"We have no course “{value}”. Which of these?",
        ),
        [option(name, name, aliases=aliases) for name, aliases in COURSES.items()],
        param=param,
        metadata={"resolution": "unknown_course"},
    )


def _periods(lang: str, periods: list[str]) -> str:
    return ", ".join(PERIOD_NAMES[p][0 if lang == "pt" else 1] for p in periods)


@service.capability(
    "enroll_course",
    {"pt": "Faz a matrícula num curso", "en": "Enrol in a course"},
    parameters={
        "type": "object",
        "properties": {
            "course_text": {"type": "string", "minLength": 1},
            "class_period": {"type": "string", "enum": PERIODS},
            "start": {"type": "string", "pattern": "^\\d{4}-\\d{2}-\\d{2}$"},
        },
        "required": ["course_text", "class_period"],
    },
    metadata={
        "intent_hints": {
            "keywords": [
                "matrícula",
                "matricular",
                "inscrição",
                "curso",
                "enroll",
                "enrol",
                "sign up",
                "course",
            ],
            "examples": ["quero me matricular num curso", "sign me up for a course"],
        },
        "policy": {"confirm": True, "idempotent": False},
    },
)
def enroll_course(intent: ExecutionIntent) -> DomainOutput:
    lang = language(intent)
    p = intent.parameters
    course = _course(lang, p.get("course_text"))
    if isinstance(course, DomainOutput):
        return course
    price, periods, weekdays, starts = CATALOG[course]
    period = str(p.get("class_period") or "").upper()
    if period not in PERIODS:
        return fail(say(lang, "Qual turno?", "Which period?"), "missing_parameter")
    if period not in periods:
        return fail(
            say(
                lang,
                f"{course} só tem turma de {_periods(lang, periods)}.",
                f"{course} only runs in the {_periods(lang, periods)}.",
            ),
            "no_such_class",
            recoverable=True,
            suggestions=[{"class_period": periods[0]}],
        )
    if (course, period) in FULL:
        others = [x for x in periods if x != period and (course, x) not in FULL]
        return fail(
            say(
                lang,
                f"A turma da {PERIOD_NAMES[period][0]} de {course} está lotada.",
                f"The {course} {PERIOD_NAMES[period][1]} class is full.",
            ),
            "class_full",
            recoverable=bool(others),
            suggestions=[{"class_period": others[0]}] if others else None,
        )
    for e in ENROLLMENTS.values():
        if e.course == course and e.status == "active":
            return fail(
                say(
                    lang,
                    f"Você já está matriculado — {e.describe(lang)}.",
                    f"You are already enrolled — {e.describe(lang)}.",
                ),
                "already_enrolled",
            )
    start = read_day(p.get("start"))
    coming = [d for d in starts if d >= today().isoformat()]
    if start is not None and start < today():
        return fail(say(lang, "Essa data já passou.", "That date has passed."), "past_day")
    if start is None:
        start_text = coming[0]
    elif start.isoformat() in starts:
        start_text = start.isoformat()
    else:
        later = [d for d in starts if d >= start.isoformat()]
        return fail(
            say(
                lang,
                f"{course} começa turmas em {', '.join(starts)}.",
                f"{course} classes start on {', '.join(starts)}.",
            ),
            "no_class_starts_then",
            recoverable=bool(later),
            suggestions=[{"start": later[0]}] if later else None,
        )
    _next_code[0] += 1
    enrollment = Enrollment(f"EN{_next_code[0]}", course, period, start_text)
    ENROLLMENTS[enrollment.code] = enrollment
    return DomainOutput(
        status="success",
        result=asdict(enrollment) | {"monthly_brl": price},
        explanation=say(
            lang,
            f"Matrícula feita — {enrollment.describe(lang)}, {weekdays}, R$ {price:.2f}/mês. "
            f"Código {enrollment.code}.",
            f"Enrolled — {enrollment.describe(lang)}, R$ {price:.2f}/month. Your code is {enrollment.code}.",
        ),
    )


@service.capability(
    "drop_course",
    {"pt": "Tranca a matrícula num curso", "en": "Drop a course"},
    parameters={
        "type": "object",
        "properties": {
            "enrollment_code_text": {"type": "string", "minLength": 1},
            "course_text": {"type": "string", "minLength": 1},
        },
        "anyOf": [{"required": ["enrollment_code_text"]}, {"required": ["course_text"]}],
    },
    metadata={
        "intent_hints": {
            "keywords": ["trancar", "trancar matrícula", "desistir do curso", "drop course", "unenroll"]
        },
        "policy": {"confirm": True, "idempotent": False},
    },
)
def drop_course(intent: ExecutionIntent) -> DomainOutput:
    lang = language(intent)
    p = intent.parameters
    enrollment: Enrollment | None = None
    if p.get("enrollment_code_text"):
        code = code_of(p.get("enrollment_code_text"), "EN")
        enrollment = ENROLLMENTS.get(code)
        if enrollment is None:
            return fail(
                say(lang, f"Não achei a matrícula {code}.", f"No enrolment {code}."), "enrollment_not_found"
            )
    else:
        course = _course(lang, p.get("course_text"))
        if isinstance(course, DomainOutput):
            return course
        found = [e for e in ENROLLMENTS.values() if e.course == course and e.status == "active"]
        if not found:
            return fail(
                say(
                    lang,
                    f"Você não tem matrícula ativa em {course}.",
                    f"You have no active enrolment in {course}.",
                ),
                "enrollment_not_found",
            )
        enrollment = found[0]
    if enrollment.status != "active":
        return fail(
            say(lang, f"O curso {enrollment.code} já terminou.", f"The course {enrollment.code} is over."),
            "finished",
        )
    ENROLLMENTS.pop(enrollment.code)
    return DomainOutput(
        status="success",
        result={"code": enrollment.code, "dropped": True},
        explanation=say(
            lang,
            f"Matrícula trancada — {enrollment.describe(lang)}.",
            f"Dropped — {enrollment.describe(lang)}.",
        ),
    )


@service.capability(
    "course_info",
    {"pt": "Informa preço e horários de um curso", "en": "Tell a course's price and schedule"},
    parameters={
        "type": "object",
        "properties": {
            "course_text": {"type": "string", "minLength": 1},
            "topic": {"type": "string", "enum": TOPICS},
            "class_period": {"type": "string", "enum": PERIODS},
        },
        "required": ["course_text"],
    },
    metadata={
        "intent_hints": {"keywords": ["mensalidade", "horário do curso", "course price", "course schedule"]},
        "policy": {"read_only": True},
    },
)
def course_info(intent: ExecutionIntent) -> DomainOutput:
    lang = language(intent)
    p = intent.parameters
    course = _course(lang, p.get("course_text"))
    if isinstance(course, DomainOutput):
        return course
    price, periods, weekdays, starts = CATALOG[course]
    full = [PERIOD_NAMES[x][0 if lang == "pt" else 1] for x in periods if (course, x) in FULL]
    text = say(
        lang,
        f"{course}: R$ {price:.2f}/mês; turmas de {_periods(lang, periods)} ({weekdays}); "
        f"próximos inícios {', '.join(starts)}" + (f"; lotada: {', '.join(full)}" if full else "") + ".",
        f"{course}: R$ {price:.2f}/month; {_periods(lang, periods)} classes; next starts {', '.join(starts)}"
        + (f"; full: {', '.join(full)}" if full else "")
        + ".",
    )
    return DomainOutput(
        status="success",
        result={
            "course": course,
            "monthly_brl": price,
            "periods": periods,
            "weekdays": weekdays,
            "starts": starts,
        },
        explanation=text,
    )


COURSE_ENTITY: dict[str, Any] = {
    "type": "string",
    "description": {"pt": "O curso", "en": "The course"},
    "lookup": lookup_spec(COURSES),
}
PERIOD_ENTITY: dict[str, Any] = {
    "type": "enum",
    "values": PERIODS,
    "synonyms": PERIOD_SYNONYMS,
    "description": {
        "pt": "O turno (manhã, tarde ou noite)",
        "en": "The class period (morning, afternoon or evening)",
    },
}

service.add_goal(
    {
        "goal": "ENROLL_COURSE",
        "description": {"pt": "Fazer matrícula num curso", "en": "Enrol in a course"},
        "entities_schema": {
            "course_text": COURSE_ENTITY | {"required": True},
            "class_period": PERIOD_ENTITY | {"required": True},
            "start": {"type": "date", "description": {"pt": "A data de início", "en": "The start date"}},
        },
        "capabilities": ["enroll_course"],
        "examples": [
            ex("quero me matricular em Python à noite", course_text="Python", class_period="EVENING"),
            ex(
                "me inscreve no espanhol de tarde começando dia 23",
                course_text="espanhol",
                class_period="AFTERNOON",
                start="dia 23",
            ),
            ex(
                "faz minha matrícula no curso de fotografia de manhã",
                course_text="fotografia",
                class_period="MORNING",
            ),
            ex("quero fazer libras no turno da noite", course_text="libras", class_period="EVENING"),
            ex("sign me up for Excel in the evening", course_text="Excel", class_period="EVENING"),
            ex(
                "enroll me in the morning English class starting March 17",
                class_period="MORNING",
                course_text="English",
                start="March 17",
            ),
            ex(
                "I'd like to take italian cooking in the afternoon",
                course_text="italian cooking",
                class_period="AFTERNOON",
            ),
        ],
    }
)
service.add_goal(
    {
        "goal": "DROP_COURSE",
        "description": {"pt": "Trancar a matrícula num curso", "en": "Drop a course"},
        "entities_schema": {
            "enrollment_code_text": {
                "type": "string",
                "description": {"pt": "O código da matrícula", "en": "The enrolment code"},
            },
            "course_text": COURSE_ENTITY,
        },
        "required_one_of": [["enrollment_code_text", "course_text"]],
        "capabilities": ["drop_course"],
        "examples": [
            ex("tranca a matrícula EN3104", enrollment_code_text="EN3104"),
            ex("quero trancar o curso de violão", course_text="violão"),
            ex("desisto do inglês, tranca minha matrícula", course_text="inglês"),
            ex("drop my enrolment EN3131", enrollment_code_text="EN3131"),
            ex("I want to drop the Python course", course_text="Python"),
        ],
    }
)
service.add_goal(
    {
        "goal": "COURSE_INFO",
        "description": {"pt": "Preço e horários de um curso", "en": "A course's price and schedule"},
        "entities_schema": {
            "course_text": COURSE_ENTITY | {"required": True},
            "topic": {
                "type": "enum",
                "values": TOPICS,
                "synonyms": TOPIC_SYNONYMS,
                "description": {"pt": "Preço ou horário", "en": "Price or schedule"},
            },
            "class_period": PERIOD_ENTITY,
        },
        "capabilities": ["course_info"],
        "examples": [
            ex("qual a mensalidade do curso de Python?", topic="PRICE", course_text="Python"),
            ex("que dias tem aula de violão?", topic="SCHEDULE", course_text="violão"),
            ex("quanto custa o inglês à noite?", topic="PRICE", course_text="inglês", class_period="EVENING"),
            ex("how much is the photography course?", topic="PRICE", course_text="photography"),
            ex("what's the schedule for Spanish?", topic="SCHEDULE", course_text="Spanish"),
        ],
    }
)

if __name__ == "__main__":
    serve(service)
