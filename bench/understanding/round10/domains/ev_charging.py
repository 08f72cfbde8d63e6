"""EV charging (round-10 bench domain): reserve a charger, a station's free chargers, charging history.

Fake, deterministic, in memory.
Run: ``python -m bench.understanding.round10.domains.ev_charging --port 8203``.
"""

from __future__ import annotations

import re

from bench.understanding.round10.domains._common import (
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

#: stations (canonical name <- other ways people write it)
STATIONS: dict[str, list[str]] = {
    "Eletroposto Ibirapuera": ["ibirapuera", "parque ibirapuera", "ibira"],
    "Eletroposto Shopping Morumbi": ["morumbi", "shopping morumbi", "morumbi mall"],
    "Eletroposto Faria Lima": ["faria lima", "av faria lima", "faria"],
    "Eletroposto Rodoanel Km 23": ["rodoanel", "km 23", "highway", "rodoanel km 23"],
}
#: chargers per station: (AC free now, DC fast free now, price per kWh in BRL)
CHARGERS = {
    "Eletroposto Ibirapuera": (3, 1, 1.9),
    "Eletroposto Shopping Morumbi": (2, 0, 2.1),
    "Eletroposto Faria Lima": (0, 0, 2.4),
    "Eletroposto Rodoanel Km 23": (1, 4, 2.6),
}
PERIODS = ["TODAY", "THIS_WEEK", "THIS_MONTH", "LAST_MONTH"]
PERIOD_SYNONYMS: dict[str, list[str]] = {
    "TODAY": ["hoje", "today"],
    "THIS_WEEK": ["essa semana", "esta semana", "nesta semana", "this week"],
    "THIS_MONTH": ["este mês", "esse mês", "neste mês", "this month"],
    "LAST_MONTH": ["mês passado", "último mês", "last month", "previous month"],
}
SESSIONS = [
    ("2026-02-03", "Eletroposto Ibirapuera", 32.5, 61.75),
    ("2026-02-17", "Eletroposto Rodoanel Km 23", 48.0, 124.80),
    ("2026-02-26", "Eletroposto Faria Lima", 20.0, 48.00),
    ("2026-03-02", "Eletroposto Shopping Morumbi", 27.0, 56.70),
    ("2026-03-06", "Eletroposto Ibirapuera", 35.5, 67.45),
    ("2026-03-09", "Eletroposto Rodoanel Km 23", 41.0, 106.60),
    ("2026-03-10", "Eletroposto Faria Lima", 12.0, 28.80),
]
OPEN, CLOSE = 6, 24
_next = [3100]

service = DomainService(
    "ev_charging",
    "0.1.0",
    {
        "pt": "Recarga de carro elétrico: reservar carregador, ver pontos livres e histórico de recargas",
        "en": "EV charging: reserve a charger, see free chargers and charging history",
    },
)


def _minutes(value: object) -> int | None:
    m = re.fullmatch(r"P(?:T)?(?:(\d+)D)?T?(?:(\d+)H)?(?:(\d+)M)?", str(value or "").upper())
    if not m or not any(m.groups()):
        return None
    d, h, mi = (int(g or 0) for g in m.groups())
    return d * 1440 + h * 60 + mi


def _station(lang: str, words: object) -> tuple[str | None, DomainOutput | None]:
    station = resolve_loose(words, STATIONS)
    if station is None:
        return None, clarify(
            say(lang, f"Não conheço o eletroposto “{words}”. Qual destes?", "Which of these stations?"),
            [option(s, s, aliases=STATIONS[s]) for s in STATIONS],
            param="station_text",
        )
    return station, None


@service.capability(
    "reserve_charger",
    {
        "pt": "Reserva um carregador num eletroposto, por um tempo ou até uma porcentagem da bateria",
        "en": "Reserve a charger at a station, for a while or up to a battery percentage",
    },
    parameters={
        "type": "object",
        "properties": {
            "station_text": {"type": "string", "minLength": 1},
            "day": {"type": "string", "pattern": "^\\d{4}-\\d{2}-\\d{2}$"},
            "start": {"type": "string", "pattern": "^\\d{2}:\\d{2}$"},
            "duration": {"type": "string"},
            "target_percent": {"type": "number"},
            "fast": {"type": "boolean"},
        },
        "required": ["station_text", "day", "start"],
        "anyOf": [{"required": ["duration"]}, {"required": ["target_percent"]}],
    },
    metadata={
        "intent_hints": {
            "keywords": [
                "reservar carregador",
                "eletroposto",
                "recarga",
                "carregar o carro",
                "charger",
                "charging spot",
            ],
            "examples": ["quero reservar um carregador", "reserve a charger"],
        },
        "policy": {"confirm": True, "idempotent": False},
    },
)
def reserve_charger(intent: ExecutionIntent) -> DomainOutput:
    lang = language(intent)
    p = intent.parameters
    station, question = _station(lang, p.get("station_text"))
    if question is not None:
        return question
    assert station is not None  # resolved, or the question above
    day, start = read_day(p.get("day")), read_time(p.get("start"))
    minutes, target = _minutes(p.get("duration")), read_number(p.get("target_percent"))
    if day is None or start is None or (minutes is None and target is None):
        return fail(
            say(lang, "Falta o dia, a hora ou quanto carregar.", "The day, time or how much is missing."),
            "missing_parameter",
        )
    if day < today():
        return fail(say(lang, "Esse dia já passou.", "That day is past."), "past_day")
    if target is not None and not 20 <= target <= 100:
        return fail(
            say(lang, "A meta vai de 20% a 100%.", "The target goes from 20% to 100%."),
            "bad_target",
            recoverable=True,
            suggestions=[{"target_percent": 100 if target > 100 else 20}],
        )
    if minutes is not None and minutes > 240:
        return fail(
            say(lang, "A reserva vai até 4 horas.", "A reservation lasts up to 4 hours."),
            "too_long",
            recoverable=True,
            suggestions=[{"duration": "PT4H"}],
        )
    if int(start[:2]) < OPEN:
        return fail(
            say(lang, f"O {station} abre às 6h.", f"{station} opens at 6:00."),
            "closed",
            recoverable=True,
            suggestions=[{"start": "06:00"}],
        )
    fast = bool(p.get("fast"))
    if fast and CHARGERS[station][1] == 0 and station == "Eletroposto Shopping Morumbi":
        return fail(
            say(
                lang, "O Shopping Morumbi não tem carregador rápido.", "Shopping Morumbi has no fast charger."
            ),
            "no_fast_charger",
        )
    _next[0] += 1
    code = f"EV{_next[0]}"
    until = f"até {target:g}%" if target is not None else f"{minutes} min"
    until_en = f"up to {target:g}%" if target is not None else f"{minutes} min"
    return DomainOutput(
        status="success",
        result={
            "code": code,
            "station": station,
            "day": day.isoformat(),
            "start": start,
            "minutes": minutes,
            "target_percent": target,
            "fast": fast,
        },
        explanation=say(
            lang,
            f"Carregador {'rápido ' if fast else ''}reservado no {station}, "
            f"{day:%d/%m} às {start}, {until}. Código {code}.",
            f"{'Fast c' if fast else 'C'}harger reserved at {station}, "
            f"{day:%b %d} at {start}, {until_en}. Code {code}.",
        ),
    )


@service.capability(
    "station_status",
    {
        "pt": "Quantos carregadores estão livres num eletroposto agora",
        "en": "How many chargers are free at a station now",
    },
    parameters={
        "type": "object",
        "properties": {"station_text": {"type": "string", "minLength": 1}, "fast": {"type": "boolean"}},
        "required": ["station_text"],
    },
    metadata={
        "intent_hints": {
            "keywords": ["carregador livre", "tem vaga pra carregar", "free charger", "charger available"],
            "examples": ["tem carregador livre?", "is there a free charger?"],
        },
        "policy": {"read_only": True},
    },
)
def station_status(intent: ExecutionIntent) -> DomainOutput:
    lang = language(intent)
    station, question = _station(lang, intent.parameters.get("station_text"))
    if question is not None:
        return question
    assert station is not None  # resolved, or the question above
    ac, dc, price = CHARGERS[station]
    return DomainOutput(
        status="success",
        result={"station": station, "ac_free": ac, "dc_free": dc, "price_kwh_brl": price},
        explanation=say(
            lang,
            f"{station}: {ac} carregadores comuns e {dc} rápidos livres agora, R$ {price:.2f}/kWh.",
            f"{station}: {ac} regular and {dc} fast chargers free now, R$ {price:.2f}/kWh.",
        ),
    )


@service.capability(
    "charging_history",
    {"pt": "Histórico de recargas de um período", "en": "Charging history for a period"},
    parameters={
        "type": "object",
        "properties": {"period": {"type": "string", "enum": PERIODS}, "station_text": {"type": "string"}},
    },
    metadata={
        "intent_hints": {
            "keywords": [
                "histórico de recargas",
                "quanto gastei de recarga",
                "charging history",
                "my charging sessions",
            ],
            "examples": ["meu histórico de recargas", "show my charging history"],
        },
        "policy": {"read_only": True},
    },
)
def charging_history(intent: ExecutionIntent) -> DomainOutput:
    lang = language(intent)
    period = intent.parameters.get("period") or "THIS_MONTH"
    station = (
        resolve_loose(intent.parameters.get("station_text"), STATIONS)
        if intent.parameters.get("station_text")
        else None
    )
    t = today()

    def keep(day: str) -> bool:
        d = read_day(day)
        if d is None:
            return False
        if period == "TODAY":
            return d == t
        if period == "THIS_WEEK":
            return 0 <= (t - d).days <= t.weekday()
        if period == "THIS_MONTH":
            return (d.year, d.month) == (t.year, t.month)
        return (d.year, d.month) == ((t.year, t.month - 1) if t.month > 1 else (t.year - 1, 12))

    rows = [s for s in SESSIONS if keep(s[0]) and (station is None or s[1] == station)]
    kwh, spent = sum(r[2] for r in rows), sum(r[3] for r in rows)
    return DomainOutput(
        status="success",
        result={
            "period": period,
            "sessions": [{"day": d, "station": s, "kwh": k, "brl": b} for d, s, k, b in rows],
        },
        explanation=say(
            lang,
            f"{len(rows)} recargas, {kwh:g} kWh, R$ {spent:.2f}.",
            f"{len(rows)} charging sessions, {kwh:g} kWh, R$ {spent:.2f}.",
        ),
    )


STATION_ENTITY = {
    "type": "string",
    "required": True,
    "description": {"pt": "O eletroposto", "en": "The charging station"},
    "lookup": lookup_spec(STATIONS),
}
FAST_ENTITY = {
    "type": "boolean",
    "description": {"pt": "Carregador rápido", "en": "Fast charger"},
    "synonyms": {"true": ["rápido", "carregador rápido", "turbo", "dc", "fast", "fast charger", "rapid"]},
}

service.add_goal(
    {
        "goal": "RESERVE_CHARGER",
        "description": {"pt": "Reservar um carregador de carro elétrico", "en": "Reserve an EV charger"},
        "entities_schema": {
            "station_text": STATION_ENTITY,
            "day": {"type": "date", "required": True, "description": {"pt": "O dia", "en": "The day"}},
            "start": {
                "type": "time",
                "required": True,
                "description": {"pt": "A hora de chegada", "en": "Arrival time"},
            },
            "duration": {"type": "duration", "description": {"pt": "Por quanto tempo", "en": "For how long"}},
            "target_percent": {
                "type": "number",
                "description": {"pt": "Até quantos % de bateria", "en": "Up to what battery %"},
            },
            "fast": FAST_ENTITY,
        },
        "required_one_of": [["duration", "target_percent"]],
        "capabilities": ["reserve_charger"],
        "examples": [
            ex(
                "reserva carregador no Ibirapuera amanhã às 8h por 1 hora",
                station_text="Ibirapuera",
                day="amanhã",
                start="8h",
                duration="1 hora",
            ),
            ex(
                "quero carregar no Morumbi sábado 14h até 80%",
                station_text="Morumbi",
                day="sábado",
                start="14h",
                target_percent="80%",
            ),
            ex(
                "carregador rápido no rodoanel sexta às 7h por 40 minutos",
                station_text="rodoanel",
                fast=True,
                day="sexta",
                start="7h",
                duration="40 minutos",
            ),
            ex(
                "reserve a charger at Faria Lima tomorrow 6pm for 2 hours",
                station_text="Faria Lima",
                day="tomorrow",
                start="6pm",
                duration="2 hours",
            ),
            ex(
                "book a fast charger at the highway station Friday 9am up to 90%",
                station_text="highway",
                fast=True,
                day="Friday",
                start="9am",
                target_percent="90%",
            ),
        ],
    }
)
service.add_goal(
    {
        "goal": "STATION_STATUS",
        "description": {
            "pt": "Ver carregadores livres num eletroposto",
            "en": "See free chargers at a station",
        },
        "entities_schema": {"station_text": STATION_ENTITY, "fast": FAST_ENTITY},
        "capabilities": ["station_status"],
        "examples": [
            ex("tem carregador livre no Ibirapuera?", station_text="Ibirapuera"),
            ex("como tá o eletroposto da Faria Lima agora?", station_text="Faria Lima"),
            ex("any free chargers at Morumbi?", station_text="Morumbi"),
            ex("is the rodoanel station busy right now?", station_text="rodoanel"),
        ],
    }
)
service.add_goal(
    {
        "goal": "CHARGING_HISTORY",
        "description": {"pt": "Ver o histórico de recargas", "en": "See the charging history"},
        "entities_schema": {
            "period": {
                "type": "enum",
                "values": PERIODS,
                "synonyms": PERIOD_SYNONYMS,
                "description": {"pt": "O período", "en": "The period"},
            },
        },
        "capabilities": ["charging_history"],
        "examples": [
            ex("histórico de recargas do mês passado", period="LAST_MONTH"),
            ex("quanto gastei carregando o carro este mês?", period="THIS_MONTH"),
            ex(
                "minhas recargas",
            ),
            ex("charging history for this week", period="THIS_WEEK"),
            ex("how much did I spend on charging last month?", period="LAST_MONTH"),
        ],
    }
)

if __name__ == "__main__":
    serve(service)
