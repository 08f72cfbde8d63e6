"""Self-storage (round-14 bench domain): rent a storage unit, price a unit, ask about a
contract's access hours and status.

Fake, deterministic, in memory.
Run: ``python -m bench.understanding.round14.domains.self_storage --port 8603``.
"""

from __future__ import annotations

from datetime import date
from typing import Any

from bench.understanding.round14.domains._common import (
    ex,
    language,
    norm_code,
    read_day,
    read_number,
    say,
    today,
)
from sdk.service import DomainService, fail, serve
from shared.models import DomainOutput, ExecutionIntent

#: unit sizes (enum value <- synonyms; the first of each language is the label)
SIZES: dict[str, list[str]] = {
    "SMALL": ["box pequeno", "unidade pequena", "pequeno", "box p", "small unit", "small locker", "small"],
    "MEDIUM": ["box médio", "unidade média", "médio", "medio", "box m", "medium unit", "medium"],
    "LARGE": ["box grande", "unidade grande", "grande", "box g", "large unit", "big unit", "large"],
}
AREA = {"SMALL": 2, "MEDIUM": 6, "LARGE": 12}
#: monthly price, BRL; 10 % off from 6 months
PRICES: dict[str, int] = {"SMALL": 190, "MEDIUM": 340, "LARGE": 590}
LABEL = {
    "SMALL": ("box pequeno", "small unit"),
    "MEDIUM": ("box médio", "medium unit"),
    "LARGE": ("box grande", "large unit"),
}
MIN_MONTHS, MAX_MONTHS, DISCOUNT_FROM = 1, 24, 6
ACCESS = ("todos os dias, das 6h às 22h", "every day, 6am to 10pm")
#: contracts (code -> size, paid until, state)
CONTRACTS: dict[str, tuple[str, date, str]] = {
    "BX4101": ("MEDIUM", date(2026, 4, 10), "active"),
    "BX4105": ("SMALL", date(2026, 2, 28), "overdue"),
    "BX4110": ("LARGE", date(2026, 1, 31), "ended"),
}
_next = [4200]

service = DomainService(
    "self_storage",
    "0.1.0",
    {
        "pt": "Guarda-volumes (self storage): alugar um box, preço, horário de acesso e situação do contrato",
        "en": "Self-storage: rent a storage unit, prices, access hours and contract status",
    },
)


def _size(p: dict[str, Any]) -> str | None:
    size = str(p.get("unit_size") or "").upper()
    return size if size in SIZES else None


def _total(size: str, months: int) -> float:
    total = PRICES[size] * months
    return total * 0.9 if months >= DISCOUNT_FROM else float(total)


@service.capability(
    "rent_unit",
    {
        "pt": "Aluga um box de guarda-volumes a partir de um dia, por alguns meses",
        "en": "Rent a storage unit from a day, for a number of months",
    },
    parameters={
        "type": "object",
        "properties": {
            "unit_size": {"type": "string", "enum": list(SIZES)},
            "start_day": {"type": "string", "pattern": "^\\d{4}-\\d{2}-\\d{2}$"},
            "months": {"type": "number"},
        },
        "required": ["unit_size", "start_day", "months"],
    },
    metadata={
        "intent_hints": {
            "keywords": ["alugar box", "guarda-volumes", "guarda-móveis", "self storage", "storage unit"],
            "examples": ["quero alugar um box", "I need a storage unit"],
        },
        "policy": {"confirm": True, "idempotent": False},
    },
)
def rent_unit(intent: ExecutionIntent) -> DomainOutput:
    lang = language(intent)
    p = intent.parameters
    size = _size(p)
    start = read_day(p.get("start_day"))
    months = read_number(p.get("months"))
    if size is None or start is None or months is None:
        return fail(
            say(lang, "Falta o tamanho, o início ou os meses.", "The size, start or months are missing."),
            "missing_parameter",
        )
    if start < today():
        return fail(say(lang, "Esse dia já passou.", "That day is past."), "past_day")
    months = int(months)
    if months < MIN_MONTHS or months > MAX_MONTHS:
        return fail(
            say(lang, "Contratos de 1 a 24 meses.", "Contracts run 1 to 24 months."),
            "months_out_of_range",
            recoverable=True,
            suggestions=[{"months": MIN_MONTHS if months < MIN_MONTHS else MAX_MONTHS}],
        )
    _next[0] += 1
    code = f"BX{_next[0]}"
    total = _total(size, months)
    CONTRACTS[code] = (size, start, "active")
    pt, en = LABEL[size]
    return DomainOutput(
        status="success",
        result={
            "code": code,
            "unit_size": size,
            "area_m2": AREA[size],
            "start_day": start.isoformat(),
            "months": months,
            "total": {"amount": total, "currency": "BRL"},
        },
        explanation=say(
            lang,
            f"Contrato {code}: {pt} ({AREA[size]} m²) desde {start:%d/%m}, {months} meses, R$ {total:.2f}.",
            f"Contract {code}: {en} ({AREA[size]} m²) from {start:%b %d}, {months} months, R$ {total:.2f}.",
        ),
    )


@service.capability(
    "storage_price",
    {
        "pt": "Diz o preço mensal de um tamanho de box (ou o total por alguns meses)",
        "en": "Tell a unit size's monthly price (or the total for some months)",
    },
    parameters={
        "type": "object",
        "properties": {"unit_size": {"type": "string", "enum": list(SIZES)}, "months": {"type": "number"}},
        "required": ["unit_size"],
    },
    metadata={
        "intent_hints": {
            "keywords": ["preço do box", "quanto custa guardar", "storage price"],
            "examples": ["quanto custa um box por mês?", "how much is a storage unit?"],
        },
        "policy": {"read_only": True},
    },
)
def storage_price(intent: ExecutionIntent) -> DomainOutput:
    lang = language(intent)
    size = _size(intent.parameters)
    if size is None:
        return fail(say(lang, "Qual tamanho?", "Which size?"), "missing_parameter")
    months = read_number(intent.parameters.get("months"))
    pt, en = LABEL[size]
    if months is None:
        return DomainOutput(
            status="success",
            result={
                "unit_size": size,
                "area_m2": AREA[size],
                "monthly": {"amount": PRICES[size], "currency": "BRL"},
            },
            explanation=say(
                lang,
                f"{pt.capitalize()} ({AREA[size]} m²): R$ {PRICES[size]:.2f} ao mês; 10% off com 6+ meses.",
                f"{en.capitalize()} ({AREA[size]} m²): R$ {PRICES[size]:.2f} a month; 10% off from 6 months.",
            ),
        )
    total = _total(size, int(months))
    return DomainOutput(
        status="success",
        result={"unit_size": size, "months": int(months), "total": {"amount": total, "currency": "BRL"}},
        explanation=say(
            lang,
            f"{pt.capitalize()} por {int(months)} meses: R$ {total:.2f}.",
            f"{en.capitalize()} for {int(months)} months: R$ {total:.2f}.",
        ),
    )


@service.capability(
    "storage_status",
    {
        "pt": "Diz o horário de acesso e a situação de um contrato",
        "en": "Tell a contract's access hours and status",
    },
    parameters={
        "type": "object",
        "properties": {"contract_text": {"type": "string", "minLength": 1}},
        "required": ["contract_text"],
    },
    metadata={
        "intent_hints": {
            "keywords": ["horário de acesso", "situação do contrato", "access hours", "contract status"],
            "examples": ["posso acessar meu box agora?", "what are the access hours for my unit?"],
        },
        "policy": {"read_only": True},
    },
)
def storage_status(intent: ExecutionIntent) -> DomainOutput:
    lang = language(intent)
    code = norm_code(intent.parameters.get("contract_text"))
    contract = CONTRACTS.get(code)
    if contract is None:
        return fail(say(lang, f"Não achei o contrato {code}.", f"No contract {code}."), "not_found")
    size, paid_until, state = contract
    pt, en = LABEL[size]
    if state == "overdue":
        text = say(
            lang,
            f"{code} ({pt}): pagamento atrasado desde {paid_until:%d/%m}; acesso bloqueado até regularizar.",
            f"{code} ({en}): payment overdue since {paid_until:%b %d}; access blocked until it is paid.",
        )
    elif state == "ended":
        text = say(
            lang,
            f"{code} ({pt}): contrato encerrado em {paid_until:%d/%m}.",
            f"{code} ({en}): contract ended on {paid_until:%b %d}.",
        )
    else:
        text = say(
            lang,
            f"{code} ({pt}): ativo, pago até {paid_until:%d/%m}; acesso {ACCESS[0]}.",
            f"{code} ({en}): active, paid until {paid_until:%b %d}; access {ACCESS[1]}.",
        )
    return DomainOutput(
        status="success",
        result={
            "code": code,
            "unit_size": size,
            "state": state,
            "paid_until": paid_until.isoformat(),
            "access_hours": "06:00-22:00",
        },
        explanation=text,
    )


SIZE_ENTITY: dict[str, Any] = {
    "type": "enum",
    "required": True,
    "values": list(SIZES),
    "synonyms": SIZES,
    "description": {"pt": "O tamanho do box", "en": "The unit size"},
}
MONTHS_ENTITY: dict[str, Any] = {
    "type": "number",
    "description": {"pt": "Por quantos meses", "en": "For how many months"},
}

service.add_goal(
    {
        "goal": "RENT_UNIT",
        "description": {"pt": "Alugar um box de guarda-volumes", "en": "Rent a storage unit"},
        "entities_schema": {
            "unit_size": SIZE_ENTITY,
            "start_day": {
                "type": "date",
                "required": True,
                "description": {"pt": "A partir de quando", "en": "The start day"},
            },
            "months": {**MONTHS_ENTITY, "required": True},
        },
        "capabilities": ["rent_unit"],
        "examples": [
            ex(
                "quero alugar um box médio a partir de segunda por 3 meses",
                unit_size="MEDIUM",
                start_day="segunda",
                months="3 meses",
            ),
            ex(
                "aluga um box pequeno dia 20, 6 meses",
                unit_size="SMALL",
                start_day="dia 20",
                months="6 meses",
            ),
            ex(
                "preciso de um box grande por 2 meses a partir de amanhã",
                unit_size="LARGE",
                months="2 meses",
                start_day="amanhã",
            ),
            ex(
                "rent a small unit from Monday for 4 months",
                unit_size="SMALL",
                start_day="Monday",
                months="4 months",
            ),
            ex(
                "I need a large storage unit starting the 15th, 12 months",
                unit_size="LARGE",
                start_day="the 15th",
                months="12 months",
            ),
        ],
    }
)
service.add_goal(
    {
        "goal": "STORAGE_PRICE",
        "description": {"pt": "Preço de um box de guarda-volumes", "en": "Price of a storage unit"},
        "entities_schema": {"unit_size": SIZE_ENTITY, "months": MONTHS_ENTITY},
        "capabilities": ["storage_price"],
        "examples": [
            ex("quanto custa o box grande por mês?", unit_size="LARGE"),
            ex("preço do box pequeno por 6 meses", unit_size="SMALL", months="6 meses"),
            ex("how much is a medium unit a month?", unit_size="MEDIUM"),
            ex("price of a large unit for 3 months", unit_size="LARGE", months="3 months"),
        ],
    }
)
service.add_goal(
    {
        "goal": "STORAGE_STATUS",
        "description": {
            "pt": "Horário de acesso e situação do contrato",
            "en": "Access hours and contract status",
        },
        "entities_schema": {
            "contract_text": {
                "type": "string",
                "required": True,
                "description": {"pt": "O código do contrato", "en": "The contract code"},
            }
        },
        "capabilities": ["storage_status"],
        "examples": [
            ex("qual o horário de acesso do contrato BX4101?", contract_text="BX4101"),
            ex("situação do contrato BX4105", contract_text="BX4105"),
            ex("can I get into unit BX4101 tonight?", contract_text="BX4101"),
            ex("status of contract BX4110", contract_text="BX4110"),
        ],
    }
)

if __name__ == "__main__":
    serve(service)
