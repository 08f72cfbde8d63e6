"""Invented domains (names the core has never seen) served in-process through httpx's ASGI
transport, one host per domain; a host with no app behaves like a closed port."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from typing import Any

import httpx
import pytest
from fastapi import FastAPI

from orchestrator import DomainClient, DomainRegistry
from sdk.service import DomainService
from shared.models import DomainOutput, ExecutionIntent


class Hosts(httpx.AsyncBaseTransport):
    """Routes each request to the ASGI app registered for its host; unknown hosts refuse."""

    def __init__(self) -> None:
        self.apps: dict[str, httpx.ASGITransport] = {}
        self.requests: list[httpx.Request] = []

    def serve(self, host: str, app: FastAPI) -> str:
        self.apps[host] = httpx.ASGITransport(app=app)
        return f"http://{host}"

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        self.requests.append(request)
        transport = self.apps.get(request.url.host)
        if transport is None:
            raise httpx.ConnectError("[Errno 111] Connection refused", request=request)
        return await transport.handle_async_request(request)


def bakery() -> DomainService:
    svc = DomainService("bakery", "1.2", "Bread and cakes")

    @svc.capability(
        "bake_bread",
        "Bake a loaf",
        metadata={"policy": {"attempts": 3, "backoff_s": 0.0}},
    )
    def bake(intent: ExecutionIntent) -> DomainOutput:
        kind = intent.parameters.get("kind_text", "plain")
        return DomainOutput(status="success", result={"loaf": kind}, explanation=f"Baked a {kind} loaf")

    @svc.capability("slow_cake", "Bake a cake slowly")
    async def cake(intent: ExecutionIntent) -> DomainOutput:
        await asyncio.sleep(0)
        return DomainOutput(status="success", explanation="cake")

    svc.add_goal(
        {
            "goal": "BAKE",
            "description": "bake bread",
            "capabilities": ["bake_bread"],
            "entities_schema": {"kind_text": {"type": "string", "required": True}},
        }
    )
    return svc


def lounge() -> DomainService:
    svc = DomainService("lounge", "0.1", "Chat", confidence_gate=False)

    @svc.capability("chat", "Chat about anything", role="fallback")
    def chat(intent: ExecutionIntent) -> DomainOutput:
        return DomainOutput(status="success", explanation=f"you said: {intent.parameters.get('query', '')}")

    return svc


def raw_manifest_app(manifest: Any) -> FastAPI:
    """A hand-written service whose /manifest we control (the SDK refuses to serve a bad one)."""
    app = FastAPI()

    @app.get("/manifest")
    async def get_manifest() -> Any:
        return manifest

    @app.get("/health")
    async def health() -> dict[str, str]:
        return {"status": "ok"}

    return app


@pytest.fixture
def hosts() -> Hosts:
    return Hosts()


@pytest.fixture
async def http(hosts: Hosts) -> AsyncIterator[httpx.AsyncClient]:
    async with httpx.AsyncClient(transport=hosts) as client:
        yield client


@pytest.fixture
def client(http: httpx.AsyncClient) -> DomainClient:
    return DomainClient(http)


@pytest.fixture
def registry(client: DomainClient) -> DomainRegistry:
    return DomainRegistry(client, env={})


@pytest.fixture
def make() -> dict[str, Any]:
    """The invented-service factories, for tests that need a fresh instance or a raw app."""
    return {"bakery": bakery, "lounge": lounge, "raw": raw_manifest_app}
