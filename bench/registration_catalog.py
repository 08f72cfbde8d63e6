"""A synthetic catalog for the registration benchmark: domains of ten goals each, generated.

Every domain is one subject (banking, travel, ...) with five things people ask about, each asked
for with two actions; examples are written from Portuguese and English phrasings with entity
values, so goals share verbs (within an action) and nouns (within a thing) the way real ones do.
Deterministic: the same index always gives the same manifest.

``python bench/registration_catalog.py --port P --domains N`` serves the first N domains from one
process, domain ``i`` under ``/d/<name>`` (its base URL; ``GET /domains`` lists the names in
order), so a 150-goal catalog needs no fifteen processes. Not registered anywhere by default:
only ``bench/registration.py`` and tests start it (as a process: nothing imports it).
"""

from __future__ import annotations

import argparse
import random
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
# appended: a PYTHONPATH naming another checkout (the benchmark's --tree) takes precedence
sys.path.append(str(ROOT))

from sdk.service import DomainService  # noqa: E402
from shared.models import DomainOutput, ExecutionIntent  # noqa: E402

GOALS_PER_DOMAIN = 10

#: subject -> (description, five (Portuguese, English) things people ask about)
SUBJECTS: list[tuple[str, str, list[tuple[str, str]]]] = [
    (
        "banking",
        "Conta bancária e cartões",
        [
            ("saldo", "balance"),
            ("cartão de crédito", "credit card"),
            ("transferência", "transfer"),
            ("boleto", "bill payment"),
            ("extrato", "statement"),
        ],
    ),
    (
        "travel",
        "Viagens e reservas",
        [
            ("passagem aérea", "flight ticket"),
            ("reserva de hotel", "hotel booking"),
            ("aluguel de carro", "car rental"),
            ("bagagem", "luggage"),
            ("check-in", "check-in"),
        ],
    ),
    (
        "home",
        "Casa inteligente",
        [
            ("luz da sala", "living room lights"),
            ("termostato", "thermostat"),
            ("alarme", "alarm system"),
            ("fechadura", "door lock"),
            ("aspirador", "vacuum robot"),
        ],
    ),
    (
        "car",
        "Carro e manutenção",
        [
            ("revisão", "car service"),
            ("pneu", "tire"),
            ("seguro do carro", "car insurance"),
            ("multa", "traffic fine"),
            ("combustível", "fuel"),
        ],
    ),
    (
        "health",
        "Saúde e consultas",
        [
            ("consulta médica", "doctor appointment"),
            ("receita", "prescription"),
            ("exame de sangue", "blood test"),
            ("vacina", "vaccine"),
            ("plano de saúde", "health plan"),
        ],
    ),
    (
        "food",
        "Comida e delivery",
        [
            ("pedido de pizza", "pizza order"),
            ("reserva de mesa", "table reservation"),
            ("receita de bolo", "cake recipe"),
            ("lista de compras", "shopping list"),
            ("cardápio", "menu"),
        ],
    ),
    (
        "shopping",
        "Compras online",
        [
            ("encomenda", "order"),
            ("devolução", "return"),
            ("cupom", "coupon"),
            ("carrinho", "cart"),
            ("entrega", "delivery"),
        ],
    ),
    (
        "work",
        "Trabalho e agenda",
        [
            ("reunião", "meeting"),
            ("férias", "vacation days"),
            ("reembolso", "expense report"),
            ("holerite", "payslip"),
            ("ponto", "timesheet"),
        ],
    ),
    (
        "music",
        "Música e playlists",
        [
            ("playlist", "playlist"),
            ("música", "song"),
            ("álbum", "album"),
            ("podcast", "podcast"),
            ("volume", "volume"),
        ],
    ),
    (
        "fitness",
        "Treinos e atividade física",
        [
            ("treino", "workout"),
            ("corrida", "run"),
            ("passos", "steps"),
            ("peso", "weight"),
            ("academia", "gym membership"),
        ],
    ),
    (
        "school",
        "Escola e estudos",
        [
            ("matrícula", "enrollment"),
            ("nota", "grade"),
            ("lição de casa", "homework"),
            ("mensalidade", "tuition"),
            ("calendário escolar", "school calendar"),
        ],
    ),
    (
        "pets",
        "Animais de estimação",
        [
            ("banho e tosa", "grooming"),
            ("ração", "pet food"),
            ("veterinário", "vet visit"),
            ("vacina do cachorro", "dog vaccine"),
            ("passeio", "dog walk"),
        ],
    ),
    (
        "insurance",
        "Seguros",
        [
            ("apólice", "policy"),
            ("sinistro", "claim"),
            ("franquia", "deductible"),
            ("cobertura", "coverage"),
            ("renovação", "renewal"),
        ],
    ),
    (
        "utilities",
        "Contas de casa",
        [
            ("conta de luz", "electricity bill"),
            ("conta de água", "water bill"),
            ("internet", "internet plan"),
            ("gás", "gas bill"),
            ("leitura do medidor", "meter reading"),
        ],
    ),
    (
        "events",
        "Eventos e ingressos",
        [
            ("ingresso", "ticket"),
            ("show", "concert"),
            ("festa", "party"),
            ("convite", "invitation"),
            ("lugar marcado", "seat"),
        ],
    ),
    (
        "library",
        "Biblioteca",
        [
            ("empréstimo de livro", "book loan"),
            ("renovação do livro", "book renewal"),
            ("sala de estudo", "study room"),
            ("multa da biblioteca", "library fine"),
            ("e-book", "e-book"),
        ],
    ),
    (
        "garden",
        "Jardim e plantas",
        [
            ("rega", "watering"),
            ("adubo", "fertilizer"),
            ("poda", "pruning"),
            ("semente", "seeds"),
            ("praga", "pests"),
        ],
    ),
]

#: action -> (goal suffix, Portuguese verb, English verb)
ACTIONS: list[tuple[str, str, str]] = [
    ("CHECK", "consultar", "check"),
    ("CHANGE", "alterar", "change"),
    ("CANCEL", "cancelar", "cancel"),
    ("SCHEDULE", "agendar", "schedule"),
    ("REPORT", "reclamar de", "report a problem with"),
    ("PAY", "pagar", "pay for"),
]

PT_FORMS = [
    "quero {verb} {thing}",
    "como faço para {verb} {thing}?",
    "preciso {verb} {thing} {when}",
    "dá para {verb} {thing} {when}?",
    "me ajuda a {verb} {thing}",
    "gostaria de {verb} {thing} de {who}",
    "{verb} {thing} {when}, por favor",
]
EN_FORMS = [
    "I want to {verb} my {thing}",
    "can you {verb} the {thing} {when}?",
    "please {verb} {who}'s {thing}",
    "how do I {verb} my {thing}",
    "help me {verb} the {thing} {when}",
]
PT_WHEN = ["hoje", "amanhã", "agora", "na sexta", "semana que vem", "até o fim do mês"]
EN_WHEN = ["today", "tomorrow", "right now", "on friday", "next week", "by the end of the month"]
WHO = ["Ana", "Bruno", "Carla", "Diego", "minha mãe", "meu filho"]


def domain_name(index: int) -> str:
    subject = SUBJECTS[index % len(SUBJECTS)][0]
    return subject if index < len(SUBJECTS) else f"{subject}{index // len(SUBJECTS)}"


def domain_manifest(index: int, variant: int = 0) -> dict[str, Any]:
    """The manifest (as JSON data) of synthetic domain ``index``: ten goals, one capability each.
    Another ``variant`` words the examples differently (texts no cache has seen)."""
    name = domain_name(index)
    subject, description, things = SUBJECTS[index % len(SUBJECTS)]
    rng = random.Random(index + 1_000_003 * variant)
    goals, capabilities = [], []
    for t, (thing_pt, thing_en) in enumerate(things):
        # two actions per thing, different for neighbouring things: verbs recur across goals
        for action in (ACTIONS[t % len(ACTIONS)], ACTIONS[(t + 1 + index % 5) % len(ACTIONS)]):
            suffix, verb_pt, verb_en = action
            slug = f"{thing_en.replace(' ', '_').replace('-', '_').upper()}"
            goal_name = f"{suffix}_{slug}"
            capability = f"{suffix.lower()}_{slug.lower()}"
            examples = []
            for form in PT_FORMS:
                when, who = rng.choice(PT_WHEN), rng.choice(WHO)
                examples.append({"text": form.format(verb=verb_pt, thing=thing_pt, when=when, who=who)})
            for form in EN_FORMS:
                when, who = rng.choice(EN_WHEN), rng.choice(WHO[:4])
                examples.append({"text": form.format(verb=verb_en, thing=thing_en, when=when, who=who)})
            goals.append(
                {
                    "goal": goal_name,
                    "description": f"{verb_pt.capitalize()} {thing_pt} ({verb_en} {thing_en})",
                    "capabilities": [capability],
                    "entities_schema": {"when": {"type": "string", "description": "Quando"}},
                    "examples": examples,
                }
            )
            capabilities.append(
                {
                    "name": capability,
                    "description": f"{verb_en} {thing_en}",
                    "parameters": {"type": "object", "properties": {"when": {"type": "string"}}},
                    "metadata": {"intent_hints": {"keywords": [thing_pt, thing_en]}},
                }
            )
    return {
        "domain": name,
        "version": "1.0.0",
        "description": f"{description} ({subject})",
        "capabilities": capabilities,
        "goals": goals,
    }


def domain_service(index: int, variant: int = 0) -> DomainService:
    """Synthetic domain ``index`` as a service whose every capability answers with a short text."""
    manifest = domain_manifest(index, variant)
    service = DomainService(manifest["domain"], manifest["version"], manifest["description"])
    for spec in manifest["capabilities"]:

        def handler(intent: ExecutionIntent, done: str = spec["description"]) -> DomainOutput:
            return DomainOutput(status="success", result={"done": done}, explanation=f"OK: {done}.")

        service.capability(
            spec["name"], spec["description"], parameters=spec["parameters"], metadata=spec["metadata"]
        )(handler)
    for goal in manifest["goals"]:
        service.add_goal(goal)
    return service


def main() -> None:
    import uvicorn
    from fastapi import FastAPI

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--domains", type=int, default=16)
    parser.add_argument("--last-variant", type=int, default=0, help="examples' variant of the last domain")
    args = parser.parse_args()
    app = FastAPI()

    @app.get("/health")
    async def health() -> dict[str, str]:
        return {"status": "ok"}

    @app.get("/domains")
    async def domains() -> dict[str, list[str]]:
        """The served domains' names in index order (base URL: ``/d/<name>``)."""
        return {"domains": [domain_name(i) for i in range(args.domains)]}

    for index in range(args.domains):
        variant = args.last_variant if index == args.domains - 1 else 0
        app.mount(f"/d/{domain_name(index)}", domain_service(index, variant).app())
    uvicorn.run(app, host="127.0.0.1", port=args.port, log_level="warning")


if __name__ == "__main__":
    main()
