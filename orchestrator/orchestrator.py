"""Routes one ``ExecutionIntent`` to the domain that owns its capability and returns the domain's
``DomainOutput``; every problem on the way becomes a ``failure`` output with a plain message.

* Routing: capability -> owning domain through the catalog (preferred), else the intent's domain.
* Confidence gate (seed 003): below ``threshold`` for a domain whose manifest does not opt out
  (``confidence_gate: false``), answer ``clarification`` without calling the domain.
* Every ``/execute`` carries ``Idempotency-Key: {run_id}:{step_id}`` (plus
  ``:{context["idempotency_suffix"]}`` when the run loop asks for a fresh key: a replan, or a retry
  after an invalid answer), so the retries the capability's ``policy`` allows can never run it twice.

Two ways in:

* :meth:`Orchestrator.execute` retries itself and turns every problem into a ``failure`` output
  (for callers without their own retry loop);
* :meth:`Orchestrator.dispatch` makes ONE guarded call and raises ``DomainUnavailable`` /
  ``DomainProtocolError`` so :class:`execution.runner.RunController` (validation, retry, replan)
  decides. It fails fast, without network, when the domain's circuit is open or the registry lists
  it unhealthy (:meth:`Orchestrator.unavailable_reason`), and applies per-domain timeouts.
"""

from __future__ import annotations

import asyncio
import uuid
from collections.abc import Mapping

from orchestrator.breaker import CircuitOpen, DomainBreakers
from orchestrator.client import DomainClient
from orchestrator.registry import DomainRegistry
from shared.catalog import CapabilityRef
from shared.errors import DomainProtocolError, DomainUnavailable, NotFound, PlatformError
from shared.manifest import ExecutionPolicy
from shared.models import DomainOutput, ExecutionIntent, ExecutionStep

#: On the intent adapter's calibrated scale (see gateway.settings.GatewaySettings.confidence_threshold).
DEFAULT_THRESHOLD = 0.7

_TEXT = {
    "gate": {
        "pt": "Não tenho certeza se entendi o pedido (confiança {confidence:.0%}). Pode confirmar?",
        "en": "I'm not sure I understood the request (confidence {confidence:.0%}). Can you confirm?",
    },
    "no_route": {
        "pt": "Nenhum domínio registrado oferece '{capability}'.",
        "en": "No registered domain offers '{capability}'.",
    },
    "unavailable": {
        "pt": "O domínio '{domain}' está indisponível no momento ({reason}).",
        "en": "The '{domain}' domain is unavailable right now ({reason}).",
    },
    "protocol": {
        "pt": "O domínio '{domain}' respondeu de forma inválida ({reason}).",
        "en": "The '{domain}' domain gave an invalid answer ({reason}).",
    },
}


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
        """Why ``domain`` cannot take a call right now (open circuit, registry unhealthy), or None."""
        if self.breakers.is_open(domain):
            return f"circuit open ({self.breakers.threshold} consecutive failures)"
        error = self.registry.unhealthy(domain)
        return f"unhealthy: {error}" if error is not None else None

    async def dispatch(self, intent: ExecutionIntent, step: ExecutionStep | None = None) -> DomainOutput:
        """One call, no retry; transport problems are raised (``details.delivered`` says whether
        the request can have reached the domain), routing problems and the gate are outputs."""
        target = self._target(intent, step)
        if isinstance(target, DomainOutput):
            return target
        domain, base_url, routed, key, language, policy = target
        reason = self.unavailable_reason(domain)
        if reason is not None:
            fail_fast = CircuitOpen if self.breakers.is_open(domain) else DomainUnavailable
            raise fail_fast(
                _TEXT["unavailable"][language].format(domain=domain, reason=reason),
                details={"delivered": False, "domain": domain},
            )
        timeout = min(policy.timeout_s, self.domain_timeouts.get(domain, policy.timeout_s))
        try:
            output = await self.breakers.call(
                domain, lambda: self.client.execute(base_url, routed, key, timeout)
            )
        except DomainUnavailable as exc:
            raise DomainUnavailable(
                _TEXT["unavailable"][language].format(domain=domain, reason=exc.message),
                details=exc.details,
            ) from None
        except DomainProtocolError as exc:
            raise DomainProtocolError(
                _TEXT["protocol"][language].format(domain=domain, reason=exc.message), param=exc.param
            ) from None
        self.registry.mark(domain, healthy=True)
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

    async def execute(self, intent: ExecutionIntent, step: ExecutionStep | None = None) -> DomainOutput:
        """Route and call with this orchestrator's own retry loop (for callers without a
        ``RunController``); transport problems come back as failure outputs."""
        target = self._target(intent, step)
        if isinstance(target, DomainOutput):
            return target
        _domain, base_url, routed, key, language, policy = target
        return await self._call(routed, base_url, key, policy, language)

    # ------------------------------------------------------------------ helpers

    def _target(self, intent: ExecutionIntent, step: ExecutionStep | None) -> _Target | DomainOutput:
        """Where a call goes (domain, base URL, routed intent, idempotency key, language, the
        capability's policy), or the output that answers instead of a call (no route, the gate, a
        domain gone meanwhile). One catalog lookup serves routing, the gate and the policy."""
        language = _language(intent)
        ref = self.registry.catalog.find_capability(intent.capability, intent.domain)
        domain = _route(self.registry, ref, intent)
        if domain is None:
            return _failure(
                _TEXT["no_route"][language].format(capability=intent.capability),
                error="unknown_capability",
                capability=intent.capability,
            )
        if self._gated(intent, domain):
            return self._clarify(intent, domain, language)
        try:
            base_url = self.registry.endpoint(domain)
        except NotFound as exc:  # unregistered between routing and calling
            return _failure(exc.message, error=exc.code, domain=domain)
        routed = intent if intent.domain == domain else intent.model_copy(update={"domain": domain})
        # the routed domain owns ``ref`` when there is one (it is the domain ``ref`` names)
        policy = ref.capability.metadata.policy if ref is not None else ExecutionPolicy()
        return domain, base_url, routed, _idempotency_key(intent, step), language, policy

    async def _call(
        self, intent: ExecutionIntent, base_url: str, key: str, policy: ExecutionPolicy, language: str
    ) -> DomainOutput:
        attempts = policy.attempts if policy.idempotent else 1
        error: PlatformError | None = None
        for attempt in range(1, attempts + 1):
            try:
                output = await self.client.execute(base_url, intent, key, policy.timeout_s)
            except DomainUnavailable as exc:
                error = exc
                self.registry.mark(intent.domain, healthy=False, error=exc.message)
                if attempt < attempts:
                    await asyncio.sleep(policy.backoff_s * 2 ** (attempt - 1))
                continue
            except DomainProtocolError as exc:
                error = exc
                break
            self.registry.mark(intent.domain, healthy=True)
            return output
        assert error is not None  # the loop only ends without returning after an error
        kind = "unavailable" if isinstance(error, DomainUnavailable) else "protocol"
        return _failure(
            _TEXT[kind][language].format(domain=intent.domain, reason=error.message),
            error=error.code,
            domain=intent.domain,
            attempts=attempt,
        )

    def _clarify(self, intent: ExecutionIntent, domain: str, language: str) -> DomainOutput:
        return DomainOutput(
            status="clarification",
            explanation=_TEXT["gate"][language].format(confidence=intent.confidence),
            confidence=intent.confidence,
            result={"domain": domain, "capability": intent.capability, "parameters": intent.parameters},
            metadata={"resolution": "confidence_gate", "threshold": self.threshold},
        )


#: (domain, base URL, routed intent, idempotency key, language, policy)
_Target = tuple[str, str, ExecutionIntent, str, str, ExecutionPolicy]


def _route(registry: DomainRegistry, ref: CapabilityRef | None, intent: ExecutionIntent) -> str | None:
    if ref is not None:
        return ref.domain
    return intent.domain if registry.registered(intent.domain) else None


def _idempotency_key(intent: ExecutionIntent, step: ExecutionStep | None) -> str:
    run_id = intent.context.get("run_id") or f"adhoc-{uuid.uuid4().hex}"
    step_id = intent.context.get("step_id", step.id if step is not None else 1)
    suffix = intent.context.get("idempotency_suffix")
    return f"{run_id}:{step_id}:{suffix}" if suffix else f"{run_id}:{step_id}"


def _language(intent: ExecutionIntent) -> str:
    return "en" if str(intent.context.get("language", "pt")).startswith("en") else "pt"


def _failure(explanation: str, **metadata: object) -> DomainOutput:
    return DomainOutput(status="failure", explanation=explanation, confidence=1.0, metadata=metadata)
