"""Payments (round-2 bench domain): pay a bill, transfer money to a contact, check the balance.

Fake, deterministic, in memory. Run: ``python -m bench.understanding.round2.domains.payments --port 8122``.
"""

from __future__ import annotations

import re
from typing import Any

from bench.understanding.round2.domains._common import (
    language,
    lookup_entries,
    read_day,
    read_money,
    resolve,
    today,
)
from sdk.service import DomainService, clarify, fail, option, serve
from shared.models import DomainOutput, ExecutionIntent

BILLERS: dict[str, list[str]] = {
    "Enel": ["conta de luz", "luz", "energia", "electricity bill", "electric bill", "power bill"],
    "Sabesp": ["conta de água", "conta de agua", "água", "water bill"],
    "Vivo Fibra": ["Vivo", "internet", "conta de internet", "internet bill"],
    "Comgás": ["Comgas", "conta de gás", "gás", "gas bill"],
    "Condomínio Edifício Aurora": ["condomínio", "condominio", "condo fee", "HOA"],
    "Cartão Nubank": ["Nubank", "fatura do cartão", "fatura do nubank", "credit card bill", "card bill"],
}
#: what each biller's open bill is for (BRL), so a bill can be paid without an amount
OPEN_BILLS: dict[str, float] = {
    "Enel": 187.42,
    "Sabesp": 96.10,
    "Vivo Fibra": 129.90,
    "Comgás": 54.33,
    "Condomínio Edifício Aurora": 850.00,
    "Cartão Nubank": 1432.77,
}
CONTACTS: dict[str, list[str]] = {
    "Ana Souza": ["Ana", "Aninha"],
    "Bruno Lima": ["Bruno"],
    "Carla Mendes": ["Carla", "Carlinha"],
    "João Pedro Alves": ["João Pedro", "Joao Pedro", "JP"],
    "Marcos Oliveira": ["Marcos"],
    "Mãe": ["mamãe", "minha mãe", "mom", "my mom", "mum"],
}
BALANCES: dict[str, float] = {"CHECKING": 3250.18, "SAVINGS": 12800.00}
TRANSFER_LIMIT = 5000.0
BARCODE = re.compile(r"^\d{44,48}$")

service = DomainService(
    "payments", "0.1.0", {"pt": "Pagamentos, transferências e saldo", "en": "Payments, transfers and balance"}
)


def _money_text(amount: float, currency: str) -> str:
    return f"{currency} {amount:,.2f}"


@service.capability(
    "pay_bill",
    {"pt": "Paga uma conta", "en": "Pay a bill"},
    parameters={
        "type": "object",
        "properties": {
            "biller_text": {"type": "string"},
            "barcode_text": {"type": "string"},
            "amount": {"type": "object"},
            "day": {"type": "string"},
        },
    },
    metadata={
        "intent_hints": {"keywords": ["pagar conta", "paga a conta", "boleto", "pay bill", "pay the bill"]},
        "policy": {"confirm": True, "idempotent": False},
    },
)
def pay_bill(intent: ExecutionIntent) -> DomainOutput:
    lang = language(intent)
    p = intent.parameters
    barcode = re.sub(r"\D", "", str(p.get("barcode_text") or ""))
    biller = resolve(p.get("biller_text"), BILLERS)
    if not barcode and biller is None:
        # an "either a biller or a barcode" the manifest cannot say: the domain asks
        return clarify(
            "Qual conta você quer pagar?" if lang == "pt" else "Which bill do you want to pay?",
            [option(n, n, aliases=a) for n, a in BILLERS.items()],
            param="biller_text",
            metadata={"resolution": "which_bill"},
        )
    if barcode and not BARCODE.match(barcode):
        return fail(
            "Esse código de barras não parece válido."
            if lang == "pt"
            else "That barcode does not look valid.",
            "invalid_barcode",
        )
    money = read_money(p.get("amount"))
    amount = money[0] if money else OPEN_BILLS.get(biller or "", 0.0) or 100.0
    currency = money[1] if money else "BRL"
    day = read_day(p.get("day")) or today()
    if day < today():
        return fail("Essa data já passou." if lang == "pt" else "That date is in the past.", "date_in_past")
    label = biller or f"boleto {barcode[:5]}…"
    verb = (
        ("Pago" if day == today() else "Agendado")
        if lang == "pt"
        else ("Paid" if day == today() else "Scheduled")
    )
    text = f"{verb}: {label}, {_money_text(amount, currency)}, {day.isoformat()}."
    result = {
        "biller": biller,
        "barcode": barcode or None,
        "amount": amount,
        "currency": currency,
        "day": day.isoformat(),
    }
    return DomainOutput(status="success", result=result, explanation=text)


@service.capability(
    "transfer_money",
    {"pt": "Transfere dinheiro para um contato", "en": "Transfer money to a contact"},
    parameters={
        "type": "object",
        "properties": {
            "recipient_text": {"type": "string", "minLength": 1},
            "amount": {"type": "object"},
            "day": {"type": "string"},
        },
        "required": ["recipient_text", "amount"],
    },
    metadata={
        "intent_hints": {
            "keywords": ["transferir", "transfere", "pix", "manda dinheiro", "transfer", "send money"]
        },
        "policy": {"confirm": True, "idempotent": False},
    },
)
def transfer_money(intent: ExecutionIntent) -> DomainOutput:
    lang = language(intent)
    p = intent.parameters
    who = resolve(p.get("recipient_text"), CONTACTS)
    if who is None:
        return clarify(
            "Não achei esse contato. Para quem?" if lang == "pt" else "I can't find that contact. To whom?",
            [option(n, n, aliases=a) for n, a in CONTACTS.items()],
            param="recipient_text",
            metadata={"resolution": "unknown_contact"},
        )
    money = read_money(p.get("amount"))
    if money is None or money[0] <= 0:
        return fail("Qual valor?" if lang == "pt" else "What amount?", "invalid_amount")
    amount, currency = money
    if currency != "BRL":
        return fail(
            "Só transfiro em reais." if lang == "pt" else "Transfers are in BRL only.", "unsupported_currency"
        )
    if amount > min(TRANSFER_LIMIT, BALANCES["CHECKING"]):
        return fail(
            "Valor acima do limite ou do saldo." if lang == "pt" else "Over the limit or the balance.",
            "insufficient_funds",
            recoverable=True,
            suggestions=[
                {"amount": {"amount": min(TRANSFER_LIMIT, BALANCES["CHECKING"]), "currency": "BRL"}}
            ],
        )
    day = read_day(p.get("day")) or today()
    text = (
        f"Transferência para {who}: {_money_text(amount, currency)} em {day.isoformat()}."
        if lang == "pt"
        else f"Transfer to {who}: {_money_text(amount, currency)} on {day.isoformat()}."
    )
    return DomainOutput(
        status="success",
        result={"recipient": who, "amount": amount, "currency": currency, "day": day.isoformat()},
        explanation=text,
    )


@service.capability(
    "get_balance",
    {"pt": "Consulta o saldo da conta", "en": "Get the account balance"},
    parameters={
        "type": "object",
        "properties": {"account": {"type": "string", "enum": ["CHECKING", "SAVINGS"]}},
    },
    metadata={"intent_hints": {"keywords": ["saldo", "quanto tenho", "balance", "how much money"]}},
)
def get_balance(intent: ExecutionIntent) -> DomainOutput:
    lang = language(intent)
    account = str(intent.parameters.get("account") or "").upper()
    accounts = [account] if account in BALANCES else list(BALANCES)
    names = {"CHECKING": ("conta corrente", "checking"), "SAVINGS": ("poupança", "savings")}
    lines = [f"{names[a][0 if lang == 'pt' else 1]}: {_money_text(BALANCES[a], 'BRL')}" for a in accounts]
    return DomainOutput(
        status="success",
        result={"balances": {a: BALANCES[a] for a in accounts}},
        explanation="\n".join(lines),
    )


def _ex(text: str, **entities: Any) -> dict[str, Any]:
    return {"text": text, "entities": entities}


AMOUNT_DESCRIPTION = {"pt": "O valor", "en": "The amount"}

service.add_goal(
    {
        "goal": "PAY_BILL",
        "description": {"pt": "Pagar uma conta ou boleto", "en": "Pay a bill"},
        "entities_schema": {
            "biller_text": {
                "type": "string",
                "description": {
                    "pt": "A conta a pagar (luz, água, internet…)",
                    "en": "The bill to pay (power, water, internet…)",
                },
                "lookup": [e.model_dump() for e in lookup_entries(BILLERS)],
            },
            "barcode_text": {
                "type": "string",
                "description": {"pt": "O código de barras do boleto", "en": "The bill's barcode"},
            },
            "amount": {"type": "money", "description": AMOUNT_DESCRIPTION},
            "day": {"type": "date", "description": {"pt": "O dia do pagamento", "en": "The payment day"}},
        },
        "capabilities": ["pay_bill"],
        "examples": [
            _ex("paga a conta de luz", biller_text="conta de luz"),
            _ex(
                "pagar a fatura do Nubank de R$ 1.432,77",
                biller_text="fatura do Nubank",
                amount="R$ 1.432,77",
            ),
            _ex("agenda o pagamento da Sabesp pra sexta", biller_text="Sabesp", day="sexta"),
            _ex(
                "paga o boleto 23793381286000000001234567890123456789012345678",
                barcode_text="23793381286000000001234567890123456789012345678",
            ),
            _ex("quero pagar o condomínio, 850 reais", biller_text="condomínio", amount="850 reais"),
            _ex("pay my electricity bill", biller_text="electricity bill"),
            _ex("pay the Comgás bill on the 20th", biller_text="Comgás", day="the 20th"),
            _ex("pay the internet bill, R$ 129.90", biller_text="internet bill", amount="R$ 129.90"),
        ],
    }
)
service.add_goal(
    {
        "goal": "TRANSFER_MONEY",
        "description": {"pt": "Transferir dinheiro para alguém", "en": "Send money to someone"},
        "entities_schema": {
            "recipient_text": {
                "type": "string",
                "required": True,
                "description": {"pt": "Para quem", "en": "To whom"},
                "lookup": [e.model_dump() for e in lookup_entries(CONTACTS)],
            },
            "amount": {"type": "money", "required": True, "description": AMOUNT_DESCRIPTION},
            "day": {
                "type": "date",
                "description": {"pt": "O dia da transferência", "en": "The transfer day"},
            },
        },
        "capabilities": ["transfer_money"],
        "examples": [
            _ex("transfere 200 reais pra Ana", amount="200 reais", recipient_text="Ana"),
            _ex("faz um pix de R$ 50 para o Bruno", amount="R$ 50", recipient_text="Bruno"),
            _ex(
                "manda 1.000 reais pra minha mãe amanhã",
                amount="1.000 reais",
                recipient_text="minha mãe",
                day="amanhã",
            ),
            _ex("transferir R$ 75,50 para Carla Mendes", amount="R$ 75,50", recipient_text="Carla Mendes"),
            _ex("send 300 reais to Marcos", amount="300 reais", recipient_text="Marcos"),
            _ex(
                "transfer R$ 120 to João Pedro on Friday",
                amount="R$ 120",
                recipient_text="João Pedro",
                day="Friday",
            ),
            _ex("wire my mom 500 reais", recipient_text="my mom", amount="500 reais"),
        ],
    }
)
service.add_goal(
    {
        "goal": "GET_BALANCE",
        "description": {"pt": "O saldo da sua conta", "en": "Your account balance"},
        "entities_schema": {
            "account": {
                "type": "enum",
                "values": ["CHECKING", "SAVINGS"],
                "description": {
                    "pt": "A conta (corrente ou poupança)",
                    "en": "The account (checking or savings)",
                },
                "synonyms": {
                    "CHECKING": [
                        "conta corrente",
                        "corrente",
                        "checking",
                        "checking account",
                        "current account",
                    ],
                    "SAVINGS": ["poupança", "poupanca", "savings", "savings account"],
                },
            }
        },
        "capabilities": ["get_balance"],
        "examples": [
            _ex("qual é o meu saldo?"),
            _ex("quanto eu tenho na conta?"),
            _ex("saldo da poupança", account="SAVINGS"),
            _ex("me mostra o saldo da conta corrente", account="CHECKING"),
            _ex("what's my balance?"),
            _ex("how much is in my savings account?", account="SAVINGS"),
            _ex("check my account balance"),
        ],
    }
)

if __name__ == "__main__":
    serve(service)
