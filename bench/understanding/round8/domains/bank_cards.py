"""Bank cards (round-8 bench domain): block a card, raise a card's limit, a card's statement.

One person's cards at a bank. Fake, deterministic, in memory.
Run: ``python -m bench.understanding.round8.domains.bank_cards --port 8182``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from bench.understanding.round8.domains._common import (
    ex,
    fold,
    language,
    lookup_spec,
    read_money,
    resolve_loose,
    say,
)
from sdk.service import DomainService, clarify, fail, option, serve
from shared.models import DomainOutput, ExecutionIntent

#: the person's cards (canonical name <- other ways people write it)
CARDS: dict[str, list[str]] = {
    "Visa Platinum": ["visa", "platinum", "visa platinum", "cartão visa", "final 4417", "ending in 4417"],
    "Mastercard Black": ["black", "mastercard", "master", "cartão black", "black card", "final 9032"],
    "Cartão de débito": ["débito", "debito", "cartão de débito", "debit", "debit card", "final 2290"],
    "Cartão virtual": ["virtual", "cartão virtual", "virtual card", "final 1180"],
    "Cartão adicional": ["adicional", "cartão adicional", "cartão da minha esposa", "additional card"],
}
#: the table the manifest publishes: the cards, and the words that name a credit card without
#: saying which one (the domain then asks which of the two)
AMBIGUOUS = "cartão de crédito"
CARD_LOOKUP: dict[str, list[str]] = CARDS | {
    AMBIGUOUS: ["crédito", "cartao de credito", "credit card", "my credit card"],
}
CREDIT_WORDS = {fold(w) for w in ("credit", AMBIGUOUS, *CARD_LOOKUP[AMBIGUOUS])}
REASONS = ["LOST", "STOLEN", "DAMAGED", "FRAUD"]
REASON_SYNONYMS: dict[str, list[str]] = {
    "LOST": ["perdi", "perdido", "perdida", "extraviado", "sumiu", "lost", "misplaced", "lost it"],
    "STOLEN": ["roubado", "roubaram", "roubo", "furtado", "furto", "assalto", "stolen", "robbed", "theft"],
    "DAMAGED": [
        "quebrado",
        "quebrou",
        "danificado",
        "estragado",
        "damaged",
        "broken",
        "cracked",
        "chip quebrado",
    ],
    "FRAUD": [
        "fraude",
        "clonado",
        "clonaram",
        "compra que não fiz",
        "fraud",
        "cloned",
        "unauthorized",
        "charges I didn't make",
    ],
}
REASON_NAMES = {
    "LOST": ("perda", "lost"),
    "STOLEN": ("roubo", "stolen"),
    "DAMAGED": ("cartão danificado", "damaged"),
    "FRAUD": ("fraude", "fraud"),
}
MONTHS = [
    "JANUARY",
    "FEBRUARY",
    "MARCH",
    "APRIL",
    "MAY",
    "JUNE",
    "JULY",
    "AUGUST",
    "SEPTEMBER",
    "OCTOBER",
    "NOVEMBER",
    "DECEMBER",
]
MONTH_SYNONYMS: dict[str, list[str]] = {
    "JANUARY": ["janeiro", "january", "jan"],
    "FEBRUARY": ["fevereiro", "february", "fev", "feb"],
    "MARCH": ["março", "marco", "march"],
    "APRIL": ["abril", "april"],
    "MAY": ["maio", "may"],
    "JUNE": ["junho", "june"],
    "JULY": ["julho", "july"],
    "AUGUST": ["agosto", "august"],
    "SEPTEMBER": ["setembro", "september"],
    "OCTOBER": ["outubro", "october"],
    "NOVEMBER": ["novembro", "november"],
    "DECEMBER": ["dezembro", "december", "dez", "dec"],
}
MONTH_NAMES = {m: (words[0], words[1].capitalize()) for m, words in MONTH_SYNONYMS.items()}


@dataclass
class Card:
    name: str
    kind: str  # credit, debit
    last4: str
    limit_brl: int = 0
    max_limit_brl: int = 0
    blocked: bool = False


CARD_DATA: dict[str, Card] = {
    c.name: c
    for c in (
        Card("Visa Platinum", "credit", "4417", 8000, 12000),
        Card("Mastercard Black", "credit", "9032", 15000, 30000),
        Card("Cartão de débito", "debit", "2290"),
        Card("Cartão virtual", "credit", "1180", 2000, 5000),
        Card("Cartão adicional", "credit", "7765", 3000, 5000, blocked=True),
    )
}
#: statements: card -> month -> (total in BRL, biggest items); MARCH is the open one
STATEMENTS: dict[str, dict[str, tuple[float, list[str]]]] = {
    "Visa Platinum": {
        "DECEMBER": (3120.40, ["Magalu 1.299,00", "Posto Shell 310,50"]),
        "JANUARY": (2870.15, ["Latam 1.480,00", "iFood 212,40"]),
        "FEBRUARY": (3410.90, ["Fast Shop 1.899,00", "Pão de Açúcar 640,20"]),
        "MARCH": (1240.00, ["Netflix 55,90", "Drogasil 184,10"]),
    },
    "Mastercard Black": {
        "DECEMBER": (8420.00, ["Hotel Fasano 4.200,00"]),
        "JANUARY": (6150.30, ["Air France 3.900,00"]),
        "FEBRUARY": (7020.75, ["Apple Store 5.499,00"]),
        "MARCH": (2310.20, ["D.O.M. 1.100,00"]),
    },
    "Cartão de débito": {
        "JANUARY": (1980.00, ["Aluguel 1.500,00"]),
        "FEBRUARY": (1540.30, ["Feira 120,30"]),
        "MARCH": (610.00, ["Uber 88,00"]),
    },
    "Cartão virtual": {
        "FEBRUARY": (189.90, ["Spotify 34,90", "Amazon 155,00"]),
        "MARCH": (59.90, ["Spotify 34,90"]),
    },
    "Cartão adicional": {"FEBRUARY": (820.00, ["Renner 820,00"]), "MARCH": (0.0, [])},
}
_next_protocol = [9000]

service = DomainService(
    "bank_cards",
    "0.1.0",
    {
        "pt": "Cartões do banco: bloquear um cartão, aumentar o limite e ver a fatura",
        "en": "Bank cards: block a card, raise the limit and see the statement",
    },
)


def _card(lang: str, value: object) -> Card | DomainOutput:
    text = fold(str(value or ""))
    if text in CREDIT_WORDS or resolve_loose(value, CARD_LOOKUP) == AMBIGUOUS:
        names = ["Visa Platinum", "Mastercard Black"]
        question = say(
            lang, "Você tem dois cartões de crédito. Qual deles?", "You have two credit cards. Which one?"
        )
    else:
        name = resolve_loose(value, CARDS)
        if name is not None:
            return CARD_DATA[name]
        names = list(CARDS)
        question = say(
            lang,
            f"Não achei o cartão “{value}”. Qual destes?",
            f"I couldn't find the card “{value}”. Which of these?",
        )
    return clarify(
        question,
        [option(n, f"{n} (final {CARD_DATA[n].last4})", aliases=CARDS[n]) for n in names],
        param="card_text",
        metadata={"resolution": "which_card"},
    )


@service.capability(
    "block_card",
    {"pt": "Bloqueia um cartão", "en": "Block a card"},
    parameters={
        "type": "object",
        "properties": {
            "card_text": {"type": "string", "minLength": 1},
            "reason": {"type": "string", "enum": REASONS},
            "replacement": {"type": "boolean"},
        },
        "required": ["card_text", "reason"],
    },
    metadata={
        "intent_hints": {
            "keywords": ["bloquear", "bloqueio", "bloqueia o cartão", "block", "freeze", "block my card"],
            "examples": ["preciso bloquear meu cartão", "I need to block my card"],
        },
        "policy": {"confirm": True, "idempotent": False},
    },
)
def block_card(intent: ExecutionIntent) -> DomainOutput:
    lang = language(intent)
    p = intent.parameters
    card = _card(lang, p.get("card_text"))
    if isinstance(card, DomainOutput):
        return card
    reason = str(p.get("reason") or "").upper()
    if reason not in REASONS:
        return fail(say(lang, "Qual o motivo do bloqueio?", "Why should it be blocked?"), "missing_parameter")
    if card.blocked:
        return fail(
            say(
                lang,
                f"O {card.name} (final {card.last4}) já está bloqueado desde 02/03.",
                f"The {card.name} (ending {card.last4}) has been blocked since Mar 2.",
            ),
            "already_blocked",
        )
    # the card's state is not changed: every case of the set starts from the same cards
    _next_protocol[0] += 1
    protocol = f"BL{_next_protocol[0]}"
    why = REASON_NAMES[reason][0 if lang == "pt" else 1]
    extra = ""
    if p.get("replacement"):
        extra = say(
            lang, " A segunda via chega em até 5 dias úteis.", " A new card arrives within 5 business days."
        )
    return DomainOutput(
        status="success",
        result={"card": card.name, "last4": card.last4, "reason": reason, "protocol": protocol}
        | {"replacement": bool(p.get("replacement"))},
        explanation=say(
            lang,
            f"{card.name} (final {card.last4}) bloqueado — motivo: {why}. Protocolo {protocol}.{extra}",
            f"{card.name} (ending {card.last4}) blocked — reason: {why}. Reference {protocol}.{extra}",
        ),
    )


@service.capability(
    "raise_limit",
    {"pt": "Altera o limite de um cartão de crédito", "en": "Change a credit card's limit"},
    parameters={
        "type": "object",
        "properties": {
            "card_text": {"type": "string", "minLength": 1},
            "new_limit": {
                "type": "object",
                "properties": {"amount": {"type": "number"}, "currency": {"type": ["string", "null"]}},
                "required": ["amount"],
            },
        },
        "required": ["card_text", "new_limit"],
    },
    metadata={
        "intent_hints": {
            "keywords": [
                "limite",
                "aumentar o limite",
                "mais limite",
                "limit",
                "credit limit",
                "raise my limit",
            ],
            "examples": ["quero aumentar meu limite", "can you raise my credit limit"],
        },
        "policy": {"confirm": True, "idempotent": False},
    },
)
def raise_limit(intent: ExecutionIntent) -> DomainOutput:
    lang = language(intent)
    p = intent.parameters
    card = _card(lang, p.get("card_text"))
    if isinstance(card, DomainOutput):
        return card
    if card.kind == "debit":
        return fail(
            say(lang, "Cartão de débito não tem limite de crédito.", "A debit card has no credit limit."),
            "no_limit_on_debit",
        )
    if card.blocked:
        return fail(
            say(lang, f"O {card.name} está bloqueado.", f"The {card.name} is blocked."), "card_blocked"
        )
    money = read_money(p.get("new_limit"))
    if money is None:
        return fail(say(lang, "Qual o novo limite?", "What should the new limit be?"), "missing_parameter")
    amount, currency = money
    if currency != "BRL":
        return fail(
            say(lang, "Os limites são só em reais.", "Limits are set in reais (BRL) only."),
            "unsupported_currency",
            recoverable=True,
        )
    if amount > card.max_limit_brl:
        return fail(
            say(
                lang,
                f"O limite máximo aprovado para o {card.name} é R$ {card.max_limit_brl}.",
                f"The most approved for the {card.name} is R$ {card.max_limit_brl}.",
            ),
            "over_max_limit",
            recoverable=True,
            suggestions=[{"new_limit": {"amount": card.max_limit_brl, "currency": "BRL"}}],
        )
    old, new = card.limit_brl, int(amount)  # not stored: every case starts from the same limits
    return DomainOutput(
        status="success",
        result={"card": card.name, "old_limit_brl": old, "new_limit_brl": new},
        explanation=say(
            lang,
            f"Limite do {card.name} alterado de R$ {old} para R$ {new}.",
            f"{card.name} limit changed from R$ {old} to R$ {new}.",
        ),
    )


@service.capability(
    "card_statement",
    {"pt": "Mostra a fatura de um cartão", "en": "Show a card's statement"},
    parameters={
        "type": "object",
        "properties": {
            "card_text": {"type": "string", "minLength": 1},
            "month": {"type": "string", "enum": MONTHS},
        },
    },
    metadata={
        "intent_hints": {
            "keywords": ["fatura", "extrato", "gastos do cartão", "statement", "card bill", "spending"],
            "examples": ["quanto veio minha fatura?", "how much is my card bill?"],
        },
        "policy": {"read_only": True},
    },
)
def card_statement(intent: ExecutionIntent) -> DomainOutput:
    lang = language(intent)
    p = intent.parameters
    month = str(p.get("month") or "MARCH").upper()
    if p.get("card_text"):
        card = _card(lang, p.get("card_text"))
        if isinstance(card, DomainOutput):
            return card
        names = [card.name]
    else:
        names = ["Visa Platinum", "Mastercard Black"]
    month_name = MONTH_NAMES.get(month, (month.lower(), month.lower()))[0 if lang == "pt" else 1]
    lines: list[str] = []
    found: dict[str, Any] = {}
    for name in names:
        statement = STATEMENTS[name].get(month)
        if statement is None:
            continue
        total, items = statement
        found[name] = {"total_brl": total, "items": items}
        state = say(lang, " (em aberto)", " (open)") if month == "MARCH" else ""
        detail = f" — {'; '.join(items)}" if items else ""
        lines.append(f"{name}, {month_name}{state}: R$ {total:.2f}{detail}")
    if not lines:
        return fail(
            say(
                lang,
                f"Não há fatura de {month_name}: tenho de dezembro a março (a de março está em aberto).",
                f"There is no {month_name} statement: I have December to March (March is still open).",
            ),
            "no_statement",
        )
    return DomainOutput(
        status="success", result={"month": month, "statements": found}, explanation="\n".join(lines)
    )


CARD_ENTITY: dict[str, Any] = {
    "type": "string",
    "description": {"pt": "O cartão", "en": "The card"},
    "lookup": lookup_spec(CARD_LOOKUP),
}

service.add_goal(
    {
        "goal": "BLOCK_CARD",
        "description": {"pt": "Bloquear um cartão", "en": "Block a card"},
        "entities_schema": {
            "card_text": CARD_ENTITY | {"required": True},
            "reason": {
                "type": "enum",
                "required": True,
                "values": REASONS,
                "synonyms": REASON_SYNONYMS,
                "description": {
                    "pt": "O motivo (perda, roubo, dano ou fraude)",
                    "en": "The reason (lost, stolen, damaged or fraud)",
                },
            },
            "replacement": {
                "type": "boolean",
                "description": {"pt": "Pedir segunda via", "en": "Send a replacement card"},
                "synonyms": {
                    "true": ["segunda via", "cartão novo", "novo cartão", "replacement", "new card"]
                },
            },
        },
        "capabilities": ["block_card"],
        "examples": [
            ex("bloqueia meu Visa, perdi a carteira", card_text="Visa", reason="LOST"),
            ex("roubaram meu cartão black, bloqueia agora", reason="STOLEN", card_text="black"),
            ex(
                "bloquear o cartão de débito, foi clonado, quero segunda via",
                card_text="cartão de débito",
                reason="FRAUD",
                replacement=True,
            ),
            ex("o chip do cartão virtual quebrou, bloqueia", card_text="cartão virtual", reason="DAMAGED"),
            ex("block my Mastercard, it was stolen", card_text="Mastercard", reason="STOLEN"),
            ex(
                "I lost my debit card, please block it and send a new card",
                reason="LOST",
                card_text="debit card",
                replacement=True,
            ),
            ex("freeze the platinum card, there's fraud on it", card_text="platinum", reason="FRAUD"),
        ],
    }
)
service.add_goal(
    {
        "goal": "RAISE_LIMIT",
        "description": {"pt": "Aumentar o limite de um cartão", "en": "Raise a card's limit"},
        "entities_schema": {
            "card_text": CARD_ENTITY | {"required": True},
            "new_limit": {
                "type": "money",
                "required": True,
                "description": {"pt": "O novo limite", "en": "The new limit"},
            },
        },
        "capabilities": ["raise_limit"],
        "examples": [
            ex("aumenta o limite do Visa pra 10 mil", card_text="Visa", new_limit="10 mil"),
            ex("quero limite de R$ 20.000 no black", new_limit="R$ 20.000", card_text="black"),
            ex(
                "sobe o limite do cartão virtual para 3000 reais",
                card_text="cartão virtual",
                new_limit="3000 reais",
            ),
            ex("raise my Mastercard limit to R$ 25,000", card_text="Mastercard", new_limit="R$ 25,000"),
            ex(
                "increase the platinum card limit to 9000 reais", card_text="platinum", new_limit="9000 reais"
            ),
        ],
    }
)
service.add_goal(
    {
        "goal": "CARD_STATEMENT",
        "description": {"pt": "A fatura de um cartão num mês", "en": "A card's statement for a month"},
        "entities_schema": {
            "card_text": CARD_ENTITY,
            "month": {
                "type": "enum",
                "values": MONTHS,
                "synonyms": MONTH_SYNONYMS,
                "description": {"pt": "O mês da fatura", "en": "The statement month"},
            },
        },
        "capabilities": ["card_statement"],
        "examples": [
            ex("minha fatura do Visa de fevereiro", card_text="Visa", month="FEBRUARY"),
            ex("quanto deu a fatura do black em janeiro?", card_text="black", month="JANUARY"),
            ex("fatura atual do cartão"),
            ex("extrato do débito de março", card_text="débito", month="MARCH"),
            ex("show my Visa statement for February", card_text="Visa", month="FEBRUARY"),
            ex("how much did I spend on the black card in January?", card_text="black card", month="JANUARY"),
            ex("my card statement"),
        ],
    }
)

if __name__ == "__main__":
    serve(service)
