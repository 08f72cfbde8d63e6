"""Tattoo studio (round-17 bench domain): book a session with an artist on a day and time, a
quote for a piece by its size, cancel a booking by its code.

Fake, deterministic, in memory.
Run: ``python -m bench.understanding.round17.domains.tattoo_studio --port 8901``.
"""

from __future__ import annotations

from datetime import date, timedelta
from typing import Any

from bench.understanding.round17.domains._common import (
    amount_of,
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

#: artists (canonical value <- aliases)
ARTISTS: dict[str, list[str]] = {
    "Rafa Lima": ["rafa", "rafael", "rafa lima", "rafael lima"],
    "Júlia Nakamura": ["júlia", "julia", "ju", "ju nakamura", "julia nakamura", "nakamura"],
    "Diego Torres": ["diego", "diego torres", "torres"],
    "Bia Santos": ["bia", "beatriz", "bia santos", "beatriz santos"],
}
#: style (enum value <- synonyms; the first of each language is the label)
STYLES: dict[str, list[str]] = {
    "FINE_LINE": ["traço fino", "traco fino", "fine line", "fineline", "fine-line"],
    "BLACKWORK": ["blackwork", "black work", "tudo preto", "solid black"],
    "REALISM": ["realismo", "realista", "realism", "realistic", "realist"],
    "OLD_SCHOOL": ["old school", "tradicional americano", "oldschool", "american traditional"],
    "WATERCOLOR": ["aquarela", "aquarelado", "watercolor", "watercolour"],
}
LABEL = {
    "FINE_LINE": ("traço fino", "fine line"),
    "BLACKWORK": ("blackwork", "blackwork"),
    "REALISM": ("realismo", "realism"),
    "OLD_SCHOOL": ("old school", "old school"),
    "WATERCOLOR": ("aquarela", "watercolor"),
}
#: what each artist tattoos
ARTIST_STYLES: dict[str, set[str]] = {
    "Rafa Lima": {"REALISM", "BLACKWORK"},
    "Júlia Nakamura": {"FINE_LINE", "WATERCOLOR"},
    "Diego Torres": {"OLD_SCHOOL", "BLACKWORK"},
    "Bia Santos": {"FINE_LINE", "REALISM", "WATERCOLOR"},
}
OPEN_FROM, OPEN_TO = 10, 20  # sessions start 10:00-19:00, Tuesday to Saturday
PER_CM = 45.0
MINIMUM = 250.0
#: bookings (code -> artist, day, "HH:MM", state)
BOOKINGS: dict[str, tuple[str, date, str, str]] = {
    "TT4101": ("Rafa Lima", date(2026, 3, 13), "14:00", "booked"),
    "TT4105": ("Júlia Nakamura", date(2026, 3, 20), "11:00", "booked"),
    "TT4110": ("Diego Torres", date(2026, 3, 12), "16:00", "cancelled"),
    "TT4114": ("Bia Santos", date(2026, 3, 10), "17:00", "booked"),
}
_next = [4200]

service = DomainService(
    "tattoo_studio",
    "0.1.0",
    {
        "pt": "Estúdio de tatuagem: marcar sessão com um tatuador, orçamento por tamanho, cancelar sessão",
        "en": "Tattoo studio: book a session with an artist, quote a piece by size, cancel a session",
    },
)


def _style(p: dict[str, Any]) -> str | None:
    style = str(p.get("style") or "").upper()
    return style if style in STYLES else None


def _next_open(day: date) -> date:
    day = day + timedelta(days=1)
    while day.weekday() in (0, 6):
        day += timedelta(days=1)
    return day


@service.capability(
    "book_tattoo_session",
    {
        "pt": "Marca uma sessão de tatuagem com um tatuador num dia e horário (terça a sábado, 10h às 19h)",
        "en": "Book a tattoo session with an artist on a day and time (Tuesday to Saturday, 10am to 7pm)",
    },
    parameters={
        "type": "object",
        "properties": {
            "artist_text": {"type": "string", "minLength": 1},
            "day": {"type": "string", "pattern": "^\\d{4}-\\d{2}-\\d{2}$"},
            "time": {"type": "string", "pattern": "^\\d{2}:\\d{2}$"},
            "style": {"type": "string", "enum": list(STYLES)},
        },
        "required": ["artist_text", "day", "time"],
    },
    metadata={
        "intent_hints": {
            "keywords": ["tatuagem", "tattoo", "tatuador", "sessão de tattoo", "tattoo artist"],
            "examples": ["quero marcar uma tattoo com a bia", "book a tattoo session with diego"],
        },
        "policy": {"confirm": True, "idempotent": False},
    },
)
def book_tattoo_session(intent: ExecutionIntent) -> DomainOutput:
    lang = language(intent)
    p = intent.parameters
    artist = resolve_name(ARTISTS, p.get("artist_text"))
    if artist is None:
        return clarify(
            say(lang, "Não temos esse tatuador. Com quem?", "No such artist here. Which one?"),
            [option(name, name) for name in ARTISTS],
            param="artist_text",
        )
    day = read_day(p.get("day"))
    at = hhmm(p.get("time"))
    if day is None or at is None:
        return fail(
            say(lang, "Falta o dia ou o horário.", "The day or time is missing."), "missing_parameter"
        )
    if day < today():
        return fail(say(lang, "Esse dia já passou.", "That day is past."), "past_day")
    if day.weekday() in (0, 6):
        return fail(
            say(lang, "O estúdio abre de terça a sábado.", "The studio opens Tuesday to Saturday."),
            "closed",
            recoverable=True,
            suggestions=[{"day": _next_open(day).isoformat()}],
        )
    if not (OPEN_FROM <= at[0] < OPEN_TO):
        return fail(
            say(lang, "Sessões começam das 10h às 19h.", "Sessions start from 10am to 7pm."),
            "outside_hours",
            recoverable=True,
            suggestions=[{"time": f"{OPEN_FROM if at[0] < OPEN_FROM else OPEN_TO - 1:02d}:00"}],
        )
    style = _style(p)
    if style is not None and style not in ARTIST_STYLES[artist]:
        fits = [a for a, styles in ARTIST_STYLES.items() if style in styles]
        return clarify(
            say(
                lang,
                f"{artist} não faz {LABEL[style][0]}. Quem faz: qual prefere?",
                f"{artist} doesn't do {LABEL[style][1]}. Who does: which one?",
            ),
            [option(name, name) for name in fits],
            param="artist_text",
        )
    _next[0] += 1
    code = f"TT{_next[0]}"
    when = f"{at[0]:02d}:{at[1]:02d}"
    BOOKINGS[code] = (artist, day, when, "booked")
    return DomainOutput(
        status="success",
        result={"code": code, "artist": artist, "day": day.isoformat(), "time": when, "style": style},
        explanation=say(
            lang,
            f"Sessão {code} marcada com {artist}, {day:%d/%m} às {when}.",
            f"Session {code} booked with {artist}, {day:%b %d} at {when}.",
        ),
    )


@service.capability(
    "tattoo_quote",
    {
        "pt": "Faz o orçamento de uma tatuagem pelo tamanho em centímetros (e o estilo e a cor, se disser)",
        "en": "Quote a tattoo by its size in centimetres (and its style and colour, when said)",
    },
    parameters={
        "type": "object",
        "properties": {
            "size_cm": {"type": "number", "exclusiveMinimum": 0},
            "style": {"type": "string", "enum": list(STYLES)},
            "color": {"type": "boolean"},
            "budget": {"type": "object"},
        },
        "required": ["size_cm"],
    },
    metadata={
        "intent_hints": {
            "keywords": ["orçamento de tatuagem", "quanto custa uma tattoo", "tattoo quote", "tattoo price"],
            "examples": ["quanto fica uma tattoo pequena?", "how much for a tattoo?"],
        },
        "policy": {"read_only": True},
    },
)
def tattoo_quote(intent: ExecutionIntent) -> DomainOutput:
    lang = language(intent)
    p = intent.parameters
    size = read_number(p.get("size_cm"))
    if size is None or size <= 0:
        return fail(say(lang, "Falta o tamanho em cm.", "The size in cm is missing."), "missing_parameter")
    if size > 60:
        return fail(
            say(lang, "Peças acima de 60 cm só com avaliação no estúdio.", "Pieces over 60 cm need a visit."),
            "too_large",
        )
    style = _style(p)
    price = max(MINIMUM, PER_CM * float(size))
    if style == "REALISM":
        price *= 1.5
    if p.get("color") is True:
        price *= 1.3
    price = round(price, 2)
    budget = amount_of(p.get("budget"))
    fits = None if budget is None else budget[0] >= price
    note_pt = note_en = ""
    if fits is not None:
        note_pt = " Cabe no seu orçamento." if fits else " Passa do seu orçamento."
        note_en = " Within your budget." if fits else " Over your budget."
    label = LABEL[style] if style else ("", "")
    return DomainOutput(
        status="success",
        result={
            "size_cm": size,
            "style": style,
            "color": bool(p.get("color")),
            "price": {"amount": price, "currency": "BRL"},
            "fits_budget": fits,
        },
        explanation=say(
            lang,
            f"Tatuagem de {size:g} cm{(' ' + label[0]) if style else ''}: R$ {price:.2f}.{note_pt}",
            f"A {size:g} cm{(' ' + label[1]) if style else ''} tattoo: R$ {price:.2f}.{note_en}",
        ),
    )


@service.capability(
    "cancel_tattoo_session",
    {"pt": "Cancela uma sessão de tatuagem pelo código", "en": "Cancel a tattoo session by its code"},
    parameters={
        "type": "object",
        "properties": {"booking_text": {"type": "string", "minLength": 1}},
        "required": ["booking_text"],
    },
    metadata={
        "intent_hints": {
            "keywords": ["cancelar tatuagem", "desmarcar sessão", "cancel tattoo", "cancel my session"],
            "examples": ["quero cancelar minha sessão de tattoo", "cancel my tattoo appointment"],
        },
        "policy": {"confirm": True, "idempotent": False},
    },
)
def cancel_tattoo_session(intent: ExecutionIntent) -> DomainOutput:
    lang = language(intent)
    code = norm_code(intent.parameters.get("booking_text"))
    booking = BOOKINGS.get(code)
    if booking is None:
        return fail(say(lang, f"Não achei a sessão {code}.", f"No session {code}."), "not_found")
    artist, day, when, state = booking
    if state == "cancelled":
        return fail(
            say(lang, f"A sessão {code} já foi cancelada.", f"{code} is already cancelled."),
            "already_cancelled",
        )
    if day <= today():
        return fail(
            say(lang, "Cancelamento só até a véspera.", "Sessions can be cancelled up to the day before."),
            "too_late",
        )
    BOOKINGS[code] = (artist, day, when, "cancelled")
    return DomainOutput(
        status="success",
        result={"code": code, "artist": artist, "day": day.isoformat(), "time": when, "state": "cancelled"},
        explanation=say(
            lang,
            f"Sessão {code} com {artist} ({day:%d/%m} às {when}) cancelada.",
            f"Session {code} with {artist} ({day:%b %d} at {when}) cancelled.",
        ),
    )


STYLE_ENTITY: dict[str, Any] = {
    "type": "enum",
    "values": list(STYLES),
    "synonyms": STYLES,
    "description": {"pt": "O estilo da tatuagem", "en": "The tattoo style"},
}

service.add_goal(
    {
        "goal": "BOOK_TATTOO_SESSION",
        "description": {
            "pt": "Marcar uma sessão de tatuagem com um tatuador",
            "en": "Book a tattoo session with an artist",
        },
        "entities_schema": {
            "artist_text": {
                "type": "string",
                "required": True,
                "lookup": table(ARTISTS),
                "description": {"pt": "O tatuador", "en": "The tattoo artist"},
            },
            "day": {
                "type": "date",
                "required": True,
                "description": {"pt": "O dia da sessão", "en": "The session day"},
            },
            "time": {
                "type": "time",
                "required": True,
                "description": {"pt": "O horário da sessão", "en": "The session time"},
            },
            "style": STYLE_ENTITY,
        },
        "capabilities": ["book_tattoo_session"],
        "examples": [
            ex(
                "quero marcar uma tatuagem com o Rafa na sexta às 14h",
                artist_text="Rafa",
                day="sexta",
                time="às 14h",
            ),
            ex(
                "agenda sessão de fine line com a julia sábado às 11h",
                style="FINE_LINE",
                artist_text="julia",
                day="sábado",
                time="às 11h",
            ),
            ex("marca tattoo com o Diego dia 20 às 15h", artist_text="Diego", day="dia 20", time="às 15h"),
            ex(
                "book a realism session with Bia on Thursday at 3pm",
                style="REALISM",
                artist_text="Bia",
                day="Thursday",
                time="at 3pm",
            ),
            ex(
                "I want a tattoo appointment with rafa friday at 10am",
                artist_text="rafa",
                day="friday",
                time="at 10am",
            ),
        ],
    }
)
service.add_goal(
    {
        "goal": "TATTOO_QUOTE",
        "description": {
            "pt": "Orçamento de uma tatuagem pelo tamanho",
            "en": "A quote for a tattoo by its size",
        },
        "entities_schema": {
            "size_cm": {
                "type": "number",
                "required": True,
                "description": {"pt": "O tamanho em centímetros", "en": "The size in centimetres"},
            },
            "style": STYLE_ENTITY,
            "color": {
                "type": "boolean",
                "synonyms": {
                    "true": ["colorida", "colorido", "em cores", "com cor", "in color", "colour", "colored"]
                },
                "description": {"pt": "Colorida", "en": "In colour"},
            },
            "budget": {
                "type": "money",
                "description": {"pt": "Quanto quer gastar no máximo", "en": "Your maximum budget"},
            },
        },
        "capabilities": ["tattoo_quote"],
        "examples": [
            ex("quanto custa uma tatuagem de 10 cm?", size_cm="10 cm"),
            ex(
                "orçamento de tattoo realista de 15 cm colorida", style="REALISM", size_cm="15 cm", color=True
            ),
            ex(
                "qual o preço de uma fine line de 5 cm até R$ 400?",
                style="FINE_LINE",
                size_cm="5 cm",
                budget="R$ 400",
            ),
            ex("how much is a 12 cm blackwork tattoo?", size_cm="12 cm", style="BLACKWORK"),
            ex(
                "quote for a 20 cm watercolor piece in color", size_cm="20 cm", style="WATERCOLOR", color=True
            ),
        ],
    }
)
service.add_goal(
    {
        "goal": "CANCEL_TATTOO_SESSION",
        "description": {"pt": "Cancelar uma sessão de tatuagem", "en": "Cancel a tattoo session"},
        "entities_schema": {
            "booking_text": {
                "type": "string",
                "required": True,
                "description": {"pt": "O código da sessão", "en": "The session code"},
            }
        },
        "capabilities": ["cancel_tattoo_session"],
        "examples": [
            ex("cancela a sessão TT4101", booking_text="TT4101"),
            ex("quero desmarcar minha tatuagem TT4105", booking_text="TT4105"),
            ex("cancel tattoo session TT4101", booking_text="TT4101"),
            ex("please cancel my tattoo booking TT4105", booking_text="TT4105"),
        ],
    }
)

if __name__ == "__main__":
    serve(service)
