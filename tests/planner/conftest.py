"""Manifests for the planner tests: a market domain with a capability map, a notifier, a fallback."""

from __future__ import annotations

from typing import Any

import pytest

from shared.catalog import Catalog
from shared.manifest import DomainManifest, validate_manifest

MARKET: dict[str, Any] = {
    "domain": "market",
    "version": "1",
    "description": "quotes and movers",
    "capabilities": [
        {
            "name": "get_price",
            "description": "price of one company",
            "metadata": {
                "decomposition": {
                    "array_params": [
                        {
                            "param_name": "symbol_text",
                            "single_param_name": "symbol_text",
                            "max_concurrency": 3,
                        }
                    ]
                },
                "composition": {
                    "followup_roles": ["notifier"],
                    "enabled_if": {"path": "parameters.notify", "equals": True},
                    "param_map": {
                        "message": {"from_parameters": ["_step_explanation"]},
                        "payload": {"from_parameters": ["_step_result"]},
                        "channel": {"from_parameters": ["channel_text"]},
                    },
                },
            },
        },
        {"name": "get_gainers", "description": "top gainers"},
        {"name": "get_losers", "description": "top losers"},
    ],
    "goals": [
        {
            "goal": "GET_QUOTE",
            "description": "price of a company",
            "capabilities": ["get_price"],
            "entities_schema": {
                "symbol_text": {"type": "string", "required": True, "multiple": True},
                "notify": {"type": "boolean", "synonyms": {"true": ["telegram"]}},
            },
        },
        {
            "goal": "TOP_MOVERS",
            "description": "biggest moves",
            "entities_schema": {
                "direction": {
                    "type": "enum",
                    "values": ["GAINERS", "LOSERS", "BOTH"],
                    "required": True,
                    "default": "BOTH",
                    "capability_map": {
                        "GAINERS": "get_gainers",
                        "LOSERS": "get_losers",
                        "BOTH": ["get_gainers", "get_losers"],
                    },
                },
                "market_text": {"type": "string", "default": "any"},
            },
        },
    ],
}

MESSENGER: dict[str, Any] = {
    "domain": "messenger",
    "version": "1",
    "description": "sends messages",
    "capabilities": [{"name": "send_message", "description": "send a text", "role": "notifier"}],
}

HELPDESK: dict[str, Any] = {
    "domain": "helpdesk",
    "version": "1",
    "description": "help and small talk",
    "confidence_gate": False,
    "capabilities": [
        {"name": "chit_chat", "description": "small talk"},
        {"name": "answer_anything", "description": "out of scope answers", "role": "fallback"},
    ],
}


def manifest(data: dict[str, Any]) -> DomainManifest:
    return validate_manifest(data)


@pytest.fixture
def catalog() -> Catalog:
    return Catalog([manifest(MARKET), manifest(MESSENGER), manifest(HELPDESK)])


@pytest.fixture
def market_only() -> Catalog:
    """No notifier, no fallback: composition and out-of-scope have nowhere to go."""
    return Catalog([manifest(MARKET)])
