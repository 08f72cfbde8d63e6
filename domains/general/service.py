"""The general domain: ``help``, ``small_talk`` and ``out_of_scope`` (role ``fallback``).

It is exempt from the confidence gate (``confidence_gate=False``): a low-confidence "oi" should
get a greeting, not a "did you mean...?". What the platform can do is read from the catalog the
caller passes in ``intent.context["catalog"]``, never from a list written here.
"""

from __future__ import annotations

from typing import Any

from domains.general.catalog import CatalogEntry, catalog_from_context, render
from domains.general.talk import KIND_SYNONYMS, KINDS, Kind, detect_kind
from sdk.service import DomainService
from shared.i18n import Catalog, as_language
from shared.models import DomainOutput, ExecutionIntent

VERSION = "1.0.0"
DOMAIN = "general"

MESSAGES = Catalog.by_language(
    {
        "pt": {
            "help_intro": (
                "Sou o assistente desta plataforma e encaminho cada pedido ao serviço certo. Posso:"
            ),
            "help_outro": "É só pedir, em português ou inglês.",
            "help_unknown": (
                "Sou o assistente desta plataforma e encaminho cada pedido ao serviço certo, "
                "mas não recebi a lista dos serviços disponíveis agora."
            ),
            "oos_intro": "Não consigo fazer isso. O que posso fazer:",
            "oos_unknown": (
                "Não consigo fazer isso, e não recebi a lista do que está disponível agora. "
                'Pergunte "o que você faz?" para ver as opções.'
            ),
            "oos_empty": "Não consigo fazer isso: nenhum serviço está registrado no momento.",
            "GREETING": 'Olá! Como posso ajudar? Pergunte "o que você faz?" para ver o que sei fazer.',
            "THANKS": "De nada! Se precisar de mais alguma coisa, é só falar.",
            "GOODBYE": "Até mais! Quando precisar, estou por aqui.",
            "WELLBEING": "Tudo bem por aqui, obrigado! Em que posso ajudar?",
        },
        "en": {
            "help_intro": "I'm this platform's assistant and route each request to the right service. I can:",
            "help_outro": "Just ask, in English or Portuguese.",
            "help_unknown": (
                "I'm this platform's assistant and route each request to the right service, "
                "but I did not receive the list of available services just now."
            ),
            "oos_intro": "I can't do that. Here is what I can do:",
            "oos_unknown": (
                "I can't do that, and I did not receive the list of what is available right now. "
                'Ask "what can you do?" to see the options.'
            ),
            "oos_empty": "I can't do that: no service is registered at the moment.",
            "GREETING": 'Hi! How can I help? Ask "what can you do?" to see what I can do.',
            "THANKS": "You're welcome! If you need anything else, just ask.",
            "GOODBYE": "Bye! I'm here whenever you need me.",
            "WELLBEING": "All good here, thanks! How can I help?",
        },
    }
)


def _language(intent: ExecutionIntent) -> str:
    return as_language(intent.context.get("language"))


def _say(intent: ExecutionIntent, message_id: str) -> str:
    """``message_id`` in the language the caller asks for ("en-US" is English)."""
    return MESSAGES.t(message_id, _language(intent))


def _goals(entries: list[CatalogEntry] | None) -> list[dict[str, Any]]:
    return [e.model_dump() for e in entries or [] if e.domain != DOMAIN]


def help_(intent: ExecutionIntent) -> DomainOutput:
    entries = catalog_from_context(intent.context)
    lines = render(entries or [], _language(intent), exclude_domain=DOMAIN)
    if entries is None or not lines:
        explanation = _say(intent, "help_unknown")
    else:
        explanation = "\n".join([_say(intent, "help_intro"), *lines, _say(intent, "help_outro")])
    return DomainOutput(
        status="success",
        result={"goals": _goals(entries), "catalog_received": entries is not None},
        explanation=explanation,
    )


def small_talk(intent: ExecutionIntent) -> DomainOutput:
    given = intent.parameters.get("kind")
    kind: Kind = given if given in KINDS else detect_kind(intent.original_query)
    return DomainOutput(status="success", result={"kind": kind}, explanation=_say(intent, kind))


def out_of_scope(intent: ExecutionIntent) -> DomainOutput:
    entries = catalog_from_context(intent.context)
    lines = render(entries or [], _language(intent), exclude_domain=DOMAIN)
    if entries is None:
        explanation = _say(intent, "oos_unknown")
    elif not lines:
        explanation = _say(intent, "oos_empty")
    else:
        explanation = "\n".join([_say(intent, "oos_intro"), *lines])
    return DomainOutput(
        status="success",
        result={"query": intent.original_query, "supported_goals": _goals(entries)},
        explanation=explanation,
        metadata={"out_of_scope": True},
    )


HELP_GOAL: dict[str, Any] = {
    "goal": "HELP",
    "description": {
        "pt": "Ajuda: o que a plataforma sabe fazer e como pedir",
        "en": "Help: what the platform can do and how to ask",
    },
    "capabilities": ["help"],
    "examples": [
        "o que você faz?",
        "o que você sabe fazer?",
        "ajuda",
        "me ajuda, como funciona isso?",
        "quais são suas funções?",
        "com o que você pode me ajudar?",
        "quais serviços estão disponíveis?",
        "help",
        "what can you do?",
        "what are you able to help me with?",
        "how does this work?",
        "show me the available commands",
        "which services do you offer?",
    ],
}

SMALL_TALK_GOAL: dict[str, Any] = {
    "goal": "SMALL_TALK",
    "description": {
        "pt": "Cumprimentos, agradecimentos e despedidas",
        "en": "Greetings, thanks and goodbyes (small talk)",
    },
    "entities_schema": {
        "kind": {
            "type": "enum",
            "values": list(KINDS),
            "description": {
                "pt": "O tipo de conversa: cumprimento, agradecimento, despedida, como vai",
                "en": "The kind of small talk: greeting, thanks, goodbye, how are you",
            },
            "synonyms": KIND_SYNONYMS,
        }
    },
    "capabilities": ["small_talk"],
    "examples": [
        {"text": "oi", "entities": {"kind": "GREETING"}},
        {"text": "olá, tudo bem?", "entities": {"kind": "WELLBEING"}},
        {"text": "bom dia", "entities": {"kind": "GREETING"}},
        {"text": "boa noite!", "entities": {"kind": "GREETING"}},
        {"text": "obrigado", "entities": {"kind": "THANKS"}},
        {"text": "valeu pela ajuda", "entities": {"kind": "THANKS"}},
        {"text": "tchau, até mais", "entities": {"kind": "GOODBYE"}},
        {"text": "hello", "entities": {"kind": "GREETING"}},
        {"text": "hi there", "entities": {"kind": "GREETING"}},
        {"text": "good morning", "entities": {"kind": "GREETING"}},
        {"text": "thanks a lot", "entities": {"kind": "THANKS"}},
        {"text": "how are you?", "entities": {"kind": "WELLBEING"}},
        {"text": "bye, see you", "entities": {"kind": "GOODBYE"}},
    ],
}


#: What out-of-scope requests look like: never a goal, only evidence the intent layer calibrates
#: "this is not any registered goal" with.
OUT_OF_SCOPE_EXAMPLES = (
    "quem descobriu o Brasil?",
    "me ajuda a escrever um e-mail para o meu chefe",
    "como faço para emagrecer rápido?",
    "me indica um livro de ficção",
    "que horas são em Tóquio?",
    "como tiro a segunda via do RG?",
    "desenha um gato pra mim",
    "qual o sentido da vida?",
    "set an alarm for 7 am",
    "how tall is Mount Everest?",
    "write a cover letter for me",
    "what's a good name for a dog?",
)


def build_service() -> DomainService:
    svc = DomainService(
        DOMAIN,
        VERSION,
        {
            "pt": "Ajuda, conversa e respostas para pedidos fora do escopo",
            "en": "Help, small talk and answers to out-of-scope requests",
        },
        confidence_gate=False,
    )
    svc.capability(
        "help",
        {"pt": "Explica o que a plataforma sabe fazer", "en": "Explains what the platform can do"},
        metadata={
            "context": ["catalog"],
            "progress": {"pt": "Reunindo o que eu sei fazer…", "en": "Gathering what I can do…"},
            "policy": {"read_only": True},
        },
        output_schema={
            "type": "object",
            "properties": {"goals": {"type": "array"}, "catalog_received": {"type": "boolean"}},
            "required": ["goals"],
        },
    )(help_)
    svc.capability(
        "small_talk",
        {"pt": "Responde cumprimentos e agradecimentos", "en": "Answers greetings and thanks"},
        parameters={
            "type": "object",
            "properties": {
                "kind": {"type": "string", "enum": ["GREETING", "THANKS", "GOODBYE", "WELLBEING"]}
            },
        },
        output_schema={"type": "object", "properties": {"kind": {"type": "string"}}, "required": ["kind"]},
        metadata={
            "progress": {"pt": "Preparando a resposta…", "en": "Preparing the reply…"},
            "policy": {"read_only": True},
        },
    )(small_talk)
    svc.capability(
        "out_of_scope",
        {
            "pt": "Diz com clareza que não consegue atender e lista o que a plataforma faz",
            "en": "Says plainly it cannot help and lists what the platform can do",
        },
        role="fallback",
        metadata={
            "intent_hints": {"examples": list(OUT_OF_SCOPE_EXAMPLES)},
            "progress": {"pt": "Preparando a resposta…", "en": "Preparing the reply…"},
            "policy": {"read_only": True},
        },
        output_schema={
            "type": "object",
            "properties": {"query": {"type": "string"}, "supported_goals": {"type": "array"}},
            "required": ["supported_goals"],
        },
    )(out_of_scope)
    svc.add_goal(HELP_GOAL)
    svc.add_goal(SMALL_TALK_GOAL)
    svc.manifest()
    return svc


service = build_service()
