"""A2A agent cards built from manifests: what a domain (or the whole platform) offers, in the
shape A2A clients read at ``/.well-known/agent-card.json``.

Pure functions of the manifests: each goal is a skill (its examples are the skill's examples),
and each capability no goal names is a skill of its own; descriptions are in English (the
Portuguese text when a manifest has no English one, see ``shared.i18n.bilingual.text_in``). The
card is the official ``a2a-sdk`` ``AgentCard`` (protobuf); :func:`card_json` writes it the way
the SDK's own card route does (the 1.0 fields, plus the 0.3 fields when an interface speaks 0.3),
so any A2A client parses it.

>>> from shared.manifest import validate_manifest
>>> manifest = validate_manifest({
...     "domain": "weather", "version": "0.1.0", "description": "Forecasts",
...     "capabilities": [{"name": "get_forecast", "description": "Today's forecast"}],
...     "goals": [{"goal": "GET_WEATHER", "description": "Forecast for a city",
...                "capabilities": ["get_forecast"], "examples": ["weather in Oslo"]}]})
>>> card = domain_card(manifest, "http://127.0.0.1:9001")
>>> [(s.id, list(s.examples)) for s in card.skills]
[('GET_WEATHER', ['weather in Oslo'])]
>>> card_json(card)["capabilities"]
{'streaming': False}
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from a2a.server.request_handlers.response_helpers import agent_card_to_dict
from a2a.types import (
    AgentCapabilities,
    AgentCard,
    AgentInterface,
    AgentSkill,
    HTTPAuthSecurityScheme,
    SecurityRequirement,
    SecurityScheme,
    StringList,
)

from shared.i18n import Language
from shared.i18n.bilingual import text_in
from shared.manifest import DomainManifest

#: What every card says it reads and writes: plain text, and JSON for structured parameters.
DEFAULT_MODES = ("text/plain", "application/json")
#: The protocol binding of a domain's own ``/execute`` (not A2A: A2A clients talk to the gateway).
DOMAIN_BINDING = "agent-orchestrator-domain"
#: The name of the bearer scheme in ``securitySchemes``.
BEARER_SCHEME = "bearer"
#: A skill carries at most this many examples (a goal may have hundreds for training).
MAX_EXAMPLES = 10
#: The language of the card's descriptions: A2A clients (and their models) read English best.
CARD_LANGUAGE: Language = "en"


def skills(manifest: DomainManifest) -> list[AgentSkill]:
    """One skill per goal (id = the goal name), then one per capability that no goal names."""
    found: list[AgentSkill] = []
    named: set[str] = set()
    for goal in manifest.goals:
        named.update(goal.capabilities)
        found.append(
            AgentSkill(
                id=goal.goal,
                name=_title(goal.goal),
                description=text_in(goal.description, CARD_LANGUAGE),
                tags=[manifest.domain, *goal.capabilities],
                examples=_first_unique(goal.example_texts(), MAX_EXAMPLES),
            )
        )
    for capability in manifest.capabilities:
        if capability.name in named:
            continue
        examples = capability.metadata.intent_hints.examples
        found.append(
            AgentSkill(
                id=capability.name,
                name=_title(capability.name),
                description=text_in(capability.description, CARD_LANGUAGE),
                tags=[manifest.domain],
                examples=_first_unique(examples, MAX_EXAMPLES),
            )
        )
    return found


def domain_card(manifest: DomainManifest, base_url: str) -> AgentCard:
    """The card a domain serves: its manifest's skills; its one interface is its own
    ``/execute`` (typed ``ExecutionIntent`` in, ``DomainOutput`` out), so A2A clients reach it
    through the gateway's ``/a2a``, which understands free text."""
    return AgentCard(
        name=manifest.domain,
        description=text_in(manifest.description, CARD_LANGUAGE),
        version=manifest.version,
        supported_interfaces=[
            AgentInterface(
                url=base_url.rstrip("/") + "/execute", protocol_binding=DOMAIN_BINDING, protocol_version="1.0"
            )
        ],
        capabilities=AgentCapabilities(streaming=False),
        default_input_modes=list(DEFAULT_MODES),
        default_output_modes=list(DEFAULT_MODES),
        skills=skills(manifest),
    )


def platform_card(
    manifests: Iterable[DomainManifest],
    *,
    name: str,
    description: str,
    version: str,
    rpc_url: str,
    bearer: bool,
) -> AgentCard:
    """The gateway's card: every registered goal of every domain as a skill, one JSON-RPC
    interface at ``rpc_url`` in both protocol versions the endpoint speaks (1.0, and 0.3 for older
    clients), streaming, and the bearer scheme when the gateway asks for an API key."""
    card = AgentCard(
        name=name,
        description=description,
        version=version,
        supported_interfaces=[
            AgentInterface(url=rpc_url, protocol_binding="JSONRPC", protocol_version="1.0"),
            AgentInterface(url=rpc_url, protocol_binding="JSONRPC", protocol_version="0.3"),
        ],
        capabilities=AgentCapabilities(streaming=True),
        default_input_modes=list(DEFAULT_MODES),
        default_output_modes=list(DEFAULT_MODES),
        skills=[skill for manifest in manifests for skill in skills(manifest)],
    )
    if bearer:
        card.security_schemes[BEARER_SCHEME].CopyFrom(
            SecurityScheme(
                http_auth_security_scheme=HTTPAuthSecurityScheme(
                    scheme="bearer", description="The gateway's API key: 'Authorization: Bearer <key>'."
                )
            )
        )
        card.security_requirements.append(SecurityRequirement(schemes={BEARER_SCHEME: StringList()}))
    return card


def card_json(card: AgentCard) -> dict[str, Any]:
    """The card as JSON, written by the SDK (what its own ``/.well-known`` route answers)."""
    return agent_card_to_dict(card)


def _title(identifier: str) -> str:
    """``GET_WEATHER`` / ``get_forecast`` -> ``Get weather`` / ``Get forecast``."""
    words = identifier.replace("-", "_").split("_")
    return " ".join(w for w in words if w).capitalize()


def _first_unique(texts: Iterable[str], limit: int) -> list[str]:
    seen: list[str] = []
    for text in texts:
        if text and text not in seen:
            seen.append(text)
        if len(seen) == limit:
            break
    return seen
