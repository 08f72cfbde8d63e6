"""The A2A channel's task store: tasks kept per tenant, the oldest forgotten past the bound."""

from __future__ import annotations

from a2a.server.context import ServerCallContext
from a2a.types import Task

from gateway.channels.a2a import BoundedTaskStore, TenantUser


def caller(tenant: str) -> ServerCallContext:
    return ServerCallContext(user=TenantUser(tenant))


async def test_tasks_are_the_tenants_own_and_the_oldest_are_forgotten() -> None:
    store = BoundedTaskStore(max_tasks=2)
    await store.save(Task(id="t1", context_id="c"), caller("acme"))
    await store.save(Task(id="t2", context_id="c"), caller("acme"))
    assert await store.get("t1", caller("other")) is None  # another tenant never sees it
    await store.save(Task(id="t1", context_id="c"), caller("acme"))  # an update keeps it fresh
    await store.save(Task(id="t3", context_id="c"), caller("other"))
    assert await store.get("t2", caller("acme")) is None
    assert await store.get("t1", caller("acme")) is not None
    assert await store.get("t3", caller("other")) is not None
