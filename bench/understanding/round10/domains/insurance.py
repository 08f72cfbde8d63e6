"""Insurance (round-10 bench domain): file a claim, what a policy covers, a claim's status.

Fake, deterministic, in memory.
Run: ``python -m bench.understanding.round10.domains.insurance --port 8201``.
"""

from __future__ import annotations

from typing import Any

from bench.understanding.round10.domains._common import (
    code_of,
    ex,
    language,
    read_day,
    read_money,
    say,
    today,
)
from sdk.service import DomainService, fail, serve
from shared.models import DomainOutput, ExecutionIntent

COVERAGES = ["THEFT", "COLLISION", "GLASS", "FIRE", "FLOOD", "MEDICAL", "BAGGAGE"]
COVERAGE_SYNONYMS: dict[str, list[str]] = {
    "THEFT": ["roubo", "furto", "assalto", "theft", "stolen", "robbery"],
    "COLLISION": ["colisão", "batida", "acidente", "collision", "crash", "accident", "fender bender"],
    "GLASS": ["vidros", "para-brisa", "parabrisa", "vidro", "windshield", "glass", "windscreen"],
    "FIRE": ["incêndio", "fogo", "fire"],
    "FLOOD": ["alagamento", "enchente", "inundação", "flood", "flooding"],
    "MEDICAL": ["despesas médicas", "médico", "hospital", "medical", "doctor bills"],
    "BAGGAGE": ["bagagem", "mala", "extravio", "baggage", "luggage", "lost bag"],
}
#: policies (code -> kind, holder's label, coverages with their limits in BRL, status)
POLICIES: dict[str, dict[str, Any]] = {
    "SG4821": {
        "kind": ("auto", "car"),
        "status": "active",
        "limits": {"THEFT": 85000, "COLLISION": 85000, "GLASS": 3000, "FIRE": 85000},
        "deductible": 2500,
    },
    "SG3307": {
        "kind": ("residencial", "home"),
        "status": "active",
        "limits": {"FIRE": 400000, "FLOOD": 50000, "THEFT": 30000, "GLASS": 2000},
        "deductible": 1000,
    },
    "SG1150": {
        "kind": ("viagem", "travel"),
        "status": "active",
        "limits": {"MEDICAL": 150000, "BAGGAGE": 5000},
        "deductible": 0,
    },
    "SG9002": {"kind": ("auto", "car"), "status": "cancelled", "limits": {}, "deductible": 0},
}
#: known claims
CLAIMS: dict[str, dict[str, Any]] = {
    "SN20417": {"policy": "SG4821", "status": ("em análise", "under review"), "note": "vistoria 12/03"},
    "SN20388": {"policy": "SG3307", "status": ("aprovado", "approved"), "note": "R$ 4.200 pagos em 05/03"},
    "SN19950": {"policy": "SG1150", "status": ("negado", "denied"), "note": "fora da vigência"},
}
MAX_AMOUNT = 500000
_next = [20500]

service = DomainService(
    "insurance",
    "0.1.0",
    {
        "pt": "Seguros: abrir sinistro, ver o que a apólice cobre e acompanhar um sinistro",
        "en": "Insurance: file a claim, see what a policy covers and follow a claim",
    },
)


@service.capability(
    "file_claim",
    {"pt": "Abre um sinistro (pedido de indenização) numa apólice", "en": "File a claim on a policy"},
    parameters={
        "type": "object",
        "properties": {
            "policy_text": {"type": "string", "minLength": 1},
            "incident_day": {"type": "string", "pattern": "^\\d{4}-\\d{2}-\\d{2}$"},
            "amount": {"type": "object"},
            "coverage": {"type": "string", "enum": COVERAGES},
            "description_text": {"type": "string"},
        },
        "required": ["policy_text", "incident_day"],
    },
    metadata={
        "intent_hints": {
            "keywords": ["sinistro", "acionar o seguro", "abrir sinistro", "file a claim", "insurance claim"],
            "examples": ["quero acionar o seguro", "I need to file an insurance claim"],
        },
        "policy": {"confirm": True, "idempotent": False},
    },
)
def file_claim(intent: ExecutionIntent) -> DomainOutput:
    lang = language(intent)
    p = intent.parameters
    code = code_of(p.get("policy_text"), "SG")
    policy = POLICIES.get(code)
    if policy is None:
        return fail(
            say(lang, f"Não achei a apólice {code}.", f"I couldn't find policy {code}."), "unknown_policy"
        )
    if policy["status"] != "active":
        return fail(
            say(lang, f"A apólice {code} está cancelada.", f"Policy {code} is cancelled."), "policy_cancelled"
        )
    day = read_day(p.get("incident_day"))
    if day is None:
        return fail(
            say(lang, "Falta a data do ocorrido.", "The incident date is missing."), "missing_parameter"
        )
    if day > today():
        return fail(
            say(
                lang,
                "A data do ocorrido não pode ser no futuro.",
                "The incident date cannot be in the future.",
            ),
            "future_incident",
            recoverable=True,
            suggestions=[{"incident_day": today().isoformat()}],
        )
    money = read_money(p.get("amount")) if p.get("amount") else None
    if money is not None:
        value, currency = money
        if currency not in ("BRL", None):
            return fail(
                say(lang, "Só registramos valores em reais.", "We only record amounts in reais."),
                "unsupported_currency",
            )
        if value > MAX_AMOUNT:
            return fail(
                say(
                    lang, "O valor passa do limite de R$ 500.000.", "The amount is over the R$ 500,000 limit."
                ),
                "amount_too_high",
                recoverable=True,
                suggestions=[{"amount": {"amount": MAX_AMOUNT, "currency": "BRL"}}],
            )
    coverage = p.get("coverage")
    if coverage and coverage not in policy["limits"]:
        return fail(
            say(
                lang,
                f"A apólice {code} ({policy['kind'][0]}) não cobre esse tipo de ocorrência.",
                f"Policy {code} ({policy['kind'][1]}) does not cover that.",
            ),
            "not_covered",
        )
    _next[0] += 1
    claim = f"SN{_next[0]}"
    return DomainOutput(
        status="success",
        result={"claim": claim, "policy": code, "incident_day": day.isoformat(), "coverage": coverage},
        explanation=say(
            lang,
            f"Sinistro {claim} aberto na apólice {code}, ocorrido em {day:%d/%m}. Um perito liga em até 48h.",
            f"Claim {claim} filed on policy {code}, incident on {day:%b %d}. "
            "An adjuster will call within 48h.",
        ),
    )


@service.capability(
    "policy_coverage",
    {"pt": "Diz o que uma apólice cobre", "en": "Say what a policy covers"},
    parameters={
        "type": "object",
        "properties": {
            "policy_text": {"type": "string", "minLength": 1},
            "coverage": {"type": "string", "enum": COVERAGES},
        },
        "required": ["policy_text"],
    },
    metadata={
        "intent_hints": {
            "keywords": ["cobertura", "o que cobre", "apólice", "coverage", "what does my policy cover"],
            "examples": ["o que minha apólice cobre?", "what does my policy cover?"],
        },
        "policy": {"read_only": True},
    },
)
def policy_coverage(intent: ExecutionIntent) -> DomainOutput:
    lang = language(intent)
    code = code_of(intent.parameters.get("policy_text"), "SG")
    policy = POLICIES.get(code)
    if policy is None:
        return fail(
            say(lang, f"Não achei a apólice {code}.", f"I couldn't find policy {code}."), "unknown_policy"
        )
    if policy["status"] != "active":
        return fail(
            say(lang, f"A apólice {code} está cancelada.", f"Policy {code} is cancelled."), "policy_cancelled"
        )
    coverage = intent.parameters.get("coverage")
    limits = policy["limits"]
    if coverage:
        limit = limits.get(coverage)
        first = COVERAGE_SYNONYMS[coverage][0] if lang == "pt" else coverage.lower()
        text = (
            say(lang, f"Sim, cobre {first} até R$ {limit:,}.", f"Yes, it covers {first} up to R$ {limit:,}.")
            if limit
            else say(
                lang,
                f"Não, a apólice {code} não cobre {first}.",
                f"No, policy {code} does not cover {first}.",
            )
        )
    else:
        names = ", ".join(f"{k.lower()} (R$ {v:,})" for k, v in limits.items())
        text = say(lang, f"Apólice {code} cobre: {names}.", f"Policy {code} covers: {names}.")
    return DomainOutput(
        status="success",
        result={"policy": code, "limits": limits, "deductible": policy["deductible"], "coverage": coverage},
        explanation=text
        + say(lang, f" Franquia R$ {policy['deductible']:,}.", f" Deductible R$ {policy['deductible']:,}."),
    )


@service.capability(
    "claim_status",
    {"pt": "Status de um sinistro", "en": "A claim's status"},
    parameters={
        "type": "object",
        "properties": {"claim_text": {"type": "string", "minLength": 1}},
        "required": ["claim_text"],
    },
    metadata={
        "intent_hints": {
            "keywords": ["status do sinistro", "andamento do sinistro", "claim status"],
            "examples": ["como está meu sinistro?", "what's the status of my claim?"],
        },
        "policy": {"read_only": True},
    },
)
def claim_status(intent: ExecutionIntent) -> DomainOutput:
    lang = language(intent)
    code = code_of(intent.parameters.get("claim_text"), "SN")
    claim = CLAIMS.get(code)
    if claim is None:
        return fail(say(lang, f"Não achei o sinistro {code}.", f"I couldn't find claim {code}."), "not_found")
    state = claim["status"][0 if lang == "pt" else 1]
    return DomainOutput(
        status="success",
        result={"claim": code} | {"policy": claim["policy"], "status": claim["status"][1]},
        explanation=say(
            lang,
            f"Sinistro {code} (apólice {claim['policy']}): {state} — {claim['note']}.",
            f"Claim {code} (policy {claim['policy']}): {state} — {claim['note']}.",
        ),
    )


POLICY_ENTITY: dict[str, Any] = {
    "type": "string",
    "required": True,
    "description": {"pt": "O número da apólice", "en": "The policy number"},
}
COVERAGE_ENTITY: dict[str, Any] = {
    "type": "enum",
    "values": COVERAGES,
    "synonyms": COVERAGE_SYNONYMS,
    "description": {"pt": "O tipo de ocorrência", "en": "The kind of loss"},
}

service.add_goal(
    {
        "goal": "FILE_CLAIM",
        "description": {"pt": "Abrir um sinistro no seguro", "en": "File an insurance claim"},
        "entities_schema": {
            "policy_text": POLICY_ENTITY,
            "incident_day": {
                "type": "date",
                "required": True,
                "description": {"pt": "A data do ocorrido", "en": "The date it happened"},
            },
            "amount": {
                "type": "money",
                "description": {"pt": "O valor do prejuízo", "en": "The amount of the loss"},
            },
            "coverage": COVERAGE_ENTITY,
            "description_text": {
                "type": "string",
                "description": {"pt": "O que aconteceu", "en": "What happened"},
            },
        },
        "capabilities": ["file_claim"],
        "examples": [
            ex(
                "abrir sinistro na apólice SG4821, batida ontem, prejuízo de R$ 6.000",
                policy_text="SG4821",
                coverage="COLLISION",
                incident_day="ontem",
                amount="R$ 6.000",
            ),
            ex(
                "quero acionar o seguro SG3307, alagamento no sábado passado: "
                "a água entrou na sala e estragou o sofá",
                policy_text="SG3307",
                coverage="FLOOD",
                incident_day="sábado passado",
                description_text="a água entrou na sala e estragou o sofá",
            ),
            ex(
                "sinistro na SG1150 dia 2, extravio de bagagem de 3 mil reais",
                policy_text="SG1150",
                incident_day="dia 2",
                coverage="BAGGAGE",
                amount="3 mil reais",
            ),
            ex(
                "file a claim on policy SG4821, my windshield cracked yesterday, about R$ 1,800",
                policy_text="SG4821",
                coverage="GLASS",
                incident_day="yesterday",
                amount="R$ 1,800",
            ),
            ex(
                "I need to file a claim for SG3307, theft on March 1st: someone took the TV and a laptop",
                policy_text="SG3307",
                coverage="THEFT",
                incident_day="March 1st",
                description_text="someone took the TV and a laptop",
            ),
        ],
    }
)
service.add_goal(
    {
        "goal": "POLICY_COVERAGE",
        "description": {"pt": "Ver o que a apólice cobre", "en": "See what a policy covers"},
        "entities_schema": {"policy_text": POLICY_ENTITY, "coverage": COVERAGE_ENTITY},
        "capabilities": ["policy_coverage"],
        "examples": [
            ex("o que a apólice SG4821 cobre?", policy_text="SG4821"),
            ex("meu seguro SG3307 cobre enchente?", policy_text="SG3307", coverage="FLOOD"),
            ex("a SG1150 cobre despesas médicas?", policy_text="SG1150", coverage="MEDICAL"),
            ex("what does policy SG3307 cover?", policy_text="SG3307"),
            ex("does SG4821 cover theft?", policy_text="SG4821", coverage="THEFT"),
        ],
    }
)
service.add_goal(
    {
        "goal": "CLAIM_STATUS",
        "description": {"pt": "Acompanhar um sinistro", "en": "Follow a claim"},
        "entities_schema": {
            "claim_text": {
                "type": "string",
                "required": True,
                "description": {"pt": "O número do sinistro", "en": "The claim number"},
            }
        },
        "capabilities": ["claim_status"],
        "examples": [
            ex("status do sinistro SN20417", claim_text="SN20417"),
            ex("como anda o sinistro SN20388?", claim_text="SN20388"),
            ex("status of claim SN19950", claim_text="SN19950"),
            ex("any news on claim SN20417?", claim_text="SN20417"),
        ],
    }
)

if __name__ == "__main__":
    serve(service)
