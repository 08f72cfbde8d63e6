"""Phone plan (round-9 bench domain): top up credit, change plan, turn on roaming, data usage.

One person's mobile lines at a carrier. Fake, deterministic, in memory.
Run: ``python -m bench.understanding.round9.domains.phone_plan --port 8191``.
"""

from __future__ import annotations

import re
from typing import Any

from bench.understanding.round9.domains._common import (
    ex,
    language,
    lookup_spec,
    read_money,
    read_number,
    resolve_loose,
    say,
)
from sdk.service import DomainService, clarify, fail, option, serve
from shared.models import DomainOutput, ExecutionIntent

#: the carrier's plans (canonical name <- other ways people write it)
PLANS: dict[str, list[str]] = {
    "Controle 15GB": ["controle", "plano controle", "controle 15", "15gb", "15 giga"],
    "Pós 50GB": ["pós", "pos", "pós-pago", "pos pago", "postpaid", "50gb", "50 giga"],
    "Ilimitado Família": ["ilimitado", "família", "familia", "unlimited", "family plan", "unlimited family"],
    "Pré Básico": ["pré", "pre", "pré-pago", "pre pago", "prepaid", "basic", "básico"],
}
#: roaming countries and their daily price in BRL
COUNTRIES: dict[str, list[str]] = {
    "Estados Unidos": ["eua", "usa", "us", "united states", "america", "estados unidos"],
    "Portugal": ["portugal", "lisboa"],
    "Argentina": ["argentina", "buenos aires"],
    "Chile": ["chile", "santiago"],
    "França": ["frança", "franca", "france", "paris"],
    "Japão": ["japão", "japao", "japan", "tokyo"],
}
ROAMING_DAY_BRL = {
    "Estados Unidos": 39,
    "Portugal": 29,
    "Argentina": 19,
    "Chile": 19,
    "França": 29,
    "Japão": 49,
}
#: the person's lines: number -> (plan, GB used, GB of the plan, credit in BRL)
LINES: dict[str, dict[str, Any]] = {
    "11987654321": {"plan": "Controle 15GB", "used_gb": 9.4, "total_gb": 15, "credit": 12.5},
    "11912345678": {"plan": "Pré Básico", "used_gb": 1.1, "total_gb": 4, "credit": 3.0},
    "21998887777": {"plan": "Pós 50GB", "used_gb": 31.2, "total_gb": 50, "credit": 0.0},
}
MAIN_LINE = "11987654321"
TOPUP_MIN, TOPUP_MAX = 10, 300
_protocol = [5000]

service = DomainService(
    "phone_plan",
    "0.1.0",
    {
        "pt": "Operadora de celular: recarga, troca de plano, roaming e consumo de internet",
        "en": "Mobile carrier: top-ups, plan changes, roaming and data usage",
    },
)


def _line(value: object) -> str | None:
    digits = re.sub(r"\D", "", str(value or ""))
    if not digits:
        return MAIN_LINE
    if digits.startswith("55") and len(digits) > 11:
        digits = digits[2:]
    return digits if digits in LINES else None


def _next() -> str:
    _protocol[0] += 1
    return f"PP{_protocol[0]}"


@service.capability(
    "top_up",
    {"pt": "Recarrega crédito numa linha", "en": "Top up credit on a line"},
    parameters={
        "type": "object",
        "properties": {
            "phone": {"type": "string"},
            "amount": {
                "type": "object",
                "properties": {"amount": {"type": "number"}, "currency": {"type": ["string", "null"]}},
                "required": ["amount"],
            },
        },
        "required": ["amount"],
    },
    metadata={
        "intent_hints": {
            "keywords": ["recarga", "recarregar", "crédito no celular", "top up", "top-up", "recharge"],
            "examples": ["quero fazer uma recarga", "I want to top up my phone"],
        },
        "policy": {"confirm": True, "idempotent": False},
    },
)
def top_up(intent: ExecutionIntent) -> DomainOutput:
    lang = language(intent)
    p = intent.parameters
    line = _line(p.get("phone"))
    if line is None:
        return fail(
            say(
                lang,
                f"O número {p.get('phone')} não é uma linha sua.",
                f"{p.get('phone')} is not one of your lines.",
            ),
            "unknown_line",
        )
    money = read_money(p.get("amount"))
    if money is None:
        return fail(say(lang, "Qual o valor da recarga?", "How much should I top up?"), "missing_parameter")
    amount, currency = money
    if currency != "BRL":
        return fail(
            say(lang, "Recargas só em reais.", "Top-ups are in reais (BRL) only."), "unsupported_currency"
        )
    if amount < TOPUP_MIN or amount > TOPUP_MAX:
        best = TOPUP_MIN if amount < TOPUP_MIN else TOPUP_MAX
        return fail(
            say(
                lang,
                f"A recarga vai de R$ {TOPUP_MIN} a R$ {TOPUP_MAX}.",
                f"Top-ups go from R$ {TOPUP_MIN} to R$ {TOPUP_MAX}.",
            ),
            "amount_out_of_range",
            recoverable=True,
            suggestions=[{"amount": {"amount": best, "currency": "BRL"}}],
        )
    credit = LINES[line]["credit"] + amount
    ref = _next()
    return DomainOutput(
        status="success",
        result={"line": line, "amount_brl": amount, "credit_brl": credit, "protocol": ref},
        explanation=say(
            lang,
            f"Recarga de R$ {amount:.2f} na linha {line}. Saldo: R$ {credit:.2f}. Protocolo {ref}.",
            f"Topped up R$ {amount:.2f} on {line}. Credit: R$ {credit:.2f}. Reference {ref}.",
        ),
    )


@service.capability(
    "change_plan",
    {"pt": "Troca o plano de uma linha", "en": "Change a line's plan"},
    parameters={
        "type": "object",
        "properties": {"plan_text": {"type": "string", "minLength": 1}, "phone": {"type": "string"}},
        "required": ["plan_text"],
    },
    metadata={
        "intent_hints": {
            "keywords": ["trocar de plano", "mudar o plano", "change plan", "switch plan", "upgrade"],
            "examples": ["quero mudar meu plano", "I want to change my plan"],
        },
        "policy": {"confirm": True, "idempotent": False},
    },
)
def change_plan(intent: ExecutionIntent) -> DomainOutput:
    lang = language(intent)
    p = intent.parameters
    line = _line(p.get("phone"))
    if line is None:
        return fail(
            say(lang, "Esse número não é seu.", "That number is not one of your lines."), "unknown_line"
        )
    plan = resolve_loose(p.get("plan_text"), PLANS)
    if plan is None:
        return clarify(
            say(lang, f"Não conheço o plano “{p.get('plan_text')}”. Qual destes?", "Which of these plans?"),
            [option(n, n, aliases=PLANS[n]) for n in PLANS],
            param="plan_text",
        )
    if LINES[line]["plan"] == plan:
        return fail(
            say(lang, f"A linha {line} já está no {plan}.", f"{line} is already on {plan}."), "same_plan"
        )
    ref = _next()
    return DomainOutput(
        status="success",
        result={"line": line, "old_plan": LINES[line]["plan"], "new_plan": plan, "protocol": ref},
        explanation=say(
            lang,
            f"Linha {line}: plano trocado para {plan} a partir do próximo ciclo. Protocolo {ref}.",
            f"{line}: plan changed to {plan} from the next cycle. Reference {ref}.",
        ),
    )


@service.capability(
    "roaming_on",
    {"pt": "Ativa o roaming internacional", "en": "Turn on international roaming"},
    parameters={
        "type": "object",
        "properties": {
            "country_text": {"type": "string", "minLength": 1},
            "days": {"type": "number", "exclusiveMinimum": 0},
            "phone": {"type": "string"},
        },
        "required": ["country_text", "days"],
    },
    metadata={
        "intent_hints": {
            "keywords": ["roaming", "ativar roaming", "internacional", "roaming on", "abroad"],
            "examples": ["ativa o roaming pra mim", "turn on roaming please"],
        },
        "policy": {"confirm": True, "idempotent": False},
    },
)
def roaming_on(intent: ExecutionIntent) -> DomainOutput:
    lang = language(intent)
    p = intent.parameters
    country = resolve_loose(p.get("country_text"), COUNTRIES)
    if country is None:
        return fail(
            say(
                lang,
                f"Não temos roaming para “{p.get('country_text')}”.",
                f"No roaming for “{p.get('country_text')}”.",
            ),
            "no_roaming",
        )
    days = read_number(p.get("days"))
    if not days:
        return fail(say(lang, "Por quantos dias?", "For how many days?"), "missing_parameter")
    if days > 30:
        return fail(
            say(lang, "O pacote de roaming vai até 30 dias.", "Roaming packs go up to 30 days."),
            "too_many_days",
            recoverable=True,
            suggestions=[{"days": 30}],
        )
    price = ROAMING_DAY_BRL[country] * days
    ref = _next()
    return DomainOutput(
        status="success",
        result={"country": country, "days": days, "price_brl": price, "protocol": ref},
        explanation=say(
            lang,
            f"Roaming ativado: {country}, {days} dias, R$ {price}. Protocolo {ref}.",
            f"Roaming on: {country}, {days} days, R$ {price}. Reference {ref}.",
        ),
    )


@service.capability(
    "data_usage",
    {"pt": "Mostra o consumo de internet", "en": "Show data usage"},
    parameters={"type": "object", "properties": {"phone": {"type": "string"}}},
    metadata={
        "intent_hints": {
            "keywords": ["consumo", "internet", "dados", "franquia", "data usage", "gigas"],
            "examples": ["quanto de internet eu já usei?", "how much data have I used?"],
        },
        "policy": {"read_only": True},
    },
)
def data_usage(intent: ExecutionIntent) -> DomainOutput:
    lang = language(intent)
    line = _line(intent.parameters.get("phone"))
    if line is None:
        return fail(
            say(lang, "Esse número não é seu.", "That number is not one of your lines."), "unknown_line"
        )
    d = LINES[line]
    left = d["total_gb"] - d["used_gb"]
    return DomainOutput(
        status="success",
        result={"line": line, "plan": d["plan"], "used_gb": d["used_gb"], "total_gb": d["total_gb"]},
        explanation=say(
            lang,
            f"Linha {line} ({d['plan']}): {d['used_gb']} GB de {d['total_gb']} GB; restam {left:.1f} GB.",
            f"{line} ({d['plan']}): {d['used_gb']} GB used of {d['total_gb']} GB; {left:.1f} GB left.",
        ),
    )


PHONE: dict[str, Any] = {
    "type": "phone",
    "description": {"pt": "O número da linha", "en": "The phone number"},
}

service.add_goal(
    {
        "goal": "TOP_UP",
        "description": {"pt": "Recarregar crédito", "en": "Top up credit"},
        "entities_schema": {
            "phone": PHONE,
            "amount": {
                "type": "money",
                "required": True,
                "description": {"pt": "O valor", "en": "The amount"},
            },
        },
        "capabilities": ["top_up"],
        "examples": [
            ex("faz uma recarga de 20 reais no (11) 98765-4321", amount="20 reais", phone="(11) 98765-4321"),
            ex("recarrega R$ 50 no meu celular", amount="R$ 50"),
            ex("coloca 30 de crédito no 11 91234-5678", amount="30", phone="11 91234-5678"),
            ex("top up R$ 40 on my phone", amount="R$ 40"),
            ex("add 25 reais credit to 21 99888-7777", amount="25 reais", phone="21 99888-7777"),
        ],
    }
)
service.add_goal(
    {
        "goal": "CHANGE_PLAN",
        "description": {"pt": "Trocar de plano", "en": "Change plan"},
        "entities_schema": {
            "plan_text": {
                "type": "string",
                "required": True,
                "description": {"pt": "O plano", "en": "The plan"},
                "lookup": lookup_spec(PLANS),
            },
            "phone": PHONE,
        },
        "capabilities": ["change_plan"],
        "examples": [
            ex("muda meu plano pro Pós 50GB", plan_text="Pós 50GB"),
            ex("quero passar pro ilimitado", plan_text="ilimitado"),
            ex(
                "troca o plano da linha 11 91234-5678 para controle",
                phone="11 91234-5678",
                plan_text="controle",
            ),
            ex("switch me to the unlimited family plan", plan_text="unlimited family"),
            ex("change my plan to prepaid", plan_text="prepaid"),
        ],
    }
)
service.add_goal(
    {
        "goal": "ROAMING_ON",
        "description": {"pt": "Ativar roaming internacional", "en": "Turn on international roaming"},
        "entities_schema": {
            "country_text": {
                "type": "string",
                "required": True,
                "description": {"pt": "O país", "en": "The country"},
                "lookup": lookup_spec(COUNTRIES),
            },
            "days": {
                "type": "number",
                "required": True,
                "description": {"pt": "Quantos dias", "en": "How many days"},
            },
            "phone": PHONE,
        },
        "capabilities": ["roaming_on"],
        "examples": [
            ex("ativa roaming pra Portugal por 10 dias", country_text="Portugal", days="10 dias"),
            ex("vou pros EUA 7 dias, liga o roaming", country_text="EUA", days="7 dias"),
            ex("roaming na Argentina, 5 dias", country_text="Argentina", days="5 dias"),
            ex("turn on roaming for Japan for 12 days", country_text="Japan", days="12 days"),
            ex("I need roaming in France, 4 days", country_text="France", days="4 days"),
        ],
    }
)
service.add_goal(
    {
        "goal": "DATA_USAGE",
        "description": {"pt": "Ver o consumo de internet", "en": "See data usage"},
        "entities_schema": {"phone": PHONE},
        "capabilities": ["data_usage"],
        "examples": [
            ex("quantos giga ainda tenho?"),
            ex("consumo de dados da linha 21 99888-7777", phone="21 99888-7777"),
            ex("how much mobile data do I have left?"),
            ex("data usage for 11 91234-5678", phone="11 91234-5678"),
        ],
    }
)

if __name__ == "__main__":
    serve(service)
