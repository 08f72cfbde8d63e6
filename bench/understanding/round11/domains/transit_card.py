"""Transit card (round-11 bench domain): top up a card, its balance, block a lost card.

Fake, deterministic, in memory.
Run: ``python -m bench.understanding.round11.domains.transit_card --port 8303``.
"""

from __future__ import annotations

from typing import Any

from bench.understanding.round11.domains._common import code_of, ex, language, read_money, say
from sdk.service import DomainService, fail, serve
from shared.models import DomainOutput, ExecutionIntent

#: cards: code -> (balance in BRL, blocked)
CARDS: dict[str, list[Any]] = {
    "BU482193": [23.40, False],
    "BU507718": [4.10, False],
    "BU390055": [12.00, False],
    "BU611200": [0.00, True],
}
MIN_TOP_UP, MAX_TOP_UP = 5.0, 300.0
REASONS = ["LOST", "STOLEN", "DAMAGED"]
REASON_SYNONYMS: dict[str, list[str]] = {
    "LOST": ["perdi", "perdido", "perda", "sumiu", "lost", "lose", "missing"],
    "STOLEN": ["roubado", "roubaram", "furtado", "furto", "roubo", "stolen", "theft", "pickpocketed"],
    "DAMAGED": ["quebrado", "quebrou", "danificado", "não funciona", "broken", "damaged", "cracked"],
}

service = DomainService(
    "transit_card",
    "0.1.0",
    {
        "pt": "Bilhete de transporte: recarregar, ver saldo e bloquear cartão perdido",
        "en": "Transit card: top up, check the balance and block a lost card",
    },
)


def _card(lang: str, words: object) -> tuple[str, DomainOutput | None]:
    code = code_of(words, "BU")
    if code not in CARDS:
        return code, fail(say(lang, f"Não achei o cartão {code}.", f"Card {code} not found."), "unknown_card")
    if CARDS[code][1]:
        return code, fail(
            say(lang, f"O cartão {code} está bloqueado.", f"Card {code} is blocked."), "card_blocked"
        )
    return code, None


@service.capability(
    "top_up",
    {"pt": "Recarrega o cartão de transporte", "en": "Top up the transit card"},
    parameters={
        "type": "object",
        "properties": {
            "card_text": {"type": "string", "minLength": 1},
            "amount": {
                "type": "object",
                "properties": {"amount": {"type": "number"}, "currency": {"type": ["string", "null"]}},
                "required": ["amount"],
            },
        },
        "required": ["card_text", "amount"],
    },
    metadata={
        "intent_hints": {
            "keywords": ["recarregar bilhete", "recarga do cartão", "top up", "add money to my card"],
            "examples": ["quero recarregar meu bilhete", "top up my transit card"],
        },
        "policy": {"confirm": True, "idempotent": False},
    },
)
def top_up(intent: ExecutionIntent) -> DomainOutput:
    lang = language(intent)
    code, problem = _card(lang, intent.parameters.get("card_text"))
    if problem is not None:
        return problem
    money = read_money(intent.parameters.get("amount"))
    if money is None:
        return fail(say(lang, "Falta o valor.", "The amount is missing."), "missing_parameter")
    amount, currency = money
    if currency != "BRL":
        return fail(say(lang, "Só recarrego em reais.", "Top-ups are in reais only."), "unsupported_currency")
    if not MIN_TOP_UP <= amount <= MAX_TOP_UP:
        best = MIN_TOP_UP if amount < MIN_TOP_UP else MAX_TOP_UP
        return fail(
            say(lang, "A recarga vai de R$ 5 a R$ 300.", "A top-up goes from R$ 5 to R$ 300."),
            "bad_amount",
            recoverable=True,
            suggestions=[{"amount": {"amount": best, "currency": "BRL"}}],
        )
    CARDS[code][0] += amount
    return DomainOutput(
        status="success",
        result={"card": code, "added": amount, "balance": round(CARDS[code][0], 2)},
        explanation=say(
            lang,
            f"Recarga de R$ {amount:.2f} no {code}. Saldo: R$ {CARDS[code][0]:.2f}.",
            f"Added R$ {amount:.2f} to {code}. Balance: R$ {CARDS[code][0]:.2f}.",
        ),
    )


@service.capability(
    "card_balance",
    {"pt": "Saldo do cartão de transporte", "en": "Transit card balance"},
    parameters={
        "type": "object",
        "properties": {"card_text": {"type": "string", "minLength": 1}},
        "required": ["card_text"],
    },
    metadata={
        "intent_hints": {
            "keywords": [
                "saldo do bilhete",
                "saldo do cartão",
                "card balance",
                "how much is left on my card",
            ],
            "examples": ["qual o saldo do meu bilhete?", "transit card balance"],
        },
        "policy": {"read_only": True},
    },
)
def card_balance(intent: ExecutionIntent) -> DomainOutput:
    lang = language(intent)
    code = code_of(intent.parameters.get("card_text"), "BU")
    if code not in CARDS:
        return fail(say(lang, f"Não achei o cartão {code}.", f"Card {code} not found."), "unknown_card")
    balance, blocked = CARDS[code]
    return DomainOutput(
        status="success",
        result={"card": code, "balance": {"amount": balance, "currency": "BRL"}, "blocked": blocked},
        explanation=say(
            lang,
            f"Saldo do {code}: R$ {balance:.2f}{' (bloqueado)' if blocked else ''}.",
            f"{code} balance: R$ {balance:.2f}{' (blocked)' if blocked else ''}.",
        ),
    )


@service.capability(
    "block_card",
    {
        "pt": "Bloqueia um cartão de transporte perdido ou roubado",
        "en": "Block a lost or stolen transit card",
    },
    parameters={
        "type": "object",
        "properties": {
            "card_text": {"type": "string", "minLength": 1},
            "reason": {"type": "string", "enum": REASONS},
        },
        "required": ["card_text"],
    },
    metadata={
        "intent_hints": {
            "keywords": ["bloquear bilhete", "bloquear cartão de transporte", "block my transit card"],
            "examples": ["preciso bloquear meu bilhete", "block my transit card"],
        },
        "policy": {"confirm": True, "idempotent": False},
    },
)
def block_card(intent: ExecutionIntent) -> DomainOutput:
    lang = language(intent)
    code, problem = _card(lang, intent.parameters.get("card_text"))
    if problem is not None:
        return problem
    CARDS[code][1] = True
    return DomainOutput(
        status="success",
        result={
            "card": code,
            "blocked": True,
            "reason": intent.parameters.get("reason"),
            "balance": CARDS[code][0],
        },
        explanation=say(
            lang,
            f"Cartão {code} bloqueado. O saldo de R$ {CARDS[code][0]:.2f} passa para o cartão novo.",
            f"Card {code} blocked. Its R$ {CARDS[code][0]:.2f} balance moves to the new card.",
        ),
    )


CARD_ENTITY: dict[str, Any] = {
    "type": "string",
    "required": True,
    "description": {"pt": "O número do cartão (BU…)", "en": "The card number (BU…)"},
}

service.add_goal(
    {
        "goal": "TOP_UP",
        "description": {"pt": "Recarregar o cartão de transporte", "en": "Top up the transit card"},
        "entities_schema": {
            "card_text": CARD_ENTITY,
            "amount": {
                "type": "money",
                "required": True,
                "description": {"pt": "Quanto colocar", "en": "How much to add"},
            },
        },
        "capabilities": ["top_up"],
        "examples": [
            ex("recarrega R$ 50 no bilhete BU482193", card_text="BU482193", amount="R$ 50"),
            ex("coloca 20 reais no cartão BU507718", card_text="BU507718", amount="20 reais"),
            ex("top up BU390055 with R$ 30", card_text="BU390055", amount="R$ 30"),
            ex("add 40 reais to card BU482193", card_text="BU482193", amount="40 reais"),
        ],
    }
)
service.add_goal(
    {
        "goal": "CARD_BALANCE",
        "description": {"pt": "Ver o saldo do cartão", "en": "See the card balance"},
        "entities_schema": {"card_text": CARD_ENTITY},
        "capabilities": ["card_balance"],
        "examples": [
            ex("qual o saldo do BU482193?", card_text="BU482193"),
            ex("quanto tem no meu bilhete BU507718", card_text="BU507718"),
            ex("balance of card BU390055", card_text="BU390055"),
            ex("how much is left on BU482193?", card_text="BU482193"),
        ],
    }
)
service.add_goal(
    {
        "goal": "BLOCK_CARD",
        "description": {"pt": "Bloquear um cartão perdido ou roubado", "en": "Block a lost or stolen card"},
        "entities_schema": {
            "card_text": CARD_ENTITY,
            "reason": {
                "type": "enum",
                "values": REASONS,
                "synonyms": REASON_SYNONYMS,
                "description": {"pt": "O motivo", "en": "The reason"},
            },
        },
        "capabilities": ["block_card"],
        "examples": [
            ex("perdi meu bilhete BU482193, bloqueia", card_text="BU482193", reason="LOST"),
            ex("bloqueia o cartão BU507718 que foi roubado", card_text="BU507718", reason="STOLEN"),
            ex("block card BU390055, I lost it", card_text="BU390055", reason="LOST"),
            ex("my card BU482193 was stolen, block it", card_text="BU482193", reason="STOLEN"),
        ],
    }
)

if __name__ == "__main__":
    serve(service)
