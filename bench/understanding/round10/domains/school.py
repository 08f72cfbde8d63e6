"""School parent portal (round-10 bench domain): report an absence, grades, book a parent-teacher meeting.

Fake, deterministic, in memory.
Run: ``python -m bench.understanding.round10.domains.school --port 8202``.
"""

from __future__ import annotations

from bench.understanding.round10.domains._common import (
    ex,
    language,
    lookup_spec,
    read_day,
    read_time,
    resolve_loose,
    say,
    today,
)
from sdk.service import DomainService, clarify, fail, option, serve
from shared.models import DomainOutput, ExecutionIntent

#: the parent's children (canonical name <- other ways people write it)
CHILDREN: dict[str, list[str]] = {
    "Lucas Andrade": ["lucas", "luquinhas", "luke", "lucas andrade"],
    "Marina Andrade": ["marina", "mari", "nina", "marina andrade"],
}
GRADE_OF = {"Lucas Andrade": "5º ano B", "Marina Andrade": "8º ano A"}
#: teachers (canonical name <- aliases)
TEACHERS: dict[str, list[str]] = {
    "Profa. Helena Costa": ["helena", "prof helena", "professora helena", "helena costa", "ms costa"],
    "Prof. Ricardo Nunes": ["ricardo", "prof ricardo", "professor ricardo", "ricardo nunes", "mr nunes"],
    "Profa. Beatriz Lima": ["beatriz", "bia", "prof bia", "professora beatriz", "beatriz lima", "ms lima"],
    "Coordenação Pedagógica": ["coordenação", "coordenadora", "coordenacao", "coordinator", "coordination"],
}
#: weekdays (Monday=0) and hours each teacher meets parents
SLOTS = {
    "Profa. Helena Costa": ({1, 3}, range(14, 17)),
    "Prof. Ricardo Nunes": ({0, 2}, range(8, 11)),
    "Profa. Beatriz Lima": ({3, 4}, range(15, 18)),
    "Coordenação Pedagógica": ({0, 1, 2, 3, 4}, range(9, 17)),
}
SUBJECTS = ["MATH", "PORTUGUESE", "SCIENCE", "HISTORY", "GEOGRAPHY", "ENGLISH"]
SUBJECT_SYNONYMS: dict[str, list[str]] = {
    "MATH": ["matemática", "mat", "math", "maths", "mathematics"],
    "PORTUGUESE": ["português", "portugues", "port", "portuguese"],
    "SCIENCE": ["ciências", "ciencias", "science", "biology"],
    "HISTORY": ["história", "historia", "history"],
    "GEOGRAPHY": ["geografia", "geo", "geography"],
    "ENGLISH": ["inglês", "ingles", "english"],
}
GRADES = {
    "Lucas Andrade": {
        "MATH": 8.5,
        "PORTUGUESE": 7.0,
        "SCIENCE": 9.0,
        "HISTORY": 6.5,
        "GEOGRAPHY": 7.5,
        "ENGLISH": 9.5,
    },
    "Marina Andrade": {
        "MATH": 5.5,
        "PORTUGUESE": 8.0,
        "SCIENCE": 7.0,
        "HISTORY": 9.0,
        "GEOGRAPHY": 8.5,
        "ENGLISH": 6.0,
    },
}
REASONS = ["SICK", "DOCTOR", "TRIP", "FAMILY"]
REASON_SYNONYMS: dict[str, list[str]] = {
    "SICK": ["doente", "gripe", "febre", "passando mal", "sick", "ill", "flu", "fever"],
    "DOCTOR": ["consulta médica", "médico", "dentista", "exame", "doctor", "dentist", "checkup"],
    "TRIP": ["viagem", "viajando", "trip", "travel", "travelling"],
    "FAMILY": ["motivo familiar", "família", "funeral", "velório", "family", "family reasons"],
}
MAX_DAYS = 15
_next = [700]

service = DomainService(
    "school",
    "0.1.0",
    {
        "pt": "Portal dos pais: avisar falta, ver notas e marcar reunião com professor",
        "en": "Parent portal: report an absence, see grades and book a teacher meeting",
    },
)


def _child(lang: str, words: object) -> tuple[str | None, DomainOutput | None]:
    child = resolve_loose(words, CHILDREN)
    if child is None:
        return None, clarify(
            say(lang, "De qual filho?", "Which child?"),
            [option(c, c, aliases=CHILDREN[c]) for c in CHILDREN],
            param="child_text",
        )
    return child, None


@service.capability(
    "report_absence",
    {
        "pt": "Avisa a escola que o aluno vai faltar (um dia ou vários)",
        "en": "Tell the school a pupil will be absent",
    },
    parameters={
        "type": "object",
        "properties": {
            "child_text": {"type": "string", "minLength": 1},
            "start_day": {"type": "string", "pattern": "^\\d{4}-\\d{2}-\\d{2}$"},
            "end_day": {"type": "string", "pattern": "^\\d{4}-\\d{2}-\\d{2}$"},
            "reason": {"type": "string", "enum": REASONS},
        },
        "required": ["child_text", "start_day"],
    },
    metadata={
        "intent_hints": {
            "keywords": ["falta", "faltar", "justificar falta", "absence", "absent", "miss school"],
            "examples": ["meu filho vai faltar", "my kid will be absent"],
        },
        "policy": {"confirm": True, "idempotent": False},
    },
)
def report_absence(intent: ExecutionIntent) -> DomainOutput:
    lang = language(intent)
    p = intent.parameters
    child, question = _child(lang, p.get("child_text"))
    if question is not None:
        return question
    start = read_day(p.get("start_day"))
    end = read_day(p.get("end_day")) or start
    if start is None or end is None:
        return fail(say(lang, "Falta o dia.", "The day is missing."), "missing_parameter")
    if end < start:
        return fail(
            say(lang, "O último dia é antes do primeiro.", "The last day is before the first."), "bad_range"
        )
    if start < today().replace(day=1):
        return fail(
            say(
                lang,
                "Faltas de meses passados só na secretaria.",
                "Absences from past months go to the office.",
            ),
            "too_old",
        )
    days = (end - start).days + 1
    if days > MAX_DAYS:
        last = start.fromordinal(start.toordinal() + MAX_DAYS - 1)
        return fail(
            say(lang, "Pelo portal dá pra avisar até 15 dias.", "The portal takes up to 15 days."),
            "too_long",
            recoverable=True,
            suggestions=[{"end_day": last.isoformat()}],
        )
    _next[0] += 1
    ref = f"FT{_next[0]}"
    return DomainOutput(
        status="success",
        result={
            "ref": ref,
            "child": child,
            "start": start.isoformat(),
            "end": end.isoformat(),
            "reason": p.get("reason"),
        },
        explanation=say(
            lang,
            f"Falta de {child} avisada: {start:%d/%m}"
            + (f" a {end:%d/%m}" if end != start else "")
            + f". Protocolo {ref}.",
            f"Absence for {child} reported: {start:%b %d}"
            + (f" to {end:%b %d}" if end != start else "")
            + f". Ref {ref}.",
        ),
    )


@service.capability(
    "grades",
    {"pt": "Mostra as notas do bimestre", "en": "Show this term's grades"},
    parameters={
        "type": "object",
        "properties": {
            "child_text": {"type": "string", "minLength": 1},
            "subject": {"type": "string", "enum": SUBJECTS},
        },
        "required": ["child_text"],
    },
    metadata={
        "intent_hints": {
            "keywords": ["notas", "boletim", "nota de", "grades", "report card"],
            "examples": ["quero ver o boletim", "show me the report card"],
        },
        "policy": {"read_only": True},
    },
)
def grades(intent: ExecutionIntent) -> DomainOutput:
    lang = language(intent)
    child, question = _child(lang, intent.parameters.get("child_text"))
    if question is not None:
        return question
    assert child is not None  # resolved, or the question above
    subject = intent.parameters.get("subject")
    marks = GRADES[child]
    if subject:
        text = say(
            lang,
            f"{child}, {SUBJECT_SYNONYMS[subject][0]}: {marks[subject]:g}.",
            f"{child}, {subject.lower()}: {marks[subject]:g}.",
        )
        marks = {subject: marks[subject]}
    else:
        text = (
            f"{child} ({GRADE_OF[child]}): " + ", ".join(f"{k.lower()} {v:g}" for k, v in marks.items()) + "."
        )
    return DomainOutput(status="success", result={"child": child, "grades": marks}, explanation=text)


@service.capability(
    "book_meeting",
    {"pt": "Marca reunião de pais com um professor", "en": "Book a parent-teacher meeting"},
    parameters={
        "type": "object",
        "properties": {
            "teacher_text": {"type": "string", "minLength": 1},
            "day": {"type": "string", "pattern": "^\\d{4}-\\d{2}-\\d{2}$"},
            "time": {"type": "string", "pattern": "^\\d{2}:\\d{2}$"},
        },
        "required": ["teacher_text", "day", "time"],
    },
    metadata={
        "intent_hints": {
            "keywords": [
                "reunião com professor",
                "reunião de pais",
                "parent-teacher meeting",
                "meet the teacher",
            ],
            "examples": ["quero marcar reunião com a professora", "book a meeting with the teacher"],
        },
        "policy": {"confirm": True, "idempotent": False},
    },
)
def book_meeting(intent: ExecutionIntent) -> DomainOutput:
    lang = language(intent)
    p = intent.parameters
    teacher = resolve_loose(p.get("teacher_text"), TEACHERS)
    if teacher is None:
        return clarify(
            say(lang, f"Não achei “{p.get('teacher_text')}”. Com quem?", "Which teacher?"),
            [option(t, t, aliases=TEACHERS[t]) for t in TEACHERS],
            param="teacher_text",
        )
    day, time = read_day(p.get("day")), read_time(p.get("time"))
    if day is None or time is None:
        return fail(say(lang, "Falta o dia ou a hora.", "The day or time is missing."), "missing_parameter")
    weekdays, hours = SLOTS[teacher]
    if day.weekday() not in weekdays:
        nxt = next(
            day.fromordinal(day.toordinal() + k) for k in range(1, 8) if (day.weekday() + k) % 7 in weekdays
        )
        return fail(
            say(lang, f"{teacher} não atende nesse dia.", f"{teacher} does not meet parents that day."),
            "teacher_unavailable",
            recoverable=True,
            suggestions=[{"day": nxt.isoformat()}],
        )
    if int(time[:2]) not in hours:
        return fail(
            say(
                lang,
                f"{teacher} atende das {hours.start}h às {hours.stop}h.",
                f"{teacher} meets parents {hours.start}:00–{hours.stop}:00.",
            ),
            "outside_hours",
            recoverable=True,
            suggestions=[{"time": f"{hours.start:02d}:00"}],
        )
    _next[0] += 1
    return DomainOutput(
        status="success",
        result={"ref": f"RN{_next[0]}", "teacher": teacher, "day": day.isoformat(), "time": time},
        explanation=say(
            lang,
            f"Reunião marcada com {teacher}, {day:%d/%m} às {time}. Protocolo RN{_next[0]}.",
            f"Meeting booked with {teacher}, {day:%b %d} at {time}. Ref RN{_next[0]}.",
        ),
    )


CHILD_ENTITY = {
    "type": "string",
    "required": True,
    "description": {"pt": "O nome do aluno", "en": "The pupil's name"},
    "lookup": lookup_spec(CHILDREN),
}

service.add_goal(
    {
        "goal": "REPORT_ABSENCE",
        "description": {
            "pt": "Avisar que o filho vai faltar à aula",
            "en": "Report a child's absence from school",
        },
        "entities_schema": {
            "child_text": CHILD_ENTITY,
            "start_day": {
                "type": "date",
                "required": True,
                "description": {"pt": "O primeiro dia da falta", "en": "The first day of the absence"},
            },
            "end_day": {
                "type": "date",
                "description": {"pt": "O último dia da falta", "en": "The last day of the absence"},
            },
            "reason": {
                "type": "enum",
                "values": REASONS,
                "synonyms": REASON_SYNONYMS,
                "description": {"pt": "O motivo", "en": "The reason"},
            },
        },
        "capabilities": ["report_absence"],
        "examples": [
            ex(
                "o Lucas vai faltar amanhã, tá com febre",
                child_text="Lucas",
                start_day="amanhã",
                reason="SICK",
            ),
            ex(
                "a Marina não vai à aula de quinta a sexta, viagem",
                child_text="Marina",
                start_day="quinta",
                end_day="sexta",
                reason="TRIP",
            ),
            ex(
                "avisar falta da Mari no dia 20, consulta no dentista",
                child_text="Mari",
                start_day="dia 20",
                reason="DOCTOR",
            ),
            ex(
                "Lucas will be absent tomorrow, he has the flu",
                child_text="Lucas",
                start_day="tomorrow",
                reason="SICK",
            ),
            ex(
                "Marina is missing school from Monday to Wednesday for family reasons",
                child_text="Marina",
                start_day="Monday",
                end_day="Wednesday",
                reason="FAMILY",
            ),
        ],
    }
)
service.add_goal(
    {
        "goal": "GRADES",
        "description": {"pt": "Ver as notas do aluno", "en": "See the pupil's grades"},
        "entities_schema": {
            "child_text": CHILD_ENTITY,
            "subject": {
                "type": "enum",
                "values": SUBJECTS,
                "synonyms": SUBJECT_SYNONYMS,
                "description": {"pt": "A matéria", "en": "The subject"},
            },
        },
        "capabilities": ["grades"],
        "examples": [
            ex("notas do Lucas", child_text="Lucas"),
            ex("quanto a Marina tirou em matemática?", child_text="Marina", subject="MATH"),
            ex("boletim da nina", child_text="nina"),
            ex("Lucas's grades please", child_text="Lucas"),
            ex("what did Marina get in history?", child_text="Marina", subject="HISTORY"),
        ],
    }
)
service.add_goal(
    {
        "goal": "BOOK_MEETING",
        "description": {"pt": "Marcar reunião com um professor", "en": "Book a parent-teacher meeting"},
        "entities_schema": {
            "teacher_text": {
                "type": "string",
                "required": True,
                "description": {"pt": "O professor", "en": "The teacher"},
                "lookup": lookup_spec(TEACHERS),
            },
            "day": {"type": "date", "required": True, "description": {"pt": "O dia", "en": "The day"}},
            "time": {"type": "time", "required": True, "description": {"pt": "O horário", "en": "The time"}},
        },
        "capabilities": ["book_meeting"],
        "examples": [
            ex(
                "marcar reunião com a professora Helena quinta às 15h",
                teacher_text="Helena",
                day="quinta",
                time="às 15h",
            ),
            ex(
                "quero conversar com o prof Ricardo segunda 9h",
                teacher_text="Ricardo",
                day="segunda",
                time="9h",
            ),
            ex(
                "reunião com a coordenação dia 20 às 10h",
                teacher_text="coordenação",
                day="dia 20",
                time="às 10h",
            ),
            ex(
                "book a meeting with Ms Lima on Friday at 4pm",
                teacher_text="Ms Lima",
                day="Friday",
                time="4pm",
            ),
            ex(
                "parent-teacher meeting with Ricardo Wednesday 8:30am",
                teacher_text="Ricardo",
                day="Wednesday",
                time="8:30am",
            ),
        ],
    }
)

if __name__ == "__main__":
    serve(service)
