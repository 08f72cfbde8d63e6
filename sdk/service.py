"""Declaring a domain in Python: :class:`DomainService` holds its capabilities, goals and lookup
tables, builds and validates its manifest, and runs a capability once per ``Idempotency-Key``
(:mod:`sdk.idempotency`; one whose policy says it only reads runs on every call). Its HTTP app
and ``serve`` are in :mod:`sdk.http_app`; the answers (:func:`clarify`, :func:`fail`,
:func:`option`) in :mod:`sdk.answers`.

>>> from shared.models import DomainOutput, ExecutionIntent
>>> svc = DomainService("echo", "1.0", "Repeats what it is told")
>>> @svc.capability("echo", "Repeat the text", role="fallback")
... def echo(intent: ExecutionIntent) -> DomainOutput:
...     text = intent.parameters.get("text", "")
...     if not text:
...         return fail("Nothing to repeat.", "missing_parameter")
...     return DomainOutput(status="success", explanation=text)
>>> svc.add_goal({"goal": "ECHO", "description": "repeat text", "capabilities": ["echo"]})
>>> svc.manifest().capabilities[0].name
'echo'
"""

from __future__ import annotations

import inspect
from collections.abc import Awaitable, Callable, Mapping

from fastapi import FastAPI

from sdk.answers import clarify, error_body, fail, option
from sdk.http_app import DomainProcessSettings, DomainSigningSettings, Lifespan, build_app, serve
from sdk.idempotency import IdempotencySettings, IdempotencyStore, fingerprint, using_key
from shared.json_schema import JsonSchema
from shared.manifest import DomainManifest, Goal, LocalizedText, LookupEntry, validate_manifest
from shared.models import DomainOutput, ExecutionIntent

# the names domains have always imported from here
__all__ = [
    "DomainProcessSettings",
    "DomainService",
    "DomainSigningSettings",
    "clarify",
    "error_body",
    "fail",
    "option",
    "serve",
]

Handler = Callable[[ExecutionIntent], DomainOutput | Awaitable[DomainOutput]]


class DomainService:
    def __init__(
        self,
        domain: str,
        version: str,
        description: LocalizedText,
        *,
        confidence_gate: bool = True,
        idempotency: IdempotencyStore | None = None,
    ):
        """``idempotency``: where keys are kept. Unset, the HTTP app's lifespan opens the one
        :class:`~sdk.idempotency.IdempotencySettings` names (durable in a process started with
        :func:`~sdk.http_app.serve`); calls made in process before that use memory."""
        self.domain = domain
        self.version = version
        self.description = description
        self.confidence_gate = confidence_gate
        #: each capability's manifest entry (JSON), validated with the manifest
        self._capabilities: list[dict[str, object]] = []
        self._handlers: dict[str, Handler] = {}
        self._goals: list[Mapping[str, object]] = []
        self._manifest: DomainManifest | None = None
        #: path -> the lookup table served there (an entity's ``lookup_path``)
        self._lookups: dict[str, Callable[[], list[LookupEntry]]] = {}
        self.idempotency = idempotency or IdempotencyStore("sqlite://")
        self._store_given = idempotency is not None
        #: set by ``serve``: this process is the domain's own, so its keys go to a file by default
        self.served = False
        #: how many times each capability actually ran (replays excluded), for ops and benchmarks
        self.executions: dict[str, int] = {}

    # -------------------------------------------------------------- declaring

    def capability(
        self,
        name: str,
        description: LocalizedText,
        *,
        parameters: JsonSchema | None = None,
        output_schema: JsonSchema | None = None,
        role: str | None = None,
        metadata: Mapping[str, object] | None = None,
    ) -> Callable[[Handler], Handler]:
        def register(handler: Handler) -> Handler:
            self._capabilities.append(
                {
                    "name": name,
                    "description": description,
                    "parameters": parameters or {"type": "object"},
                    "output_schema": output_schema,
                    "role": role,
                    "metadata": metadata or {},
                }
            )
            self._handlers[name] = handler
            self._manifest = None
            return handler

        return register

    def add_goal(self, goal: Mapping[str, object] | Goal) -> None:
        """A goal of the domain: a :class:`~shared.manifest.Goal`, or its manifest JSON."""
        self._goals.append(goal.model_dump(exclude_none=True) if isinstance(goal, Goal) else goal)
        self._manifest = None

    def lookup(self, path: str, entries: Callable[[], list[LookupEntry]]) -> None:
        """Serve ``entries()`` (read on every request: the table may change) at ``GET path``, the
        ``lookup_path`` of an entity whose values are too many or too changing for the manifest."""
        self._lookups[path] = entries

    def lookups(self) -> dict[str, Callable[[], list[LookupEntry]]]:
        """Each ``lookup_path`` and the function that reads its table."""
        return dict(self._lookups)

    def manifest_with_lookups(self) -> DomainManifest:
        """The manifest as a gateway sees it once fetched: each ``lookup_path``'s table in its
        entity's ``lookup`` (for in-process use: benchmarks and tests without HTTP)."""
        manifest = self.manifest().model_copy(deep=True)
        for goal in manifest.goals:
            for spec in goal.entities_schema.values():
                if spec.lookup_path in self._lookups and spec.lookup is None:
                    spec.lookup = self._lookups[spec.lookup_path]()
        return manifest

    def manifest(self) -> DomainManifest:
        if self._manifest is None:
            raw = {
                "domain": self.domain,
                "version": self.version,
                "description": self.description,
                "confidence_gate": self.confidence_gate,
                "capabilities": [{k: v for k, v in c.items() if v is not None} for c in self._capabilities],
                "goals": self._goals,
            }
            self._manifest = validate_manifest(raw)
        return self._manifest

    # -------------------------------------------------------------- running

    async def execute(self, intent: ExecutionIntent, idempotency_key: str | None = None) -> DomainOutput:
        handler = self._handlers.get(intent.capability)
        if handler is None:
            return fail(
                f"The {self.domain} domain has no capability '{intent.capability}'.", "unknown_capability"
            )

        async def call() -> DomainOutput:
            self.executions[intent.capability] = self.executions.get(intent.capability, 0) + 1
            result = handler(intent)
            if inspect.isawaitable(result):
                result = await result
            assert isinstance(result, DomainOutput), f"{intent.capability} must return DomainOutput"
            return result

        if not idempotency_key:
            return await call()
        with using_key(idempotency_key):
            if self._only_reads(intent.capability):  # a repeat changes nothing: no record to keep
                return await call()
            output, replayed = await self.idempotency.run(idempotency_key, fingerprint(intent), call)
        if replayed:
            output = output.model_copy(update={"metadata": {**output.metadata, "idempotent_replay": True}})
        return output

    def _only_reads(self, capability: str) -> bool:
        """Whether the capability's policy says it only reads (``read_only``)."""
        declared = self.manifest().capability(capability)
        return declared is not None and declared.metadata.policy.read_only

    async def open_idempotency(self) -> None:
        """Open the key store the settings name (the HTTP app's lifespan does it before serving)."""
        if not self._store_given:
            await self.idempotency.close()
            self.idempotency = IdempotencySettings().store(self.domain, served=self.served)
        await self.idempotency.open()

    def app(self, lifespan: Lifespan | None = None) -> FastAPI:
        """The domain's HTTP app (:func:`sdk.http_app.build_app`)."""
        return build_app(self, lifespan)
