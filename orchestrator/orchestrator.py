"""Routes one ``ExecutionIntent`` to the domain that owns its capability and returns the domain's
``DomainOutput``.

* Routing: capability -> owning domain through the catalog (preferred), else the intent's domain.
  No route is a ``failure`` output with a typed :class:`~shared.models.Failure`.
* Confidence gate: below ``threshold`` for a domain whose manifest does not opt out
  (``confidence_gate: false``), answer a typed ``clarification`` without calling the domain.
* Every ``/execute`` carries ``Idempotency-Key: {run_id}:{step_id}`` (plus ``:{suffix}`` when the
  run loop asks for a fresh key: a replan, or a retry after an invalid answer), read from the typed
  :class:`~shared.models.CallContext` the step runner passes beside the intent (never from the
  body the domain reads), so the retries the capability's ``policy`` allows can never run it twice.
* Catalog hand-off: a fallback capability (help, out of scope) or one whose manifest asks for it
  (``metadata.context: ["catalog"]``) gets the registered goals in ``intent.context["catalog"]``
  (:class:`CatalogEntry` dumped to JSON), so it lists what the platform can do right now.

:meth:`Orchestrator.dispatch` is the platform's one step runner (an
:data:`execution.dag.StepRunner`), given once to the run loop the gateway builds. It makes ONE
guarded call and raises ``DomainUnavailable`` / ``DomainProtocolError``: retrying is
:mod:`execution.retry`'s job (the platform's one retry mechanism), replanning
:class:`execution.runner.RunController`'s. It fails fast, without network, when the domain's
circuit is open or the registry lists it unhealthy (:meth:`Orchestrator.unavailable_reason`),
and applies per-domain timeouts.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from dataclasses import dataclass

from orchestrator.breaker import CircuitOpen, DomainBreakers
from orchestrator.client import DomainClient
from orchestrator.domain_transport import DomainKind
from orchestrator.registry import DomainRegistry
from shared.catalog import CapabilityRef, Catalog
from shared.errors import DomainProtocolError, DomainUnavailable, NotFound
from shared.i18n import Language, as_language, t
from shared.manifest import CatalogEntry, ExecutionPolicy
from shared.models import CallContext, Clarification, DomainOutput, ExecutionIntent, ExecutionStep, Failure

log = logging.getLogger(__name__)

#: On the intent adapter's calibrated scale (see gateway.settings.GatewaySettings.confidence_threshold).
DEFAULT_THRESHOLD = 0.7


class Orchestrator:
    def __init__(
        self,
        registry: DomainRegistry,
        client: DomainClient,
        threshold: float = DEFAULT_THRESHOLD,
        *,
        breakers: DomainBreakers | None = None,
        domain_timeouts: Mapping[str, float] | None = None,
    ):
        self.registry = registry
        self.client = client
        self.threshold = threshold
        self.breakers = breakers or DomainBreakers()
        #: domain -> seconds; a call's timeout is the smaller of this and the capability's policy
        self.domain_timeouts = dict(domain_timeouts or {})

    def unavailable_reason(self, domain: str) -> str | None:
        """Why ``domain`` cannot take a call right now (open circuit, registry unhealthy), or None.
        The run shows it to the person: no URL and no transport detail (those stay in the
        registry's ``last_error`` and the log)."""
        if self.breakers.is_open(domain):
            return f"circuit open ({self.breakers.threshold} consecutive failures)"
        return "its last health check failed" if self.registry.unhealthy(domain) is not None else None

    async def dispatch(
        self, intent: ExecutionIntent, step: ExecutionStep | None = None, call: CallContext | None = None
    ) -> DomainOutput:
        """One call, no retry; transport problems are raised (``details.delivered`` says whether
        the request can have reached the domain), routing problems and the gate are outputs.
        ``call``: how to make it (the run loop's); without it, the ids the intent's context names."""
        target = self._target(intent, call or CallContext.of(intent, step))
        if isinstance(target, DomainOutput):
            return target
        domain, language = target.domain, target.language
        reason = self.unavailable_reason(domain)
        if reason is not None:
            fail_fast = CircuitOpen if self.breakers.is_open(domain) else DomainUnavailable
            raise fail_fast(
                t("route.unreachable", language, domain=domain),
                details={
                    "delivered": False,
                    "domain": domain,
                    "detail": self.registry.unhealthy(domain) or reason,
                },
            )
        policy = target.policy
        timeout = min(policy.timeout_s, self.domain_timeouts.get(domain, policy.timeout_s))
        try:
            output = await self.breakers.call(
                domain,
                lambda: self.client.execute(
                    target.base_url, target.intent, target.idempotency_key, timeout, kind=target.kind
                ),
            )
        except DomainUnavailable as exc:
            log.warning("domain %s: %s", domain, exc.message)
            raise type(exc)(
                t("route.unreachable", language, domain=domain),
                details={**(exc.details or {}), "domain": domain, "detail": exc.message},
            ) from None
        except DomainProtocolError as exc:
            log.warning("domain %s: %s", domain, exc.message)
            raise DomainProtocolError(
                t("route.invalid_answer", language, domain=domain),
                param=exc.param,
                details={"domain": domain, "detail": exc.message},
            ) from None
        self.registry.mark_healthy(domain)
        return output

    def route(self, intent: ExecutionIntent) -> str | None:
        """The domain that should run ``intent``: the capability's owner, else ``intent.domain`` if
        registered, else ``None``."""
        return _route(
            self.registry, self.registry.catalog.find_capability(intent.capability, intent.domain), intent
        )

    def gate_blocks(self, intent: ExecutionIntent) -> bool:
        domain = self.route(intent) or intent.domain
        return self._gated(intent, domain)

    def _gated(self, intent: ExecutionIntent, domain: str) -> bool:
        return intent.confidence < self.threshold and self.registry.catalog.gate_applies(domain)

    # ------------------------------------------------------------------ helpers

    def _target(self, intent: ExecutionIntent, call: CallContext) -> _Target | DomainOutput:
        """Where a call goes, or the output that answers instead of a call (no route, the gate, a
        domain gone meanwhile). One catalog lookup serves routing, the gate and the policy."""
        language = _language(intent)
        ref = self.registry.catalog.find_capability(intent.capability, intent.domain)
        domain = _route(self.registry, ref, intent)
        if domain is None:
            return _failure(
                t("route.no_domain", language, capability=intent.capability), "unknown_capability"
            )
        if self._gated(intent, domain):
            return self._clarify(intent, domain, language)
        try:
            base_url, kind = self.registry.endpoint(domain), self.registry.kind(domain)
        except NotFound as exc:  # unregistered between routing and calling
            return _failure(exc.message, exc.code)
        routed = intent if intent.domain == domain else intent.model_copy(update={"domain": domain})
        if ref is not None and (
            ref.capability.role == "fallback" or "catalog" in ref.capability.metadata.context
        ):
            # help and out-of-scope answers list what the platform can do: hand them the catalog
            entries = [e.model_dump(mode="json") for e in catalog_entries(self.registry.catalog)]
            routed = routed.model_copy(update={"context": {**routed.context, "catalog": entries}})
        # the routed domain owns ``ref`` when there is one (it is the domain ``ref`` names)
        policy = ref.capability.metadata.policy if ref is not None else ExecutionPolicy()
        return _Target(domain, base_url, kind, routed, call.idempotency_key, language, policy)

    def _clarify(self, intent: ExecutionIntent, domain: str, language: Language) -> DomainOutput:
        question = t("route.confidence_gate", language, confidence=intent.confidence)
        return DomainOutput(
            status="clarification",
            explanation=question,
            clarification=Clarification(question=question),
            confidence=intent.confidence,
            result={"domain": domain, "capability": intent.capability, "parameters": intent.parameters},
            metadata={"resolution": "confidence_gate", "threshold": self.threshold},
        )


@dataclass(frozen=True, slots=True)
class _Target:
    """Where one call goes and how: everything :meth:`Orchestrator.dispatch` needs after routing."""

    domain: str
    base_url: str
    #: Which transport the call goes through (decided when the domain was registered).
    kind: DomainKind
    #: The intent with ``domain`` set to the routed domain.
    intent: ExecutionIntent
    idempotency_key: str
    language: Language
    #: The capability's execution policy (defaults when the catalog does not know it).
    policy: ExecutionPolicy


def catalog_entries(catalog: Catalog) -> list[CatalogEntry]:
    """Every registered goal, as a fallback capability is told of it."""
    return [
        CatalogEntry(domain=g.domain, goal=g.goal.goal, description=g.goal.description)
        for g in catalog.goals()
    ]


def _route(registry: DomainRegistry, ref: CapabilityRef | None, intent: ExecutionIntent) -> str | None:
    if ref is not None:
        return ref.domain
    return intent.domain if registry.registered(intent.domain) else None


def _language(intent: ExecutionIntent) -> Language:
    return as_language(intent.context.get("language"))


def _failure(explanation: str, reason: str) -> DomainOutput:
    """A routing failure: asking again with the same intent cannot succeed."""
    return DomainOutput(
        status="failure",
        explanation=explanation,
        confidence=1.0,
        failure=Failure(reason=reason, recoverable=False),
    )
