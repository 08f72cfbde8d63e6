"""IT helpdesk (round-2 bench domain): open a ticket, a ticket's status, list my tickets.

Fake, deterministic, in memory. Run: ``python -m bench.understanding.round2.domains.helpdesk --port 8123``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from bench.understanding.round2.domains._common import language
from sdk.service import DomainService, fail, serve
from shared.models import DomainOutput, ExecutionIntent

PRIORITIES = ["LOW", "MEDIUM", "HIGH", "URGENT"]
STATUS_WORDS = {
    "OPEN": ("aberto", "open"),
    "IN_PROGRESS": ("em andamento", "in progress"),
    "CLOSED": ("fechado", "closed"),
}


@dataclass
class Ticket:
    number: str
    problem: str
    priority: str
    status: str

    def describe(self, lang: str) -> str:
        status = STATUS_WORDS[self.status][0 if lang == "pt" else 1]
        return f"#{self.number} — {self.problem} ({self.priority}, {status})"


TICKETS: dict[str, Ticket] = {
    t.number: t
    for t in (
        Ticket("30117", "VPN não conecta", "HIGH", "OPEN"),
        Ticket("30245", "impressora do 3º andar sem toner", "LOW", "CLOSED"),
        Ticket("30388", "caixa de e-mail cheia", "MEDIUM", "IN_PROGRESS"),
    )
}
_next_number = [30400]

service = DomainService(
    "helpdesk", "0.1.0", {"pt": "Suporte de TI (chamados)", "en": "IT helpdesk (tickets)"}
)


@service.capability(
    "open_ticket",
    {"pt": "Abre um chamado no suporte de TI", "en": "Open an IT support ticket"},
    parameters={
        "type": "object",
        "properties": {
            "problem_text": {"type": "string", "minLength": 1},
            "priority": {"type": "string", "enum": PRIORITIES},
        },
        "required": ["problem_text"],
    },
    metadata={
        "intent_hints": {
            "keywords": ["chamado", "abrir chamado", "suporte", "ticket", "helpdesk", "support"]
        },
        "policy": {"confirm": True, "idempotent": False},
    },
)
def open_ticket(intent: ExecutionIntent) -> DomainOutput:
    lang = language(intent)
    problem = " ".join(str(intent.parameters.get("problem_text", "")).split())
    if len(problem) < 3:
        return fail(
            "Descreva o problema, por favor." if lang == "pt" else "Please describe the problem.",
            "missing_problem",
        )
    priority = str(intent.parameters.get("priority") or "MEDIUM").upper()
    if priority not in PRIORITIES:
        return fail(
            f"Prioridade inválida: {priority}." if lang == "pt" else f"Unknown priority {priority}.",
            "invalid_priority",
        )
    _next_number[0] += 1
    ticket = Ticket(str(_next_number[0]), problem, priority, "OPEN")
    TICKETS[ticket.number] = ticket
    text = (
        f"Chamado aberto: {ticket.describe('pt')}."
        if lang == "pt"
        else f"Ticket opened: {ticket.describe('en')}."
    )
    return DomainOutput(status="success", result=ticket.__dict__, explanation=text)


@service.capability(
    "ticket_status",
    {"pt": "Consulta o andamento de um chamado", "en": "Get a ticket's status"},
    parameters={
        "type": "object",
        "properties": {"ticket_number_text": {"type": "string", "minLength": 1}},
        "required": ["ticket_number_text"],
    },
    metadata={"intent_hints": {"keywords": ["status do chamado", "andamento", "ticket status"]}},
)
def ticket_status(intent: ExecutionIntent) -> DomainOutput:
    lang = language(intent)
    number = re.sub(r"\D", "", str(intent.parameters.get("ticket_number_text", "")))
    ticket = TICKETS.get(number)
    if ticket is None:
        return fail(
            f"Não achei o chamado {number}." if lang == "pt" else f"No ticket {number}.", "ticket_not_found"
        )
    return DomainOutput(status="success", result=ticket.__dict__, explanation=ticket.describe(lang))


@service.capability(
    "list_my_tickets",
    {"pt": "Lista os seus chamados", "en": "List your tickets"},
    parameters={"type": "object", "properties": {"status": {"type": "string", "enum": ["OPEN", "CLOSED"]}}},
    metadata={"intent_hints": {"keywords": ["meus chamados", "my tickets"]}},
)
def list_my_tickets(intent: ExecutionIntent) -> DomainOutput:
    lang = language(intent)
    wanted = str(intent.parameters.get("status") or "").upper()
    items = [t for t in TICKETS.values() if not wanted or (t.status == "CLOSED") == (wanted == "CLOSED")]
    text = "\n".join(t.describe(lang) for t in items) or (
        "Nenhum chamado." if lang == "pt" else "No tickets."
    )
    return DomainOutput(status="success", result={"tickets": [t.__dict__ for t in items]}, explanation=text)


def _ex(text: str, **entities: Any) -> dict[str, Any]:
    return {"text": text, "entities": entities}


service.add_goal(
    {
        "goal": "OPEN_TICKET",
        "description": {"pt": "Abrir um chamado no suporte de TI", "en": "Open an IT support ticket"},
        "entities_schema": {
            "problem_text": {
                "type": "string",
                "required": True,
                "description": {"pt": "O problema", "en": "The problem"},
            },
            "priority": {
                "type": "enum",
                "values": PRIORITIES,
                "description": {"pt": "A prioridade", "en": "The priority"},
                "synonyms": {
                    "LOW": ["baixa", "prioridade baixa", "sem pressa", "low", "low priority", "no rush"],
                    "MEDIUM": ["média", "media", "normal", "medium", "medium priority"],
                    "HIGH": ["alta", "prioridade alta", "high", "high priority"],
                    "URGENT": ["urgente", "urgência", "crítico", "urgent", "asap", "critical"],
                },
            },
        },
        "capabilities": ["open_ticket"],
        "examples": [
            _ex("abre um chamado: a impressora não imprime", problem_text="a impressora não imprime"),
            _ex(
                "abrir chamado urgente sobre o sistema de ponto fora do ar",
                priority="URGENT",
                problem_text="o sistema de ponto fora do ar",
            ),
            _ex(
                "preciso de um chamado pro suporte porque meu notebook não liga",
                problem_text="meu notebook não liga",
            ),
            _ex(
                "registra um chamado de prioridade baixa: trocar o mouse",
                priority="LOW",
                problem_text="trocar o mouse",
            ),
            _ex("open a ticket: my laptop won't boot", problem_text="my laptop won't boot"),
            _ex(
                "open a high priority ticket about the VPN dropping",
                priority="HIGH",
                problem_text="the VPN dropping",
            ),
            _ex(
                "raise a support ticket saying Outlook keeps crashing", problem_text="Outlook keeps crashing"
            ),
        ],
    }
)
service.add_goal(
    {
        "goal": "TICKET_STATUS",
        "description": {"pt": "O andamento de um chamado", "en": "The status of a support ticket"},
        "entities_schema": {
            "ticket_number_text": {
                "type": "string",
                "required": True,
                "description": {"pt": "O número do chamado", "en": "The ticket number"},
            }
        },
        "capabilities": ["ticket_status"],
        "examples": [
            _ex("como está o chamado 30117?", ticket_number_text="30117"),
            _ex("status do chamado #30245", ticket_number_text="30245"),
            _ex("andamento do ticket 30388", ticket_number_text="30388"),
            _ex("what's the status of ticket 30117?", ticket_number_text="30117"),
            _ex("any update on ticket #30388?", ticket_number_text="30388"),
        ],
    }
)
service.add_goal(
    {
        "goal": "LIST_MY_TICKETS",
        "description": {"pt": "Os seus chamados de suporte", "en": "Your support tickets"},
        "entities_schema": {
            "status": {
                "type": "enum",
                "values": ["OPEN", "CLOSED"],
                "description": {"pt": "Abertos ou fechados", "en": "Open or closed"},
                "synonyms": {
                    "OPEN": ["abertos", "em aberto", "pendentes", "open", "pending"],
                    "CLOSED": ["fechados", "resolvidos", "encerrados", "closed", "resolved"],
                },
            }
        },
        "capabilities": ["list_my_tickets"],
        "examples": [
            _ex("quais são meus chamados?"),
            _ex("lista meus chamados abertos", status="OPEN"),
            _ex("meus tickets de suporte"),
            _ex("show my tickets"),
            _ex("list my open support tickets", status="OPEN"),
            _ex("which of my tickets were closed?", status="CLOSED"),
        ],
    }
)

if __name__ == "__main__":
    serve(service)
