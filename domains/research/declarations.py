"""What the research manifest declares: capabilities, their parameters and the goals people use.

The core learns about research only from this data. The examples are many and varied on purpose:
the embedded TF-IDF intent classifier learns the goal from them (hipótese, pesquisa, metodologia,
questão de pesquisa, hypothesis, research question...), including bare observations such as
"Método incremental é mais rápido".
"""

from __future__ import annotations

from typing import Any

#: Starting or replying runs agents (and maybe an LLM) and writes a new version: never retried blindly.
CONVERSATION_POLICY: dict[str, Any] = {"idempotent": False, "attempts": 1, "timeout_s": 120.0}

START_PARAMETERS: dict[str, Any] = {
    "type": "object",
    "properties": {
        "idea_text": {
            "type": "string",
            "description": "The idea, observation or hypothesis as the person wrote it "
            "(the original query is used when it says more).",
        },
    },
}

REPLY_PARAMETERS: dict[str, Any] = {
    "type": "object",
    "properties": {
        "reply": {
            "type": "string",
            "description": "The person's answer to the facilitator: details to refine, 'pesquisar', "
            "'nova ideia: ...', 'listar versões', 'comparar v1 e v2', 'aprovar' / 'encerrar'.",
        }
    },
}

VERSIONS_PARAMETERS: dict[str, Any] = {
    "type": "object",
    "properties": {
        "a": {"type": "integer", "minimum": 1, "description": "First version to compare."},
        "b": {"type": "integer", "minimum": 1, "description": "Second version to compare."},
        "versions_text": {
            "type": "string",
            "description": "e.g. 'comparar v1 e v2' (parsed when a/b absent).",
        },
    },
}

RESET_PARAMETERS: dict[str, Any] = {"type": "object", "properties": {}}


def _ex(text: str, **entities: Any) -> dict[str, Any]:
    return {"text": text, "entities": entities} if entities else {"text": text}


RESEARCH_HYPOTHESIS: dict[str, Any] = {
    "goal": "RESEARCH_HYPOTHESIS",
    "description": {
        "pt": "Transformar uma ideia ou observação em hipótese ou questão de pesquisa testável, com "
        "avaliação metodológica",
        "en": "Turn an idea or observation into a testable research hypothesis or question, with a "
        "methodological review",
    },
    "entities_schema": {
        "idea_text": {
            "type": "string",
            "description": {
                "pt": "A ideia, observação ou hipótese a pesquisar",
                "en": "The idea, observation or hypothesis to research",
            },
        }
    },
    "capabilities": ["research_start"],
    "examples": [
        _ex("Método incremental é mais rápido", idea_text="Método incremental é mais rápido"),
        _ex(
            "Método X reduz tempo em 30% em equipes de 2-5 devs",
            idea_text="Método X reduz tempo em 30% em equipes de 2-5 devs",
        ),
        _ex("quero testar uma hipótese"),
        _ex("tenho uma hipótese de pesquisa para validar"),
        _ex("me ajuda a formular uma questão de pesquisa"),
        _ex("avalie a metodologia da minha hipótese"),
        _ex(
            "hipótese: programação em par reduz defeitos em 20%",
            idea_text="programação em par reduz defeitos em 20%",
        ),
        _ex("TDD melhora a qualidade do código", idea_text="TDD melhora a qualidade do código"),
        _ex(
            "revisão de código diminui bugs em produção",
            idea_text="revisão de código diminui bugs em produção",
        ),
        _ex(
            "Scrum aumenta a produtividade das equipes", idea_text="Scrum aumenta a produtividade das equipes"
        ),
        _ex("metodologia ágil é melhor que cascata", idea_text="metodologia ágil é melhor que cascata"),
        _ex("observei que estudantes aprendem mais com projetos práticos"),
        _ex("Kanban é mais eficiente que Scrum", idea_text="Kanban é mais eficiente que Scrum"),
        _ex("Método ágil é mais rápido que o cascata", idea_text="Método ágil é mais rápido que o cascata"),
        _ex("Método Y aumenta a produtividade em 20% em times de 3 devs"),
        _ex("Técnica Z reduz erros em 15% em alunos de graduação"),
        _ex("Abordagem incremental reduz o tempo de entrega em equipes pequenas"),
        _ex("O uso de IA melhora o aprendizado dos estudantes"),
        _ex("Programação em par é mais lenta mas reduz defeitos"),
        _ex("minha hipótese é que reuniões diárias aumentam o engajamento"),
        _ex("acho que testes automatizados reduzem bugs: como pesquisar isso?"),
        _ex("quero validar cientificamente que o método incremental é mais rápido"),
        _ex("transformar minha observação em questão de pesquisa"),
        _ex("validar se minha hipótese é testável"),
        _ex("help me turn an observation into a research question"),
        _ex("I want to test a hypothesis"),
        _ex(
            "pair programming is faster than solo programming",
            idea_text="pair programming is faster than solo programming",
        ),
        _ex("code review reduces defects by 20% in teams of 5 developers"),
        _ex("TDD is better than testing after coding"),
        _ex("remote work increases developer productivity"),
        _ex("method X reduces delivery time by 30% in teams of 2-5 developers"),
        _ex("I noticed students learn faster with practical projects"),
        _ex("is my research hypothesis testable?"),
        _ex("evaluate the methodology of my hypothesis"),
        # ideas from fields other than software, with and without a lead-in ("I have an idea: ...")
        _ex(
            "tenho uma ideia: meditação diminui o estresse em enfermeiros",
            idea_text="meditação diminui o estresse em enfermeiros",
        ),
        _ex(
            "hipótese: ler antes de dormir melhora a qualidade do sono",
            idea_text="ler antes de dormir melhora a qualidade do sono",
        ),
        _ex("minha hipótese é que cafeína aumenta a atenção de motoristas à noite"),
        _ex("ideia de pesquisa: tempo de tela prejudica o sono de adolescentes"),
        _ex("quero transformar isto em hipótese: aulas ao ar livre melhoram as notas"),
        _ex("privação de sono piora a memória de trabalho em idosos"),
        _ex(
            "I have an idea: meditation lowers stress in nurses",
            idea_text="meditation lowers stress in nurses",
        ),
        _ex(
            "my hypothesis is that reading before bed improves sleep quality",
            idea_text="reading before bed improves sleep quality",
        ),
        _ex("I think caffeine increases alertness in night-shift workers"),
        _ex("research idea: screen time harms teenagers' sleep"),
        _ex("regular exercise improves mood in older adults"),
        _ex("I have an idea: long commutes lower job satisfaction"),
        # English lead-ins of every kind ("I think", "I believe", "what if", "here's an idea")
        _ex(
            "I think open offices reduce concentration in accountants",
            idea_text="open offices reduce concentration in accountants",
        ),
        _ex(
            "I believe music during study improves memory in children",
            idea_text="music during study improves memory in children",
        ),
        _ex(
            "what if gardening lowers anxiety in retirees?",
            idea_text="gardening lowers anxiety in retirees",
        ),
        _ex(
            "here's an idea: a phone app that reminds patients to take their pills",
            idea_text="a phone app that reminds patients to take their pills",
        ),
        _ex(
            "my theory is that shorter meetings make teams happier",
            idea_text="shorter meetings make teams happier",
        ),
        _ex("I've been thinking that cold showers improve focus", idea_text="cold showers improve focus"),
        _ex(
            "acredito que jardinagem reduz a ansiedade de aposentados",
            idea_text="jardinagem reduz a ansiedade de aposentados",
        ),
        _ex(
            "acho que home office aumenta a produtividade dos times",
            idea_text="home office aumenta a produtividade dos times",
        ),
        _ex(
            "I noticed kids sleep better after playing outside, can we research that?",
            idea_text="kids sleep better after playing outside",
        ),
        _ex(
            "e se um aplicativo lembrasse os pacientes de tomar o remédio?",
            idea_text="um aplicativo lembrasse os pacientes de tomar o remédio",
        ),
    ],
}

RESEARCH_VERSIONS: dict[str, Any] = {
    "goal": "RESEARCH_VERSIONS",
    "description": {
        "pt": "Listar ou comparar as versões da hipótese de pesquisa",
        "en": "List or compare the versions of the research hypothesis",
    },
    "entities_schema": {
        "versions_text": {
            "type": "string",
            "description": {
                "pt": "Quais versões comparar, ex.: 'v1 e v2'",
                "en": "Which versions to compare, e.g. 'v1 and v2'",
            },
        }
    },
    "capabilities": ["research_versions"],
    "examples": [
        _ex("listar versões da hipótese"),
        _ex("comparar v1 e v2 da hipótese", versions_text="v1 e v2"),
        _ex("mostre as versões da minha questão de pesquisa"),
        _ex("qual a diferença entre a versão 1 e a versão 2 da hipótese?"),
        _ex("histórico de versões da hipótese"),
        _ex("ver as versões anteriores da pesquisa"),
        _ex("compare as versões da hipótese"),
        _ex("list my hypothesis versions"),
        _ex("compare hypothesis versions 1 and 2"),
        _ex("show the history of my research question"),
        _ex("quantas versões a hipótese já teve?"),
        _ex("o que mudou entre as versões da hipótese?"),
        _ex("which hypothesis versions are there so far?"),
        _ex("what changed between my hypothesis versions?"),
    ],
}

RESEARCH_RESET: dict[str, Any] = {
    "goal": "RESEARCH_RESET",
    "description": {
        "pt": "Reiniciar a sessão de pesquisa, limpando o estado e a memória dos agentes",
        "en": "Restart the research session, clearing its state and the agents' memory",
    },
    "capabilities": ["research_reset"],
    "examples": [
        _ex("reiniciar a sessão de pesquisa"),
        _ex("resetar a conversa da hipótese"),
        _ex("limpar a memória dos agentes de pesquisa"),
        _ex("começar a pesquisa do zero"),
        _ex("apagar o estado da hipótese e recomeçar"),
        _ex("zerar a sessão de pesquisa"),
        _ex("reset my research session"),
        _ex("clear the research agents memory"),
        _ex("start the hypothesis session over from scratch"),
        _ex("wipe the research conversation state"),
        _ex("reinicie a pesquisa, quero começar de novo"),
        _ex("restart the research from the beginning"),
    ],
}

GOALS: list[dict[str, Any]] = [RESEARCH_HYPOTHESIS, RESEARCH_VERSIONS, RESEARCH_RESET]

START_METADATA: dict[str, Any] = {
    "intent_hints": {
        "keywords": [
            "hipótese",
            "pesquisa",
            "metodologia",
            "questão de pesquisa",
            "testável",
            "observação",
            "hypothesis",
            "research question",
            "methodology",
        ],
        "examples": ["quero testar uma hipótese", "help me turn an observation into a research question"],
    },
    "policy": CONVERSATION_POLICY,
    "progress": {"pt": "Analisando a ideia de pesquisa…", "en": "Working on the research idea…"},
}
REPLY_METADATA: dict[str, Any] = {
    "policy": CONVERSATION_POLICY,
    "progress": {"pt": "Analisando a sua resposta…", "en": "Working on your reply…"},
}
READ_METADATA: dict[str, Any] = {
    "policy": {"idempotent": True, "read_only": True, "attempts": 2, "timeout_s": 10.0}
}
VERSIONS_METADATA: dict[str, Any] = {
    **READ_METADATA,
    "progress": {"pt": "Consultando as versões da hipótese…", "en": "Getting the hypothesis versions…"},
}
RESET_METADATA: dict[str, Any] = {
    # clearing twice leaves what clearing once does, but it changes the research: not read_only
    "policy": {"idempotent": True, "attempts": 2, "timeout_s": 10.0},
    "progress": {"pt": "Reiniciando a pesquisa…", "en": "Resetting the research…"},
}
