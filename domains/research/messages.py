"""What the facilitator (orchestrator) says, in Brazilian Portuguese or English.

The texts say how each analysis was made: rule-based offline analysis is named as such, an LLM
answer names the model, and a fallback says why the LLM was not used.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from domains.research.text import Lang
from domains.research.versions import STATUS_LABEL

OPTIONS: dict[Lang, list[dict[str, str]]] = {
    "pt": [
        {
            "action": "refine",
            "say": "refinar: <detalhes>",
            "label": "refinar com novos detalhes (gera a próxima versão)",
        },
        {"action": "research", "say": "pesquisar", "label": "pesquisar a literatura sobre o tema"},
        {"action": "new_idea", "say": "nova ideia: <texto>", "label": "mudar de direção com outra ideia"},
        {
            "action": "versions",
            "say": "listar versões | comparar v1 e v2",
            "label": "ver ou comparar as versões",
        },
        {"action": "finish", "say": "aprovar | encerrar", "label": "encerrar com a versão atual"},
    ],
    "en": [
        {
            "action": "refine",
            "say": "refine: <details>",
            "label": "refine with new details (makes the next version)",
        },
        {"action": "research", "say": "research literature", "label": "search the literature on the topic"},
        {"action": "new_idea", "say": "new idea: <text>", "label": "change direction with another idea"},
        {
            "action": "versions",
            "say": "list versions | compare v1 and v2",
            "label": "see or compare the versions",
        },
        {"action": "finish", "say": "approve | finish", "label": "finish with the current version"},
    ],
}


def options(lang: Lang) -> list[dict[str, str]]:
    return [dict(o) for o in OPTIONS[lang]]


def render_options(lang: Lang) -> str:
    head = "O que você quer fazer agora?" if lang == "pt" else "What would you like to do now?"
    return head + "\n" + "\n".join(f"• {o['say']} — {o['label']}" for o in OPTIONS[lang])


def mode_note(mode: str, lang: Lang, *, model: str | None = None, reason: str | None = None) -> str:
    if mode == "llm":
        return (
            f"(Análise feita pelo LLM {model or ''}.)"
            if lang == "pt"
            else f"(Analysis by the LLM {model or ''}.)"
        )
    if mode == "offline_fallback":
        return (
            f"(O LLM não deu uma resposta válida — {reason}; usei a análise por regras, modo offline.)"
            if lang == "pt"
            else f"(The LLM gave no valid answer — {reason}; I used the rule-based offline analysis.)"
        )
    return (
        "(Análise por regras, modo offline sem LLM: verifico população, variáveis, métrica, comparação "
        "e efeito mensurável.)"
        if lang == "pt"
        else "(Rule-based analysis, offline without an LLM: I check population, variables, metric, "
        "comparison and measurable effect.)"
    )


def present_feedback(version: Mapping[str, Any], lang: Lang) -> str:
    """The methodologist's feedback on ``version`` and the options (the facilitator's question)."""
    fb = version["feedback"]
    status = fb["status"]
    label = STATUS_LABEL[lang].get(status, status)
    n = version["version"]
    lines: list[str] = []
    if lang == "pt":
        lines.append(f"O Metodologista avaliou a V{n}: {label}.")
        lines.append(f'V{n}: "{version["question"]}"')
        lines.append(f"Justificativa: {version.get('justification', '')}")
        if fb["improvements"]:
            lines.append("O que falta:")
    else:
        lines.append(f"The Methodologist assessed V{n}: {label}.")
        lines.append(f'V{n}: "{version["question"]}"')
        lines.append(f"Justification: {version.get('justification', '')}")
        if fb["improvements"]:
            lines.append("What is missing:")
    for i, imp in enumerate(fb["improvements"], 1):
        lines.append(f"{i}. {imp['aspect']}: {imp['gap']} {imp['suggestion']}")
    lines.append(
        mode_note(
            version.get("mode", "offline"),
            lang,
            model=version.get("model"),
            reason=version.get("fallback_reason"),
        )
    )
    if status == "approved":
        lines.append(
            "A hipótese está pronta. Você pode encerrar com ela ou continuar refinando."
            if lang == "pt"
            else "The hypothesis is ready. You can finish with it or keep refining."
        )
    lines.append("")
    lines.append(render_options(lang))
    return "\n".join(lines)


def ask_idea(lang: Lang) -> str:
    return (
        'Vamos lá! Me conta a sua ideia ou observação — por exemplo: "Método incremental é mais rápido". '
        "Eu estruturo uma questão de pesquisa e o Metodologista avalia se ela é testável."
        if lang == "pt"
        else 'Let\'s do it! Tell me your idea or observation — e.g. "pair programming is faster". '
        "I will structure a research question and the Methodologist will check whether it is testable."
    )


def ask_details(clarifications: Mapping[str, Any], lang: Lang) -> str:
    questions = [str(q) for q in clarifications.values()] if clarifications else []
    if lang == "pt":
        head = "Claro, vamos refinar. Me diga os detalhes"
        body = (":\n" + "\n".join(f"{i}. {q}" for i, q in enumerate(questions, 1))) if questions else "."
        return head + body + '\n(Ex.: "em equipes de 2-5 devs, medido por sprints".)'
    head = "Sure, let's refine. Tell me the details"
    body = (":\n" + "\n".join(f"{i}. {q}" for i, q in enumerate(questions, 1))) if questions else "."
    return head + body + '\n(E.g. "in teams of 2-5 developers, measured in sprints".)'


def research_unavailable(lang: Lang) -> str:
    return (
        "O agente de pesquisa bibliográfica (Pesquisador) ainda não está disponível neste serviço — ele "
        "está no backlog e não há busca de literatura offline. Sua hipótese e as versões continuam "
        "guardadas.\n\n" + render_options(lang)
        if lang == "pt"
        else "The literature-search agent (Researcher) is not available in this service yet — it is on the "
        "backlog and there is no offline literature search. Your hypothesis and its versions are kept.\n\n"
        + render_options(lang)
    )


def ask_new_idea(lang: Lang) -> str:
    return (
        "Tudo bem, vamos mudar de direção. Qual é a nova ideia?"
        if lang == "pt"
        else "All right, let's change direction. What is the new idea?"
    )


def finished(versions: Sequence[Mapping[str, Any]], lang: Lang) -> str:
    if not versions:
        return (
            "Conversa encerrada sem hipótese (nenhuma versão foi avaliada)."
            if lang == "pt"
            else "Conversation finished without a hypothesis (no version was assessed)."
        )
    last = versions[-1]
    labels = STATUS_LABEL[lang]
    status = labels.get(last["feedback"]["status"], last["feedback"]["status"])
    trail = " → ".join(f"V{v['version']} ({labels.get(v['feedback']['status'])})" for v in versions)
    if lang == "pt":
        return f'Hipótese final (V{last["version"]}, {status}): "{last["question"]}"\nHistórico: {trail}'
    return f'Final hypothesis (V{last["version"]}, {status}): "{last["question"]}"\nHistory: {trail}'


def no_versions_to_compare(lang: Lang, missing: int) -> str:
    return f"Não existe a V{missing}." if lang == "pt" else f"There is no V{missing}."
