"""Tailor / clothing alterations (round-15 bench domain): order an alteration of a garment with
a pickup day, price an alteration, follow an alteration order.

Fake, deterministic, in memory.
Run: ``python -m bench.understanding.round15.domains.tailor --port 8702``.
"""

from __future__ import annotations

from datetime import date, timedelta
from typing import Any

from bench.understanding.round15.domains._common import (
    ex,
    language,
    norm_code,
    read_day,
    resolve_name,
    say,
    table,
    today,
)
from sdk.service import DomainService, clarify, fail, option, serve
from shared.models import DomainOutput, ExecutionIntent

#: garments (canonical value <- aliases)
GARMENTS: dict[str, list[str]] = {
    "Calça": ["calça", "calca", "calças", "calça jeans", "jeans", "pants", "trousers", "slacks"],
    "Vestido": ["vestido", "vestidos", "vestido de festa", "dress", "gown"],
    "Terno": ["terno", "ternos", "suit", "suits"],
    "Paletó": ["paletó", "paleto", "blazer", "suit jacket", "sport coat"],
    "Camisa": ["camisa", "camisas", "camisa social", "shirt", "dress shirt"],
    "Saia": ["saia", "saias", "skirt"],
    "Casaco": ["casaco", "jaqueta", "sobretudo", "coat", "jacket", "overcoat"],
}
#: alterations (enum value <- synonyms; the first of each language is the label)
ALTERATIONS: dict[str, list[str]] = {
    "HEM": [
        "fazer a barra",
        "barra",
        "bainha",
        "subir a barra",
        "encurtar a barra",
        "hem",
        "hemmed",
        "hemming",
        "take up the hem",
    ],
    "TAKE_IN": ["apertar", "apertar na cintura", "acinturar", "take in", "take it in", "taken in"],
    "LET_OUT": ["soltar", "alargar", "soltar na cintura", "let out", "let it out", "let the waist out"],
    "ZIPPER": [
        "trocar o zíper",
        "trocar zíper",
        "zíper",
        "ziper",
        "zipper",
        "new zipper",
        "replace the zipper",
    ],
    "SLEEVES": [
        "encurtar a manga",
        "encurtar as mangas",
        "mangas",
        "manga",
        "shorten the sleeves",
        "sleeves",
        "sleeve",
    ],
}
LABEL = {
    "HEM": ("barra", "hem"),
    "TAKE_IN": ("apertar", "take in"),
    "LET_OUT": ("soltar", "let out"),
    "ZIPPER": ("troca de zíper", "zipper replacement"),
    "SLEEVES": ("encurtar mangas", "sleeve shortening"),
}
#: price per alteration, BRL; tailored pieces cost R$ 25 more
PRICES: dict[str, int] = {"HEM": 30, "TAKE_IN": 45, "LET_OUT": 50, "ZIPPER": 35, "SLEEVES": 40}
TAILORED, TAILORED_EXTRA, NOTICE_DAYS = {"Terno", "Paletó", "Casaco"}, 25, 2
#: orders (code -> garment, alteration, state, pickup day)
ORDERS: dict[str, tuple[str, str, str, date]] = {
    "AJ7101": ("Calça", "HEM", "ready", date(2026, 3, 10)),
    "AJ7105": ("Terno", "TAKE_IN", "in_progress", date(2026, 3, 13)),
    "AJ7110": ("Vestido", "ZIPPER", "picked_up", date(2026, 3, 5)),
}
STATE = {
    "ready": ("pronto para retirar", "ready for pickup"),
    "in_progress": ("em andamento", "in progress"),
    "picked_up": ("já retirado", "already picked up"),
    "received": ("recebido", "received"),
}
_next = [7200]

service = DomainService(
    "tailor",
    "0.1.0",
    {
        "pt": (
            "Costureira / ajustes de roupa: pedir um ajuste com "
            "dia de retirada, preço do ajuste, status do pedido"
        ),
        "en": (
            "Tailor / clothing alterations: order an alteration "
            "with a pickup day, alteration prices, order status"
        ),
    },
)


def _price(kind: str, garment: str | None) -> int:
    return PRICES[kind] + (TAILORED_EXTRA if garment in TAILORED else 0)


def _kind(p: dict[str, Any]) -> str | None:
    kind = str(p.get("alteration") or "").upper()
    return kind if kind in ALTERATIONS else None


def _garment_options(lang: str) -> DomainOutput:
    return clarify(
        say(lang, "Não trabalho com essa peça. Qual destas?", "I don't alter that piece. Which of these?"),
        [option(name, name) for name in GARMENTS],
        param="garment_text",
    )


@service.capability(
    "order_alteration",
    {
        "pt": (
            "Pede um ajuste de roupa (barra, apertar, soltar, zíper, mangas) "
            "com o dia de retirada (2 dias de prazo, seg a sáb)"
        ),
        "en": (
            "Order a clothing alteration (hem, take in, let out, zipper, "
            "sleeves) with a pickup day (2 days' notice, Mon to Sat)"
        ),
    },
    parameters={
        "type": "object",
        "properties": {
            "garment_text": {"type": "string", "minLength": 1},
            "alteration": {"type": "string", "enum": list(ALTERATIONS)},
            "pickup_day": {"type": "string", "pattern": "^\\d{4}-\\d{2}-\\d{2}$"},
        },
        "required": ["garment_text", "alteration", "pickup_day"],
    },
    metadata={
        "intent_hints": {
            "keywords": [
                "ajuste de roupa",
                "costureira",
                "alfaiate",
                "conserto de roupa",
                "alteration",
                "tailor",
            ],
            "examples": ["quero ajustar uma roupa", "I need an alteration"],
        },
        "policy": {"confirm": True, "idempotent": False},
    },
)
def order_alteration(intent: ExecutionIntent) -> DomainOutput:
    lang = language(intent)
    p = intent.parameters
    kind = _kind(p)
    day = read_day(p.get("pickup_day"))
    if kind is None or day is None or not p.get("garment_text"):
        return fail(
            say(lang, "Falta a peça, o ajuste ou o dia.", "The piece, alteration or day is missing."),
            "missing_parameter",
        )
    garment = resolve_name(GARMENTS, p.get("garment_text"))
    if garment is None:
        return _garment_options(lang)
    if day < today():
        return fail(say(lang, "Esse dia já passou.", "That day is past."), "past_day")
    earliest = today() + timedelta(days=NOTICE_DAYS)
    if day < earliest:
        return fail(
            say(lang, "Precisamos de 2 dias para o ajuste.", "We need 2 days for an alteration."),
            "too_soon",
            recoverable=True,
            suggestions=[{"pickup_day": earliest.isoformat()}],
        )
    if day.weekday() == 6:
        return fail(
            say(lang, "Não abrimos no domingo.", "We are closed on Sundays."),
            "closed",
            recoverable=True,
            suggestions=[{"pickup_day": (day + timedelta(days=1)).isoformat()}],
        )
    _next[0] += 1
    code = f"AJ{_next[0]}"
    ORDERS[code] = (garment, kind, "received", day)
    price = _price(kind, garment)
    pt, en = LABEL[kind]
    return DomainOutput(
        status="success",
        result={
            "code": code,
            "garment": garment,
            "alteration": kind,
            "pickup_day": day.isoformat(),
            "price": {"amount": price, "currency": "BRL"},
        },
        explanation=say(
            lang,
            f"Pedido {code}: {pt} — {garment}, retirada {day:%d/%m}, R$ {price:.2f}.",
            f"Order {code}: {en} — {garment}, pickup {day:%b %d}, R$ {price:.2f}.",
        ),
    )


@service.capability(
    "alteration_price",
    {
        "pt": "Diz o preço de um ajuste (peças de alfaiataria custam R$ 25 a mais)",
        "en": "Tell an alteration's price (tailored pieces cost R$ 25 more)",
    },
    parameters={
        "type": "object",
        "properties": {
            "alteration": {"type": "string", "enum": list(ALTERATIONS)},
            "garment_text": {"type": "string"},
        },
        "required": ["alteration"],
    },
    metadata={
        "intent_hints": {
            "keywords": ["preço do ajuste", "quanto custa a barra", "alteration price"],
            "examples": ["quanto custa um ajuste?", "how much is an alteration?"],
        },
        "policy": {"read_only": True},
    },
)
def alteration_price(intent: ExecutionIntent) -> DomainOutput:
    lang = language(intent)
    p = intent.parameters
    kind = _kind(p)
    if kind is None:
        return fail(say(lang, "Qual ajuste?", "Which alteration?"), "missing_parameter")
    garment = resolve_name(GARMENTS, p.get("garment_text")) if p.get("garment_text") else None
    price = _price(kind, garment)
    pt, en = LABEL[kind]
    return DomainOutput(
        status="success",
        result={"alteration": kind, "garment": garment, "price": {"amount": price, "currency": "BRL"}},
        explanation=say(
            lang,
            f"{pt.capitalize()}{' de ' + garment if garment else ''}: "
            f"R$ {price:.2f} (ternos, paletós e casacos + R$ 25).",
            f"{en.capitalize()}{' on a ' + garment if garment else ''}: "
            f"R$ {price:.2f} (suits, blazers and coats + R$ 25).",
        ),
    )


@service.capability(
    "alteration_status",
    {
        "pt": "Diz como está um pedido de ajuste pelo código",
        "en": "Tell how an alteration order is going, by its code",
    },
    parameters={
        "type": "object",
        "properties": {"order_text": {"type": "string", "minLength": 1}},
        "required": ["order_text"],
    },
    metadata={
        "intent_hints": {
            "keywords": ["status do ajuste", "minha roupa está pronta", "alteration status"],
            "examples": ["minha calça já ficou pronta?", "is my alteration ready?"],
        },
        "policy": {"read_only": True},
    },
)
def alteration_status(intent: ExecutionIntent) -> DomainOutput:
    lang = language(intent)
    code = norm_code(intent.parameters.get("order_text"))
    order = ORDERS.get(code)
    if order is None:
        return fail(say(lang, f"Não achei o pedido {code}.", f"No order {code}."), "not_found")
    garment, kind, state, day = order
    pt, en = LABEL[kind]
    spt, sen = STATE[state]
    return DomainOutput(
        status="success",
        result={
            "code": code,
            "garment": garment,
            "alteration": kind,
            "state": state,
            "pickup_day": day.isoformat(),
        },
        explanation=say(
            lang,
            f"{code} ({pt}, {garment}): {spt}; retirada {day:%d/%m}.",
            f"{code} ({en}, {garment}): {sen}; pickup {day:%b %d}.",
        ),
    )


GARMENT_ENTITY: dict[str, Any] = {
    "type": "string",
    "lookup": table(GARMENTS),
    "description": {"pt": "A peça de roupa", "en": "The piece of clothing"},
}
ALTERATION_ENTITY: dict[str, Any] = {
    "type": "enum",
    "required": True,
    "values": list(ALTERATIONS),
    "synonyms": ALTERATIONS,
    "description": {"pt": "O ajuste", "en": "The alteration"},
}

service.add_goal(
    {
        "goal": "ORDER_ALTERATION",
        "description": {"pt": "Pedir um ajuste de roupa", "en": "Order a clothing alteration"},
        "entities_schema": {
            "garment_text": {**GARMENT_ENTITY, "required": True},
            "alteration": ALTERATION_ENTITY,
            "pickup_day": {
                "type": "date",
                "required": True,
                "description": {"pt": "O dia da retirada", "en": "The pickup day"},
            },
        },
        "capabilities": ["order_alteration"],
        "examples": [
            ex(
                "quero fazer a barra da calça pra sexta",
                garment_text="calça",
                alteration="HEM",
                pickup_day="sexta",
            ),
            ex(
                "preciso apertar o vestido, retiro sábado",
                garment_text="vestido",
                alteration="TAKE_IN",
                pickup_day="sábado",
            ),
            ex(
                "trocar o zíper da jaqueta pra dia 20",
                garment_text="jaqueta",
                alteration="ZIPPER",
                pickup_day="dia 20",
            ),
            ex(
                "hem my trousers, pick up on Friday",
                garment_text="trousers",
                alteration="HEM",
                pickup_day="Friday",
            ),
            ex(
                "I need my suit taken in by next monday",
                garment_text="suit",
                alteration="TAKE_IN",
                pickup_day="next monday",
            ),
        ],
    }
)
service.add_goal(
    {
        "goal": "ALTERATION_PRICE",
        "description": {"pt": "Preço de um ajuste de roupa", "en": "Price of a clothing alteration"},
        "entities_schema": {"alteration": ALTERATION_ENTITY, "garment_text": GARMENT_ENTITY},
        "capabilities": ["alteration_price"],
        "examples": [
            ex("quanto custa fazer a barra de uma calça?", alteration="HEM", garment_text="calça"),
            ex("preço pra soltar um terno", alteration="LET_OUT", garment_text="terno"),
            ex("how much to replace the zipper on a dress?", alteration="ZIPPER", garment_text="dress"),
            ex("price to shorten the sleeves", alteration="SLEEVES"),
        ],
    }
)
service.add_goal(
    {
        "goal": "ALTERATION_STATUS",
        "description": {"pt": "Status de um pedido de ajuste", "en": "Status of an alteration order"},
        "entities_schema": {
            "order_text": {
                "type": "string",
                "required": True,
                "description": {"pt": "O código do pedido", "en": "The order code"},
            }
        },
        "capabilities": ["alteration_status"],
        "examples": [
            ex("como está o pedido AJ7101?", order_text="AJ7101"),
            ex("o ajuste AJ7105 já ficou pronto?", order_text="AJ7105"),
            ex("status of alteration AJ7105", order_text="AJ7105"),
            ex("is order AJ7101 ready?", order_text="AJ7101"),
        ],
    }
)

if __name__ == "__main__":
    serve(service)
