"""The resolver table: ``IntentOutput`` -> ``ExecutionIntent``, deterministically.

| goal has an enum entity with ``capability_map`` | value present     -> the mapped capability(ies)
|                                                 | value absent      -> the map's FIRST capability
| otherwise                                       | the goal's ``capabilities`` (first = ``capability``)
| out of scope (``goal is None``)                 | the first capability whose role is ``fallback``

It never calls an LLM or a domain: it only reads the catalog.
"""

from __future__ import annotations

from typing import Any

from shared.catalog import Catalog
from shared.entities import Entities
from shared.errors import PlanError
from shared.manifest import EntitySpec, Goal
from shared.models import ExecutionIntent, IntentOutput

#: The role a capability declares to answer requests no goal covers (architecture.md).
FALLBACK_ROLE = "fallback"
#: Parameter under which an out-of-scope request's text reaches the fallback capability.
FALLBACK_QUERY_PARAM = "query"


class GoalResolver:
    def __init__(self, catalog: Catalog):
        self.catalog = catalog

    def resolve(self, intent: IntentOutput) -> ExecutionIntent:
        if intent.goal is None:
            return self._fallback(intent)
        domain = self._domain_of(intent)
        goal = self.catalog.find_goal(domain, intent.goal)
        if goal is None:
            raise PlanError(f"domain '{domain}' has no goal '{intent.goal}'", param="goal")
        capabilities = self._capabilities(goal, intent.entities)
        return ExecutionIntent(
            domain=domain,
            capability=capabilities[0],
            capabilities=capabilities,
            parameters=self._parameters(goal, intent.entities),
            confidence=intent.confidence,
            original_query=intent.original_query,
            goal=goal.goal,
            context={"language": intent.language},
        )

    # ------------------------------------------------------------------ helpers

    def _domain_of(self, intent: IntentOutput) -> str:
        """The intent's domain; when the adapter left it out, the one domain owning the goal."""
        if intent.primary_domain is not None:
            if self.catalog.manifest(intent.primary_domain) is None:
                raise PlanError(f"unknown domain '{intent.primary_domain}'", param="primary_domain")
            return intent.primary_domain
        owners = [ref.domain for ref in self.catalog.goals() if ref.goal.goal == intent.goal]
        if len(owners) != 1:
            found = "no domain" if not owners else f"several domains ({', '.join(owners)})"
            raise PlanError(f"goal '{intent.goal}' is offered by {found}", param="primary_domain")
        return owners[0]

    @staticmethod
    def _capabilities(goal: Goal, entities: Entities) -> list[str]:
        for name, spec in goal.entities_schema.items():
            if spec.type != "enum" or not spec.capability_map:
                continue
            value = entities.get(name)
            if value is None:
                # no value picks nothing: the map's first capability is the documented default
                return _as_list(next(iter(spec.capability_map.values())))[:1]
            if value not in (spec.values or []):
                raise PlanError(
                    f"'{value}' is not one of {spec.values} for goal {goal.goal}", param=f"entities.{name}"
                )
            if value in spec.capability_map:
                return _as_list(spec.capability_map[value])
            break  # a known value the map does not cover: the goal's own capabilities decide
        if not goal.capabilities:
            raise PlanError(f"goal {goal.goal} resolves to no capability for these entities", param="goal")
        return list(goal.capabilities)

    @staticmethod
    def _parameters(goal: Goal, entities: Entities) -> dict[str, Any]:
        """Entities become parameters; declared defaults fill absent entities, except those of a
        ``capability_map`` entity (its absence is meaningful: it selected the first capability)."""
        parameters = {k: v for k, v in entities.items() if v is not None}
        for name, spec in goal.entities_schema.items():
            if name not in parameters and spec.default is not None and not _decides(spec):
                parameters[name] = spec.default
        return parameters

    def _fallback(self, intent: IntentOutput) -> ExecutionIntent:
        candidates = self.catalog.with_role(FALLBACK_ROLE)
        if not candidates:
            raise PlanError(
                "the request is out of scope and no domain offers a 'fallback' capability", param="goal"
            )
        ref = candidates[0]
        return ExecutionIntent(
            domain=ref.domain,
            capability=ref.capability.name,
            capabilities=[ref.capability.name],
            parameters={FALLBACK_QUERY_PARAM: intent.original_query, **intent.entities},
            confidence=intent.confidence,
            original_query=intent.original_query,
            goal=None,
            context={"language": intent.language},
        )


def _decides(spec: EntitySpec) -> bool:
    return spec.type == "enum" and bool(spec.capability_map)


def _as_list(target: str | list[str]) -> list[str]:
    return [target] if isinstance(target, str) else list(target)
