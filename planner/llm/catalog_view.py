"""What the LLM planner is shown of the catalog: every domain's capabilities (description in the
person's language, parameters schema, output schema, whether it acts on the world) and goals.

Only what a plan can use is sent: no examples, lookup tables or synonyms (they are the intent
layer's), so the prompt grows with the number of capabilities, not with their vocabularies.
"""

from __future__ import annotations

import json
from typing import Any

from shared.catalog import Catalog
from shared.i18n.bilingual import text_in


def catalog_view(catalog: Catalog, language: str) -> list[dict[str, Any]]:
    view: list[dict[str, Any]] = []
    for manifest in catalog.manifests():
        capabilities = []
        for capability in manifest.capabilities:
            entry: dict[str, Any] = {
                "capability": capability.name,
                "description": text_in(capability.description, language),
                "parameters": capability.parameters,
            }
            if capability.output_schema:
                entry["output"] = capability.output_schema
            if capability.role:
                entry["role"] = capability.role
            if capability.metadata.policy.confirm:
                # the plan may propose it; the person is asked before it runs
                entry["needs_approval"] = True
            capabilities.append(entry)
        goals = [
            {
                "goal": goal.goal,
                "description": text_in(goal.description, language),
                "capabilities": goal.capabilities,
            }
            for goal in manifest.goals
        ]
        view.append(
            {
                "domain": manifest.domain,
                "description": text_in(manifest.description, language),
                "capabilities": capabilities,
                "goals": goals,
            }
        )
    return view


def catalog_json(catalog: Catalog, language: str) -> str:
    return json.dumps(catalog_view(catalog, language), ensure_ascii=False, separators=(",", ":"))
