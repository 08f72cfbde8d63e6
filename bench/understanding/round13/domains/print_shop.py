"""Print shop (round-13 bench domain): order printed goods for pick-up, quote them, check a job.

Fake, deterministic, in memory.
Run: ``python -m bench.understanding.round13.domains.print_shop --port 8503``.
"""

from __future__ import annotations

import re
from typing import Any

from bench.understanding.round13.domains._common import (
    ex,
    language,
    lookup_spec,
    read_day,
    read_number,
    resolve_loose,
    say,
    today,
)
from sdk.service import DomainService, clarify, fail, option, serve
from shared.models import DomainOutput, ExecutionIntent

#: products (canonical name <- other ways people write it)
PRODUCTS: dict[str, list[str]] = {
    "Cartão de Visita": [
        "cartão de visita",
        "cartões de visita",
        "cartao de visita",
        "cartoes de visita",
        "business card",
        "business cards",
    ],
    "Panfleto": ["panfleto", "panfletos", "folheto", "folhetos", "flyer", "flyers", "leaflet", "leaflets"],
    "Banner": ["banner", "banners", "faixa", "lona"],
    "Adesivo": ["adesivo", "adesivos", "sticker", "stickers"],
}
#: finishes (enum value <- synonyms)
FINISHES: dict[str, list[str]] = {
    "MATTE": ["fosco", "fosca", "acabamento fosco", "matte", "matt", "matte finish"],
    "GLOSSY": ["brilho", "brilhante", "com verniz", "verniz", "glossy", "gloss", "glossy finish"],
}
#: price per unit, in BRL, and the most one order takes
UNIT_PRICE: dict[str, float] = {"Cartão de Visita": 0.2, "Panfleto": 0.15, "Banner": 90.0, "Adesivo": 0.5}
MAX_UNITS: dict[str, int] = {"Cartão de Visita": 5000, "Panfleto": 10000, "Banner": 20, "Adesivo": 2000}
#: jobs (code -> product, state)
JOBS: dict[str, tuple[str, str]] = {
    "GR8801": ("Cartão de Visita", "ready"),
    "GR8806": ("Banner", "printing"),
    "GR8812": ("Panfleto", "queued"),
}
STATE = {
    "ready": ("pronto para retirar", "ready for pick-up"),
    "printing": ("imprimindo", "printing"),
    "queued": ("na fila", "queued"),
}
_next = [8900]

service = DomainService(
    "print_shop",
    "0.1.0",
    {
        "pt": "Gráfica: encomendar impressos para retirar, orçamento, status do pedido",
        "en": "Print shop: order printed goods for pick-up, quotes, job status",
    },
)


def _product(lang: str, words: object) -> tuple[str | None, DomainOutput | None]:
    name = resolve_loose(words, PRODUCTS)
    if name is None:
        return None, clarify(
            say(lang, f"Não fazemos “{words}”. Qual impresso?", "Which product?"),
            [option(n, n, aliases=PRODUCTS[n]) for n in PRODUCTS],
            param="product_text",
        )
    return name, None


@service.capability(
    "order_print",
    {
        "pt": "Encomenda impressos para retirar num dia (fosco, se não disser o acabamento)",
        "en": "Order printed goods for pick-up on a day (matte, unless a finish is said)",
    },
    parameters={
        "type": "object",
        "properties": {
            "product_text": {"type": "string", "minLength": 1},
            "quantity": {"type": "number"},
            "finish": {"type": "string", "enum": list(FINISHES)},
            "day": {"type": "string", "pattern": "^\\d{4}-\\d{2}-\\d{2}$"},
        },
        "required": ["product_text", "quantity", "day"],
    },
    metadata={
        "intent_hints": {
            "keywords": ["imprimir", "gráfica", "encomendar impressão", "print order"],
            "examples": ["quero imprimir uns panfletos", "print some business cards"],
        },
        "policy": {"confirm": True, "idempotent": False},
    },
)
def order_print(intent: ExecutionIntent) -> DomainOutput:
    lang = language(intent)
    p = intent.parameters
    name, question = _product(lang, p.get("product_text"))
    if question is not None:
        return question
    assert name is not None
    units = int(read_number(p.get("quantity")) or 0)
    day = read_day(p.get("day"))
    finish = str(p.get("finish") or "MATTE").upper()
    if day is None or units <= 0:
        return fail(
            say(lang, "Falta a quantidade ou o dia.", "The quantity or day is missing."), "missing_parameter"
        )
    if day < today():
        return fail(say(lang, "Esse dia já passou.", "That day is past."), "past_day")
    if units > MAX_UNITS[name]:
        return fail(
            say(lang, f"Até {MAX_UNITS[name]} por pedido.", f"Up to {MAX_UNITS[name]} per order."),
            "too_many",
            recoverable=True,
            suggestions=[{"quantity": MAX_UNITS[name]}],
        )
    _next[0] += 1
    code = f"GR{_next[0]}"
    JOBS[code] = (name, "queued")
    price = round(UNIT_PRICE[name] * units, 2)
    return DomainOutput(
        status="success",
        result={
            "code": code,
            "product": name,
            "quantity": units,
            "finish": finish,
            "day": day.isoformat(),
            "price": {"amount": price, "currency": "BRL"},
        },
        explanation=say(
            lang,
            f"Pedido {code}: {units} × {name} ({finish.lower()}), retirada {day:%d/%m}, R$ {price:.2f}.",
            f"Job {code}: {units} × {name} ({finish.lower()}), pick-up {day:%b %d}, R$ {price:.2f}.",
        ),
    )


@service.capability(
    "print_quote",
    {"pt": "Faz o orçamento de impressos", "en": "Quote printed goods"},
    parameters={
        "type": "object",
        "properties": {
            "product_text": {"type": "string", "minLength": 1},
            "quantity": {"type": "number"},
        },
        "required": ["product_text"],
    },
    metadata={
        "intent_hints": {
            "keywords": ["orçamento de impressão", "quanto custa imprimir", "printing quote"],
            "examples": ["quanto fica pra imprimir?", "how much for printing?"],
        },
        "policy": {"read_only": True},
    },
)
def print_quote(intent: ExecutionIntent) -> DomainOutput:
    lang = language(intent)
    p = intent.parameters
    name, question = _product(lang, p.get("product_text"))
    if question is not None:
        return question
    assert name is not None
    units = int(read_number(p.get("quantity")) or 1)
    price = round(UNIT_PRICE[name] * units, 2)
    return DomainOutput(
        status="success",
        result={"product": name, "quantity": units, "price": {"amount": price, "currency": "BRL"}},
        explanation=say(lang, f"{units} × {name}: R$ {price:.2f}.", f"{units} × {name}: R$ {price:.2f}."),
    )


@service.capability(
    "print_status",
    {"pt": "Diz o status de um pedido da gráfica", "en": "Tell a print job's status"},
    parameters={
        "type": "object",
        "properties": {"job_text": {"type": "string", "minLength": 1}},
        "required": ["job_text"],
    },
    metadata={
        "intent_hints": {
            "keywords": ["status da impressão", "meu pedido na gráfica", "print job status"],
            "examples": ["minha impressão já ficou pronta?", "is my print job ready?"],
        },
        "policy": {"read_only": True},
    },
)
def print_status(intent: ExecutionIntent) -> DomainOutput:
    lang = language(intent)
    code = re.sub(r"[\s#-]", "", str(intent.parameters.get("job_text") or "")).upper()
    job = JOBS.get(code)
    if job is None:
        return fail(say(lang, f"Não achei o pedido {code}.", f"No job {code}."), "not_found")
    name, state = job
    pt, en = STATE[state]
    return DomainOutput(
        status="success",
        result={"code": code, "product": name, "state": state},
        explanation=say(lang, f"{code} ({name}): {pt}.", f"{code} ({name}): {en}."),
    )


PRODUCT_ENTITY: dict[str, Any] = {
    "type": "string",
    "required": True,
    "description": {"pt": "O impresso", "en": "The product"},
    "lookup": lookup_spec(PRODUCTS),
}
QUANTITY = {"pt": "Quantas unidades", "en": "How many"}

service.add_goal(
    {
        "goal": "ORDER_PRINT",
        "description": {"pt": "Encomendar impressos", "en": "Order printed goods"},
        "entities_schema": {
            "product_text": PRODUCT_ENTITY,
            "quantity": {"type": "number", "required": True, "description": QUANTITY},
            "finish": {
                "type": "enum",
                "values": list(FINISHES),
                "synonyms": FINISHES,
                "description": {"pt": "O acabamento", "en": "The finish"},
            },
            "day": {
                "type": "date",
                "required": True,
                "description": {"pt": "O dia da retirada", "en": "The pick-up day"},
            },
        },
        "capabilities": ["order_print"],
        "examples": [
            ex(
                "imprime 500 cartões de visita pra sexta",
                product_text="cartões de visita",
                quantity="500",
                day="sexta",
            ),
            ex(
                "quero 1000 panfletos com brilho pra segunda",
                product_text="panfletos",
                quantity="1000",
                finish="GLOSSY",
                day="segunda",
            ),
            ex("2 banners pro dia 20", product_text="banners", quantity="2", day="dia 20"),
            ex(
                "print 300 stickers matte for Thursday",
                product_text="stickers",
                quantity="300",
                finish="MATTE",
                day="Thursday",
            ),
            ex(
                "order 200 business cards for tomorrow",
                product_text="business cards",
                quantity="200",
                day="tomorrow",
            ),
        ],
    }
)
service.add_goal(
    {
        "goal": "PRINT_QUOTE",
        "description": {"pt": "Orçamento de impressos", "en": "Printing quote"},
        "entities_schema": {
            "product_text": PRODUCT_ENTITY,
            "quantity": {"type": "number", "description": QUANTITY},
        },
        "capabilities": ["print_quote"],
        "examples": [
            ex("quanto custam 500 panfletos?", product_text="panfletos", quantity="500"),
            ex("orçamento de banner", product_text="banner"),
            ex("how much for 1000 flyers?", product_text="flyers", quantity="1000"),
            ex("quote for stickers", product_text="stickers"),
        ],
    }
)
service.add_goal(
    {
        "goal": "PRINT_STATUS",
        "description": {"pt": "Status de um pedido da gráfica", "en": "Print job status"},
        "entities_schema": {
            "job_text": {
                "type": "string",
                "required": True,
                "description": {"pt": "O código do pedido", "en": "The job code"},
            }
        },
        "capabilities": ["print_status"],
        "examples": [
            ex("o pedido GR8801 já tá pronto?", job_text="GR8801"),
            ex("status da impressão GR8806", job_text="GR8806"),
            ex("is job GR8812 ready?", job_text="GR8812"),
            ex("status of print job GR8801", job_text="GR8801"),
        ],
    }
)

if __name__ == "__main__":
    serve(service)
