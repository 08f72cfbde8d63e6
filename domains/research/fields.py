"""Which field an idea belongs to, so the hints the facilitator gives use that field's examples.

A coffee-and-memory idea should be asked about participants, a memory test and a duration, not
about teams of developers and sprints. The field is read from the idea's words (both languages,
accents folded); an idea that names no known field gets neutral hints.

>>> field_of("Café melhora a memória de curto prazo em estudantes")
'health'
>>> field_of("I have an idea: sleep deprivation reduces reaction time in drivers")
'health'
>>> field_of("Método incremental é mais rápido"), field_of("TDD melhora a qualidade do código")
('software', 'software')
>>> field_of("O uso de IA melhora o aprendizado dos estudantes")
'education'
>>> field_of("Lojas com vitrines iluminadas vendem mais")
'general'
"""

from __future__ import annotations

import re
from typing import Literal

from domains.research.text import fold

Field = Literal["software", "health", "education", "general"]

#: The fields with their own hints, in the order a tie is settled (the more specific first).
FIELDS: tuple[Field, ...] = ("health", "education", "software")


def _words(*alternatives: str) -> re.Pattern[str]:
    return re.compile(r"\b(?:" + "|".join(alternatives) + r")\b")


_VOCABULARY: dict[Field, re.Pattern[str]] = {
    "health": _words(
        r"cafe",
        r"cafeina",
        r"coffee",
        r"caffeine",
        r"memoria",
        r"memory",
        r"sono",
        r"dormir",
        r"sleep",
        r"insonia",
        r"insomnia",
        r"ansiedade",
        r"anxiety",
        r"estresse",
        r"stress",
        r"depressao",
        r"depression",
        r"humor",
        r"mood",
        r"exercicios?(?: fisicos?)?",
        r"exercise",
        r"atividade fisica",
        r"physical activity",
        r"dietas?",
        r"diet",
        r"alimentacao",
        r"nutrition",
        r"saude(?: mental)?",
        r"(?:mental )?health",
        r"pacientes",
        r"patients",
        r"tempo de reacao",
        r"reaction times?",
        r"atencao",
        r"attention",
        r"foco",
        r"focus",
        r"concentracao",
        r"concentration",
        r"meditacao",
        r"meditation",
        r"musica",
        r"music",
        r"cognitiv[oa]s?",
        r"cognitive",
        r"cognicao",
        r"cognition",
        r"bem-estar",
        r"well-?being",
        r"motoristas",
        r"drivers",
        r"fadiga",
        r"fatigue",
        r"dor",
        r"pain",
        r"pressao arterial",
        r"blood pressure",
        r"idosos",
        r"elderly",
        r"older adults",
        r"placebo",
        r"tabagismo",
        r"smoking",
        r"alcool",
        r"alcohol",
        r"obesidade",
        r"obesity",
        r"tempo de tela",
        r"screen time",
        r"privacao",
        r"deprivation",
    ),
    "education": _words(
        r"estudantes",
        r"alunos?",
        r"alunas?",
        r"students?",
        r"pupils",
        r"ensino",
        r"teaching",
        r"aprendizagem",
        r"aprendizado",
        r"learning",
        r"escolas?",
        r"schools?",
        r"sala de aula",
        r"classrooms?",
        r"professor(?:es|as)?",
        r"teachers?",
        r"notas",
        r"grades",
        r"provas",
        r"exams?",
        r"leitura",
        r"reading",
        r"universidades?",
        r"universit(?:y|ies)",
        r"graduacao",
        r"undergraduates?",
        r"curriculo",
        r"curriculum",
    ),
    "software": _words(
        r"software",
        r"codigo",
        r"code",
        r"devs?",
        r"desenvolvedor(?:es|as)?",
        r"developers?",
        r"desenvolvimento",
        r"programacao(?: em par)?",
        r"programming",
        r"programador(?:es|as)?",
        r"programmers?",
        r"tdd",
        r"bdd",
        r"scrum",
        r"kanban",
        r"agil",
        r"ageis",
        r"agile",
        r"sprints?",
        r"bugs?",
        r"defeitos",
        r"defects",
        r"deploys?",
        r"metodo incremental",
        r"incremental",
        r"cascata",
        r"waterfall",
        r"refatoracao",
        r"refactoring",
        r"revisao de codigo",
        r"code reviews?",
        r"pair programming",
        r"testes automatizados",
        r"automated tests",
        r"entregas?",
        r"delivery",
    ),
}


def field_of(text: str) -> Field:
    """The field whose words ``text`` names most (ties: :data:`FIELDS` order), else ``general``."""
    folded = fold(text)
    counts = {name: len(_VOCABULARY[name].findall(folded)) for name in FIELDS}
    best = max(FIELDS, key=lambda name: counts[name])  # max keeps the first of equals
    return best if counts[best] else "general"
