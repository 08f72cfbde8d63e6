"""The core's own words (gateway, dialogue, planner, execution, orchestrator), by message id.

Ids are ``<who says it>.<what>``; parameters are ``str.format`` fields (``{reason!c}`` puts a
sentence inside another, see :class:`~shared.i18n.catalog.Catalog`). Domains keep their texts in
a :class:`~shared.i18n.catalog.Catalog` of their own.

>>> t("run.stagnated", "en", reason="I could not find 'Aple'.")
"I stopped: the new plan failed the same way (I could not find 'Aple')."
>>> t("route.confidence_gate", "pt", confidence=0.42)
'Não tenho certeza se entendi o pedido (confiança 42%). Pode confirmar?'
"""

from __future__ import annotations

from typing import Any

from shared.i18n.catalog import Catalog

CORE = Catalog(
    {
        # the run's final answer (execution)
        "run.done": {"pt": "Pronto.", "en": "Done."},
        "run.not_completed": {
            "pt": "Não consegui concluir o pedido.",
            "en": "I could not complete the request.",
        },
        "run.failed": {
            "pt": "Não consegui concluir o pedido: {reason}",
            "en": "I could not complete the request: {reason}",
        },
        "run.max_replans_exceeded": {
            "pt": "Não consegui concluir o pedido após {replans} replanejamento(s): {reason}",
            "en": "I could not complete the request after {replans} replanning attempt(s): {reason}",
        },
        "run.stagnated": {
            "pt": "Parei: o novo plano falhou do mesmo jeito ({reason!c}).",
            "en": "I stopped: the new plan failed the same way ({reason!c}).",
        },
        "run.timeout": {
            "pt": "O pedido demorou demais e foi interrompido ({reason!c}).",
            "en": "The request took too long and was stopped ({reason!c}).",
        },
        "run.deadlock": {
            "pt": "O plano não pode ser executado: {reason!c}.",
            "en": "The plan cannot run: {reason!c}.",
        },
        "run.policy": {
            "pt": "O pedido foi interrompido por um limite de execução: {reason!c}.",
            "en": "The request was stopped by an execution limit: {reason!c}.",
        },
        "run.planning_error": {
            "pt": "Encontrei um erro ao planejar o pedido: {reason}",
            "en": "I encountered an error while planning the request: {reason}",
        },
        "run.could_not_process": {
            "pt": "Não consegui processar o pedido.",
            "en": "I could not process the request.",
        },
        # a combined answer that misses parts (execution.synthesis)
        "synthesis.gaps_header": {"pt": "Não consegui responder:", "en": "Could not answer:"},
        "synthesis.gap": {
            "pt": "- passo {step} ({capability}): {status} {reason}",
            "en": "- step {step} ({capability}): {status} {reason}",
        },
        # routing and calling a domain (orchestrator)
        "route.confidence_gate": {
            "pt": "Não tenho certeza se entendi o pedido (confiança {confidence:.0%}). Pode confirmar?",
            "en": "I'm not sure I understood the request (confidence {confidence:.0%}). Can you confirm?",
        },
        "route.no_domain": {
            "pt": "Nenhum domínio registrado oferece '{capability}'.",
            "en": "No registered domain offers '{capability}'.",
        },
        "domain.unavailable": {
            "pt": "O domínio '{domain}' está indisponível no momento ({reason!c}).",
            "en": "The '{domain}' domain is unavailable right now ({reason!c}).",
        },
        "domain.invalid_answer": {
            "pt": "O domínio '{domain}' respondeu de forma inválida ({reason!c}).",
            "en": "The '{domain}' domain gave an invalid answer ({reason!c}).",
        },
        # the dialogue: confirmations and questions to the person
        "dialogue.confirm_one": {
            "pt": "Só para confirmar: você quer {description}? (sim/não)",
            "en": "Just to confirm: do you want {description}? (yes/no)",
        },
        "dialogue.did_you_mean": {
            "pt": "Não tenho certeza se entendi. Você quis dizer {options}?",
            "en": "I'm not sure I understood. Did you mean {options}?",
        },
        "dialogue.declined": {
            "pt": "Tudo bem. O que você gostaria de fazer?",
            "en": "All right. What would you like to do?",
        },
        "dialogue.more_options": {"pt": "… (+{more} mais)", "en": "… (+{more} more)"},
        "dialogue.reply_with_option": {
            "pt": "Responda com o número ou o nome.",
            "en": "Reply with the number or the name.",
        },
        # words that join a list ("(1) x ou (2) y", "Apple e Vale")
        "word.or": {"pt": "ou", "en": "or"},
        "word.and": {"pt": "e", "en": "and"},
        # a language's name, for prompts that ask a model to answer in it
        "language.pt": {"pt": "português do Brasil", "en": "Brazilian Portuguese"},
        "language.en": {"pt": "inglês", "en": "English"},
    }
)


def t(message_id: str, language: str, /, **params: Any) -> str:
    """The core's message ``message_id`` in ``language``, filled in with ``params``."""
    return CORE.t(message_id, language, **params)
