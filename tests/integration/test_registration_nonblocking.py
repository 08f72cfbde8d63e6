"""Registering a domain on a gateway with a large catalog never stalls it, and replicas sharing
``INTENT_CACHE_DIR`` do not train the new catalog again (real gateway and domain processes).

The catalog is the benchmark's synthetic one (``bench/registration_catalog.py``: one process
serving domains of ten goals each). TF-IDF only, to keep the start-up training short.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import sys
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import pytest
from redis.asyncio import Redis

from gateway.coordination.registry_sync import RegistrySync
from gateway.storage.migrate import upgrade
from gateway.storage.registrations import RegistrationStore
from orchestrator.client import DomainClient, domain_http_client
from orchestrator.registry import DomainRegistry
from shared.db import create_engine
from tests.conftest import (
    ROOT,
    Process,
    chat,
    reserve_port,
    start_and_wait,
    start_gateway,
)

pytestmark = pytest.mark.integration

ADMIN = {"Authorization": "Bearer test-admin-token"}
BOOTSTRAP = 3  # 30 goals, ~450 documents: large enough for the warm start
#: Generous: a gateway that keeps serving answers /health in milliseconds; a stalled one does not
#: answer at all while it trains.
HEALTH_BOUND_S = 5.0
#: How long a replica may take to pick the stored full model up (the first gateway trains it).
FULL_TRAINING_WAIT_S = 600.0


@dataclass
class CatalogServer:
    url: str
    #: the served domains' names; the last one is in no bootstrap file
    names: list[str]

    def base_url(self, name: str) -> str:
        return f"{self.url}/d/{name}"


@pytest.fixture(scope="module")
def catalog_server() -> Iterator[CatalogServer]:
    """The synthetic domains ``0..BOOTSTRAP`` (the last one not in any bootstrap file)."""
    with reserve_port() as reserved:  # held until it answers: uvicorn binds after its start-up
        port, url = reserved.port, reserved.url
        argv = [sys.executable, str(ROOT / "bench" / "registration_catalog.py"), "--port", str(port)]
        proc = start_and_wait([*argv, "--domains", str(BOOTSTRAP + 1)], url, dict(os.environ))
    server = Process("catalog", url, proc)
    try:
        yield CatalogServer(url, httpx.get(f"{url}/domains").json()["domains"])
    finally:
        server.stop()


def gateway_env(work: Path, catalog: CatalogServer, cache_dir: Path, **extra: str) -> dict[str, str]:
    bootstrap = work / "bootstrap.json"
    domains = [{"name": name, "base_url": catalog.base_url(name)} for name in catalog.names[:BOOTSTRAP]]
    bootstrap.write_text(json.dumps({"domains": domains}))
    return {
        "DATABASE_URL": f"sqlite+aiosqlite:///{work / 'gateway.sqlite3'}",
        "BOOTSTRAP_FILE": str(bootstrap),
        "ADMIN_TOKEN": "test-admin-token",
        "API_KEYS": "",
        "REDIS_URL": "",
        "INTENT_CACHE_DIR": str(cache_dir),
        "INTENT_EMBEDDINGS": "false",
        **extra,
    }


def register(url: str, catalog: CatalogServer, result: dict[str, Any]) -> None:
    name = catalog.names[BOOTSTRAP]
    response = httpx.post(
        f"{url}/v1/domains",
        json={"name": name, "base_url": catalog.base_url(name), "allow_overlap": True},
        headers=ADMIN,
        timeout=600,
    )
    result["status"] = response.status_code


def new_goal_request(catalog: CatalogServer) -> tuple[str, str]:
    """A message for the new domain's first goal, and what that capability answers."""
    manifest = httpx.get(f"{catalog.base_url(catalog.names[BOOTSTRAP])}/manifest").json()
    goal = manifest["goals"][0]
    capability = next(c for c in manifest["capabilities"] if c["name"] == goal["capabilities"][0])
    return goal["examples"][0]["text"], f"OK: {capability['description']}."


EXISTING_REQUEST = ("quero consultar saldo", "OK: check balance.")


def test_the_gateway_keeps_answering_during_a_registration_and_the_new_goal_is_live_after_it(
    catalog_server: CatalogServer, tmp_path: Path
) -> None:
    gateway = start_gateway(gateway_env(tmp_path, catalog_server, tmp_path / "intent-cache"))
    try:
        result: dict[str, Any] = {}
        registering = threading.Thread(target=register, args=(gateway.url, catalog_server, result))
        registering.start()
        health_answers, turns = 0, list[str]()
        while registering.is_alive():
            # every poll must be answered, and soon: the retraining runs off the event loop
            response = httpx.get(f"{gateway.url}/health", timeout=HEALTH_BOUND_S)
            assert response.status_code == 200
            health_answers += 1
            if not turns:  # a turn on a goal the old model knows is answered meanwhile
                turns.append(chat(gateway, "existing", EXISTING_REQUEST[0], timeout_s=60))
        registering.join()
        assert result["status"] == 201
        assert health_answers >= 1
        assert not turns or turns[0].startswith(EXISTING_REQUEST[1])

        # the registration answered once a model that knows the new goals was live
        text, answer = new_goal_request(catalog_server)
        assert chat(gateway, "new", text).startswith(answer)
        assert chat(gateway, "existing-after", EXISTING_REQUEST[0]).startswith(EXISTING_REQUEST[1])
    finally:
        gateway.stop()


def intent_log(path: Path) -> list[str]:
    """The intent module's messages in a gateway's JSON log."""
    messages = []
    for line in path.read_text(errors="replace").splitlines():
        with contextlib.suppress(ValueError):
            entry = json.loads(line)
            if isinstance(entry, dict) and entry.get("logger") == "intent.embedded":
                messages.append(str(entry.get("message", "")))
    return messages


@pytest.mark.redis
def test_a_replica_loads_the_model_the_first_gateway_trained_instead_of_training_it(
    catalog_server: CatalogServer, tmp_path: Path, redis_url: str
) -> None:
    cache_dir = tmp_path / "shared-intent-cache"
    env = gateway_env(tmp_path, catalog_server, cache_dir, REDIS_URL=redis_url, LOG_LEVEL="INFO")
    b_log = tmp_path / "b.log"
    a = start_gateway(env)
    try:
        b = start_gateway(env, log=b_log)
        try:
            result: dict[str, Any] = {}
            register(a.url, catalog_server, result)
            assert result["status"] == 201
            # B hears of it on its next turn and answers with a model that knows the new goal
            text, answer = new_goal_request(catalog_server)
            assert chat(b, "on-b", text, timeout_s=120).startswith(answer)

            # B's own full training never runs: it waits for A's and loads it
            deadline = time.monotonic() + FULL_TRAINING_WAIT_S
            while True:
                messages = intent_log(b_log)
                assert not [m for m in messages if "trained in" in m], messages
                if sum("loaded from" in m for m in messages) >= 2:  # at start, then A's new model
                    break
                assert time.monotonic() < deadline, messages
                time.sleep(0.5)
        finally:
            b.stop()
    finally:
        a.stop()


@pytest.mark.redis
async def test_turns_arriving_together_replay_a_registration_once(
    catalog_server: CatalogServer, tmp_path: Path, redis_url: str
) -> None:
    engine = create_engine(f"sqlite:///{tmp_path / 'gateway.sqlite3'}")
    await upgrade(engine)
    redis = Redis.from_url(redis_url)
    client = DomainClient(domain_http_client(timeout=10.0))
    try:
        a, b = DomainRegistry(client, env={}), DomainRegistry(client, env={})
        a_sync = RegistrySync(a, redis, RegistrationStore(engine))
        b_sync = RegistrySync(b, redis, RegistrationStore(engine))
        await a_sync.restore()
        await b_sync.restore()
        rebuilds: list[int] = []
        b.subscribe(lambda catalog: rebuilds.append(len(catalog.goals())))
        name = catalog_server.names[BOOTSTRAP]
        await a_sync.register(name, catalog_server.base_url(name))

        # five turns notice the change at once: one replay (one catalog rebuild, one retrain)
        await asyncio.gather(*(b_sync.sync() for _ in range(5)))
        assert b.get(name) is not None
        assert rebuilds == [10]
        await b_sync.sync()  # nothing new: nothing replayed
        assert rebuilds == [10]
    finally:
        await client.http.aclose()
        await redis.aclose()
        await engine.dispose()
