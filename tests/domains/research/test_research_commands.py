"""Commands inside a research conversation (versions, compare, restart, approve) in both languages,
comparisons that name only real differences, and hints that fit the idea's field (issue 13)."""

from __future__ import annotations

import httpx
import pytest

from domains.research.analysis import evaluate, find_elements, strip_meta
from domains.research.fields import field_of
from domains.research.replies import interpret
from domains.research.service import ResearchDomain
from domains.research.text import Lang
from domains.research.versions import compare, render_compare
from tests.domains.research.conftest import conversation

#: Words of the software examples that must not be offered for an idea from another field.
SOFTWARE_WORDS = ("devs", "developers", "sprints", "cascata", "waterfall", "entrega", "delivery")


@pytest.mark.parametrize(
    ("answer", "action", "versions"),
    [
        ("quais versões da hipótese temos?", "versions", None),
        ("me mostra as versões", "versions", None),
        ("what versions do we have?", "versions", None),
        ("show me the history", "versions", None),
        ("compare as versões", "compare", None),
        ("o que mudou entre as versões?", "compare", None),
        ("qual a diferença entre a v1 e a v3?", "compare", (1, 3)),
        ("compare the versions", "compare", None),
        ("what changed between version 1 and version 2?", "compare", (1, 2)),
        ("reiniciar a pesquisa", "restart", None),
        ("vamos começar do zero", "restart", None),
        ("restart the research", "restart", None),
        ("aprovar", "finish", None),
        ("pode aprovar", "finish", None),
        ("aprovo a V1", "finish", (1, 1)),
        ("approve", "finish", None),
        ("I approve version 2", "finish", (2, 2)),
    ],
)
def test_commands_are_recognised(answer: str, action: str, versions: tuple[int, int] | None) -> None:
    reply = interpret(answer)
    assert (reply.action, reply.versions) == (action, versions)


@pytest.mark.parametrize(
    "answer",
    [
        "em estudantes universitários, medido por um teste de memória",
        "comparado a um grupo placebo",
        "comparação com um grupo controle durante 4 semanas",
        "compared with a placebo group",
        "em equipes que usam versões antigas do Java",
        "in adults aged 18 to 30, measured over 4 weeks",
    ],
)
def test_details_stay_refinements(answer: str) -> None:
    reply = interpret(answer)
    assert reply.action == "refine" and reply.text == answer


def _version(number: int, question: str, status: str, aspects: list[str]) -> dict[str, object]:
    improvements = [{"aspect": a} for a in aspects]
    feedback = {"status": status, "improvements": improvements}
    return {"version": number, "question": question, "feedback": feedback}


def test_compare_reports_only_real_differences() -> None:
    versions = [
        _version(1, "Em que medida café melhora a memória?", "needs_refinement", ["população", "métricas"]),
        _version(2, "Em que medida Café melhora a memória, em estudantes?", "needs_refinement", ["métricas"]),
        _version(3, "Cafeína melhora a memória em estudantes", "needs_refinement", ["métricas"]),
    ]
    moved_punctuation = compare(versions, 1, 2)
    # "memória?" → "memória," and "café" → "Café" are not changes; the population is
    assert moved_punctuation["question"]["added"] == ["em estudantes"]
    assert moved_punctuation["question"]["removed"] == []
    text = render_compare(moved_punctuation, "pt")
    assert "Acrescentado: em estudantes" in text
    assert "Removido" not in text
    # a real removal is still reported
    rewritten = compare(versions, 2, 3)
    assert rewritten["question"]["removed"] == ["Em que medida Café"]
    assert rewritten["question"]["added"] == ["Cafeína"]
    same = render_compare(compare(versions, 2, 2), "en")
    assert "The question's wording is the same in both versions." in same
    assert "Added" not in same and "Removed" not in same


@pytest.mark.parametrize(
    ("idea", "field"),
    [
        ("Café melhora a memória de curto prazo", "health"),
        ("sleep deprivation reduces reaction time in drivers", "health"),
        ("aulas com projetos melhoram as notas dos alunos", "education"),
        ("Método incremental é mais rápido", "software"),
        ("vitrines iluminadas aumentam as vendas", "general"),
    ],
)
def test_field_of_an_idea(idea: str, field: str) -> None:
    assert field_of(idea) == field


@pytest.mark.parametrize(
    ("question", "lang", "expected"),
    [
        ("Em que medida café melhora a memória de curto prazo?", "pt", ("placebo", "semanas", "adultos")),
        ("To what extent does music improve focus?", "en", ("placebo", "weeks", "adults")),
    ],
)
def test_hints_fit_a_health_idea(question: str, lang: Lang, expected: tuple[str, ...]) -> None:
    out = evaluate(question, lang)
    assert out["status"] == "needs_refinement"
    hints = " ".join(i["suggestion"] for i in out["improvements"])
    for word in expected:
        assert word in hints
    for word in SOFTWARE_WORDS:
        assert word not in hints


def test_software_ideas_keep_software_hints() -> None:
    out = evaluate("Como método incremental impacta a velocidade?", "pt")
    hints = " ".join(i["suggestion"] for i in out["improvements"])
    assert "equipes de 2-5 devs" in hints and "sprints" in hints


def test_english_lead_ins_are_dropped() -> None:
    assert strip_meta("help me turn this into a research hypothesis: music improves focus") == (
        "music improves focus"
    )
    assert strip_meta("tenho uma ideia de pesquisa: café melhora a memória") == "café melhora a memória"
    # a colon inside the idea itself stays
    assert strip_meta("café: melhora a memória") == "café: melhora a memória"


async def test_commands_inside_a_portuguese_session(
    research: tuple[ResearchDomain, httpx.AsyncClient],
) -> None:
    _, client = research
    say = conversation(client, "cmd-pt")
    await say("research_start", "tenho uma ideia de pesquisa: café melhora a memória de curto prazo")
    second = await say("research_reply", "em estudantes universitários")
    assert second["result"]["versions_count"] == 2
    assert "placebo" in second["explanation"] and "devs" not in second["explanation"]

    listed = await say("research_reply", "quais versões da hipótese temos?")
    assert listed["status"] == "clarification"
    assert listed["result"]["versions_count"] == 2  # listing makes no version
    assert "Versões da hipótese:" in listed["explanation"]
    assert (
        'V1 (precisa de refinamento): "Em que medida café melhora a memória de curto prazo?"'
        in (listed["explanation"])
    )

    compared = await say("research_reply", "compare as versões")
    assert compared["result"]["versions_count"] == 2
    text = compared["explanation"]
    assert "Comparação V1 → V2:" in text
    assert "Acrescentado: em estudantes universitários" in text
    assert "Removido" not in text
    assert "Lacunas resolvidas: população" in text

    details = await say("research_reply", "refinar")
    assert "durante 4 semanas" in details["explanation"] and "sprints" not in details["explanation"]

    events_before = (await client.get("/sessions/cmd-pt/events")).json()["count"]
    restarted = await say("research_reply", "reiniciar a pesquisa")
    assert restarted["status"] == "clarification"
    assert restarted["result"]["stage"] == "awaiting_idea"
    assert restarted["result"]["versions_count"] == 0
    assert restarted["metadata"]["restarted"] is True
    assert "Pesquisa reiniciada" in restarted["explanation"]
    assert "vamos refinar" not in restarted["explanation"]
    snapshot = (await client.get("/sessions/cmd-pt/snapshot")).json()["agents"]
    assert set(snapshot) == {"orchestrator"}  # the old memory is gone; only the question asked
    events = (await client.get("/sessions/cmd-pt/events")).json()
    assert events["count"] == events_before + 1  # the history is kept

    new = await say("research_reply", "Exercício melhora o humor em idosos")
    assert new["result"]["latest_version"]["version"] == 1
    assert new["result"]["latest_version"]["question"] == "Exercício melhora o humor em idosos"
    done = await say("research_reply", "aprovar")
    assert done["status"] == "success"
    assert done["result"]["final_hypothesis"]["question"] == "Exercício melhora o humor em idosos"


async def test_commands_inside_an_english_session(
    research: tuple[ResearchDomain, httpx.AsyncClient],
) -> None:
    _, client = research
    say = conversation(client, "cmd-en")
    first = await say("research_start", "help me turn this into a research hypothesis: music improves focus")
    assert first["result"]["latest_version"]["question"] == "To what extent does music improve focus?"
    assert "placebo" in first["explanation"] and "developers" not in first["explanation"]
    await say("research_reply", "in adults aged 18 to 30")
    listed = await say("research_reply", "what versions do we have?")
    assert "Hypothesis versions:" in listed["explanation"] and listed["result"]["versions_count"] == 2
    compared = await say("research_reply", "compare the versions")
    assert "Comparison V1 → V2:" in compared["explanation"]
    assert "Added: in adults aged 18 to 30" in compared["explanation"]
    assert "Removed" not in compared["explanation"]
    done = await say("research_reply", "approve V1")
    assert done["status"] == "success"
    assert done["result"]["final_hypothesis"]["version"] == 1
    assert (
        'Final hypothesis (V1, needs refinement): "To what extent does music improve focus?"'
        in (done["explanation"])
    )


async def test_restart_in_english_and_compare_outside_a_conversation(
    research: tuple[ResearchDomain, httpx.AsyncClient],
) -> None:
    _, client = research
    say = conversation(client, "cmd-en-2")
    await say("research_start", "pair programming is faster")
    only_one = await say("research_versions", "compare the versions")
    assert "There is only V1" in only_one["explanation"]
    restarted = await say("research_reply", "restart the research")
    assert "Research restarted" in restarted["explanation"]
    assert restarted["result"]["stage"] == "awaiting_idea"
    await say("research_reply", "remote work increases developer productivity")
    await say("research_reply", "in teams of 5 developers")
    await say("research_reply", "approve")
    # the capability (the conversation is over): "compare the versions" compares the first and latest
    compared = await say("research_versions", "compare the versions")
    assert compared["status"] == "success"
    assert compared["result"]["diff"]["question"]["added"] == ["in teams of 5 developers"]
    assert compared["result"]["diff"]["question"]["removed"] == []


@pytest.mark.parametrize(
    ("idea", "population"),
    [
        ("Sleep deprivation reduces reaction time in drivers", "drivers"),
        ("Exercício melhora o humor em idosos", "idosos"),
        ("Cafeína melhora a memória em pessoas de 18 a 30 anos", "de 18 a 30 anos"),
        ("caffeine improves recall in people aged 18 to 30", "aged 18"),
    ],
)
def test_populations_outside_software_are_found(idea: str, population: str) -> None:
    out = evaluate(idea, "en")
    assert "population" not in [i["aspect"] for i in out["improvements"]]
    assert find_elements(idea).population == population


async def test_a_short_command_while_waiting_for_the_idea_is_a_command(
    research: tuple[ResearchDomain, httpx.AsyncClient],
) -> None:
    _, client = research
    say = conversation(client, "cmd-await")
    await say("research_start", "pair programming is faster")
    await say("research_reply", "restart the research")
    listed = await say("research_reply", "list versions")
    assert listed["result"]["stage"] == "awaiting_idea"
    assert "There are no hypothesis versions yet." in listed["explanation"]
    done = await say("research_reply", "approve")
    assert done["status"] == "success"
    assert "Conversation finished without a hypothesis" in done["explanation"]
