"""Scale-out and durability: two gateway processes on one PostgreSQL + Redis; SIGKILL recovery."""

from __future__ import annotations

import asyncio
import contextlib
import subprocess
import sys
from pathlib import Path

import httpx
import pytest

from tests.conftest import ROOT, Process, reserve_port, start_gateway, wait_http, write_bootstrap

pytestmark = pytest.mark.integration


async def say(client: httpx.AsyncClient, url: str, session: str, text: str) -> dict:
    response = await client.post(f"{url}/v1/runs", json={"input_text": text, "session_id": session})
    assert response.status_code == 200, response.text
    return response.json()


@pytest.mark.postgres
@pytest.mark.redis
async def test_two_gateways_share_sessions_locks_and_registry(
    tmp_path: Path, domain_processes: dict[str, Process], pg_database_url: str, redis_url: str
) -> None:
    bootstrap = write_bootstrap(tmp_path / "bootstrap.json", {n: p.url for n, p in domain_processes.items()})
    env = {
        "DATABASE_URL": pg_database_url,
        "REDIS_URL": redis_url,
        "BOOTSTRAP_FILE": str(bootstrap),
        "ADMIN_TOKEN": "admin-secret",
    }
    # every process is stopped however far the start-up got (a gateway that fails to start leaves
    # the one before it running otherwise)
    with contextlib.ExitStack() as stack:
        a = start_gateway(env)
        stack.callback(a.stop)
        b = start_gateway(env)
        stack.callback(b.stop)
        # the weather domain binds its port while both gateways are busy below: the port is held
        # for it (bound, not listening) until it answers, so no other process is given it meanwhile
        reserved = reserve_port()
        stack.callback(reserved.release)
        weather_port = reserved.port
        weather = subprocess.Popen(
            [
                sys.executable,
                str(ROOT / "tests" / "fixtures" / "weather_domain.py"),
                "--port",
                str(weather_port),
            ],
            cwd=ROOT,
        )
        stack.callback(weather.wait, timeout=10)
        stack.callback(weather.terminate)
        async with httpx.AsyncClient(timeout=30) as client:
            # a question asked through A is answered through B
            asked = await say(client, a.url, "shared-1", "qual o preço da Nordea?")
            assert asked["status"] == "waiting_input"
            answered = await say(client, b.url, "shared-1", "a sueca")
            assert answered["status"] == "completed"
            assert answered["steps"][0]["output"]["result"]["symbol"] == "NDA-SE.ST"

            # concurrent messages to one session across both gateways are serialised by the Redis lock
            texts = ["cotação da Vale", "cotação da Apple", "cotação da Nvidia", "cotação da Petrobras"]
            replies = await asyncio.gather(
                *(say(client, (a, b)[i % 2].url, "shared-2", t) for i, t in enumerate(texts))
            )
            assert sorted(r["event_id"] for r in replies) == ["evt-0002", "evt-0004", "evt-0006", "evt-0008"]
            view = (await client.get(f"{b.url}/v1/sessions/shared-2")).json()
            assert len(view["state"]["messages"]) == 8

            # a runtime registration on A is seen and routed by B
            wait_http(f"http://127.0.0.1:{weather_port}/health", proc=weather)
            reserved.release()
            registered = await client.post(
                f"{a.url}/v1/domains",
                json={"name": "weather", "base_url": f"http://127.0.0.1:{weather_port}"},
                headers={"Authorization": "Bearer admin-secret"},
            )
            assert registered.status_code == 201, registered.text
            names = {d["name"] for d in (await client.get(f"{b.url}/v1/domains")).json()["data"]}
            assert "weather" in names
            forecast = await say(client, b.url, "shared-3", "como está o tempo em Oslo?")
            assert forecast["steps"][0]["domain"] == "weather"


async def test_sessions_waiting_for_input_survive_a_sigkill(
    tmp_path: Path, domain_processes: dict[str, Process]
) -> None:
    bootstrap = write_bootstrap(tmp_path / "bootstrap.json", {n: p.url for n, p in domain_processes.items()})
    env = {
        "DATABASE_URL": f"sqlite+aiosqlite:///{tmp_path / 'durable.sqlite3'}",
        "BOOTSTRAP_FILE": str(bootstrap),
        "REDIS_URL": "",
    }
    sessions = [f"durable-{i}" for i in range(3)]
    gateway = start_gateway(env)
    async with httpx.AsyncClient(timeout=30) as client:
        try:
            for session in sessions:
                assert (await say(client, gateway.url, session, "qual o preço da Nordea?"))[
                    "status"
                ] == "waiting_input"
        finally:
            gateway.stop(sig="kill")
        assert gateway.proc.returncode == -9
        restarted = start_gateway(env)
        try:
            for session, reply, symbol in zip(
                sessions,
                ("a sueca", "a finlandesa", "NDA-SE.ST"),
                ("NDA-SE.ST", "NDA-FI.HE", "NDA-SE.ST"),
                strict=True,
            ):
                done = await say(client, restarted.url, session, reply)
                assert done["status"] == "completed", done["answer"]
                assert done["steps"][0]["output"]["result"]["symbol"] == symbol
        finally:
            restarted.stop()
