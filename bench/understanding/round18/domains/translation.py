"""Translation agency (round-18 bench domain): quote a translation by words or pages for a
language pair (source/target roles), a document type and urgency; place an order; the status of
an order by its code.

Fake, deterministic, in memory.
Run: ``python -m bench.understanding.round18.domains.translation --port 8912``.
"""

from __future__ import annotations

from typing import Any

from bench.understanding.round18.domains._common import ex, language, norm_code, read_number, say
from sdk.service import DomainService, fail, serve
from shared.models import DomainOutput, ExecutionIntent

#: languages (enum value <- synonyms; a phrase of each language first)
LANGUAGES: dict[str, list[str]] = {
    "PORTUGUESE": ["português", "portugues", "portuguese"],
    "ENGLISH": ["inglês", "ingles", "english"],
    "SPANISH": ["espanhol", "castelhano", "spanish"],
    "FRENCH": ["francês", "frances", "french"],
    "GERMAN": ["alemão", "alemao", "german"],
    "ITALIAN": ["italiano", "italian"],
}
LANG_LABEL = {
    "PORTUGUESE": ("português", "Portuguese"),
    "ENGLISH": ("inglês", "English"),
    "SPANISH": ("espanhol", "Spanish"),
    "FRENCH": ("francês", "French"),
    "GERMAN": ("alemão", "German"),
    "ITALIAN": ("italiano", "Italian"),
}
#: document types (enum value <- synonyms)
DOC_TYPES: dict[str, list[str]] = {
    "GENERAL": ["texto comum", "documento comum", "geral", "general text", "general"],
    "LEGAL": [
        "jurídico",
        "juridico",
        "contrato",
        "documento jurídico",
        "legal",
        "contract",
        "legal document",
    ],
    "MEDICAL": ["médico", "medico", "laudo", "exame", "medical", "medical report"],
    "TECHNICAL": ["técnico", "tecnico", "manual", "manual técnico", "technical", "user manual"],
    "CERTIFIED": [
        "juramentada",
        "tradução juramentada",
        "certidão",
        "diploma",
        "certified",
        "sworn translation",
        "birth certificate",
    ],
}
TYPE_FACTOR = {"GENERAL": 1.0, "LEGAL": 1.4, "MEDICAL": 1.3, "TECHNICAL": 1.2, "CERTIFIED": 1.6}
URGENCY: dict[str, list[str]] = {
    "EXPRESS": ["urgente", "expressa", "pra ontem", "o quanto antes", "urgent", "express", "rush", "asap"],
    "STANDARD": ["prazo normal", "sem pressa", "normal", "standard", "no rush"],
}
PER_WORD = 0.18
WORDS_PER_PAGE = 250
#: orders (code -> source, target, words, state)
ORDERS: dict[str, tuple[str, str, int, str]] = {
    "TR7101": ("PORTUGUESE", "ENGLISH", 1200, "in_progress"),
    "TR7105": ("SPANISH", "PORTUGUESE", 800, "delivered"),
    "TR7110": ("PORTUGUESE", "GERMAN", 3000, "in_review"),
    "TR7114": ("ENGLISH", "PORTUGUESE", 500, "cancelled"),
}
STATES = {
    "in_progress": ("em tradução", "being translated"),
    "in_review": ("em revisão", "in review"),
    "delivered": ("entregue", "delivered"),
    "cancelled": ("cancelado", "cancelled"),
}
_next = [7200]

service = DomainService(
    "translation",
    "0.1.0",
    {
        "pt": "Agência de tradução: orçamento, pedido de tradução e status de um pedido",
        "en": "Translation agency: quotes, translation orders and order status",
    },
)

QUOTE_PARAMS: dict[str, Any] = {
    "type": "object",
    "properties": {
        "words": {"type": "number", "exclusiveMinimum": 0},
        "pages": {"type": "number", "exclusiveMinimum": 0},
        "source_language": {"type": "string", "enum": list(LANGUAGES)},
        "target_language": {"type": "string", "enum": list(LANGUAGES)},
        "doc_type": {"type": "string", "enum": list(DOC_TYPES)},
        "urgency": {"type": "string", "enum": list(URGENCY)},
    },
    "required": ["target_language"],
}


def _price(p: dict[str, Any], lang: str) -> tuple[dict[str, Any] | None, DomainOutput | None]:
    words = read_number(p.get("words"))
    pages = read_number(p.get("pages"))
    if words is None and pages is not None:
        words = pages * WORDS_PER_PAGE
    if words is None or words <= 0:
        return None, fail(
            say(lang, "Quantas palavras ou páginas?", "How many words or pages?"), "missing_parameter"
        )
    target = str(p.get("target_language") or "").upper()
    if target not in LANGUAGES:
        return None, fail(say(lang, "Para qual idioma?", "Into which language?"), "missing_parameter")
    source = str(p.get("source_language") or "").upper()
    if source not in LANGUAGES:
        source = "ENGLISH" if target == "PORTUGUESE" else "PORTUGUESE"
    if source == target:
        return None, fail(
            say(
                lang,
                "O idioma de origem e o de destino são o mesmo.",
                "Source and target are the same language.",
            ),
            "same_language",
        )
    kind = str(p.get("doc_type") or "GENERAL").upper()
    kind = kind if kind in DOC_TYPES else "GENERAL"
    express = str(p.get("urgency") or "").upper() == "EXPRESS"
    total = round(int(words) * PER_WORD * TYPE_FACTOR[kind] * (1.5 if express else 1.0), 2)
    days = max(1, int(words) // 2000 + 1) if express else max(2, int(words) // 1000 + 2)
    return {
        "source": source,
        "target": target,
        "words": int(words),
        "doc_type": kind,
        "express": express,
        "total": {"amount": total, "currency": "BRL"},
        "business_days": days,
    }, None


def _pair(q: dict[str, Any], lang: str) -> str:
    i = 0 if lang == "pt" else 1
    return f"{LANG_LABEL[q['source']][i]} → {LANG_LABEL[q['target']][i]}"


@service.capability(
    "translation_quote",
    {
        "pt": "Faz o orçamento de uma tradução por palavras ou páginas (250 palavras por página)",
        "en": "Quote a translation by words or pages (250 words a page)",
    },
    parameters=QUOTE_PARAMS,
    metadata={
        "intent_hints": {
            "keywords": [
                "orçamento de tradução",
                "quanto custa traduzir",
                "translation quote",
                "how much to translate",
            ],
            "examples": ["quanto fica uma tradução?", "how much is a translation?"],
        },
        "policy": {"read_only": True},
    },
)
def translation_quote(intent: ExecutionIntent) -> DomainOutput:
    lang = language(intent)
    q, err = _price(intent.parameters, lang)
    if err is not None or q is None:
        return err or fail("?", "missing_parameter")
    amount = q["total"]["amount"]
    return DomainOutput(
        status="success",
        result=q,
        explanation=say(
            lang,
            f"Tradução {_pair(q, lang)}, {q['words']} palavras: R$ {amount:.2f},"
            f" em {q['business_days']} dias úteis.",
            f"Translation {_pair(q, lang)}, {q['words']} words: R$ {amount:.2f},"
            f" in {q['business_days']} business days.",
        ),
    )


@service.capability(
    "place_translation_order",
    {"pt": "Faz um pedido de tradução", "en": "Place a translation order"},
    parameters=QUOTE_PARAMS,
    metadata={
        "intent_hints": {
            "keywords": ["pedido de tradução", "fazer pedido de tradução", "order a translation"],
            "examples": ["quero encomendar uma tradução", "I'd like to order a translation"],
        },
        "policy": {"confirm": True, "idempotent": False},
    },
)
def place_translation_order(intent: ExecutionIntent) -> DomainOutput:
    lang = language(intent)
    q, err = _price(intent.parameters, lang)
    if err is not None or q is None:
        return err or fail("?", "missing_parameter")
    _next[0] += 1
    code = f"TR{_next[0]}"
    ORDERS[code] = (q["source"], q["target"], q["words"], "in_progress")
    amount = q["total"]["amount"]
    return DomainOutput(
        status="success",
        result={"code": code, **q},
        explanation=say(
            lang,
            f"Pedido {code}: {_pair(q, lang)}, {q['words']} palavras, R$ {amount:.2f},"
            f" entrega em {q['business_days']} dias úteis.",
            f"Order {code}: {_pair(q, lang)}, {q['words']} words, R$ {amount:.2f},"
            f" ready in {q['business_days']} business days.",
        ),
    )


@service.capability(
    "translation_order_status",
    {
        "pt": "Diz o status de um pedido de tradução pelo código",
        "en": "Tell the status of a translation order by its code",
    },
    parameters={
        "type": "object",
        "properties": {"order_text": {"type": "string", "minLength": 1}},
        "required": ["order_text"],
    },
    metadata={
        "intent_hints": {
            "keywords": ["status da tradução", "minha tradução", "translation status"],
            "examples": ["minha tradução já ficou pronta?", "is my translation ready?"],
        },
        "policy": {"read_only": True},
    },
)
def translation_order_status(intent: ExecutionIntent) -> DomainOutput:
    lang = language(intent)
    code = norm_code(intent.parameters.get("order_text"))
    order = ORDERS.get(code)
    if order is None:
        return fail(say(lang, f"Não achei o pedido {code}.", f"No order {code}."), "not_found")
    source, target, words, state = order
    pt, en = STATES[state]
    return DomainOutput(
        status="success",
        result={"code": code, "source": source, "target": target, "words": words, "state": state},
        explanation=say(lang, f"{code} ({words} palavras): {pt}.", f"{code} ({words} words): {en}."),
    )


def _entities() -> dict[str, Any]:
    return {
        "source_language": {
            "type": "enum",
            "values": list(LANGUAGES),
            "synonyms": LANGUAGES,
            "description": {"pt": "O idioma de origem", "en": "The language to translate from"},
        },
        "target_language": {
            "type": "enum",
            "values": list(LANGUAGES),
            "synonyms": LANGUAGES,
            "required": True,
            "description": {"pt": "O idioma de destino", "en": "The language to translate into"},
        },
        "words": {"type": "number", "description": {"pt": "Quantas palavras", "en": "How many words"}},
        "pages": {"type": "number", "description": {"pt": "Quantas páginas", "en": "How many pages"}},
        "doc_type": {
            "type": "enum",
            "values": list(DOC_TYPES),
            "synonyms": DOC_TYPES,
            "description": {"pt": "O tipo de documento", "en": "The kind of document"},
        },
        "urgency": {
            "type": "enum",
            "values": list(URGENCY),
            "synonyms": URGENCY,
            "description": {"pt": "O prazo", "en": "How urgent"},
        },
    }


service.add_goal(
    {
        "goal": "TRANSLATION_QUOTE",
        "description": {"pt": "Orçamento de uma tradução", "en": "A quote for a translation"},
        "entities_schema": _entities(),
        "required_one_of": [["words", "pages"]],
        "capabilities": ["translation_quote"],
        "examples": [
            ex(
                "quanto custa traduzir 1500 palavras de português para inglês?",
                words="1500 palavras",
                source_language="PORTUGUESE",
                target_language="ENGLISH",
            ),
            ex(
                "orçamento pra traduzir um contrato de 10 páginas do inglês pro português",
                doc_type="LEGAL",
                pages="10 páginas",
                source_language="ENGLISH",
                target_language="PORTUGUESE",
            ),
            ex(
                "quanto fica 3 páginas para o espanhol, urgente",
                pages="3 páginas",
                target_language="SPANISH",
                urgency="EXPRESS",
            ),
            ex(
                "how much to translate 2000 words from English into French?",
                words="2000 words",
                source_language="ENGLISH",
                target_language="FRENCH",
            ),
            ex(
                "quote for a 5 page medical report from German to English",
                pages="5 page",
                doc_type="MEDICAL",
                source_language="GERMAN",
                target_language="ENGLISH",
            ),
        ],
    }
)
service.add_goal(
    {
        "goal": "PLACE_TRANSLATION_ORDER",
        "description": {"pt": "Fazer um pedido de tradução", "en": "Order a translation"},
        "entities_schema": _entities(),
        "required_one_of": [["words", "pages"]],
        "capabilities": ["place_translation_order"],
        "examples": [
            ex(
                "quero fazer o pedido da tradução de 800 palavras do espanhol para o português",
                words="800 palavras",
                source_language="SPANISH",
                target_language="PORTUGUESE",
            ),
            ex(
                "fecha a tradução juramentada do diploma pro italiano, 2 páginas",
                doc_type="CERTIFIED",
                target_language="ITALIAN",
                pages="2 páginas",
            ),
            ex(
                "please order a translation of my 4 page manual from Portuguese to English",
                pages="4 page",
                doc_type="TECHNICAL",
                source_language="PORTUGUESE",
                target_language="ENGLISH",
            ),
            ex(
                "go ahead and place an order: 1200 words into German, rush",
                words="1200 words",
                target_language="GERMAN",
                urgency="EXPRESS",
            ),
        ],
    }
)
service.add_goal(
    {
        "goal": "TRANSLATION_ORDER_STATUS",
        "description": {"pt": "Status de um pedido de tradução", "en": "Status of a translation order"},
        "entities_schema": {
            "order_text": {
                "type": "string",
                "required": True,
                "description": {"pt": "O código do pedido", "en": "The order code"},
            }
        },
        "capabilities": ["translation_order_status"],
        "examples": [
            ex("status do pedido de tradução TR7101", order_text="TR7101"),
            ex("a tradução TR7105 já foi entregue?", order_text="TR7105"),
            ex("what's the status of translation order TR7101?", order_text="TR7101"),
            ex("is TR7110 translated yet?", order_text="TR7110"),
        ],
    }
)

if __name__ == "__main__":
    serve(service)
