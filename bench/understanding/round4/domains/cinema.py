"""Cinema (round-4 bench domain): buy tickets for a session, list a day's sessions, refund a purchase.

Fake, deterministic, in memory. Run: ``python -m bench.understanding.round4.domains.cinema --port 8141``.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any

from bench.understanding.round4.domains._common import (
    code_of,
    ex,
    language,
    lookup_spec,
    read_day,
    read_number,
    read_time,
    resolve_loose,
    say,
    today,
)
from sdk.service import DomainService, clarify, fail, option, serve
from shared.models import DomainOutput, ExecutionIntent

#: what is showing (canonical title <- other ways people write it)
MOVIES: dict[str, list[str]] = {
    "Duna: Parte Dois": ["Duna", "Duna 2", "Duna parte 2", "Dune", "Dune 2", "Dune Part Two"],
    "Divertida Mente 2": ["Divertida Mente", "Divertidamente 2", "Inside Out 2", "Inside Out"],
    "Ainda Estou Aqui": ["I'm Still Here", "Im Still Here"],
    "Moana 2": ["Moana"],
    "Gladiador II": ["Gladiador", "Gladiador 2", "Gladiator", "Gladiator II", "Gladiator 2"],
    "Wicked": ["Wicked o filme", "Wicked the movie"],
    "O Auto da Compadecida 2": ["Auto da Compadecida", "Compadecida", "Compadecida 2", "A Dog's Will 2"],
}
#: movie -> session times (every day; the cinema opens at 13:00)
SESSIONS: dict[str, list[str]] = {
    "Duna: Parte Dois": ["15:00", "18:30", "21:45"],
    "Divertida Mente 2": ["13:30", "16:00", "18:15"],
    "Ainda Estou Aqui": ["14:00", "19:00", "21:30"],
    "Moana 2": ["13:00", "15:30", "17:45"],
    "Gladiador II": ["16:30", "20:00", "22:15"],
    "Wicked": ["14:30", "19:30"],
    "O Auto da Compadecida 2": ["15:15", "19:45", "22:00"],
}
PRICE_BRL = 38.0
HALF_PRICE_WEEKDAY = 2  # Wednesdays are half price
MAX_TICKETS = 8


@dataclass
class Purchase:
    code: str
    movie: str
    day: str
    time: str
    tickets: int

    def describe(self) -> str:
        return f"{self.code}: {self.movie}, {self.day} {self.time}, {self.tickets}x"


PURCHASES: dict[str, Purchase] = {
    p.code: p
    for p in (
        Purchase("CN4821", "Duna: Parte Dois", "2026-03-13", "18:30", 2),
        Purchase("CN5077", "Wicked", "2026-03-10", "19:30", 1),
        Purchase("CN5310", "Moana 2", "2026-03-14", "15:30", 4),
        Purchase("CN3902", "Gladiador II", "2026-03-07", "20:00", 2),  # already watched
    )
}
_next_code = [6000]

service = DomainService(
    "cinema",
    "0.1.0",
    {
        "pt": "Cinema: sessões, compra e reembolso de ingressos",
        "en": "Cinema: showtimes, tickets and refunds",
    },
)

MOVIE_ENTITY: dict[str, Any] = {
    "type": "string",
    "description": {"pt": "O filme", "en": "The movie"},
    "lookup": lookup_spec(MOVIES),
}
DAY_ENTITY: dict[str, Any] = {"type": "date", "description": {"pt": "O dia da sessão", "en": "The day"}}


def _price(day: Any, tickets: int) -> float:
    unit = PRICE_BRL / 2 if day.weekday() == HALF_PRICE_WEEKDAY else PRICE_BRL
    return unit * tickets


@service.capability(
    "buy_tickets",
    {"pt": "Compra ingressos para uma sessão de cinema", "en": "Buy tickets for a movie session"},
    parameters={
        "type": "object",
        "properties": {
            "movie_text": {"type": "string", "minLength": 1},
            "day": {"type": "string", "pattern": "^\\d{4}-\\d{2}-\\d{2}$"},
            "time": {"type": "string", "pattern": "^\\d{2}:\\d{2}$"},
            "tickets": {"type": "number", "minimum": 1},
        },
        "required": ["movie_text", "day", "time"],
    },
    metadata={
        "intent_hints": {
            "keywords": ["ingresso", "ingressos", "cinema", "sessão", "ticket", "tickets", "movie"],
            "examples": ["quero comprar ingresso pro cinema", "buy movie tickets"],
        },
        "policy": {"confirm": True, "idempotent": False},
    },
)
def buy_tickets(intent: ExecutionIntent) -> DomainOutput:
    lang = language(intent)
    p = intent.parameters
    movie = resolve_loose(p.get("movie_text"), MOVIES)
    if movie is None:
        return clarify(
            say(
                lang,
                "Esse filme não está em cartaz. Qual destes?",
                "That movie isn't showing. Which of these?",
            ),
            [option(m, m, aliases=a) for m, a in MOVIES.items()],
            param="movie_text",
            metadata={"resolution": "unknown_movie"},
        )
    day, time = read_day(p.get("day")), read_time(p.get("time"))
    if day is None or time is None:
        return fail(
            say(lang, "Faltam o dia ou o horário.", "The day or time is missing."), "missing_parameter"
        )
    if day < today():
        return fail(say(lang, "Esse dia já passou.", "That day has passed."), "past_day")
    tickets = read_number(p.get("tickets")) or 1
    if tickets > MAX_TICKETS:
        return fail(
            say(
                lang,
                f"No máximo {MAX_TICKETS} ingressos por compra.",
                f"At most {MAX_TICKETS} tickets a purchase.",
            ),
            "too_many_tickets",
            recoverable=True,
            suggestions=[{"tickets": MAX_TICKETS}],
        )
    times = SESSIONS[movie]
    if time not in times:
        return fail(
            say(
                lang,
                f"Não há sessão de {movie} às {time}; sessões: {', '.join(times)}.",
                f"No {movie} session at {time}; sessions: {', '.join(times)}.",
            ),
            "no_session_at_that_time",
            recoverable=True,
            suggestions=[{"time": t} for t in times],
        )
    _next_code[0] += 1
    bought = Purchase(f"CN{_next_code[0]}", movie, day.isoformat(), time, tickets)
    PURCHASES[bought.code] = bought
    total = _price(day, tickets)
    return DomainOutput(
        status="success",
        result=asdict(bought) | {"total_brl": total},
        explanation=say(
            lang,
            f"Ingressos comprados — {bought.describe()}, R$ {total:.2f}. Guarde o código {bought.code}.",
            f"Tickets bought — {bought.describe()}, R$ {total:.2f}. Your code is {bought.code}.",
        ),
    )


@service.capability(
    "list_sessions",
    {"pt": "Lista as sessões de um dia", "en": "List a day's sessions"},
    parameters={
        "type": "object",
        "properties": {"day": {"type": "string"}, "movie_text": {"type": "string"}},
    },
    metadata={
        "intent_hints": {"keywords": ["sessões", "em cartaz", "programação", "showtimes", "what's on"]},
        "policy": {"read_only": True},
    },
)
def list_sessions(intent: ExecutionIntent) -> DomainOutput:
    lang = language(intent)
    p = intent.parameters
    day = read_day(p.get("day")) or today()
    wanted = resolve_loose(p.get("movie_text"), MOVIES) if p.get("movie_text") else None
    movies = [wanted] if wanted else list(SESSIONS)
    lines = [f"{m}: {', '.join(SESSIONS[m])}" for m in movies]
    head = say(lang, f"Sessões de {day.isoformat()}:", f"Sessions on {day.isoformat()}:")
    return DomainOutput(
        status="success",
        result={"day": day.isoformat(), "sessions": {m: SESSIONS[m] for m in movies}},
        explanation="\n".join([head, *lines]),
    )


@service.capability(
    "refund_purchase",
    {"pt": "Pede o reembolso de uma compra de ingressos", "en": "Refund a ticket purchase"},
    parameters={
        "type": "object",
        "properties": {"purchase_code_text": {"type": "string", "minLength": 1}},
        "required": ["purchase_code_text"],
    },
    metadata={
        "intent_hints": {"keywords": ["reembolso", "estorno", "devolver ingresso", "refund", "money back"]},
        "policy": {"confirm": True, "idempotent": False},
    },
)
def refund_purchase(intent: ExecutionIntent) -> DomainOutput:
    lang = language(intent)
    code = code_of(intent.parameters.get("purchase_code_text"), "CN")
    bought = PURCHASES.get(code)
    if bought is None:
        return fail(say(lang, f"Não achei a compra {code}.", f"No purchase {code}."), "purchase_not_found")
    if read_day(bought.day) is not None and read_day(bought.day) < today():  # type: ignore[operator]
        return fail(
            say(lang, f"A sessão de {code} já passou.", f"The session of {code} is over."), "session_over"
        )
    PURCHASES.pop(code)
    total = _price(read_day(bought.day), bought.tickets)
    return DomainOutput(
        status="success",
        result={"code": code, "refunded_brl": total},
        explanation=say(
            lang,
            f"Reembolso feito — {bought.describe()}, R$ {total:.2f} de volta.",
            f"Refunded — {bought.describe()}, R$ {total:.2f} back.",
        ),
    )


service.add_goal(
    {
        "goal": "BUY_TICKETS",
        "description": {"pt": "Comprar ingressos de cinema", "en": "Buy movie tickets"},
        "entities_schema": {
            "movie_text": MOVIE_ENTITY | {"required": True},
            "tickets": {
                "type": "number",
                "description": {"pt": "Quantos ingressos", "en": "How many tickets"},
            },
            "day": DAY_ENTITY | {"required": True},
            "time": {
                "type": "time",
                "required": True,
                "description": {"pt": "O horário da sessão", "en": "The showtime"},
            },
        },
        "capabilities": ["buy_tickets"],
        "examples": [
            ex(
                "compra 2 ingressos pro Duna sexta às 21h45",
                tickets="2 ingressos",
                movie_text="Duna",
                day="sexta",
                time="às 21h45",
            ),
            ex(
                "quero 3 entradas pra Moana amanhã às 15h30",
                tickets="3 entradas",
                movie_text="Moana",
                day="amanhã",
                time="às 15h30",
            ),
            ex(
                "me vê um ingresso do Gladiador no sábado, sessão das 20h",
                tickets="um ingresso",
                movie_text="Gladiador",
                day="sábado",
                time="20h",
            ),
            ex(
                "garante dois lugares em Ainda Estou Aqui hoje 19h",
                tickets="dois lugares",
                movie_text="Ainda Estou Aqui",
                day="hoje",
                time="19h",
            ),
            ex(
                "buy 2 tickets for Wicked on Friday at 7:30pm",
                tickets="2 tickets",
                movie_text="Wicked",
                day="Friday",
                time="7:30pm",
            ),
            ex(
                "get me four seats for Inside Out 2 tomorrow at 4pm",
                tickets="four seats",
                movie_text="Inside Out 2",
                day="tomorrow",
                time="4pm",
            ),
            ex(
                "one ticket to Dune on Saturday, the 6:30pm show",
                tickets="one ticket",
                movie_text="Dune",
                day="Saturday",
                time="6:30pm",
            ),
        ],
    }
)
service.add_goal(
    {
        "goal": "LIST_SESSIONS",
        "description": {"pt": "As sessões de cinema de um dia", "en": "The movie sessions of a day"},
        "entities_schema": {"day": DAY_ENTITY, "movie_text": MOVIE_ENTITY},
        "capabilities": ["list_sessions"],
        "examples": [
            ex("o que tem no cinema hoje?", day="hoje"),
            ex("quais as sessões de sábado?", day="sábado"),
            ex("que horas passa Wicked amanhã?", movie_text="Wicked", day="amanhã"),
            ex("programação do cinema pra sexta", day="sexta"),
            ex("what's showing tonight?"),
            ex("showtimes for Gladiator on Thursday", movie_text="Gladiator", day="Thursday"),
            ex("what movies are on Sunday?", day="Sunday"),
        ],
    }
)
service.add_goal(
    {
        "goal": "REFUND_PURCHASE",
        "description": {"pt": "Reembolsar uma compra de ingressos", "en": "Refund a ticket purchase"},
        "entities_schema": {
            "purchase_code_text": {
                "type": "string",
                "required": True,
                "description": {"pt": "O código da compra", "en": "The purchase code"},
            }
        },
        "capabilities": ["refund_purchase"],
        "examples": [
            ex("quero o reembolso da compra CN4821", purchase_code_text="CN4821"),
            ex("estorna os ingressos CN5310 por favor", purchase_code_text="CN5310"),
            ex("não vou mais, devolve meu dinheiro da CN5077", purchase_code_text="CN5077"),
            ex("refund my tickets CN4821", purchase_code_text="CN4821"),
            ex("I can't make it, please refund purchase CN5310", purchase_code_text="CN5310"),
        ],
    }
)

if __name__ == "__main__":
    serve(service)
