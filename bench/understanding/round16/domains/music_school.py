"""Music school (round-16 bench domain): book a lesson of an instrument, price a package of
lessons, cancel a lesson by its code.

Fake, deterministic, in memory.
Run: ``python -m bench.understanding.round16.domains.music_school --port 8801``.
"""

from __future__ import annotations

from datetime import date, timedelta
from typing import Any

from bench.understanding.round16.domains._common import (
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

#: instrument (enum value <- synonyms; the first of each language is the label)
INSTRUMENTS: dict[str, list[str]] = {
    "PIANO": ["aula de piano", "piano", "teclado", "piano lesson", "keyboard", "keys"],
    "GUITAR": [
        "aula de violão",
        "violão",
        "violao",
        "violões",
        "guitar lesson",
        "guitar",
        "acoustic guitar",
    ],
    "ELECTRIC_GUITAR": [
        "guitarra elétrica",
        "guitarra",
        "guitarras",
        "electric guitar",
        "electric guitar lesson",
    ],
    "DRUMS": ["aula de bateria", "bateria", "batera", "drum lesson", "drums", "drum kit", "drumming"],
    "VIOLIN": ["aula de violino", "violino", "violin lesson", "violin", "fiddle"],
    "VOICE": [
        "aula de canto",
        "canto",
        "técnica vocal",
        "tecnica vocal",
        "singing lesson",
        "singing",
        "voice lesson",
        "vocal lessons",
    ],
}
LABEL = {
    "PIANO": ("piano", "piano"),
    "GUITAR": ("violão", "guitar"),
    "ELECTRIC_GUITAR": ("guitarra", "electric guitar"),
    "DRUMS": ("bateria", "drums"),
    "VIOLIN": ("violino", "violin"),
    "VOICE": ("canto", "singing"),
}
#: teachers (canonical value <- aliases)
TEACHERS: dict[str, list[str]] = {
    "Ana Ribeiro": ["ana", "prof ana", "professora ana", "ana ribeiro"],
    "Bruno Costa": ["bruno", "prof bruno", "professor bruno"],
    "Lucas Almeida": ["lucas", "prof lucas", "professor lucas"],
    "Marina Duarte": ["marina", "profa marina", "professora marina"],
}
#: who teaches what (the first is the house choice)
TEACHES: dict[str, list[str]] = {
    "PIANO": ["Ana Ribeiro", "Marina Duarte"],
    "GUITAR": ["Bruno Costa", "Lucas Almeida"],
    "ELECTRIC_GUITAR": ["Lucas Almeida"],
    "DRUMS": ["Bruno Costa"],
    "VIOLIN": ["Marina Duarte"],
    "VOICE": ["Ana Ribeiro"],
}
#: price of one lesson, BRL
PRICES: dict[str, int] = {
    "PIANO": 120,
    "GUITAR": 100,
    "ELECTRIC_GUITAR": 110,
    "DRUMS": 110,
    "VIOLIN": 130,
    "VOICE": 120,
}
FIRST_START, LAST_START = 8, 21
#: lessons (code -> instrument, day, time, teacher, state)
LESSONS: dict[str, tuple[str, date, str, str, str]] = {
    "MU4101": ("PIANO", date(2026, 3, 12), "15:00", "Ana Ribeiro", "booked"),
    "MU4105": ("DRUMS", date(2026, 3, 14), "10:00", "Bruno Costa", "booked"),
    "MU4110": ("GUITAR", date(2026, 3, 16), "19:00", "Lucas Almeida", "cancelled"),
    "MU4114": ("VOICE", date(2026, 3, 10), "18:00", "Ana Ribeiro", "booked"),
}
_next = [4200]

service = DomainService(
    "music_school",
    "0.1.0",
    {
        "pt": "Escola de música: marcar aula de um instrumento, preço de pacote de aulas, cancelar aula",
        "en": "Music school: book an instrument lesson, price of a lesson package, cancel a lesson",
    },
)


def _discount(lessons: int) -> float:
    if lessons >= 12:
        return 0.15
    if lessons >= 8:
        return 0.10
    if lessons >= 4:
        return 0.05
    return 0.0


def _instrument(p: dict[str, Any]) -> str | None:
    kind = str(p.get("instrument") or "").upper()
    return kind if kind in INSTRUMENTS else None


@service.capability(
    "book_music_lesson",
    {
        "pt": (
            "Marca uma aula de um instrumento num dia e hora (seg a sáb, 8h "
            "às 21h; com o professor da casa, se não disser)"
        ),
        "en": (
            "Book a lesson of an instrument on a day and time (Mon to Sat, "
            "8am to 9pm; with the house teacher unless said)"
        ),
    },
    parameters={
        "type": "object",
        "properties": {
            "instrument": {"type": "string", "enum": list(INSTRUMENTS)},
            "day": {"type": "string", "pattern": "^\\d{4}-\\d{2}-\\d{2}$"},
            "time": {"type": "string", "pattern": "^\\d{2}:\\d{2}$"},
            "teacher_text": {"type": "string"},
        },
        "required": ["instrument", "day", "time"],
    },
    metadata={
        "intent_hints": {
            "keywords": ["aula de música", "escola de música", "music lesson", "music school"],
            "examples": ["quero marcar uma aula de música", "book a music lesson"],
        },
        "policy": {"confirm": True, "idempotent": False},
    },
)
def book_music_lesson(intent: ExecutionIntent) -> DomainOutput:
    lang = language(intent)
    p = intent.parameters
    kind = _instrument(p)
    day = read_day(p.get("day"))
    at = hhmm(p.get("time"))
    if kind is None or day is None or at is None:
        return fail(
            say(lang, "Falta o instrumento, o dia ou a hora.", "The instrument, day or time is missing."),
            "missing_parameter",
        )
    teacher = TEACHES[kind][0]
    if p.get("teacher_text"):
        named = resolve_name(TEACHERS, p.get("teacher_text"))
        if named is None or named not in TEACHES[kind]:
            pt, en = LABEL[kind]
            return clarify(
                say(
                    lang,
                    f"Esse professor não dá aula de {pt}. Com quem?",
                    f"That teacher doesn't teach {en}. With whom?",
                ),
                [option(name, name) for name in TEACHES[kind]],
                param="teacher_text",
            )
        teacher = named
    if day < today():
        return fail(say(lang, "Esse dia já passou.", "That day is past."), "past_day")
    if day.weekday() == 6:
        return fail(
            say(lang, "Não há aulas no domingo.", "There are no lessons on Sundays."),
            "closed",
            recoverable=True,
            suggestions=[{"day": (day + timedelta(days=1)).isoformat()}],
        )
    if at[0] < FIRST_START or (at[0], at[1]) > (LAST_START, 0):
        hour = FIRST_START if at[0] < FIRST_START else LAST_START
        return fail(
            say(lang, "As aulas começam entre 8h e 21h.", "Lessons start between 8am and 9pm."),
            "outside_hours",
            recoverable=True,
            suggestions=[{"time": f"{hour:02d}:00"}],
        )
    _next[0] += 1
    code = f"MU{_next[0]}"
    when = f"{at[0]:02d}:{at[1]:02d}"
    LESSONS[code] = (kind, day, when, teacher, "booked")
    pt, en = LABEL[kind]
    return DomainOutput(
        status="success",
        result={
            "code": code,
            "instrument": kind,
            "day": day.isoformat(),
            "time": when,
            "teacher": teacher,
            "price": {"amount": PRICES[kind], "currency": "BRL"},
        },
        explanation=say(
            lang,
            f"Aula marcada {code}: {pt}, {day:%d/%m} às {when}, com {teacher}, R$ {PRICES[kind]:.2f}.",
            f"Lesson booked {code}: {en}, {day:%b %d} at {when}, with {teacher}, R$ {PRICES[kind]:.2f}.",
        ),
    )


@service.capability(
    "music_package_price",
    {
        "pt": (
            "Diz o preço de um pacote de aulas de música (uma aula, se não disser "
            "quantas; todos os instrumentos, se não disser qual)"
        ),
        "en": (
            "Tell the price of a package of music lessons (one lesson "
            "unless said; every instrument unless said)"
        ),
    },
    parameters={
        "type": "object",
        "properties": {
            "lessons": {"type": "number"},
            "instrument": {"type": "string", "enum": list(INSTRUMENTS)},
        },
    },
    metadata={
        "intent_hints": {
            "keywords": ["pacote de aulas de música", "mensalidade", "lesson package", "music lessons price"],
            "examples": ["quanto custa o pacote de aulas de música?", "how much is a music lesson package?"],
        },
        "policy": {"read_only": True},
    },
)
def music_package_price(intent: ExecutionIntent) -> DomainOutput:
    lang = language(intent)
    p = intent.parameters
    lessons = int(read_number(p.get("lessons")) or 1)
    if lessons < 1:
        return fail(say(lang, "Quantas aulas?", "How many lessons?"), "bad_count", recoverable=True)
    off = _discount(lessons)
    kind = _instrument(p)
    kinds = [kind] if kind else list(INSTRUMENTS)
    totals = {k: round(PRICES[k] * lessons * (1 - off), 2) for k in kinds}
    lines_pt = "; ".join(f"{LABEL[k][0]} R$ {v:.2f}" for k, v in totals.items())
    lines_en = "; ".join(f"{LABEL[k][1]} R$ {v:.2f}" for k, v in totals.items())
    return DomainOutput(
        status="success",
        result={
            "lessons": lessons,
            "discount": off,
            "prices": {k: {"amount": v, "currency": "BRL"} for k, v in totals.items()},
        },
        explanation=say(
            lang,
            f"{lessons} aula(s): {lines_pt} (5% off a partir de 4, 10% de 8, 15% de 12).",
            f"{lessons} lesson(s): {lines_en} (5% off from 4, 10% from 8, 15% from 12).",
        ),
    )


@service.capability(
    "cancel_music_lesson",
    {
        "pt": "Cancela uma aula de música marcada pelo código (até a véspera)",
        "en": "Cancel a booked music lesson by its code (up to the day before)",
    },
    parameters={
        "type": "object",
        "properties": {"booking_text": {"type": "string", "minLength": 1}},
        "required": ["booking_text"],
    },
    metadata={
        "intent_hints": {
            "keywords": ["cancelar aula de música", "desmarcar aula", "cancel music lesson"],
            "examples": ["quero cancelar minha aula de música", "cancel my music lesson"],
        },
        "policy": {"confirm": True, "idempotent": False},
    },
)
def cancel_music_lesson(intent: ExecutionIntent) -> DomainOutput:
    lang = language(intent)
    code = norm_code(intent.parameters.get("booking_text"))
    lesson = LESSONS.get(code)
    if lesson is None:
        return fail(say(lang, f"Não achei a aula {code}.", f"No lesson {code}."), "not_found")
    kind, day, when, teacher, state = lesson
    if state == "cancelled":
        return fail(
            say(lang, f"{code} já estava cancelada.", f"{code} was already cancelled."), "already_cancelled"
        )
    if day <= today():
        return fail(
            say(
                lang,
                f"{code} é hoje: cancelamento só até a véspera.",
                f"{code} is today: cancel up to the day before.",
            ),
            "too_late",
        )
    LESSONS[code] = (kind, day, when, teacher, "cancelled")
    pt, en = LABEL[kind]
    return DomainOutput(
        status="success",
        result={"code": code, "instrument": kind, "day": day.isoformat(), "time": when, "state": "cancelled"},
        explanation=say(
            lang,
            f"Cancelada {code}: aula de {pt}, {day:%d/%m} às {when}, com {teacher}.",
            f"Cancelled {code}: {en} lesson, {day:%b %d} at {when}, with {teacher}.",
        ),
    )


INSTRUMENT_ENTITY: dict[str, Any] = {
    "type": "enum",
    "values": list(INSTRUMENTS),
    "synonyms": INSTRUMENTS,
    "description": {"pt": "O instrumento", "en": "The instrument"},
}

service.add_goal(
    {
        "goal": "BOOK_MUSIC_LESSON",
        "description": {"pt": "Marcar uma aula de música", "en": "Book a music lesson"},
        "entities_schema": {
            "instrument": {**INSTRUMENT_ENTITY, "required": True},
            "day": {
                "type": "date",
                "required": True,
                "description": {"pt": "O dia da aula", "en": "The day of the lesson"},
            },
            "time": {"type": "time", "required": True, "description": {"pt": "O horário", "en": "The time"}},
            "teacher_text": {
                "type": "string",
                "lookup": table(TEACHERS),
                "description": {"pt": "O professor", "en": "The teacher"},
            },
        },
        "capabilities": ["book_music_lesson"],
        "examples": [
            ex("marca uma aula de piano amanhã às 15h", instrument="PIANO", day="amanhã", time="às 15h"),
            ex(
                "quero uma aula de violão sexta às 18h com o Bruno",
                instrument="GUITAR",
                day="sexta",
                time="às 18h",
                teacher_text="Bruno",
            ),
            ex("agendar aula de bateria dia 20 às 10h", instrument="DRUMS", day="dia 20", time="às 10h"),
            ex(
                "book a violin lesson on Thursday at 5pm with Marina",
                instrument="VIOLIN",
                day="Thursday",
                time="at 5pm",
                teacher_text="Marina",
            ),
            ex(
                "schedule a singing lesson tomorrow at 7pm", instrument="VOICE", day="tomorrow", time="at 7pm"
            ),
        ],
    }
)
service.add_goal(
    {
        "goal": "MUSIC_PACKAGE_PRICE",
        "description": {
            "pt": "Preço de um pacote de aulas de música",
            "en": "Price of a package of music lessons",
        },
        "entities_schema": {
            "lessons": {"type": "number", "description": {"pt": "Quantas aulas", "en": "How many lessons"}},
            "instrument": INSTRUMENT_ENTITY,
        },
        "capabilities": ["music_package_price"],
        "examples": [
            ex("quanto custa o pacote de 8 aulas de piano?", lessons="8 aulas", instrument="PIANO"),
            ex("preço de 4 aulas de canto", lessons="4 aulas", instrument="VOICE"),
            ex("how much is a package of 12 guitar lessons?", lessons="12", instrument="GUITAR"),
            ex("price for 8 drum lessons", lessons="8", instrument="DRUMS"),
        ],
    }
)
service.add_goal(
    {
        "goal": "CANCEL_MUSIC_LESSON",
        "description": {"pt": "Cancelar uma aula de música marcada", "en": "Cancel a booked music lesson"},
        "entities_schema": {
            "booking_text": {
                "type": "string",
                "required": True,
                "description": {"pt": "O código da aula", "en": "The lesson code"},
            }
        },
        "capabilities": ["cancel_music_lesson"],
        "examples": [
            ex("cancela a aula MU4101", booking_text="MU4101"),
            ex("quero cancelar a aula de música MU4105", booking_text="MU4105"),
            ex("cancel music lesson MU4105", booking_text="MU4105"),
            ex("please cancel lesson MU4101", booking_text="MU4101"),
        ],
    }
)

if __name__ == "__main__":
    serve(service)
