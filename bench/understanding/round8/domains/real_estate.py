"""Real estate (round-8 bench domain): search rentals, schedule a visit, a visit's status.

A rental agency in São Paulo. Fake, deterministic, in memory.
Run: ``python -m bench.understanding.round8.domains.real_estate --port 8181``.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from datetime import timedelta

from bench.understanding.round8.domains._common import (
    code_of,
    ex,
    language,
    lookup_spec,
    read_day,
    read_money,
    read_number,
    read_time,
    resolve_loose,
    say,
    today,
)
from sdk.service import DomainService, clarify, fail, option, serve
from shared.models import DomainOutput, ExecutionIntent

#: the neighbourhoods the agency works in (canonical name <- other ways people write it)
NEIGHBORHOODS: dict[str, list[str]] = {
    "Pinheiros": ["pinheiros", "Largo da Batata"],
    "Vila Madalena": ["vila madalena", "Vila Madá", "vila mada"],
    "Moema": ["moema"],
    "Itaim Bibi": ["Itaim", "itaim bibi"],
    "Perdizes": ["perdizes"],
    "Tatuapé": ["tatuape", "Tatuapé"],
    "Vila Mariana": ["vila mariana", "Vl Mariana"],
    "Bela Vista": ["Bixiga", "bela vista"],
    "Mooca": ["mooca", "Moóca"],
    "Consolação": ["consolacao", "Consolação"],
    "Brooklin": ["brooklin", "Brooklyn"],
    "Liberdade": ["liberdade"],
    "Santana": ["santana"],
}
TYPES = ["APARTMENT", "HOUSE", "STUDIO"]
TYPE_SYNONYMS: dict[str, list[str]] = {
    "APARTMENT": ["apartamento", "apartamentos", "apto", "flat", "apartment", "apartments", "condo"],
    "HOUSE": ["casa", "casas", "sobrado", "house", "houses", "townhouse"],
    "STUDIO": ["studio", "estúdio", "kitnet", "quitinete", "kitinete", "loft", "studios"],
}
TYPE_NAMES = {
    "APARTMENT": ("apartamento", "apartment"),
    "HOUSE": ("casa", "house"),
    "STUDIO": ("studio", "studio"),
}


@dataclass
class Listing:
    code: str
    neighborhood: str
    kind: str
    bedrooms: int
    rent_brl: int
    furnished: bool = False
    rented: bool = False

    def describe(self, lang: str = "pt") -> str:
        kind = TYPE_NAMES[self.kind][0 if lang == "pt" else 1]
        furnished = say(lang, ", mobiliado", ", furnished") if self.furnished else ""
        rent = f"{self.rent_brl:,}"
        return say(
            lang,
            f"{self.code}: {kind} em {self.neighborhood}, {self.bedrooms} quarto(s){furnished}, "
            f"R$ {rent.replace(',', '.')}/mês",
            f"{self.code}: {kind} in {self.neighborhood}, {self.bedrooms} bedroom(s){furnished}, "
            f"R$ {rent}/month",
        )


LISTINGS: dict[str, Listing] = {
    x.code: x
    for x in (
        Listing("IM2041", "Pinheiros", "APARTMENT", 2, 3800, furnished=True),
        Listing("IM2055", "Pinheiros", "STUDIO", 1, 2400, furnished=True),
        Listing("IM2060", "Vila Madalena", "APARTMENT", 3, 5200),
        Listing("IM2072", "Vila Madalena", "HOUSE", 3, 6500),
        Listing("IM2088", "Moema", "APARTMENT", 2, 4100),
        Listing("IM2093", "Moema", "APARTMENT", 3, 5900, furnished=True),
        Listing("IM2104", "Itaim Bibi", "STUDIO", 1, 3100, furnished=True),
        Listing("IM2110", "Perdizes", "APARTMENT", 2, 2900),
        Listing("IM2125", "Tatuapé", "HOUSE", 3, 3400),
        Listing("IM2131", "Tatuapé", "APARTMENT", 2, 2200),
        Listing("IM2140", "Vila Mariana", "APARTMENT", 1, 2600),
        Listing("IM2152", "Bela Vista", "STUDIO", 1, 1700, furnished=True),
        Listing("IM2166", "Mooca", "APARTMENT", 2, 2300),
        Listing("IM2170", "Consolação", "APARTMENT", 2, 3300, rented=True),
        Listing("IM2183", "Brooklin", "APARTMENT", 4, 7800),
        Listing("IM2191", "Liberdade", "STUDIO", 1, 1600),
    )
}
VISIT_STATUS_NAMES = {
    "confirmed": ("confirmada", "confirmed"),
    "pending": ("aguardando o proprietário", "waiting for the owner"),
    "done": ("realizada", "done"),
    "cancelled": ("cancelada (imóvel alugado)", "cancelled (the place was rented)"),
}


@dataclass
class Visit:
    code: str
    listing: str
    day: str
    time: str
    status: str

    def describe(self, lang: str = "pt") -> str:
        listing = LISTINGS[self.listing]
        status = VISIT_STATUS_NAMES[self.status][0 if lang == "pt" else 1]
        return say(
            lang,
            f"{self.code}: visita ao {self.listing} ({listing.neighborhood}), "
            f"{self.day} às {self.time}, {status}",
            f"{self.code}: viewing of {self.listing} ({listing.neighborhood}), "
            f"{self.day} at {self.time}, {status}",
        )


VISITS: dict[str, Visit] = {
    v.code: v
    for v in (
        Visit("VT7310", "IM2041", "2026-03-11", "15:00", "confirmed"),
        Visit("VT7322", "IM2088", "2026-03-13", "10:00", "pending"),
        Visit("VT7305", "IM2060", "2026-03-06", "11:00", "done"),
        Visit("VT7331", "IM2170", "2026-03-12", "16:00", "cancelled"),
    )
}
#: slots already taken by other people: (listing, day, time)
TAKEN = {("IM2041", "2026-03-12", "10:00"), ("IM2093", "2026-03-14", "11:00")}
HOURS = ("09:00", "19:00")
_next_code = [8000]

service = DomainService(
    "real_estate",
    "0.1.0",
    {
        "pt": "Imobiliária: busca de imóveis para alugar, agendamento de visitas e situação da visita",
        "en": "Rental agency: search places to rent, schedule viewings and check a viewing",
    },
)


def _neighborhood(lang: str, value: object) -> str | DomainOutput:
    found = resolve_loose(value, NEIGHBORHOODS)
    if found is not None:
        return found
    return clarify(
        say(
            lang,
            f"Não trabalhamos com o bairro “{value}”. Qual destes?",
            f"We don't cover “{value}”. Which of these neighbourhoods?",
        ),
        [option(name, name, aliases=aliases) for name, aliases in NEIGHBORHOODS.items()],
        param="neighborhood_text",
        metadata={"resolution": "unknown_neighborhood"},
    )


@service.capability(
    "search_listings",
    {"pt": "Busca imóveis para alugar", "en": "Search places to rent"},
    parameters={
        "type": "object",
        "properties": {
            "neighborhood_text": {"type": "string", "minLength": 1},
            "bedrooms": {"type": "number", "minimum": 0},
            "max_rent": {
                "type": "object",
                "properties": {"amount": {"type": "number"}, "currency": {"type": ["string", "null"]}},
                "required": ["amount"],
            },
            "property_type": {"type": "string", "enum": TYPES},
            "furnished": {"type": "boolean"},
        },
        "required": ["neighborhood_text"],
    },
    metadata={
        "intent_hints": {
            "keywords": ["aluguel", "alugar", "imóvel", "imóveis", "quartos", "rent", "rental", "bedrooms"],
            "examples": ["procuro um lugar pra alugar", "looking for a place to rent"],
        },
        "policy": {"read_only": True},
    },
)
def search_listings(intent: ExecutionIntent) -> DomainOutput:
    lang = language(intent)
    p = intent.parameters
    hood = _neighborhood(lang, p.get("neighborhood_text"))
    if isinstance(hood, DomainOutput):
        return hood
    found = [x for x in LISTINGS.values() if x.neighborhood == hood and not x.rented]
    raw = p.get("bedrooms")
    bedrooms = int(raw) if isinstance(raw, int | float) and not isinstance(raw, bool) else read_number(raw)
    if bedrooms:
        found = [x for x in found if x.bedrooms >= bedrooms]
    kind = str(p.get("property_type") or "").upper()
    if kind in TYPES:
        found = [x for x in found if x.kind == kind]
    if p.get("furnished") is True:
        found = [x for x in found if x.furnished]
    budget = read_money(p.get("max_rent")) if p.get("max_rent") is not None else None
    if budget is not None:
        amount, currency = budget
        if currency != "BRL":
            return fail(
                say(lang, "Os aluguéis são só em reais.", "Rents are in reais (BRL) only."),
                "unsupported_currency",
                recoverable=True,
            )
        within = [x for x in found if x.rent_brl <= amount]
        if found and not within:
            cheapest = min(x.rent_brl for x in found)
            return fail(
                say(
                    lang,
                    f"Nada em {hood} até R$ {amount:.0f}; o mais barato é R$ {cheapest}.",
                    f"Nothing in {hood} up to R$ {amount:.0f}; the cheapest is R$ {cheapest}.",
                ),
                "over_budget",
                recoverable=True,
                suggestions=[{"max_rent": {"amount": cheapest, "currency": "BRL"}}],
            )
        found = within
    if not found:
        text = say(
            lang,
            f"Nenhum imóvel disponível em {hood} com esses filtros.",
            f"No places available in {hood} with those filters.",
        )
    else:
        text = "\n".join(x.describe(lang) for x in sorted(found, key=lambda x: x.rent_brl))
    return DomainOutput(
        status="success",
        result={"neighborhood": hood, "listings": [asdict(x) for x in found]},
        explanation=text,
    )


@service.capability(
    "schedule_visit",
    {"pt": "Agenda uma visita a um imóvel", "en": "Schedule a viewing of a place"},
    parameters={
        "type": "object",
        "properties": {
            "listing_code_text": {"type": "string", "minLength": 1},
            "day": {"type": "string", "pattern": "^\\d{4}-\\d{2}-\\d{2}$"},
            "time": {"type": "string", "pattern": "^\\d{2}:\\d{2}$"},
        },
        "required": ["listing_code_text", "day", "time"],
    },
    metadata={
        "intent_hints": {
            "keywords": ["visita", "visitar", "agendar visita", "ver o imóvel", "viewing", "visit", "tour"],
            "examples": ["quero visitar um apartamento", "I'd like to see the apartment"],
        },
        "policy": {"confirm": True, "idempotent": False},
    },
)
def schedule_visit(intent: ExecutionIntent) -> DomainOutput:
    lang = language(intent)
    p = intent.parameters
    code = code_of(p.get("listing_code_text"), "IM")
    listing = LISTINGS.get(code)
    if listing is None:
        return fail(say(lang, f"Não achei o imóvel {code}.", f"No listing {code}."), "listing_not_found")
    if listing.rented:
        return fail(
            say(lang, f"O {code} já foi alugado.", f"{code} has already been rented."), "not_available"
        )
    day = read_day(p.get("day"))
    time = read_time(p.get("time"))
    if day is None or time is None:
        return fail(say(lang, "Qual dia e horário?", "Which day and time?"), "missing_parameter")
    if day < today():
        return fail(say(lang, "Esse dia já passou.", "That day has passed."), "past_day")
    if day.weekday() == 6:
        monday = day + timedelta(days=1)
        return fail(
            say(
                lang,
                f"Não fazemos visitas aos domingos; pode ser segunda, {monday.isoformat()}.",
                f"We don't do viewings on Sundays; it can be Monday, {monday.isoformat()}.",
            ),
            "sunday",
            recoverable=True,
            suggestions=[{"day": monday.isoformat()}],
        )
    if not HOURS[0] <= time <= HOURS[1]:
        nearest = HOURS[0] if time < HOURS[0] else HOURS[1]
        return fail(
            say(
                lang,
                f"As visitas são das {HOURS[0]} às {HOURS[1]}.",
                f"Viewings are from {HOURS[0]} to {HOURS[1]}.",
            ),
            "outside_hours",
            recoverable=True,
            suggestions=[{"time": nearest}],
        )
    if (code, day.isoformat(), time) in TAKEN:
        later = f"{int(time[:2]) + 1:02d}:{time[3:]}"
        return fail(
            say(
                lang,
                f"O {code} já tem visita em {day.isoformat()} às {time}; às {later} está livre.",
                f"{code} already has a viewing on {day.isoformat()} at {time}; {later} is free.",
            ),
            "slot_taken",
            recoverable=True,
            suggestions=[{"time": later}],
        )
    _next_code[0] += 1
    visit = Visit(f"VT{_next_code[0]}", code, day.isoformat(), time, "confirmed")
    VISITS[visit.code] = visit
    return DomainOutput(
        status="success",
        result=asdict(visit),
        explanation=say(
            lang,
            f"Visita agendada — {visit.describe(lang)}. Código {visit.code}.",
            f"Viewing booked — {visit.describe(lang)}. Your code is {visit.code}.",
        ),
    )


@service.capability(
    "visit_status",
    {"pt": "Consulta a situação de uma visita", "en": "Check a viewing's status"},
    parameters={
        "type": "object",
        "properties": {"visit_code_text": {"type": "string", "minLength": 1}},
        "required": ["visit_code_text"],
    },
    metadata={
        "intent_hints": {"keywords": ["status da visita", "minha visita", "viewing status"]},
        "policy": {"read_only": True},
    },
)
def visit_status(intent: ExecutionIntent) -> DomainOutput:
    lang = language(intent)
    code = code_of(intent.parameters.get("visit_code_text"), "VT")
    visit = VISITS.get(code)
    if visit is None:
        return fail(say(lang, f"Não achei a visita {code}.", f"No viewing {code}."), "visit_not_found")
    return DomainOutput(status="success", result=asdict(visit), explanation=visit.describe(lang))


service.add_goal(
    {
        "goal": "SEARCH_LISTINGS",
        "description": {
            "pt": "Procurar imóveis para alugar num bairro",
            "en": "Find places to rent in a neighbourhood",
        },
        "entities_schema": {
            "neighborhood_text": {
                "type": "string",
                "required": True,
                "description": {"pt": "O bairro", "en": "The neighbourhood"},
                "lookup": lookup_spec(NEIGHBORHOODS),
            },
            "bedrooms": {
                "type": "number",
                "description": {"pt": "Quantos quartos", "en": "How many bedrooms"},
            },
            "max_rent": {
                "type": "money",
                "description": {"pt": "O aluguel máximo por mês", "en": "The most you'd pay per month"},
            },
            "property_type": {
                "type": "enum",
                "values": TYPES,
                "synonyms": TYPE_SYNONYMS,
                "description": {
                    "pt": "O tipo de imóvel (apartamento, casa ou studio)",
                    "en": "The kind of place (apartment, house or studio)",
                },
            },
            "furnished": {
                "type": "boolean",
                "description": {"pt": "Mobiliado", "en": "Furnished"},
                "synonyms": {"true": ["mobiliado", "mobiliada", "mobiliados", "com móveis", "furnished"]},
            },
        },
        "capabilities": ["search_listings"],
        "examples": [
            ex(
                "apartamento de 2 quartos em Pinheiros até 4 mil",
                property_type="APARTMENT",
                bedrooms="2 quartos",
                neighborhood_text="Pinheiros",
                max_rent="4 mil",
            ),
            ex("tem casa pra alugar no Tatuapé?", property_type="HOUSE", neighborhood_text="Tatuapé"),
            ex(
                "quero alugar um studio mobiliado na Bela Vista",
                property_type="STUDIO",
                furnished=True,
                neighborhood_text="Bela Vista",
            ),
            ex(
                "imóveis em Moema com 3 quartos até R$ 6.000",
                neighborhood_text="Moema",
                bedrooms="3 quartos",
                max_rent="R$ 6.000",
            ),
            ex("o que vocês têm pra alugar na Mooca?", neighborhood_text="Mooca"),
            ex(
                "2 bedroom apartment in Vila Mariana under 3000 reais",
                bedrooms="2 bedroom",
                property_type="APARTMENT",
                neighborhood_text="Vila Mariana",
                max_rent="3000 reais",
            ),
            ex(
                "any houses for rent in Vila Madalena?",
                property_type="HOUSE",
                neighborhood_text="Vila Madalena",
            ),
            ex(
                "show me furnished places in Itaim with 1 bedroom",
                furnished=True,
                neighborhood_text="Itaim",
                bedrooms="1 bedroom",
            ),
            ex("rentals in Perdizes up to R$ 3,500", neighborhood_text="Perdizes", max_rent="R$ 3,500"),
        ],
    }
)
service.add_goal(
    {
        "goal": "SCHEDULE_VISIT",
        "description": {"pt": "Agendar uma visita a um imóvel", "en": "Book a viewing of a place"},
        "entities_schema": {
            "listing_code_text": {
                "type": "string",
                "required": True,
                "description": {"pt": "O código do imóvel", "en": "The listing code"},
            },
            "day": {
                "type": "date",
                "required": True,
                "description": {"pt": "O dia da visita", "en": "The day"},
            },
            "time": {
                "type": "time",
                "required": True,
                "description": {"pt": "O horário da visita", "en": "The time"},
            },
        },
        "capabilities": ["schedule_visit"],
        "examples": [
            ex(
                "agenda uma visita no IM2041 amanhã às 15h",
                listing_code_text="IM2041",
                day="amanhã",
                time="às 15h",
            ),
            ex(
                "quero ver o imóvel IM2088 sexta às 10h",
                listing_code_text="IM2088",
                day="sexta",
                time="às 10h",
            ),
            ex("marca visita ao IM2125 sábado 11h", listing_code_text="IM2125", day="sábado", time="11h"),
            ex(
                "schedule a viewing of IM2060 on Thursday at 4pm",
                listing_code_text="IM2060",
                day="Thursday",
                time="at 4pm",
            ),
            ex(
                "can I see IM2104 tomorrow at 6pm?", listing_code_text="IM2104", day="tomorrow", time="at 6pm"
            ),
        ],
    }
)
service.add_goal(
    {
        "goal": "VISIT_STATUS",
        "description": {"pt": "A situação de uma visita agendada", "en": "The status of a booked viewing"},
        "entities_schema": {
            "visit_code_text": {
                "type": "string",
                "required": True,
                "description": {"pt": "O código da visita", "en": "The viewing code"},
            }
        },
        "capabilities": ["visit_status"],
        "examples": [
            ex("como está a visita VT7310?", visit_code_text="VT7310"),
            ex("a visita VT7322 foi confirmada?", visit_code_text="VT7322"),
            ex("status of viewing VT7310", visit_code_text="VT7310"),
            ex("is my viewing VT7322 confirmed?", visit_code_text="VT7322"),
        ],
    }
)

if __name__ == "__main__":
    serve(service)
