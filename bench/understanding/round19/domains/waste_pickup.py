"""Bulky waste pickup (round-19 bench domain), a city service: schedule a pickup of a bulky item
(furniture, appliances, debris) at an address on a weekday, cancel a pickup by its code, ask a
pickup's status (by its code or its address), and ask which drop-off point (ecoponto) takes a
material.

Fake, deterministic, in memory.
Run: ``python -m bench.understanding.round19.domains.waste_pickup --port 8923``.
"""

from __future__ import annotations

from datetime import date, timedelta

from bench.understanding.round19.domains._common import (
    ex,
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

#: bulky items (canonical value <- aliases)
ITEMS: dict[str, list[str]] = {
    "Sofá": ["sofá", "sofa", "sofás", "sofas", "couch", "couches", "settee"],
    "Geladeira": ["geladeira", "geladeiras", "refrigerador", "fridge", "refrigerator", "freezer"],
    "Colchão": ["colchão", "colchao", "colchões", "colchoes", "mattress", "mattresses"],
    "Fogão": ["fogão", "fogao", "fogões", "stove", "oven", "cooker"],
    "Máquina de lavar": ["máquina de lavar", "maquina de lavar", "lavadora", "washing machine", "washer"],
    "Guarda-roupa": ["guarda-roupa", "guarda roupa", "armário", "armario", "wardrobe", "closet", "cabinet"],
    "Televisão": ["televisão", "televisao", "tv", "televisor", "television"],
    "Entulho": ["entulho", "entulhos", "restos de obra", "caliça", "rubble", "debris", "construction debris"],
    "Galhos": ["galhos", "poda", "restos de poda", "branches", "tree branches", "yard waste"],
}
#: drop-off materials (canonical value <- aliases)
MATERIALS: dict[str, list[str]] = {
    "Pilhas e baterias": ["pilhas", "pilha", "baterias", "bateria", "batteries", "battery"],
    "Óleo de cozinha": [
        "óleo de cozinha",
        "oleo de cozinha",
        "óleo usado",
        "oleo usado",
        "cooking oil",
        "used oil",
    ],
    "Vidro": ["vidro", "vidros", "garrafas de vidro", "glass", "glass bottles"],
    "Eletrônicos": [
        "eletrônicos",
        "eletronicos",
        "lixo eletrônico",
        "celular velho",
        "electronics",
        "e-waste",
    ],
    "Lâmpadas": ["lâmpadas", "lampadas", "lâmpada", "lampada", "light bulbs", "bulbs", "fluorescent lamps"],
    "Isopor": ["isopor", "styrofoam", "polystyrene"],
    "Madeira": ["madeira", "madeiras", "wood", "lumber"],
}
#: ecopoint -> materials it takes, opening hours
ECOPOINTS: dict[str, tuple[tuple[str, ...], str]] = {
    "Ecoponto Pinheiros (Rua Sumidouro 400)": (
        ("Pilhas e baterias", "Óleo de cozinha", "Vidro", "Eletrônicos"),
        "seg–sáb 6h–22h",
    ),
    "Ecoponto Vila Mariana (Rua Dr. Diogo de Faria 30)": (
        ("Lâmpadas", "Isopor", "Vidro", "Madeira"),
        "seg–sáb 6h–22h",
    ),
    "Ecoponto Mooca (Rua Taquari 900)": (
        ("Pilhas e baterias", "Madeira", "Eletrônicos", "Lâmpadas"),
        "seg–dom 8h–20h",
    ),
}
#: items with a fee (BRL per pickup); the rest are free
FEES: dict[str, float] = {"Entulho": 120.0}
MAX_ITEMS = 5
#: pickups (code -> item, quantity, address, day, state)
PICKUPS: dict[str, tuple[str, int, str, date, str]] = {
    "WP7101": ("Sofá", 1, "Rua Augusta 1200", date(2026, 3, 12), "scheduled"),
    "WP7105": ("Geladeira", 1, "Avenida Paulista 900", date(2026, 3, 9), "collected"),
    "WP7110": ("Fogão", 1, "Rua Harmonia 300", date(2026, 3, 11), "cancelled"),
    "WP7114": ("Colchão", 2, "Rua Harmonia 300", date(2026, 3, 10), "on_the_way"),
}
STATE = {
    "scheduled": ("agendada", "scheduled"),
    "collected": ("recolhida", "collected"),
    "cancelled": ("cancelada", "cancelled"),
    "on_the_way": ("caminhão a caminho hoje", "truck on the way today"),
}
_next = [7200]

service = DomainService(
    "waste_pickup",
    "0.1.0",
    {
        "pt": (
            "Coleta de volumosos da prefeitura: agendar, cancelar e acompanhar coletas,"
            " ecopontos para recicláveis"
        ),
        "en": "City bulky waste pickup: schedule, cancel and track pickups, drop-off points for recyclables",
    },
)


def _next_weekday(d: date) -> date:
    while d.weekday() >= 5:
        d += timedelta(days=1)
    return d


def _fmt(lang: str, d: date) -> str:
    return say(lang, f"{d:%d/%m}", f"{d:%b %d}")


def _norm_addr(text: str) -> str:
    t = " ".join(text.lower().replace(",", " ").split())
    for long, short in (("avenida ", "av "), ("av. ", "av "), ("r. ", "rua ")):
        t = t.replace(long, short)
    return t


@service.capability(
    "schedule_bulky_pickup",
    {
        "pt": "Agenda a coleta de um item volumoso num endereço, num dia útil",
        "en": "Schedule a bulky item pickup at an address on a weekday",
    },
    parameters={
        "type": "object",
        "properties": {
            "item_text": {"type": "string", "minLength": 1},
            "address_text": {"type": "string", "minLength": 1},
            "day": {"type": "string", "pattern": "^\\d{4}-\\d{2}-\\d{2}$"},
            "quantity": {"type": "number", "exclusiveMinimum": 0},
        },
        "required": ["item_text", "address_text", "day"],
    },
    metadata={
        "intent_hints": {
            "keywords": ["coleta de volumosos", "cata-treco", "bulky waste pickup", "bulky item collection"],
            "examples": ["quero agendar a coleta de um móvel velho", "schedule a bulky waste pickup"],
        },
        "policy": {"confirm": True, "idempotent": False},
    },
)
def schedule_bulky_pickup(intent: ExecutionIntent) -> DomainOutput:
    lang = language(intent)
    p = intent.parameters
    said = str(p.get("item_text") or "").strip()
    item = resolve_name(ITEMS, said) if said else None
    if item is None:
        return clarify(
            say(
                lang,
                f"A coleta de volumosos não recolhe '{said}'. Qual destes itens?",
                f"Bulky pickup does not take '{said}'. Which of these items?",
            ),
            [option(i, i, aliases=ITEMS[i][1:4]) for i in ITEMS],
            param="item_text",
        )
    address = str(p.get("address_text") or "").strip()
    day = read_day(p.get("day"))
    if not address or day is None:
        return fail(say(lang, "Faltam dados da coleta.", "Pickup details are missing."), "missing_parameter")
    n = int(read_number(p.get("quantity")) or 1)
    if day <= today():
        return fail(
            say(
                lang,
                "A coleta precisa ser agendada a partir de amanhã.",
                "Pickups can be booked from tomorrow on.",
            ),
            "too_soon",
            recoverable=True,
            suggestions=[{"day": _next_weekday(today() + timedelta(days=1)).isoformat()}],
        )
    if day.weekday() >= 5:
        monday = _next_weekday(day)
        return fail(
            say(
                lang, "A coleta de volumosos passa de segunda a sexta.", "Bulky pickups run Monday to Friday."
            ),
            "weekend",
            recoverable=True,
            suggestions=[{"day": monday.isoformat()}],
        )
    if n > MAX_ITEMS:
        return fail(
            say(
                lang,
                f"No máximo {MAX_ITEMS} itens por coleta; para mais, leve a um ecoponto.",
                f"At most {MAX_ITEMS} items per pickup; take the rest to a drop-off point.",
            ),
            "too_many_items",
            recoverable=True,
            suggestions=[{"quantity": MAX_ITEMS}],
        )
    _next[0] += 1
    code = f"WP{_next[0]}"
    PICKUPS[code] = (item, n, address, day, "scheduled")
    fee = FEES.get(item, 0.0)
    fee_pt = f" Taxa R$ {fee:.2f}." if fee else " Sem custo."
    fee_en = f" Fee R$ {fee:.2f}." if fee else " Free of charge."
    return DomainOutput(
        status="success",
        result={
            "code": code,
            "item": item,
            "quantity": n,
            "address": address,
            "day": day.isoformat(),
            "fee": {"amount": fee, "currency": "BRL"},
        },
        explanation=say(
            lang,
            f"Coleta {code}: {n} × {item} em {address}, {_fmt(lang, day)} entre 7h e 17h.{fee_pt}",
            f"Pickup {code}: {n} × {item} at {address}, {_fmt(lang, day)} between 7am and 5pm.{fee_en}",
        ),
    )


@service.capability(
    "cancel_bulky_pickup",
    {"pt": "Cancela uma coleta de volumosos agendada", "en": "Cancel a scheduled bulky waste pickup"},
    parameters={
        "type": "object",
        "properties": {"request_text": {"type": "string", "minLength": 1}},
        "required": ["request_text"],
    },
    metadata={
        "intent_hints": {
            "keywords": ["cancelar coleta", "cancel pickup"],
            "examples": ["quero cancelar a coleta do sofá", "cancel my bulky pickup"],
        },
        "policy": {"confirm": True, "idempotent": False},
    },
)
def cancel_bulky_pickup(intent: ExecutionIntent) -> DomainOutput:
    lang = language(intent)
    code = norm_code(intent.parameters.get("request_text"))
    pickup = PICKUPS.get(code)
    if pickup is None:
        return fail(say(lang, f"Não achei a coleta {code}.", f"No pickup {code}."), "not_found")
    item, n, address, day, state = pickup
    if state in ("cancelled", "collected"):
        s_pt, s_en = STATE[state]
        return fail(
            say(lang, f"A coleta {code} já foi {s_pt}.", f"Pickup {code} was already {s_en}."),
            "not_cancellable",
        )
    if day <= today():
        return fail(
            say(
                lang,
                "O caminhão já saiu; não dá para cancelar hoje.",
                "The truck is out; it cannot be cancelled today.",
            ),
            "too_late",
        )
    PICKUPS[code] = (item, n, address, day, "cancelled")
    return DomainOutput(
        status="success",
        result={"code": code, "state": "cancelled"},
        explanation=say(
            lang,
            f"Coleta {code} ({item}, {address}, {_fmt(lang, day)}) cancelada.",
            f"Pickup {code} ({item}, {address}, {_fmt(lang, day)}) cancelled.",
        ),
    )


@service.capability(
    "pickup_status",
    {"pt": "Consulta a situação de uma coleta de volumosos", "en": "Check a bulky waste pickup's status"},
    parameters={
        "type": "object",
        "properties": {"request_text": {"type": "string"}, "address_text": {"type": "string"}},
        "anyOf": [{"required": ["request_text"]}, {"required": ["address_text"]}],
    },
    metadata={
        "intent_hints": {
            "keywords": ["status da coleta", "situação da coleta", "pickup status", "when is my pickup"],
            "examples": ["qual o status da minha coleta?", "where's my pickup at?"],
        },
        "policy": {"read_only": True},
    },
)
def pickup_status(intent: ExecutionIntent) -> DomainOutput:
    lang = language(intent)
    p = intent.parameters
    if p.get("request_text"):
        code = norm_code(p.get("request_text"))
        found = [(code, PICKUPS[code])] if code in PICKUPS else []
        missing = code
    else:
        addr = _norm_addr(str(p.get("address_text") or ""))
        found = [(c, v) for c, v in PICKUPS.items() if _norm_addr(v[2]) == addr]
        missing = str(p.get("address_text"))
    if not found:
        return fail(
            say(lang, f"Não achei coleta para '{missing}'.", f"No pickup found for '{missing}'."),
            "not_found",
        )
    lines = []
    for code, (item, n, address, day, state) in found:
        s_pt, s_en = STATE[state]
        lines.append(
            say(
                lang,
                f"{code}: {n} × {item}, {address}, {_fmt(lang, day)} — {s_pt}",
                f"{code}: {n} × {item}, {address}, {_fmt(lang, day)} — {s_en}",
            )
        )
    return DomainOutput(
        status="success",
        result={"pickups": [{"code": c, "state": v[4], "day": v[3].isoformat()} for c, v in found]},
        explanation="; ".join(lines) + ".",
    )


@service.capability(
    "ecopoint_info",
    {
        "pt": "Diz quais ecopontos recebem um material reciclável e seus horários",
        "en": "Tell which drop-off points take a recyclable material, and their hours",
    },
    parameters={"type": "object", "properties": {"material_text": {"type": "string"}}},
    metadata={
        "intent_hints": {
            "keywords": ["ecoponto", "onde descartar", "drop-off point", "where to recycle"],
            "examples": ["onde fica o ecoponto?", "where can I drop off recycling?"],
        },
        "policy": {"read_only": True},
    },
)
def ecopoint_info(intent: ExecutionIntent) -> DomainOutput:
    lang = language(intent)
    said = intent.parameters.get("material_text")
    if said:
        material = resolve_name(MATERIALS, str(said))
        if material is None:
            return clarify(
                say(
                    lang,
                    f"Não conheço o material '{said}'. Qual destes?",
                    f"Unknown material '{said}'. Which one?",
                ),
                [option(m, m, aliases=MATERIALS[m][:3]) for m in MATERIALS],
                param="material_text",
            )
        points = [(name, hours) for name, (takes, hours) in ECOPOINTS.items() if material in takes]
        text = "; ".join(f"{name}, {hours}" for name, hours in points)
        return DomainOutput(
            status="success",
            result={"material": material, "ecopoints": [n for n, _ in points]},
            explanation=say(lang, f"{material}: {text}.", f"{material}: {text}."),
        )
    text = "; ".join(f"{name}: {', '.join(takes)} ({hours})" for name, (takes, hours) in ECOPOINTS.items())
    return DomainOutput(
        status="success",
        result={"ecopoints": list(ECOPOINTS)},
        explanation=say(lang, f"Ecopontos: {text}.", f"Drop-off points: {text}."),
    )


_CODE = {
    "type": "string",
    "description": {"pt": "O número da coleta", "en": "The pickup number"},
}
_ADDRESS = {
    "type": "string",
    "description": {"pt": "O endereço da coleta", "en": "The pickup address"},
}
service.add_goal(
    {
        "goal": "SCHEDULE_BULKY_PICKUP",
        "description": {"pt": "Agendar a coleta de um item volumoso", "en": "Schedule a bulky item pickup"},
        "entities_schema": {
            "item_text": {
                "type": "string",
                "required": True,
                "lookup": table(ITEMS),
                "description": {"pt": "O item a recolher", "en": "The item to collect"},
            },
            "address_text": {**_ADDRESS, "required": True},
            "day": {
                "type": "date",
                "required": True,
                "description": {"pt": "O dia da coleta", "en": "The pickup day"},
            },
            "quantity": {"type": "number", "description": {"pt": "Quantos itens", "en": "How many items"}},
        },
        "capabilities": ["schedule_bulky_pickup"],
        "examples": [
            ex(
                "agenda a coleta de um sofá na Rua Augusta 1200 quinta",
                item_text="sofá",
                address_text="Rua Augusta 1200",
                day="quinta",
            ),
            ex(
                "preciso que recolham 2 colchões na rua harmonia 300 amanhã",
                quantity="2",
                item_text="colchões",
                address_text="rua harmonia 300",
                day="amanhã",
            ),
            ex(
                "coleta de volumosos: geladeira velha, Avenida Paulista 900, segunda",
                item_text="geladeira",
                address_text="Avenida Paulista 900",
                day="segunda",
            ),
            ex(
                "schedule a pickup for an old couch at 200 Oak Street on friday",
                item_text="couch",
                address_text="200 Oak Street",
                day="friday",
            ),
            ex(
                "can the city collect 3 mattresses from 45 Pine Road tomorrow",
                quantity="3",
                item_text="mattresses",
                address_text="45 Pine Road",
                day="tomorrow",
            ),
        ],
    }
)
service.add_goal(
    {
        "goal": "CANCEL_BULKY_PICKUP",
        "description": {"pt": "Cancelar uma coleta de volumosos", "en": "Cancel a bulky waste pickup"},
        "entities_schema": {"request_text": {**_CODE, "required": True}},
        "capabilities": ["cancel_bulky_pickup"],
        "examples": [
            ex("cancela a coleta WP7101", request_text="WP7101"),
            ex("não preciso mais da coleta de volumosos WP7114, pode cancelar", request_text="WP7114"),
            ex("cancel bulky pickup WP7101", request_text="WP7101"),
            ex("please cancel my pickup request WP7114", request_text="WP7114"),
        ],
    }
)
service.add_goal(
    {
        "goal": "PICKUP_STATUS",
        "description": {
            "pt": "A situação de uma coleta de volumosos",
            "en": "The status of a bulky waste pickup",
        },
        "entities_schema": {"request_text": _CODE, "address_text": _ADDRESS},
        "required_one_of": [["request_text", "address_text"]],
        "capabilities": ["pickup_status"],
        "examples": [
            ex("qual o status da coleta WP7101?", request_text="WP7101"),
            ex("o caminhão da coleta já passou na Rua Harmonia 300?", address_text="Rua Harmonia 300"),
            ex("quando vão buscar meu sofá na rua augusta 1200?", address_text="rua augusta 1200"),
            ex("status of pickup WP7105", request_text="WP7105"),
            ex("has my pickup at 200 Oak Street been collected?", address_text="200 Oak Street"),
        ],
    }
)
service.add_goal(
    {
        "goal": "ECOPOINT_INFO",
        "description": {
            "pt": "Os ecopontos que recebem um material reciclável",
            "en": "The drop-off points that take a recyclable material",
        },
        "entities_schema": {
            "material_text": {
                "type": "string",
                "lookup": table(MATERIALS),
                "description": {"pt": "O material", "en": "The material"},
            }
        },
        "capabilities": ["ecopoint_info"],
        "examples": [
            ex("onde eu descarto pilhas?", material_text="pilhas"),
            ex("qual ecoponto recebe óleo de cozinha?", material_text="óleo de cozinha"),
            "quais são os ecopontos?",
            ex("where can I drop off old light bulbs?", material_text="light bulbs"),
            ex("which recycling point takes styrofoam?", material_text="styrofoam"),
            "list the drop-off points",
        ],
    }
)

if __name__ == "__main__":
    serve(service)
