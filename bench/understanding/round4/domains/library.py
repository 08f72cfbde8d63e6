"""Library (round-4 bench domain): renew a loan, search the catalogue by title or author, list my loans.

Fake, deterministic, in memory. Run: ``python -m bench.understanding.round4.domains.library --port 8142``.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from datetime import timedelta

from bench.understanding.round4.domains._common import (
    ex,
    fold,
    language,
    lookup_spec,
    read_day,
    resolve_loose,
    say,
    today,
)
from sdk.service import DomainService, clarify, fail, option, serve
from shared.models import DomainOutput, ExecutionIntent

#: the catalogue's titles (canonical <- other ways people write them)
TITLES: dict[str, list[str]] = {
    "Dom Casmurro": ["Dom Casmurro de Machado"],
    "Memórias Póstumas de Brás Cubas": [
        "Brás Cubas",
        "Memorias Postumas",
        "The Posthumous Memoirs of Bras Cubas",
    ],
    "O Alquimista": ["Alquimista", "The Alchemist"],
    "Sapiens": ["Sapiens: Uma Breve História da Humanidade", "Sapiens: A Brief History of Humankind"],
    "Torto Arado": ["Crooked Plow"],
    "O Pequeno Príncipe": ["Pequeno Príncipe", "The Little Prince", "Little Prince"],
    "Cem Anos de Solidão": ["Cem Anos", "One Hundred Years of Solitude", "100 anos de solidão"],
    "Harry Potter e a Pedra Filosofal": [
        "Harry Potter",
        "Pedra Filosofal",
        "Harry Potter and the Philosopher's Stone",
        "Harry Potter and the Sorcerer's Stone",
    ],
    "A Hora da Estrela": ["Hora da Estrela", "The Hour of the Star"],
    "Orgulho e Preconceito": ["Pride and Prejudice"],
    "Grande Sertão: Veredas": ["Grande Sertão", "Grande Sertao Veredas", "The Devil to Pay in the Backlands"],
}
AUTHORS: dict[str, list[str]] = {
    "Machado de Assis": ["Machado"],
    "Clarice Lispector": ["Clarice"],
    "Paulo Coelho": ["Coelho"],
    "Yuval Noah Harari": ["Harari", "Yuval Harari"],
    "Itamar Vieira Junior": ["Itamar Vieira", "Itamar Vieira Jr"],
    "Antoine de Saint-Exupéry": ["Saint-Exupéry", "Saint Exupery", "Exupery"],
    "Gabriel García Márquez": ["García Márquez", "Garcia Marquez", "Gabo"],
    "J. K. Rowling": ["JK Rowling", "Rowling"],
    "Jane Austen": ["Austen"],
    "Guimarães Rosa": ["Guimaraes Rosa", "João Guimarães Rosa"],
}
WRITTEN_BY = {
    "Dom Casmurro": "Machado de Assis",
    "Memórias Póstumas de Brás Cubas": "Machado de Assis",
    "O Alquimista": "Paulo Coelho",
    "Sapiens": "Yuval Noah Harari",
    "Torto Arado": "Itamar Vieira Junior",
    "O Pequeno Príncipe": "Antoine de Saint-Exupéry",
    "Cem Anos de Solidão": "Gabriel García Márquez",
    "Harry Potter e a Pedra Filosofal": "J. K. Rowling",
    "A Hora da Estrela": "Clarice Lispector",
    "Orgulho e Preconceito": "Jane Austen",
    "Grande Sertão: Veredas": "Guimarães Rosa",
}
#: copies on the shelf right now
AVAILABLE = {t: (0 if t in {"Torto Arado", "Harry Potter e a Pedra Filosofal"} else 2) for t in TITLES}
#: on loan to the person but reserved by someone else: no renewal
RESERVED = {"Torto Arado"}
MAX_RENEWALS = 2
LOAN_DAYS = 14


@dataclass
class Loan:
    title: str
    due: str
    renewals: int

    def describe(self, lang: str = "pt") -> str:
        return f"{self.title} ({WRITTEN_BY[self.title]}), " + say(
            lang, f"devolução {self.due}", f"due {self.due}"
        )


LOANS: dict[str, Loan] = {
    loan.title: loan
    for loan in (
        Loan("Dom Casmurro", "2026-03-12", 0),
        Loan("Sapiens", "2026-03-09", 1),  # overdue
        Loan("Torto Arado", "2026-03-20", 0),
        Loan("O Pequeno Príncipe", "2026-03-11", 2),  # no renewals left
    )
}

service = DomainService(
    "library",
    "0.1.0",
    {
        "pt": "Biblioteca: empréstimos, renovações e acervo",
        "en": "Library: loans, renewals and the catalogue",
    },
)

TITLE_LOOKUP = lookup_spec(TITLES)


@service.capability(
    "renew_loan",
    {"pt": "Renova o empréstimo de um livro", "en": "Renew a book loan"},
    parameters={
        "type": "object",
        "properties": {"book_text": {"type": "string", "minLength": 1}},
        "required": ["book_text"],
    },
    metadata={
        "intent_hints": {
            "keywords": ["renovar", "renova", "renovação", "empréstimo", "renew", "loan", "extend"],
            "examples": ["quero renovar um livro", "renew my library book"],
        },
        "policy": {"confirm": True, "idempotent": False},
    },
)
def renew_loan(intent: ExecutionIntent) -> DomainOutput:
    lang = language(intent)
    title = resolve_loose(intent.parameters.get("book_text"), TITLES)
    if title is None or title not in LOANS:
        return clarify(
            say(
                lang,
                "Esse livro não está com você. Qual destes?",
                "You don't have that book. Which of these?",
            ),
            [option(t, LOANS[t].describe(lang), aliases=TITLES[t]) for t in LOANS],
            param="book_text",
            metadata={"resolution": "not_on_loan"},
        )
    loan = LOANS[title]
    if loan.renewals >= MAX_RENEWALS:
        return fail(
            say(
                lang,
                f"{title} já foi renovado {MAX_RENEWALS} vezes; devolva até {loan.due}.",
                f"{title} was already renewed {MAX_RENEWALS} times; return it by {loan.due}.",
            ),
            "no_renewals_left",
        )
    if title in RESERVED:
        return fail(
            say(lang, f"{title} tem reserva de outra pessoa.", f"Someone has reserved {title}."), "reserved"
        )
    start = max(today(), read_day(loan.due) or today())
    loan.due = (start + timedelta(days=LOAN_DAYS)).isoformat()
    loan.renewals += 1
    return DomainOutput(
        status="success",
        result=asdict(loan),
        explanation=say(
            lang, f"Renovado — {title}, nova devolução {loan.due}.", f"Renewed — {title}, due {loan.due}."
        ),
    )


@service.capability(
    "search_catalog",
    {"pt": "Procura livros no acervo", "en": "Search the catalogue"},
    parameters={
        "type": "object",
        "properties": {"title_text": {"type": "string"}, "author_text": {"type": "string"}},
    },
    metadata={
        "intent_hints": {
            "keywords": ["acervo", "catálogo", "tem o livro", "catalogue", "catalog", "do you have"]
        },
        "policy": {"read_only": True},
    },
)
def search_catalog(intent: ExecutionIntent) -> DomainOutput:
    lang = language(intent)
    p = intent.parameters
    title = resolve_loose(p.get("title_text"), TITLES) if p.get("title_text") else None
    author = resolve_loose(p.get("author_text"), AUTHORS) if p.get("author_text") else None
    if not p.get("title_text") and not p.get("author_text"):
        return fail(
            say(lang, "Diga um título ou um autor.", "Tell me a title or an author."), "missing_parameter"
        )
    hits = [
        t for t in TITLES if (title is None or t == title) and (author is None or WRITTEN_BY[t] == author)
    ]
    if title is None and author is None:
        words = fold(str(p.get("title_text") or p.get("author_text")))
        hits = [t for t in TITLES if words in fold(t) or words in fold(WRITTEN_BY[t])]
    if not hits:
        return DomainOutput(
            status="success",
            result={"matches": []},
            explanation=say(
                lang, "Não temos nada com isso no acervo.", "Nothing like that in the catalogue."
            ),
        )
    lines = [
        f"{t} — {WRITTEN_BY[t]}: "
        + (
            say(lang, f"{AVAILABLE[t]} na estante", f"{AVAILABLE[t]} on the shelf")
            if AVAILABLE[t]
            else say(lang, "emprestado", "on loan")
        )
        for t in hits
    ]
    return DomainOutput(
        status="success",
        result={"matches": [{"title": t, "author": WRITTEN_BY[t], "available": AVAILABLE[t]} for t in hits]},
        explanation="\n".join(lines),
    )


@service.capability(
    "list_loans",
    {"pt": "Lista os seus empréstimos", "en": "List your loans"},
    parameters={"type": "object", "properties": {"overdue": {"type": "boolean"}}},
    metadata={
        "intent_hints": {
            "keywords": ["meus empréstimos", "meus livros", "my loans", "my books", "checked out"]
        },
        "policy": {"read_only": True},
    },
)
def list_loans(intent: ExecutionIntent) -> DomainOutput:
    lang = language(intent)
    only_late = bool(intent.parameters.get("overdue"))
    items = sorted(
        (loan for loan in LOANS.values() if not only_late or (read_day(loan.due) or today()) < today()),
        key=lambda loan: loan.due,
    )
    text = "\n".join(loan.describe(lang) for loan in items) or say(lang, "Nenhum empréstimo.", "No loans.")
    return DomainOutput(
        status="success", result={"loans": [asdict(loan) for loan in items]}, explanation=text
    )


service.add_goal(
    {
        "goal": "RENEW_LOAN",
        "description": {
            "pt": "Renovar o empréstimo de um livro da biblioteca",
            "en": "Renew a library book loan",
        },
        "entities_schema": {
            "book_text": {
                "type": "string",
                "required": True,
                "description": {"pt": "O livro", "en": "The book"},
                "lookup": TITLE_LOOKUP,
            }
        },
        "capabilities": ["renew_loan"],
        "examples": [
            ex("renova o Dom Casmurro pra mim", book_text="Dom Casmurro"),
            ex("preciso de mais prazo pro Sapiens, dá pra renovar?", book_text="Sapiens"),
            ex("quero renovar o empréstimo do Torto Arado", book_text="Torto Arado"),
            ex("estende o prazo do pequeno príncipe", book_text="pequeno príncipe"),
            ex("renew Sapiens please", book_text="Sapiens"),
            ex("can I extend my loan of The Little Prince?", book_text="The Little Prince"),
            ex("I need more time with Dom Casmurro, renew it", book_text="Dom Casmurro"),
        ],
    }
)
service.add_goal(
    {
        "goal": "SEARCH_CATALOG",
        "description": {
            "pt": "Procurar um livro no acervo da biblioteca",
            "en": "Search the library catalogue",
        },
        "entities_schema": {
            "title_text": {
                "type": "string",
                "description": {"pt": "O título", "en": "The title"},
                "lookup": TITLE_LOOKUP,
            },
            "author_text": {
                "type": "string",
                "description": {"pt": "O autor", "en": "The author"},
                "lookup": lookup_spec(AUTHORS),
            },
        },
        "required_one_of": [["title_text", "author_text"]],
        "capabilities": ["search_catalog"],
        "examples": [
            ex("vocês têm O Alquimista?", title_text="O Alquimista"),
            ex("tem algum livro da Clarice Lispector no acervo?", author_text="Clarice Lispector"),
            ex("procura Cem Anos de Solidão no catálogo", title_text="Cem Anos de Solidão"),
            ex("quais livros do Machado de Assis vocês têm?", author_text="Machado de Assis"),
            ex("do you have Pride and Prejudice?", title_text="Pride and Prejudice"),
            ex("search the catalogue for books by Harari", author_text="Harari"),
            ex("is Grande Sertão available?", title_text="Grande Sertão"),
        ],
    }
)
service.add_goal(
    {
        "goal": "LIST_LOANS",
        "description": {"pt": "Os livros que você pegou emprestados", "en": "The books you have on loan"},
        "entities_schema": {
            "overdue": {
                "type": "boolean",
                "description": {"pt": "Só os atrasados", "en": "Only the overdue ones"},
                "synonyms": {"true": ["atrasado", "atrasados", "em atraso", "vencidos", "overdue"]},
            }
        },
        "capabilities": ["list_loans"],
        "examples": [
            ex("quais livros estão comigo?"),
            ex("meus empréstimos da biblioteca"),
            ex("tenho algum livro atrasado?", overdue=True),
            ex("what books do I have checked out?"),
            ex("list my library loans"),
            ex("any overdue books?", overdue=True),
        ],
    }
)

if __name__ == "__main__":
    serve(service)
